// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/spectral.h"

#include "core/random.h"
#include "graph/components.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Spectra/SymEigsShiftSolver.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

using Index = Eigen::Index;

constexpr Scalar kRelativeShift = Scalar(1e-8);
constexpr Scalar kLanczosTolerance = std::is_same_v<Scalar, float> ? Scalar(1e-5) : Scalar(1e-10);
constexpr Index kLanczosMaxRestarts = 1000;
constexpr std::uint64_t kStartSeed = 0x5eed5eedULL;
// The fixed start's weight next to a warm start: with 1e-4 the 20,000-sample solve of table 11
// (bench/RESULTS.md) took 33 products instead of 44, with 1e-6 22 (converged in the first
// Lanczos cycle). Float keeps it well above its rounding.
constexpr Scalar kWarmStartNoise = std::is_same_v<Scalar, float> ? Scalar(1e-3) : Scalar(1e-6);

SpectralEmbedding denseEigenpairs(const SparseMatrix& L, int c)
{
    const Index want = std::min<Index>(c + 1, L.rows());
    const Eigen::SelfAdjointEigenSolver<Matrix> solver(Matrix(L), Eigen::ComputeEigenvectors);
    const double n = double(L.rows());
    SpectralEmbedding out;
    out.F = solver.eigenvectors().leftCols(c);
    out.eigenvalues = solver.eigenvalues().head(want);
    out.flops = 9 * n * n * n;
    out.bytes = 4 * n * n * double(sizeof(Scalar));
    return out;
}

// Groups of connected components factorized apart (see DeflatedShiftInvert). A fixed number,
// not the thread count, so that the factors, and the result, do not depend on the threads.
constexpr int kComponentGroups = 4;

// y = P (L - sigma I)^{-1} P x, P x = x minus its mean over each connected component (the
// orthogonal projector onto the complement of the component indicators, the null space of L).
// L - sigma I with sigma < 0 is positive definite, so LDL^T applies. Spectra's operator concept.
// With several components L is block diagonal (no edge joins two components), so the solve
// splits: the components go into up to kComponentGroups groups of about equal size (largest
// first, each to the smallest group), and each group's diagonal block is factorized and solved
// on its own, the groups in parallel. A CF_OGL graph ends up with c components; at n = 20,000
// (10 components) the one serial LDL^T took 290 ms and each solve 8.5 ms.
class DeflatedShiftInvert {
public:
    using Scalar = facet::Scalar;

