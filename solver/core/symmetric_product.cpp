// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/symmetric_product.h"

#include "core/openmp.h"
#include "core/packet_sum.h"

#include <algorithm>
#include <stdexcept>

namespace facet {

namespace {
using Index = Eigen::Index;
using Packet = Eigen::internal::packet_traits<double>::type;
constexpr Index kLanes = Eigen::internal::packet_traits<double>::size;
constexpr int kGroup = 4; // columns per pass over the rows below them
} // namespace

SymmetricLowerProduct::SymmetricLowerProduct(const Eigen::MatrixXd& lower)
    : m_lower(lower)
    , m_split(lower.rows())
{
    if (lower.rows() != lower.cols())
        throw std::invalid_argument("SymmetricLowerProduct: the matrix must be square");
    const Index p = lower.rows();
    if (p < kTwoPartsFrom)
        return;
    // Column j of the triangle holds p - j entries: the first part takes the columns whose
    // entries add up to half of p (p + 1) / 2, rounded to whole groups of columns.
    const double half = double(p) * double(p + 1) / 4;
    double entries = 0;
    Index j = 0;
    while (j + kGroup <= p && entries + double(p - j) * kGroup - 6 <= half) {
        entries += double(p - j) * kGroup - 6;
        j += kGroup;
    }
    m_split = j;
    m_parts.resize(p, 2);
}

// y = (the columns first..end of the lower triangle, and their mirror above the diagonal) x,
// over all rows of y.
void SymmetricLowerProduct::part(Index first, Index end, const double* x, double* y) const
{
    using Eigen::internal::ploadu;
    using Eigen::internal::pmadd;
    using Eigen::internal::pset1;
    using Eigen::internal::pstoreu;
    const Index p = m_lower.rows();
    const double* data = m_lower.data();
    std::fill(y, y + p, 0.0);
    Index j = first;
    for (; j + kGroup <= end; j += kGroup) {
        const double* c[kGroup];
        for (int a = 0; a < kGroup; ++a)
            c[a] = data + (j + a) * p;
        // The group's own 4 x 4 diagonal block: C(j + b, j + a) for b >= a, and its mirror.
        double t[kGroup];
        for (int a = 0; a < kGroup; ++a)
            t[a] = c[a][j + a] * x[j + a];
        for (int a = 0; a < kGroup; ++a)
            for (int b = a + 1; b < kGroup; ++b) {
                t[a] += c[a][j + b] * x[j + b];
                t[b] += c[a][j + b] * x[j + a];
            }
        // The rows below: y_i += sum_a C(i, j + a) x_(j + a), and t_a += C(i, j + a) x_i, with
        // one read of the four columns for both.
        Packet xa[kGroup];
        Packet ta[kGroup];
        for (int a = 0; a < kGroup; ++a) {
            xa[a] = pset1<Packet>(x[j + a]);
            ta[a] = pset1<Packet>(0.0);
        }
        Index i = j + kGroup;
        for (; i + kLanes <= p; i += kLanes) {
            Packet yi = ploadu<Packet>(y + i);
            const Packet xi = ploadu<Packet>(x + i);
            for (int a = 0; a < kGroup; ++a) {
                const Packet ca = ploadu<Packet>(c[a] + i);
                yi = pmadd(ca, xa[a], yi);
                ta[a] = pmadd(ca, xi, ta[a]);
            }
            pstoreu(y + i, yi);
        }
        for (int a = 0; a < kGroup; ++a)
            t[a] += sumOfLanes(ta[a]);
        for (; i < p; ++i) {
            double yi = y[i];
            for (int a = 0; a < kGroup; ++a) {
                yi += c[a][i] * x[j + a];
                t[a] += c[a][i] * x[i];
            }
            y[i] = yi;
        }
        for (int a = 0; a < kGroup; ++a)
            y[j + a] += t[a];
    }
    for (; j < end; ++j) { // the last 1-3 columns, one at a time
        const double* c = data + j * p;
        double t = c[j] * x[j];
        for (Index i = j + 1; i < p; ++i) {
            y[i] += c[i] * x[j];
            t += c[i] * x[i];
        }
        y[j] += t;
    }
}

void SymmetricLowerProduct::perform_op(const double* x_in, double* y_out) const
{
    const Index p = m_lower.rows();
    Eigen::Map<Eigen::VectorXd> y(y_out, p);
    const Eigen::Map<const Eigen::VectorXd> x(x_in, p);
    if (m_split == p) {
        y.noalias() = m_lower.selfadjointView<Eigen::Lower>() * x;
        return;
    }
    [[maybe_unused]] const int threads = std::min(2, omp::maxThreads());
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int t = 0; t < 2; ++t)
        part(t == 0 ? 0 : m_split, t == 0 ? m_split : p, x_in, m_parts.col(t).data());
    y = m_parts.col(0) + m_parts.col(1);
}

} // namespace facet
