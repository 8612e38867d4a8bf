// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/spectral.h"

#include "core/random.h"
#include "graph/components.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Spectra/SymEigsShiftSolver.h>

#include <algorithm>
#include <array>
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
    out.path = SpectralEmbedding::Path::Dense;
    return out;
}

// Groups of connected components factorized apart (see DeflatedShiftInvert). A fixed number,
// not the thread count, so that the factors, and the result, do not depend on the threads.
constexpr int kComponentGroups = 4;

// P on each column of an n x b block Y: the column minus its mean over each connected component,
// the orthogonal projector onto the complement of the component indicators (L's null space).
// size[k] is component k's number of members. For the shift-invert operator's vectors and the
// filtered iteration's blocks alike.
template <typename Block>
void subtractComponentMeans(
    Block&& Y, const Components& components, const std::vector<Eigen::Index>& size)
{
    const Eigen::Index n = Y.rows();
    Matrix mean = Matrix::Zero(Eigen::Index(size.size()), Y.cols());
    for (Eigen::Index i = 0; i < n; ++i)
        mean.row(components.labels[std::size_t(i)]) += Y.row(i);
    for (std::size_t k = 0; k < size.size(); ++k)
        mean.row(Eigen::Index(k)) /= Scalar(size[k]);
    for (Eigen::Index i = 0; i < n; ++i)
        Y.row(i) -= mean.row(components.labels[std::size_t(i)]);
}

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

    // size[k]: component k's number of members.
    DeflatedShiftInvert(
        const SparseMatrix& L, const Components& components, const std::vector<Index>& size)
        : m_L(L)
        , m_components(components)
        , m_size(size)
    {
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
        subtractComponentMeans(Eigen::Map<Vector>(x, rows()), m_components, m_size);
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
    const std::vector<Index>& m_size; // members per component
    std::vector<Group> m_groups;
    double m_factorNonZeros = 0;
};

// ---- Chebyshev-filtered subspace iteration (Zhou & Saad, "Self-consistent-field calculations
// using Chebyshev-filtered subspace iteration", J. Comput. Phys. 219, 2006; the scaled filter of
// Zhou, Saad, Tiago & Chelikowsky 2006, and Zhou & Saad, SIAM J. Matrix Anal. Appl. 29, 2007).
//
// Wanted: the nev smallest eigenpairs of L on the complement of its null space (the component
// indicators, removed by the projector P of DeflatedShiftInvert). A block Y of b >= nev + 4
// orthonormal vectors is multiplied by p(L), p the degree-d Chebyshev polynomial of the first kind
// mapped to [a, u]: |p| <= 1 on [a, u] and p grows like cosh(d acosh(1 + 2 (a - x) / (u - a)))
// below a, so the directions of eigenvalues below a gain on the rest. u >= lambda_max(L) is
// Gershgorin's bound max_i sum_j |L_ij| = 2 max degree; a = the largest Ritz value of the block,
// which moves down to lambda_{b+1} as Y converges. The three-term recurrence
//   Y_{j+1} = (2 s_{j+1} / e) (L - c I) Y_j - s_j s_{j+1} Y_{j-1},
//   e = (u - a)/2, c = (u + a)/2, s_1 = e / (a0 - c), s_{j+1} = 1 / (2 / s_1 - s_j),
// is the scaled form that keeps p(a0) = 1 at a0 = the smallest Ritz value (no overflow). Each
// filter is followed by P (L maps the complement into itself, so P only removes rounding) and a
// Rayleigh-Ritz step: Y orthonormalized (Cholesky QR, twice), H = Y^T L Y, its eigenvectors Z,
// Y <- Y Z. The first nev columns have converged when ||L y - theta y|| <= tol u each; the
// Ritz values' error is then at most ||r||^2 / gap (a Rayleigh quotient), far below the
// 1e-10 that the beta rule compares with.
//
// Why not the shift-invert Lanczos on large graphs: its LDL^T of a kNN Laplacian fills in (the
// graph is an expander more than a mesh), and the simplicial factorization and its triangular
// solves are serial. Measured on CF_OGL's learned graphs, each solve warm-started from the
// previous outer iteration's vectors, both solvers in one process: MNIST-4000 (one component, 10
// pairs) 101 ms shift-invert against 47 ms filtered (15-19 ms in a quieter period); n = 20,000
// (10 components, 1 pair) 320 against 69 ms (26-43 ms). On small graphs the factorization is
// cheap and the clustered small eigenvalues need many filters: COIL-20 (n = 1,440) 4.5 against
// 38 ms, ORL (n = 400) 8.6 against 20 ms. So this path runs from n = kChebyshevMinNodes on, and
// hands over to the shift-invert solve when it has not converged after kChebyshevMaxFilters
// filters. Degrees 10, 20, 30, 40, 60 took 251, 201, 181, 201, 241 products on MNIST-4000; 20
// was as fast as any within the host's noise.