    DeflatedShiftInvert(const SparseMatrix& L, const Components& components)
        : m_L(L)
        , m_components(components)
        , m_size(std::size_t(components.count))
    {
        for (int label : components.labels)
            m_size[std::size_t(label)] += 1;
        groupComponents();
    }
    Index rows() const { return m_L.rows(); }
    Index cols() const { return m_L.cols(); }
    void set_shift(const Scalar& sigma)
    {
        const Index n = rows();
        SparseMatrix identity(n, n);
        identity.setIdentity();
        const SparseMatrix shifted = m_L - sigma * identity;
        const int groups = int(m_groups.size());
        std::vector<double> groupFlops(m_groups.size(), 0), groupNonZeros(m_groups.size(), 0);
        std::vector<char> ok(m_groups.size(), 0);
#pragma omp parallel for schedule(dynamic, 1) if (groups > 1)
        for (int g = 0; g < groups; ++g) {
            Group& group = m_groups[std::size_t(g)];
            if (groups == 1)
                group.factor->compute(shifted);
            else
                group.factor->compute(diagonalBlock(shifted, group.members));
            ok[std::size_t(g)] = group.factor->info() == Eigen::Success;
            if (!ok[std::size_t(g)])
                continue;
            // The factor's strictly lower entries per column (the diagonal is D, kept apart).
            const auto& factor = group.factor->matrixL().nestedExpression();
            groupNonZeros[std::size_t(g)] = double(factor.nonZeros());
            for (Index j = 0; j < factor.outerSize(); ++j) {
                const double below
                    = double(factor.outerIndexPtr()[j + 1] - factor.outerIndexPtr()[j]);
                groupFlops[std::size_t(g)] += below * below + 3 * below;
            }
        }
        if (std::find(ok.begin(), ok.end(), 0) != ok.end())
            throw std::runtime_error("LDL^T of the shifted Laplacian failed");
        m_factorNonZeros = 0;
        for (std::size_t g = 0; g < m_groups.size(); ++g) {
            m_factorNonZeros += groupNonZeros[g];
            flops += groupFlops[g];
        }
        bytes += double(shifted.nonZeros() + m_factorNonZeros) * double(sizeof(Scalar) + 8);
    }
    // The work of `products` applications of the operator with a Krylov subspace of ncv.
    void countProducts(double products, double ncv)
    {
        const double n = double(rows());
        flops += products * (4 * m_factorNonZeros + 5 * n + 4 * n * ncv);
        bytes += products
            * (2 * m_factorNonZeros * double(sizeof(Scalar) + 8)
                + (6 + 2 * ncv) * n * double(sizeof(Scalar)));
    }
    double flops = 0;
    double bytes = 0;
    void project(Scalar* x) const
    {
        std::vector<Scalar> mean(m_size.size(), Scalar(0));
        const Index n = rows();
        for (Index i = 0; i < n; ++i)
            mean[std::size_t(m_components.labels[std::size_t(i)])] += x[i];
        for (std::size_t k = 0; k < mean.size(); ++k)
            mean[k] /= Scalar(m_size[k]);
        for (Index i = 0; i < n; ++i)
            x[i] -= mean[std::size_t(m_components.labels[std::size_t(i)])];
    }
    void perform_op(const Scalar* xIn, Scalar* yOut) const
    {
        Vector x = Eigen::Map<const Vector>(xIn, rows());
        project(x.data());
        const int groups = int(m_groups.size());
        if (groups == 1) {
            Eigen::Map<Vector>(yOut, rows()) = m_groups[0].factor->solve(x);
        } else {
#pragma omp parallel for schedule(dynamic, 1)
            for (int g = 0; g < groups; ++g) {
                const Group& group = m_groups[std::size_t(g)];
                const Index size = Index(group.members.size());
                Vector local(size);
                for (Index i = 0; i < size; ++i)
                    local(i) = x(group.members[std::size_t(i)]);
                const Vector solved = group.factor->solve(local);
                for (Index i = 0; i < size; ++i)
                    yOut[group.members[std::size_t(i)]] = solved(i);
            }
        }
        project(yOut);
    }

private:
    struct Group {
        std::vector<Index> members; // increasing; empty for the single group of a connected L
        // Behind a pointer: Eigen's solvers can be neither copied nor moved.
        std::unique_ptr<Eigen::SimplicialLDLT<SparseMatrix>> factor
            = std::make_unique<Eigen::SimplicialLDLT<SparseMatrix>>();
    };

    void groupComponents()
    {
        const int count = m_components.count;
        const int groups = std::min(count, kComponentGroups);
        m_groups.resize(std::size_t(std::max(groups, 1)));
        if (groups <= 1)
            return;
        std::vector<int> order(static_cast<std::size_t>(count));
        for (int k = 0; k < count; ++k)
            order[std::size_t(k)] = k;
        std::stable_sort(order.begin(), order.end(),
            [&](int a, int b) { return m_size[std::size_t(a)] > m_size[std::size_t(b)]; });
        std::vector<Index> load(std::size_t(groups), 0);
        std::vector<int> groupOf(static_cast<std::size_t>(count));
        for (const int k : order) {
            const auto lightest = std::min_element(load.begin(), load.end()) - load.begin();
            groupOf[std::size_t(k)] = int(lightest);
            load[std::size_t(lightest)] += m_size[std::size_t(k)];
        }
        const Index n = rows();
        for (Index i = 0; i < n; ++i)
            m_groups[std::size_t(groupOf[std::size_t(m_components.labels[std::size_t(i)])])]
                .members.push_back(i);
    }

    // The principal submatrix of A on `members` (increasing), whole components. Only a stored
    // zero can join them to the rest (components are made of the positive entries); it is
    // left out.
    static SparseMatrix diagonalBlock(const SparseMatrix& A, const std::vector<Index>& members)
    {
        std::vector<Index> local(std::size_t(A.rows()), -1);
        for (std::size_t i = 0; i < members.size(); ++i)
            local[std::size_t(members[i])] = Index(i);
        std::vector<Eigen::Triplet<Scalar, Index>> entries;
        for (std::size_t j = 0; j < members.size(); ++j)
            for (SparseMatrix::InnerIterator it(A, members[j]); it; ++it)
                if (local[std::size_t(it.row())] >= 0)
                    entries.emplace_back(local[std::size_t(it.row())], Index(j), it.value());
        const Index size = Index(members.size());
        SparseMatrix block(size, size);
        block.setFromTriplets(entries.begin(), entries.end());
        return block;
    }

