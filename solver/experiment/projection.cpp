// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/projection.h"

#include <Eigen/Cholesky>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace facet {

namespace {

// METHODS.md section 0: the floor of a multiplicative rule's denominator, per precision.
constexpr Scalar kFloor = sizeof(Scalar) == sizeof(double) ? Scalar(1e-10) : Scalar(1e-6);

Vector nearestCentroidIndicator(
    const Matrix& centroids, const Eigen::Ref<const Vector>& x, int& best)
{
    best = 0;
    Scalar bestDistance = std::numeric_limits<Scalar>::infinity();
    for (Eigen::Index j = 0; j < centroids.cols(); ++j) {
        const Scalar d = (centroids.col(j) - x).squaredNorm();
        if (d < bestDistance) {
            bestDistance = d;
            best = int(j);
        }
    }
    Vector v = Vector::Zero(centroids.cols());
    v(best) = 1;
    return v;
}

// min_{v >= 0} ||x - U v||^2 exactly, by the active-set method of Lawson & Hanson on the k x k
// normal equations (G = U^T U, b = U^T x): multiplicative steps reach zero coefficients only
// asymptotically, and k is small, so the exact minimizer is cheaper than a close approximation.
// Each outer iteration frees the coefficient with the largest gradient b - G v and moves towards
// the unconstrained minimizer on the free set as far as feasibility allows; the residual never
// increases. Works for any signs of U and x.
void nonNegativeLeastSquares(const Matrix& U, const Eigen::Ref<const Vector>& x,
    const ProjectionOptions& options, Projection& out)
{
    const Eigen::Index k = U.cols();
    const Matrix G = U.transpose() * U; // k x k
    const Vector b = U.transpose() * x; // k
    const Scalar xx = x.squaredNorm();
    // ||x - U v||^2 = x^T x - 2 b^T v + v^T G v, without forming U v.
    const auto residual
        = [&](const Vector& v) { return std::max(0.0, double(xx - 2 * b.dot(v) + v.dot(G * v))); };
    const Scalar tolerance
        = Scalar(options.tolerance) * std::max(Scalar(1), b.cwiseAbs().maxCoeff());

    Vector v = Vector::Zero(k);
    std::vector<bool> free(std::size_t(k), false);
    const auto solveFree = [&](const std::vector<bool>& set) {
        std::vector<Eigen::Index> index;
        for (Eigen::Index j = 0; j < k; ++j)
            if (set[std::size_t(j)])
                index.push_back(j);
        Matrix Gf(index.size(), index.size());
        Vector bf(index.size());
        for (std::size_t a = 0; a < index.size(); ++a) {
            bf(Eigen::Index(a)) = b(index[a]);
            for (std::size_t c = 0; c < index.size(); ++c)
                Gf(Eigen::Index(a), Eigen::Index(c)) = G(index[a], index[c]);
        }
        const Vector zf = Gf.ldlt().solve(bf);
        Vector z = Vector::Zero(k);
        for (std::size_t a = 0; a < index.size(); ++a)
            z(index[a]) = zf(Eigen::Index(a));
        return z;
    };
    for (out.iterations = 0; out.iterations < options.maxIterations; ++out.iterations) {
        const Vector gradient = b - G * v;
        Eigen::Index entering = -1;
        Scalar largest = tolerance;
        for (Eigen::Index j = 0; j < k; ++j)
            if (!free[std::size_t(j)] && gradient(j) > largest) {
                largest = gradient(j);
                entering = j;
            }
        if (entering < 0)
            break; // the KKT conditions hold
        free[std::size_t(entering)] = true;
        for (int inner = 0; inner <= k; ++inner) {
            const Vector z = solveFree(free);
            bool feasible = true;
            Scalar alpha = 1;
            for (Eigen::Index j = 0; j < k; ++j)
                if (free[std::size_t(j)] && z(j) <= 0) {
                    feasible = false;
                    alpha = std::min(alpha, v(j) / std::max(v(j) - z(j), kFloor));
                }
            if (feasible) {
                v = z;
                break;
            }
            v += alpha * (z - v);
            for (Eigen::Index j = 0; j < k; ++j)
                if (free[std::size_t(j)] && v(j) <= kFloor) {
                    free[std::size_t(j)] = false;
                    v(j) = 0;
                }
        }
        out.residuals.push_back(residual(v));
    }
    out.v = std::move(v);
    out.reconstruction = U * out.v;
}

// Nearest centroid, in V's space, of the training rows of each cluster.
int nearestCluster(const Matrix& V, const std::vector<int>& predicted, const Vector& v,
    const ClusterOptions& cluster)
{
    if (cluster.mode == ClusterMode::ArgMax) {
        Eigen::Index j = 0;
        v.maxCoeff(&j);
        return int(j);
    }
    const auto normalized = [&](RowVector row) {
        if (cluster.cosine && row.norm() > 0)
            row.normalize();
        return row;
    };
    int clusters = 0;
    for (int p : predicted)
        clusters = std::max(clusters, p + 1);
    Matrix centroids = Matrix::Zero(clusters, V.cols());
    std::vector<int> counts(std::size_t(clusters), 0);
    for (std::size_t i = 0; i < predicted.size(); ++i) {
        if (predicted[i] < 0)
            continue;
        centroids.row(predicted[i]) += normalized(V.row(Eigen::Index(i)));
        ++counts[std::size_t(predicted[i])];
    }
    const RowVector query = normalized(v.transpose());
    int best = -1;
    Scalar bestDistance = std::numeric_limits<Scalar>::infinity();
    for (int c = 0; c < clusters; ++c) {
        if (counts[std::size_t(c)] == 0)
            continue;
        const Scalar d = (centroids.row(c) / Scalar(counts[std::size_t(c)]) - query).squaredNorm();
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    return best;
}

} // namespace

Projection projectSample(const Factorization& f, const RunOptions& options, MatrixCRef X,
    const std::vector<int>& predicted, const Eigen::Ref<const Vector>& x,
    const ProjectionOptions& projection)
{
    if (x.size() != f.basis.rows() || X.rows() != f.basis.rows())
        throw std::invalid_argument("the new sample has " + std::to_string(x.size())
            + " values, the factorization's basis " + std::to_string(f.basis.rows()));
    if (!x.allFinite())
        throw std::invalid_argument("the new sample has a NaN or infinite value");
    if (Eigen::Index(predicted.size()) != f.V.rows())
        throw std::invalid_argument("one cluster per training sample is needed");
    if (options.params.kernel != KernelKind::Linear)
        throw std::invalid_argument("a non-linear kernel's basis lives in its feature space, not "
                                    "in the images' space: new samples cannot be projected");
    const Scalar norm = x.norm();
    Projection out;
    if (f.method == "kmeans") {
        out.v = nearestCentroidIndicator(f.basis, x, out.cluster);
        out.reconstruction = f.basis.col(out.cluster);
    } else if (f.method == "pca") {
        const Vector mean = X.rowwise().mean();
        out.v = f.basis.transpose() * (x - mean);
        out.reconstruction = mean + f.basis * out.v;
        out.cluster = nearestCluster(f.V, predicted, out.v, options.cluster);
    } else {
        nonNegativeLeastSquares(f.basis, x, projection, out);
        out.cluster = nearestCluster(f.V, predicted, out.v, options.cluster);
    }
    out.relativeError = norm > 0 ? double((x - out.reconstruction).norm() / norm) : 0.0;
    return out;
}

} // namespace facet