constexpr Index kChebyshevDegree = 20;
constexpr int kChebyshevMaxFilters = 40;
constexpr Scalar kChebyshevTolerance = std::is_same_v<Scalar, float> ? Scalar(2e-5) : Scalar(1e-9);
// Columns of the block beyond nev: at least this many, rounded up to whole packets (the filter's
// kernel works on packets of the block's rows, so the rounding costs nothing).
constexpr Index kChebyshevGuard = 4;

using Packet = Eigen::internal::packet_traits<Scalar>::type;
constexpr Index kLanes = Eigen::internal::packet_traits<Scalar>::size;
using BlockMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out_i = alpha (L y1)_i + beta (y1)_i + gamma (y0)_i on the packet columns [g0, g0 + G kLanes)
// of the row-major n x w blocks (y0 may be null; out may be y0). L is symmetric, so its column i
// is its row i. Rows in parallel, each row's sum in the order of its stored entries: the same
// bits on any number of threads.
template <int G>
void chebyshevColumns(const SparseMatrix& L, const Scalar* y1, const Scalar* y0, Scalar* out,
    Index w, Index g0, Scalar alpha, Scalar beta, Scalar gamma)
{
    using namespace Eigen::internal;
    const Index n = L.rows();
    const auto* outer = L.outerIndexPtr();
    const auto* inner = L.innerIndexPtr();
    const Scalar* values = L.valuePtr();
    const Packet pa = pset1<Packet>(alpha), pb = pset1<Packet>(beta), pg = pset1<Packet>(gamma);
#pragma omp parallel for schedule(static) if (double(L.nonZeros()) * double(w) >= 1e5)
    for (Index i = 0; i < n; ++i) {
        Packet acc[G];
        for (int g = 0; g < G; ++g)
            acc[g] = pset1<Packet>(Scalar(0));
        for (Index e = outer[i]; e < outer[i + 1]; ++e) {
            const Packet v = pset1<Packet>(values[e]);
            const Scalar* row = y1 + Index(inner[e]) * w + g0;
            for (int g = 0; g < G; ++g)
                acc[g] = pmadd(v, ploadu<Packet>(row + g * kLanes), acc[g]);
        }
        const Scalar* own = y1 + i * w + g0;
        for (int g = 0; g < G; ++g) {
            Packet r = pmadd(pa, acc[g], pmul(pb, ploadu<Packet>(own + g * kLanes)));
            if (y0 != nullptr)
                r = pmadd(pg, ploadu<Packet>(y0 + i * w + g0 + g * kLanes), r);
            pstoreu(out + i * w + g0 + g * kLanes, r);
        }
    }
}

