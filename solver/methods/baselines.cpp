// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/baselines.h"

#include "core/update.h"
#include "methods/registry.h"

#include <Eigen/Eigenvalues>

#include <chrono>
#include <stdexcept>

namespace facet {

Factorization kmeansBaseline(MatrixCRef X, const KMeansOptions& options)
{
    requireFinite(X);
    const auto start = std::chrono::steady_clock::now();
    const KMeansResult km = kmeans(X, options);
    Factorization f;
    f.method = "kmeans";
    f.basis = km.centroids;
    f.V = Matrix::Zero(X.cols(), options.clusters);
    for (std::size_t i = 0; i < km.labels.size(); ++i)
        f.V(Eigen::Index(i), km.labels[i]) = 1;
    f.history = { km.objective };
    f.iterations = km.iterations;
    f.stopReason = StopReason::Converged;
    f.solveSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return f;
}

Factorization pcaBaseline(MatrixCRef X, int rank)
{
    requireFinite(X);
    const Eigen::Index m = X.rows();
    const Eigen::Index n = X.cols();
    if (rank < 1 || rank > std::min(m, n))
        throw std::invalid_argument("PCA rank must be in [1, min(m, n)] = [1, "
            + std::to_string(std::min(m, n)) + "], got " + std::to_string(rank));
    const auto start = std::chrono::steady_clock::now();
    const Vector mean = X.rowwise().mean();
    Matrix U(m, rank);
    if (m <= n) {
        // C = Xc Xc^T = X X^T - n mu mu^T (m x m), without forming Xc.
        Matrix C = X * X.transpose();
        C.noalias() -= double(n) * mean * mean.transpose();
        Eigen::SelfAdjointEigenSolver<Matrix> eig(C);
        U = eig.eigenvectors().rightCols(rank).rowwise().reverse();
    } else {
        // G = Xc^T Xc (n x n, n < m); u_j = Xc e_j / sqrt(lambda_j).
        Matrix G = X.transpose() * X;
        const Vector Xtmu = X.transpose() * mean;
        const double mumu = double(mean.squaredNorm());
        G.colwise() -= Xtmu;
        G.rowwise() -= Xtmu.transpose();
        G.array() += mumu;
        Eigen::SelfAdjointEigenSolver<Matrix> eig(G);
        const Matrix E = eig.eigenvectors().rightCols(rank).rowwise().reverse();
        U = X * E - mean * E.colwise().sum();
        for (Eigen::Index j = 0; j < rank; ++j) {
            const Scalar norm = U.col(j).norm();
            if (norm > 0)
                U.col(j) /= norm;
        }
    }
    for (Eigen::Index j = 0; j < rank; ++j) {
        Eigen::Index at = 0;
        U.col(j).cwiseAbs().maxCoeff(&at);
        if (U(at, j) < 0)
            U.col(j) = -U.col(j);
    }
    Factorization f;
    f.method = "pca";
    f.basis = U;
    // Scores of the centred samples: Xc^T U = X^T U - 1 (mu^T U).
    f.V = X.transpose() * U;
    f.V.rowwise() -= (mean.transpose() * U);
    f.iterations = 1;
    f.history = { double((X.colwise() - mean).squaredNorm() - f.V.squaredNorm()) };
    f.stopReason = StopReason::Converged;
    f.solveSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return f;
}

void appendBaselineMethods(std::vector<MethodEntry>& table)
{
    const auto noLoop = [](MatrixCRef, const MethodOptions&, MethodContext&) -> MethodFactory {
        throw std::invalid_argument("kmeans and pca are baselines without a factorization loop; "
                                    "run them through runAndCluster");
    };
    table.push_back({ { "kmeans", "k-means on the raw samples (baseline)",
                          "min sum_i ||x_i - c_(label i)||^2 (k-means++ seeding, replicates)",
                          false, false, false, true },
        noLoop });
    table.push_back({ { "pca", "PCA, then k-means on the scores (baseline)",
                          "max variance: k leading principal components, then k-means", false,
                          false, false, true },
        noLoop });
}

} // namespace facet