    const SparseMatrix& m_L;
    const Components& m_components;
    std::vector<Index> m_size; // members per component
    std::vector<Group> m_groups;
    double m_factorNonZeros = 0;
};

SpectralEmbedding failed(Index n, int c, Index want)
{
    const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
    SpectralEmbedding out;
    out.F = Matrix::Constant(n, c, nan);
    out.eigenvalues = Vector::Constant(want, nan);
    out.converged = false;
    return out;
}

} // namespace

SpectralEmbedding smallestEigenpairs(
    const SparseMatrix& L, int c, Index denseLimit, const Matrix* warmStart)
{
    const Index n = L.rows();
    if (L.cols() != n)
        throw std::invalid_argument("the Laplacian must be square, got " + std::to_string(n) + " x "
            + std::to_string(L.cols()));
    if (c < 1 || c > n)
        throw std::invalid_argument("the number of eigenvectors c must be in [1, n] = [1, "
            + std::to_string(n) + "], got " + std::to_string(c));
    if (n <= denseLimit)
        return denseEigenpairs(L, c);

    const Index want = std::min<Index>(c + 1, n);
    // The components of S = -offdiag(L), S > 0.
    const Components components = connectedComponents(SparseMatrix(-L));
    const Index r = components.count;
    // The first min(r, c) columns of F: the normalized indicators (eigenvalue 0).
    const Index nullColumns = std::min<Index>(r, c);
    SpectralEmbedding out;
    out.F = Matrix::Zero(n, c);
    {
        std::vector<Index> size(std::size_t(r), 0);
        for (int label : components.labels)
            size[std::size_t(label)] += 1;
        for (Index i = 0; i < n; ++i) {
            const Index label = components.labels[std::size_t(i)];
            if (label < nullColumns)
                out.F(i, label) = Scalar(1) / std::sqrt(Scalar(size[std::size_t(label)]));
        }
    }
    out.eigenvalues = Vector::Zero(want);
    if (r >= want)
        return out;

    const Index nev = want - r; // eigenpairs with lambda > 0 still needed
    const Index rank = n - r; // dimension of the complement of the null space
    if (2 * nev + 1 > rank) // hardly a sparse problem any more
        return denseEigenpairs(L, c);

    const Scalar maxDiagonal = Vector(L.diagonal()).maxCoeff();
    const Scalar sigma
        = -kRelativeShift * std::max(maxDiagonal, std::numeric_limits<Scalar>::min());
    DeflatedShiftInvert op(L, components);
    // A fixed start in the complement: the iteration, and so the result, is reproducible.
    Rng rng(kStartSeed);
    Vector start = (rng.uniformMatrix(n, 1).array() - Scalar(0.5)).matrix();
    op.project(start.data());
    if (warmStart != nullptr && warmStart->rows() == n && warmStart->cols() > 0
        && warmStart->allFinite()) {
        // The sum of the previous solve's eigenvectors, plus the fixed start at a small weight so
        // that no direction is missing from the Krylov space (see the header).
        Vector warm = warmStart->rowwise().sum();
        op.project(warm.data());
        const Scalar warmNorm = warm.norm(), startNorm = start.norm();
        if (warmNorm > 0 && startNorm > 0)
            start = warm / warmNorm + kWarmStartNoise * start / startNorm;
    }

    for (Index ncv = std::min(rank, std::max(2 * nev + 1, nev + 20));;
         ncv = std::min(rank, 2 * ncv)) {
        std::optional<Spectra::SymEigsShiftSolver<DeflatedShiftInvert>> solver;
        try {
            solver.emplace(op, nev, ncv, sigma); // factorizes L - sigma I
        } catch (const std::runtime_error&) {
            return failed(n, c, want); // non-finite L
        }
        solver->init(start.data());
        solver->compute(Spectra::SortRule::LargestMagn, kLanczosMaxRestarts, kLanczosTolerance,
            Spectra::SortRule::SmallestAlge);
        op.countProducts(double(solver->num_operations()), double(ncv));
        out.products += solver->num_operations();
        out.flops = op.flops;
        out.bytes = op.bytes;
        if (solver->info() == Spectra::CompInfo::Successful) {
            const Vector lambda = solver->eigenvalues(); // ascending, all > 0
            const Matrix vectors = solver->eigenvectors(nev);
            out.eigenvalues.tail(nev) = lambda;
            out.F.rightCols(c - nullColumns) = vectors.leftCols(c - nullColumns);
            out.solved = vectors;
            return out;
        }
        if (ncv == rank)
            return failed(n, c, want);
    }
}

} // namespace facet