// out = alpha L y1 + beta y1 + gamma y0 for whole blocks (w a multiple of kLanes), up to four
// packets of columns per sweep over L.
void chebyshevStep(const SparseMatrix& L, const BlockMatrix& y1, const BlockMatrix* y0,
    BlockMatrix& out, Scalar alpha, Scalar beta, Scalar gamma)
{
    const Index w = y1.cols();
    const Scalar* first = y0 != nullptr ? y0->data() : nullptr;
    for (Index g0 = 0; g0 < w; g0 += 4 * kLanes) {
        switch (std::min<Index>((w - g0) / kLanes, 4)) {
        case 1:
            chebyshevColumns<1>(L, y1.data(), first, out.data(), w, g0, alpha, beta, gamma);
            break;
        case 2:
            chebyshevColumns<2>(L, y1.data(), first, out.data(), w, g0, alpha, beta, gamma);
            break;
        case 3:
            chebyshevColumns<3>(L, y1.data(), first, out.data(), w, g0, alpha, beta, gamma);
            break;
        default:
            chebyshevColumns<4>(L, y1.data(), first, out.data(), w, g0, alpha, beta, gamma);
            break;
        }
    }
}

// The small dense algebra of a Rayleigh-Ritz step on an n x b block, with its buffers kept from
// one step to the next: fresh n x b temporaries cost a page fault per 4 KiB, several times the
// arithmetic at n = 4,000, b = 16 (measured 290 against 37 us for Y Z).
class BlockAlgebra {
public:
    BlockAlgebra(Index n, Index b)
        : m_scratch(n, b)
    {
        for (Matrix& part : m_parts)
            part.resize(b, b);
    }
    // H = A^T B, summed over kParts fixed row ranges in parallel and added in order: the same bits
    // on any number of threads. Eigen's product for one b x b result over depth n runs on one
    // thread; the parts take 23 against 30 us at n = 4,000 and 44 against 87 at n = 20,000.
    void transposedProduct(const BlockMatrix& A, const BlockMatrix& B, Matrix& H)
    {
        const Index n = A.rows();
#pragma omp parallel for schedule(static) if (double(n) * double(A.cols()) >= 2e4)
        for (int p = 0; p < kParts; ++p) {
            const Index first = n * p / kParts, last = n * (p + 1) / kParts;
            m_parts[std::size_t(p)].noalias()
                = A.middleRows(first, last - first).transpose() * B.middleRows(first, last - first);
        }
        H = m_parts[0];
        for (int p = 1; p < kParts; ++p)
            H += m_parts[std::size_t(p)];
    }
    // Y <- Y M.
    void rotate(BlockMatrix& Y, const Matrix& M)
    {
        m_scratch.noalias() = Y * M;
        Y.swap(m_scratch);
    }
    // Y <- Y R^{-1} with Y^T Y = R^T R (Cholesky QR). False when Y^T Y is not numerically
    // positive definite (the block lost rank).
    bool choleskyOrthonormalize(BlockMatrix& Y)
    {
        transposedProduct(Y, Y, m_gram);
        const Eigen::LLT<Matrix> llt(m_gram);
        if (llt.info() != Eigen::Success)
            return false;
        const Matrix R = llt.matrixU();
        const Scalar smallest = R.diagonal().cwiseAbs().minCoeff();
        // diag(R) bounds cond(Y) from below; CholeskyQR2 is accurate while cond(Y) is well below
        // eps^(-1/2), so the block goes to Householder from eps^(-1/3) (1.7e5 double, 200 float).
        if (!(smallest > std::cbrt(std::numeric_limits<Scalar>::epsilon())
                    * R.diagonal().cwiseAbs().maxCoeff()))
            return false;
        rotate(Y, R.triangularView<Eigen::Upper>().solve(Matrix::Identity(R.rows(), R.cols())));
        return true;
    }
    void orthonormalize(BlockMatrix& Y)
    {
        // Cholesky QR twice (CholeskyQR2, Fukaya et al. 2014): two b x b Gram matrices and two
        // products instead of Householder's reflections.
        if (choleskyOrthonormalize(Y) && choleskyOrthonormalize(Y))
            return;
        const Eigen::HouseholderQR<BlockMatrix> qr(Y);
        m_scratch.noalias() = qr.householderQ() * Matrix::Identity(Y.rows(), Y.cols());
        Y.swap(m_scratch);
    }

private:
    static constexpr int kParts = 4;
    BlockMatrix m_scratch;
    std::array<Matrix, kParts> m_parts;
    Matrix m_gram;
};

