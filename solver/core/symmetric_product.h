// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

namespace facet {

// y = C x for a symmetric C of which only the lower triangle is read, as a Spectra matrix
// operation (PCA's Lanczos, methods/baselines.cpp). Eigen's selfadjoint product runs on one
// thread and, for PCA's 1024 x 1024 covariance, reads its 4 MiB triangle from L3 in each of the
// about 50 products Lanczos needs. Here the triangle's columns are cut into two parts of equal
// size, each summed into its own vector on its own thread (column by column: the rows below a
// group of 4 columns add those columns times x into y and take their dot products with x, one
// read of the columns for both), and the two vectors are added in order. The parts do not depend
// on the number of threads, so neither do the bits. Measured on the Intel Xeon of
// bench/RESULTS.md section 20 (2 cores, medians of 7 runs in one process), one product, Eigen
// against the two parts: order 1024 0.216 -> 0.112 ms, 784 0.113 -> 0.057 ms, 512 0.030 ->
// 0.022 ms, 256 0.0068 -> 0.0063 ms, 128 0.0026 -> 0.0031 ms; so below kTwoPartsFrom it is
// Eigen's product.
class SymmetricLowerProduct {
public:
    using Scalar = double; // Spectra's name for the element type
    static constexpr Eigen::Index kTwoPartsFrom = 256;

    explicit SymmetricLowerProduct(const Eigen::MatrixXd& lower);

    Eigen::Index rows() const { return m_lower.rows(); }
    Eigen::Index cols() const { return m_lower.cols(); }
    // y_out = C x_in (Spectra's interface; both of length rows()).
    void perform_op(const double* x_in, double* y_out) const;

    // The first column of the second part (rows() when there is one part).
    Eigen::Index split() const { return m_split; }

private:
    void part(Eigen::Index first, Eigen::Index end, const double* x, double* y) const;

    const Eigen::MatrixXd& m_lower;
    Eigen::Index m_split;
    mutable Eigen::MatrixXd m_parts; // one column per part
};

} // namespace facet
