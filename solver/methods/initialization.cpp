// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/initialization.h"

#include "cluster/kmeans.h"
#include "methods/nmf.h"

#include <Eigen/Eigenvalues>
#include <Spectra/SymEigsSolver.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <type_traits>

namespace facet {
namespace {

// Symmetric operators up to this size are decomposed densely.
constexpr Eigen::Index kDenseEigenLimit = 500;

using Apply = std::function<Matrix(const Matrix&)>;

// The k leading eigenpairs of a symmetric positive semidefinite operator, descending; at most
// `size` of them.
struct Eigenpairs {
    Vector values;
    Matrix vectors; // size x k
};

// Spectra's matrix-free operator interface around `apply`.
class OperatorProduct {
public:
    using Scalar = facet::Scalar;
    OperatorProduct(const Apply& apply, Eigen::Index size)
        : m_apply(apply)
        , m_size(size)
    {
    }
    Eigen::Index rows() const { return m_size; }
    Eigen::Index cols() const { return m_size; }
    void perform_op(const Scalar* in, Scalar* out) const
    {
        const Matrix x = Eigen::Map<const Vector>(in, m_size);
        Eigen::Map<Vector>(out, m_size) = m_apply(x);
    }

private:
    const Apply& m_apply;
    Eigen::Index m_size;
};

Eigenpairs denseEigenpairs(const Apply& apply, Eigen::Index size, Eigen::Index k)
{
    Matrix M = apply(Matrix::Identity(size, size));
    M = (M + M.transpose()) / Scalar(2);
    const Eigen::SelfAdjointEigenSolver<Matrix> solver(M);
    Eigenpairs e { Vector(k), Matrix(size, k) };
    for (Eigen::Index j = 0; j < k; ++j) { // ascending order in the solver
        e.values(j) = solver.eigenvalues()(size - 1 - j);
        e.vectors.col(j) = solver.eigenvectors().col(size - 1 - j);
    }
    return e;
}

Eigenpairs topEigenpairs(const Apply& apply, Eigen::Index size, int rank)
{
    const Eigen::Index k = std::min<Eigen::Index>(rank, size);
    if (size <= kDenseEigenLimit || 2 * k + 1 >= size)
        return denseEigenpairs(apply, size, k);
    OperatorProduct op(apply, size);
    const Eigen::Index ncv = std::min<Eigen::Index>(size, std::max<Eigen::Index>(2 * k + 1, 20));
    Spectra::SymEigsSolver<OperatorProduct> solver(op, k, ncv);
    solver.init(); // Spectra's fixed-seed start vector: deterministic
    const Scalar tolerance = std::is_same_v<Scalar, float> ? Scalar(1e-5) : Scalar(1e-10);
    solver.compute(Spectra::SortRule::LargestAlge, 1000, tolerance);
    if (solver.info() != Spectra::CompInfo::Successful)
        throw std::invalid_argument("nndsvd: the eigensolver did not converge on this data; use "
                                    "another init (random, kmeans, nmf)");
    return { solver.eigenvalues(), solver.eigenvectors() };
}

// The k leading singular triplets of X (m x n) from the eigenpairs of the smaller of X^T X and
// X X^T: X^T X q = sigma^2 q and p = X q / sigma (or the other way round). sigma_j = 0 for
// the columns beyond the rank of X.
struct Singular {
    Vector sigma;
    Matrix P; // m x k
    Matrix Q; // n x k
};

Singular leadingSingular(MatrixCRef X, int rank)
{
    const bool samplesSide = X.cols() <= X.rows();
    const Eigenpairs e = samplesSide
        ? topEigenpairs(
            [&](const Matrix& M) { return Matrix(X.transpose() * (X * M)); }, X.cols(), rank)
        : topEigenpairs(
            [&](const Matrix& M) { return Matrix(X * (X.transpose() * M)); }, X.rows(), rank);
    Singular s { Vector::Zero(rank), Matrix::Zero(X.rows(), rank), Matrix::Zero(X.cols(), rank) };
    for (Eigen::Index j = 0; j < e.values.size(); ++j) {
        const Scalar sigma = std::sqrt(std::max(e.values(j), Scalar(0)));
        if (!(sigma > 0))
            continue;
        s.sigma(j) = sigma;
        if (samplesSide) {
            s.Q.col(j) = e.vectors.col(j);
            s.P.col(j) = X * e.vectors.col(j) / sigma;
        } else {
            s.P.col(j) = e.vectors.col(j);
            s.Q.col(j) = X.transpose() * e.vectors.col(j) / sigma;
        }
    }
    return s;
}

// Zero entries (never revived by a multiplicative rule) set to `fill`.
void fillZeros(Matrix& M, Scalar fill)
{
    if (!(fill > 0))
        fill = Scalar(1);
    M = (M.array() > 0).select(M, fill);
}

Matrix indicator(const std::vector<int>& labels, int rank)
{
    Matrix H = Matrix::Zero(Eigen::Index(labels.size()), rank);
    for (std::size_t i = 0; i < labels.size(); ++i)
        H(Eigen::Index(i), labels[i]) = 1;
    return H;
}

KMeansResult kmeansOnce(MatrixCRef X, int rank, Rng& rng)
{
    KMeansOptions options;
    options.clusters = rank;
    options.replicates = 1; // METHODS.md 0: one k-means run
    options.seed = rng.next();
    return kmeans(X, options);
}

} // namespace

std::string_view initName(InitKind kind)
{
    switch (kind) {
    case InitKind::Random:
        return "random";
    case InitKind::Nndsvd:
        return "nndsvd";
    case InitKind::Nmf:
        return "nmf";
    case InitKind::KMeans:
        return "kmeans";
    }
    return "unknown";
}

NmfStart nndsvdStart(MatrixCRef X, int rank)
{
    const Singular s = leadingSingular(X, rank);
    NmfStart start { Matrix::Zero(X.rows(), rank), Matrix::Zero(X.cols(), rank) };
    for (int j = 0; j < rank; ++j) {
        if (!(s.sigma(j) > 0))
            continue;
        const Vector pp = s.P.col(j).cwiseMax(Scalar(0));
        const Vector pn = (-s.P.col(j)).cwiseMax(Scalar(0));
        const Vector qp = s.Q.col(j).cwiseMax(Scalar(0));
        const Vector qn = (-s.Q.col(j)).cwiseMax(Scalar(0));
        const Scalar positive = pp.norm() * qp.norm();
        const Scalar negative = pn.norm() * qn.norm();
        const bool usePositive = positive >= negative;
        const Scalar part = usePositive ? positive : negative;
        if (!(part > 0))
            continue;
        const Scalar scale = std::sqrt(s.sigma(j) * part);
        const Vector& p = usePositive ? pp : pn;
        const Vector& q = usePositive ? qp : qn;
        start.U.col(j) = scale * p / p.norm();
        start.V.col(j) = scale * q / q.norm();
    }
    const Scalar mean = X.mean();
    fillZeros(start.U, mean);
    fillZeros(start.V, mean);
    return start;
}

CfStart nndsvdCfStart(MatrixCRef X, const Gram& gram, int rank)
{
    const Eigen::Index n = gram.size();
    Vector lambda = Vector::Zero(rank);
    Matrix Q = Matrix::Zero(n, rank);
    if (gram.isExplicit()) {
        const Eigenpairs e = topEigenpairs([&](const Matrix& M) { return gram.times(M); }, n, rank);
        lambda.head(e.values.size()) = e.values;
        Q.leftCols(e.vectors.cols()) = e.vectors;
    } else {
        // The implicit operator is the linear kernel of X: its eigenpairs are (sigma^2, q).
        const Singular s = leadingSingular(X, rank);
        lambda = s.sigma.cwiseAbs2();
        Q = s.Q;
    }
    CfStart start { Matrix::Zero(n, rank), Matrix::Zero(n, rank) };
    for (int j = 0; j < rank; ++j) {
        if (!(lambda(j) > 0))
            continue;
        const Vector qp = Q.col(j).cwiseMax(Scalar(0));
        const Vector qn = (-Q.col(j)).cwiseMax(Scalar(0));
        const Vector& part = qp.squaredNorm() >= qn.squaredNorm() ? qp : qn;
        const Scalar root = std::sqrt(lambda(j));
        start.V.col(j) = root * part; // A_j
        start.W.col(j) = part / root; // A_j / lambda_j
    }
    fillZeros(start.W, start.W.mean());
    fillZeros(start.V, start.V.mean());
    return start;
}

NmfStart kmeansStart(MatrixCRef X, int rank, Rng& rng)
{
    const KMeansResult km = kmeansOnce(X, rank, rng);
    Matrix V = indicator(km.labels, rank);
    V.array() += kKMeansCoefficientOffset;
    return { km.centroids.cwiseMax(Scalar(0)), std::move(V) };
}

CfStart kmeansCfStart(MatrixCRef X, int rank, Rng& rng)
{
    const KMeansResult km = kmeansOnce(X, rank, rng);
    const Matrix H = indicator(km.labels, rank);
    Matrix W = H;
    for (int j = 0; j < rank; ++j) {
        const Scalar size = H.col(j).sum();
        if (size > 0)
            W.col(j) /= size;
    }
    Matrix V = H;
    V.array() += kKMeansCoefficientOffset;
    return { std::move(W), std::move(V) };
}

NmfStart shortNmfStart(MatrixCRef X, int rank, Rng& rng)
{
    Nmf nmf(X, rank);
    nmf.initialize(rng);
    for (int t = 0; t < kShortNmfIterations; ++t)
        nmf.step();
    return { nmf.U(), nmf.V() };
}

CfStart nmfCfStart(MatrixCRef X, int rank, Rng& rng, const SampleDistribution& distribution)
{
    NmfStart nmf = shortNmfStart(X, rank, rng); // distributed too: Nmf reads the scope
    Matrix W = nmf.V;
    Matrix norms2(1, rank);
    for (int j = 0; j < rank; ++j)
        norms2(0, j) = W.col(j).squaredNorm(); // as before in one process, bit for bit
    sumOverSamples(distribution, norms2); // |V_j|^2 over every rank's samples
    for (int j = 0; j < rank; ++j) {
        const Scalar norm2 = norms2(0, j);
        if (norm2 > 0)
            W.col(j) /= norm2;
    }
    return { std::move(W), std::move(nmf.V) };
}

Matrix uniformRows(
    Rng& rng, Eigen::Index rows, Eigen::Index cols, std::initializer_list<SampleRange> keep)
{
    Eigen::Index end = 0, kept = 0;
    for (const SampleRange& r : keep) {
        if (r.first < end || r.count < 0 || r.first + r.count > rows)
            throw std::invalid_argument("uniformRows: ranges must be ordered, disjoint, in rows");
        end = r.first + r.count;
        kept += r.count;
    }
    Matrix M(kept, cols);
    for (Eigen::Index j = 0; j < cols; ++j) {
        Eigen::Index i = 0, out = 0;
        for (const SampleRange& r : keep) {
            for (; i < r.first; ++i)
                (void)rng.uniform();
            for (; i < r.first + r.count; ++i)
                M(out++, j) = Scalar(rng.uniform());
        }
        for (; i < rows; ++i)
            (void)rng.uniform();
    }
    return M;
}

Matrix uniformSampleRows(
    Rng& rng, const SampleDistribution& distribution, Eigen::Index localRows, Eigen::Index cols)
{
    if (!distribution.active())
        return rng.uniformMatrix(localRows, cols);
    return uniformRows(
        rng, distribution.totalSamples, cols, { { distribution.firstSample, localRows } });
}

namespace {

void requireDistributedStart(InitKind kind, const SampleDistribution& distribution, bool nmfToo)
{
    if (distribution.active() && kind != InitKind::Random && !(nmfToo && kind == InitKind::Nmf))
        throw std::invalid_argument("the " + std::string(initName(kind))
            + " start is not computed distributed; use the random start"
            + (nmfToo ? " or the nmf start" : ""));
}

} // namespace

NmfStart nmfFamilyStart(
    InitKind kind, MatrixCRef X, int rank, Rng& rng, const SampleDistribution& distribution)
{
    requireDistributedStart(kind, distribution, true);
    if (distribution.active() && kind == InitKind::Random) {
        Matrix U = rng.uniformMatrix(X.rows(), rank);
        Matrix V = uniformSampleRows(rng, distribution, X.cols(), rank);
        return { std::move(U), std::move(V) };
    }
    switch (kind) {
    case InitKind::Nndsvd:
        return nndsvdStart(X, rank);
    case InitKind::Nmf:
        return shortNmfStart(X, rank, rng);
    case InitKind::KMeans:
        return kmeansStart(X, rank, rng);
    case InitKind::Random:
        break;
    }
    Matrix U = rng.uniformMatrix(X.rows(), rank);
    Matrix V = rng.uniformMatrix(X.cols(), rank);
    return { std::move(U), std::move(V) };
}

CfStart cfFamilyStart(InitKind kind, MatrixCRef X, const Gram& gram, int rank, Rng& rng,
    const SampleDistribution& distribution)
{
    requireDistributedStart(kind, distribution, true);
    if (distribution.active() && kind == InitKind::Random) {
        Matrix W = uniformSampleRows(rng, distribution, X.cols(), rank);
        Matrix V = uniformSampleRows(rng, distribution, X.cols(), rank);
        return { std::move(W), std::move(V) };
    }
    switch (kind) {
    case InitKind::Nndsvd:
        return nndsvdCfStart(X, gram, rank);
    case InitKind::Nmf:
        return nmfCfStart(X, rank, rng, distribution);
    case InitKind::KMeans:
        return kmeansCfStart(X, rank, rng);
    case InitKind::Random:
        break;
    }
    Matrix W = rng.uniformMatrix(gram.size(), rank);
    Matrix V = rng.uniformMatrix(gram.size(), rank);
    return { std::move(W), std::move(V) };
}

} // namespace facet