// Gershgorin's bound on lambda_max(L): max_i sum_j |L_ij| (2 max degree for a Laplacian).
Scalar gershgorinBound(const SparseMatrix& L)
{
    Scalar bound = 0;
    for (Index i = 0; i < L.outerSize(); ++i) {
        Scalar row = 0;
        for (SparseMatrix::InnerIterator it(L, i); it; ++it)
            row += std::abs(it.value());
        bound = std::max(bound, row);
    }
    return bound;
}

// An upper bound of lambda_max(L) for the filter: k steps of Lanczos from a fixed start,
// lambda_max(T_k) + |beta_k| (Zhou & Li, "Bounding the spectrum of large Hermitian matrices",
// Linear Algebra Appl. 435, 2011: an upper bound in practice for k of 10 or more), never above
// Gershgorin's bound g, which always holds. On CF_OGL's graphs lambda_max is 0.54-0.58 g
// (MNIST-4000: 2.69 against 4.97), and the filter's rate goes with sqrt((a - lambda) / (u - a)),
// so a tight u saves about a quarter of the products. Should a Ritz value ever exceed u, the
// iteration switches to g.
struct LanczosBound {
    Scalar upper = 0;
    double flops = 0;
    double bytes = 0;
};

LanczosBound lanczosUpperBound(const SparseMatrix& L, Scalar gershgorin)
{
    constexpr int kSteps = 16;
    const Index n = L.rows();
    LanczosBound out;
    Rng rng(kStartSeed + 1);
    Vector v = (rng.uniformMatrix(n, 1).array() - Scalar(0.5)).matrix();
    v.normalize();
    Vector previous = Vector::Zero(n), w(n);
    std::vector<Scalar> alpha, beta;
    Scalar lastBeta = 0;
    for (int j = 0; j < kSteps; ++j) {
        // w = L v, rows in parallel (L is symmetric: column i is row i), each row's sum in the
        // order of its entries. Eigen's sparse product runs on one thread: 16 of them took a
        // quarter of the solve at n = 20,000.
#pragma omp parallel for schedule(static) if (L.nonZeros() >= 100000)
        for (Index i = 0; i < n; ++i) {
            Scalar sum = 0;
            for (SparseMatrix::InnerIterator it(L, i); it; ++it)
                sum += it.value() * v(it.index());
            w(i) = sum;
        }
        const Scalar a = w.dot(v);
        w -= a * v + lastBeta * previous;
        alpha.push_back(a);
        lastBeta = w.norm();
        out.flops += 2 * double(L.nonZeros()) + 10 * double(n);
        out.bytes
            += double(L.nonZeros()) * double(sizeof(Scalar) + 8) + 6 * double(n) * sizeof(Scalar);
        if (!(lastBeta > std::numeric_limits<Scalar>::epsilon() * gershgorin))
            break; // an invariant subspace: T's eigenvalues are L's
        beta.push_back(lastBeta);
        previous.swap(v);
        v = w / lastBeta;
    }
    const Index k = Index(alpha.size());
    Matrix T = Matrix::Zero(k, k);
    for (Index j = 0; j < k; ++j) {
        T(j, j) = alpha[std::size_t(j)];
        if (j + 1 < k)
            T(j, j + 1) = T(j + 1, j) = beta[std::size_t(j)];
    }
    const Scalar largest
        = Eigen::SelfAdjointEigenSolver<Matrix>(T, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    const Scalar bound = largest + std::abs(lastBeta);
    out.upper = std::isfinite(double(bound)) ? std::min(bound, gershgorin) : gershgorin;
    return out;
}

struct ChebyshevOutcome {
    bool converged = false;
    Vector eigenvalues; // nev, ascending
    Matrix vectors; // n x nev
    Index products = 0; // block products with L
    double flops = 0;
    double bytes = 0;
};

ChebyshevOutcome chebyshevEigenpairs(const SparseMatrix& L, Index nev, const Matrix* warmStart,
    const Components& components, const std::vector<Index>& size)
{
    const auto project = [&](BlockMatrix& Y) { subtractComponentMeans(Y, components, size); };
    const Index n = L.rows();
    const Index b = std::min(n, (nev + kChebyshevGuard + kLanes - 1) / kLanes * kLanes);
    ChebyshevOutcome out;
    const Scalar gershgorin = gershgorinBound(L);
    if (!std::isfinite(double(gershgorin)) || b % kLanes != 0)
        return out;
    const double s = double(sizeof(Scalar)), nnz = double(L.nonZeros()), nd = double(n),
                 bd = double(b);
    const LanczosBound bound = lanczosUpperBound(L, gershgorin);
    out.flops += bound.flops;
    out.bytes += bound.bytes;
    Scalar upper = bound.upper;
    // Per block product: 2 nnz b for L and 5 n b for the recurrence; L's values and 8-byte indices
    // once and three n x b blocks. Per Rayleigh-Ritz step (after the product with L): Cholesky QR
    // twice 8 n b^2, Y^T L Y 2 n b^2, the rotations 4 n b^2, the residuals 3 n b and the
    // projection 2 n b; 16 passes over an n x b block.
    const auto countProduct = [&] {
        ++out.products;
        out.flops += 2 * nnz * bd + 5 * nd * bd;
        out.bytes += nnz * (s + 8) + 3 * nd * bd * s;
    };
    const auto countRitz = [&] {
        out.flops += 14 * nd * bd * bd + 5 * nd * bd;
        out.bytes += 16 * nd * bd * s;
    };

    // The start: the warm vectors first, then a fixed pseudo-random block (reproducible).
    BlockMatrix Y(n, b);
    {
        Rng rng(kStartSeed);
        Y = (rng.uniformMatrix(n, b).array() - Scalar(0.5)).matrix();
    }
    if (warmStart != nullptr && warmStart->rows() == n && warmStart->allFinite())
        for (Index q = 0; q < std::min(b, warmStart->cols()); ++q)
            Y.col(q) = warmStart->col(q);
    project(Y);
    BlockMatrix LY(n, b), previous(n, b), current(n, b);
    BlockAlgebra algebra(n, b);
    Vector theta;
    Matrix H(b, b);
    for (int filters = 0;; ++filters) {
        algebra.orthonormalize(Y);
        chebyshevStep(L, Y, nullptr, LY, Scalar(1), Scalar(0), Scalar(0));
        countProduct();
        algebra.transposedProduct(Y, LY, H);
        H = (H + H.transpose()).eval() / Scalar(2);
        const Eigen::SelfAdjointEigenSolver<Matrix> ritz(H);
        if (ritz.info() != Eigen::Success)
            return out;
        theta = ritz.eigenvalues();
        algebra.rotate(Y, ritz.eigenvectors());
        algebra.rotate(LY, ritz.eigenvectors());
        countRitz();
        // The residual norms of the first nev Ritz pairs.
        Vector residual = Vector::Zero(b);
        for (Index i = 0; i < n; ++i)
            residual
                += (LY.row(i) - Y.row(i).cwiseProduct(theta.transpose())).cwiseAbs2().transpose();
        if (!residual.allFinite())
            return out;
        if (residual.head(nev).maxCoeff() <= Scalar(kChebyshevTolerance * gershgorin)
                * Scalar(kChebyshevTolerance * gershgorin)) {
            out.converged = true;
            out.eigenvalues = theta.head(nev);
            out.vectors = Y.leftCols(nev);
            return out;
        }
        if (filters == kChebyshevMaxFilters)
            return out;
        // The filter on [a, upper], normalized at a0.
        // A Ritz value above the Lanczos bound shows that the bound was not one: from then on
        // Gershgorin's, which is.
        if (theta(b - 1) >= upper)
            upper = gershgorin;
        const Scalar a = theta(b - 1), a0 = theta(0);
        if (!(a < upper) || !(a0 < a))
            return out;
        const Scalar e = (upper - a) / 2, centre = (upper + a) / 2;
        Scalar sigma = e / (a0 - centre);
        const Scalar tau = 2 / sigma;
        // Degree 1 from the product already made: (L Y - centre Y) sigma / e.
        current = (LY - centre * Y) * (sigma / e);
        previous = Y;
        for (Index j = 2; j <= kChebyshevDegree; ++j) {
            const Scalar next = 1 / (tau - sigma);
            chebyshevStep(L, current, &previous, previous, 2 * next / e, -2 * next * centre / e,
                -sigma * next);
            countProduct();
            previous.swap(current);
            sigma = next;
        }
        Y.swap(current);
        project(Y);
    }
}

SpectralEmbedding failed(Index n, int c, Index want)
{
    const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
    SpectralEmbedding out;
    out.F = Matrix::Constant(n, c, nan);
    out.eigenvalues = Vector::Constant(want, nan);
    out.converged = false;
    out.path = SpectralEmbedding::Path::ShiftInvert;
    return out;
}

} // namespace

Scalar spectrumUpperBound(const SparseMatrix& L)
{
    if (L.rows() != L.cols() || L.rows() == 0)
        throw std::invalid_argument("the Laplacian must be square and not empty, got "
            + std::to_string(L.rows()) + " x " + std::to_string(L.cols()));
    return lanczosUpperBound(L, gershgorinBound(L)).upper;
}

SpectralEmbedding smallestEigenpairs(
    const SparseMatrix& L, int c, Index denseLimit, const Matrix* warmStart, Index chebyshevFrom)
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
    std::vector<Index> size(std::size_t(r), 0);
    for (int label : components.labels)
        size[std::size_t(label)] += 1;
    for (Index i = 0; i < n; ++i) {
        const Index label = components.labels[std::size_t(i)];
        if (label < nullColumns)
            out.F(i, label) = Scalar(1) / std::sqrt(Scalar(size[std::size_t(label)]));
    }
    out.eigenvalues = Vector::Zero(want);
    if (r >= want)
        return out;

    const Index nev = want - r; // eigenpairs with lambda > 0 still needed
    const Index rank = n - r; // dimension of the complement of the null space
    if (2 * nev + 1 > rank) // hardly a sparse problem any more
        return denseEigenpairs(L, c);

    const auto accept = [&](const Vector& lambda, const Matrix& vectors) {
        out.eigenvalues.tail(nev) = lambda;
        out.F.rightCols(c - nullColumns) = vectors.leftCols(c - nullColumns);
        out.solved = vectors;
    };
    if (n >= chebyshevFrom && 2 * (nev + kChebyshevGuard + kLanes) <= rank) {
        const ChebyshevOutcome filtered = chebyshevEigenpairs(L, nev, warmStart, components, size);
        out.products += filtered.products;
        out.flops += filtered.flops;
        out.bytes += filtered.bytes;
        if (filtered.converged) {
            accept(filtered.eigenvalues, filtered.vectors);
            out.path = SpectralEmbedding::Path::Filtered;
            return out;
        }
    }

    const Scalar maxDiagonal = Vector(L.diagonal()).maxCoeff();
    const Scalar sigma
        = -kRelativeShift * std::max(maxDiagonal, std::numeric_limits<Scalar>::min());
    DeflatedShiftInvert op(L, components, size);
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
        if (solver->info() == Spectra::CompInfo::Successful) {
            out.flops += op.flops;
            out.bytes += op.bytes;
            // Ascending, all > 0.
            accept(solver->eigenvalues(), solver->eigenvectors(nev));
            out.path = SpectralEmbedding::Path::ShiftInvert;
            return out;
        }
        if (ncv == rank)
            return failed(n, c, want);
    }
}

} // namespace facet
