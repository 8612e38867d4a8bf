// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cf_ogl.h"

#include "core/skinny_product.h"
#include "core/update.h"
#include "graph/graph_terms.h"
#include "graph/simplex.h"
#include "methods/cf_fused.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace facet {
namespace {

using Index = Eigen::Index;

std::string formatOglNumber(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace

CfOgl::CfOgl(MatrixCRef X, std::shared_ptr<const Gram> gram, std::shared_ptr<const Graph> G,
    const CfOglOptions& options)
    : m_X(X)
    , m_gram(std::move(gram))
    , m_G(std::move(G))
    , m_options(options)
{
    const Index n = X.cols();
    if (!m_gram || m_gram->size() != n)
        throw std::invalid_argument(
            "CF_OGL needs the kernel of the same data (n = " + std::to_string(n) + ")");
    if (!m_G || m_G->size() != n || m_G->S.cols() != n)
        throw std::invalid_argument(
            "CF_OGL needs an initial graph G of the same data (n = " + std::to_string(n) + ")");
    if (m_G->S.rows() != n || !m_G->S.isCompressed())
        throw std::invalid_argument("CF_OGL needs G as a compressed square sparse matrix");
    for (Index i = 0; i < n; ++i)
        if (m_G->S.outerIndexPtr()[i + 1] == m_G->S.outerIndexPtr()[i])
            throw std::invalid_argument(
                "CF_OGL needs every sample to have a neighbour in G; sample "
                + std::to_string(i + 1) + " has none");
    // NaN or -Inf data would also fail the sign test below; naming the bad value is the more
    // useful message.
    requireUsableData(X);
    if (m_gram->hasNegativeEntries())
        throw std::invalid_argument("CF_OGL's multiplicative updates need K = X^T X >= 0, but this "
                                    "data has negative inner products; make the data "
                                    "non-negative (e.g. scale to [0, 1])");
    requireRank(options.rank, n);
    if (options.clusters < 1 || options.clusters > n)
        throw std::invalid_argument("the number of clusters c must be in [1, n] = [1, "
            + std::to_string(n) + "], got " + std::to_string(options.clusters));
    if (!(options.beta > 0) || !std::isfinite(options.beta))
        throw std::invalid_argument("beta must be > 0, got " + formatOglNumber(options.beta));
    if (!(options.mu > 0) || !std::isfinite(options.mu))
        throw std::invalid_argument("mu must be > 0, got " + formatOglNumber(options.mu));
    if (!(options.lambda >= 0) || !std::isfinite(options.lambda))
        throw std::invalid_argument("lambda must be >= 0, got " + formatOglNumber(options.lambda));
    if (options.innerSteps < 1)
        throw std::invalid_argument(
            "the inner LCCF steps must be at least 1, got " + std::to_string(options.innerSteps));
}

// Random start (uniform W, V) with the CF normalization, after which V is rescaled by the
// least-squares factor alpha = argmin_a ||X - a X W V^T||^2 = Tr(V^T K W) / Tr(V W^T K W V^T).
// Derivation where the spec is silent: the normalization makes ||X w_j|| = 1, so a random V
// ends up with entries ~ ||X w_j|| that grow with n (~340 at n = 2000 for unit-norm samples),
// while W shrinks to match in the first W update; the multiplicative rules keep that imbalance,
// and the lambda |v_i - v_j|^2 term of the first Q step would then dwarf g_ij and cut Q into
// hundreds of pieces. alpha gives X W V^T the data's scale (nothing is recorded before the
// first step, so this is part of the start, not of the monotone curve).
void CfOgl::initialize(Rng& rng)
{
    const Index n = m_gram->size();
    Matrix W = rng.uniformMatrix(n, m_options.rank);
    Matrix V = rng.uniformMatrix(n, m_options.rank);
    initializeFrom(std::move(W), std::move(V));
    const double cross = double((m_V.array() * m_KW.array()).sum());
    const double square = double((m_WtKW.array() * (m_V.transpose() * m_V).array()).sum());
    if (cross > 0 && square > 0) {
        m_V *= Scalar(cross / square);
        m_vDistance = pairDistances(m_V);
    }
}

void CfOgl::initializeFrom(Matrix W, Matrix V)
{
    m_W = std::move(W);
    m_V = std::move(V);
    refreshCache();
    normalize();
    m_beta = m_options.beta;
    m_betaChanges = 0;
    m_eigenFlops = m_eigenBytes = m_symmetricNonZeros = 0;
    m_steps = 0;
    m_spectralFailure = false;
    m_warmEigenvectors.resize(0, 0); // a new start solves from the fixed start, like a new object
    // Q0: G itself is not feasible after symmetrization (rows do not sum to 1), so the start is
    // its row-wise projection onto the simplex on G's support (METHODS.md 3).
    m_Qt = m_G->S;
    projectColumnsOntoSimplex(m_Qt);
    refreshSymmetric();
    m_vDistance = pairDistances(m_V);
    updateEmbedding();
    tuneBeta();
    m_newSegment = false;
    m_stepped = false;
}

void CfOgl::refreshCache()
{
    m_xProductsValid = false; // W or V changed outside a fused step (start, restore, scaling)
    m_KW = m_gram->times(m_W);
    m_WtKW.noalias() = m_W.transpose() * m_KW;
}

void CfOgl::normalize()
{
    const Vector d = m_WtKW.diagonal().cwiseMax(Scalar(0)).cwiseSqrt();
    rescaleColumns(m_W, m_V, d);
    refreshCache();
}

void CfOgl::refreshSymmetric()
{
    m_sym.S = (m_Qt + SparseMatrix(m_Qt.transpose())) * Scalar(0.5);
    m_sym.degree = m_sym.S * Vector::Ones(m_sym.S.cols());
}

// |m_i - m_j|^2 for every stored entry (j, i) of m_Qt, in value order. O(nnz cols(M)).
Vector CfOgl::pairDistances(const Matrix& M) const
{
    Vector out(m_Qt.nonZeros());
    const Matrix Mt = M.transpose(); // columns are the rows m_i, contiguous
    Index e = 0;
    for (Index i = 0; i < m_Qt.outerSize(); ++i)
        for (SparseMatrix::InnerIterator it(m_Qt, i); it; ++it)
            out(e++) = (Mt.col(i) - Mt.col(it.row())).squaredNorm();
    return out;
}

// One LCCF step (METHODS.md 1.3, Cai, He & Han) on lambda Tr(V^T L_Q V) + mu ||X - X W V^T||^2
// = mu (CF objective + gamma Tr(V^T L_Q V)), gamma = lambda / mu, with S = (Q + Q^T)/2:
//   W <- W o (K V) / (K W V^T V)
//   V <- V o (K W + gamma S V) / (V W^T K W + gamma D V)
// Each rule is non-increasing for that objective (the LCCF auxiliary function; K >= 0, S >= 0),
// and Q, F do not enter it, so O is non-increasing.
bool CfOgl::fusesPasses() const
{
    return facet::fusesPasses(*m_gram, m_options.rank);
}

void CfOgl::lccfStep()
{
    if (fusesPasses()) {
        // LCCF's rules with S = (Q + Q^T)/2 and gamma = lambda / mu as below, the graph terms at
        // the V before the rule (as in updateTerms(1), which the unfused route calls after the
        // W rule without changing V).
        const Scalar gamma = Scalar(m_options.lambda / m_options.mu);
        Matrix plus, minus;
        CfFusedRules rules;
        rules.wInner = skinnyTransposedProduct(m_V, m_V);
        rules.beforeVPass = [&] {
            if (gamma > 0)
                graphGradientParts(m_sym, m_V, gamma, plus, minus);
        };
        rules.addVRegularizer
            = [&](Index first, Index count, Matrix& numerator, Matrix& denominator) {
                  if (gamma > 0) {
                      numerator += minus.middleRows(first, count);
                      denominator += plus.middleRows(first, count);
                  }
              };
        fusedCfStep(*m_gram, { m_W, m_V, m_KW, m_WtKW, m_XW, m_XV, m_xProductsValid }, rules);
        return;
    }
    UpdateTerms t = updateTerms(0);
    multiplicativeUpdate(m_W, t.numerator, t.denominator);
    refreshCache(); // the V rule uses the new W
    t = updateTerms(1);
    multiplicativeUpdate(m_V, t.numerator, t.denominator);
}

UpdateTerms CfOgl::updateTerms(int factor) const
{
    if (factor == 0)
        return { m_gram->times(m_V), m_KW * (m_V.transpose() * m_V) };
    if (factor != 1)
        return {};
    const Scalar gamma = Scalar(m_options.lambda / m_options.mu);
    UpdateTerms t { m_KW, m_V * m_WtKW };
    if (gamma > 0) {
        // gamma S V and gamma D V, rows in parallel (graph/graph_terms.h).
        Matrix plus, minus;
        graphGradientParts(m_sym, m_V, gamma, plus, minus);
        t.numerator += minus;
        t.denominator += plus;
    }
    return t;
}

// Step (3). With F, W, V fixed, O depends on Q through sum_i [ ||q_i - g_i||^2
// + (1/2) sum_j q_ij e_ij ], separable over rows, and
//   ||q - g||^2 + (1/2) q^T e = ||q - (g - e/4)||^2 + const,
// so row i's exact minimizer over the simplex (on G's support, q_ii = 0) is the Euclidean
// projection of g_i - e_i / 4 (METHODS.md 3; the paper prints other factors). Cost O(nnz log p).
void CfOgl::updateGraph()
{
    const Scalar beta = Scalar(m_beta);
    const Scalar lambda = m_options.paperVariant ? Scalar(0) : Scalar(m_options.lambda);
    Eigen::Map<Vector> q(m_Qt.valuePtr(), m_Qt.nonZeros());
    const Eigen::Map<const Vector> g(m_G->S.valuePtr(), m_G->S.nonZeros());
    q = g - (beta * m_fDistance + lambda * m_vDistance) / Scalar(4);
    projectColumnsOntoSimplex(m_Qt);
    refreshSymmetric();
}

// Step (2): min over F^T F = I of Tr(F^T L_Q F) is attained by the c eigenvectors of L_Q with
// the smallest eigenvalues (Ky Fan), L_Q = D - S.
void CfOgl::updateEmbedding()
{
    const Index n = m_sym.S.rows();
    SparseMatrix D(n, n);
    D.setIdentity();
    D.diagonal() = m_sym.degree;
    const SparseMatrix L = D - m_sym.S;
    SpectralEmbedding embedding = smallestEigenpairs(L, m_options.clusters,
        m_options.denseEigenLimit, m_warmEigenvectors.size() > 0 ? &m_warmEigenvectors : nullptr,
        m_options.filteredEigenFrom);
    m_warmEigenvectors = std::move(embedding.solved);
    m_spectralFailure = m_spectralFailure || !embedding.converged;
    m_lastEigenFlops = embedding.flops;
    m_lastEigenBytes = embedding.bytes;
    m_F = std::move(embedding.F);
    m_spectrum = std::move(embedding.eigenvalues);
    m_fDistance = pairDistances(m_F);
}

// Step (4), CLR's rule (Nie, Wang, Jordan & Huang, "The constrained Laplacian rank algorithm for
// graph-based clustering", AAAI 2016): the number of zero eigenvalues of L_Q is the number of
// connected components of Q. Fewer than c: strengthen the rank term, beta <- 2 beta; more
// than c (the (c+1)-th eigenvalue is also ~0): beta <- beta / 2.
void CfOgl::tuneBeta()
{
    if (!m_spectrum.allFinite())
        return;
    const int c = m_options.clusters;
    const int zeros = int((m_spectrum.array() < kZeroEigenvalue).count());
    double next = m_beta;
    if (zeros < c)
        next = 2 * m_beta;
    else if (zeros > c)
        next = m_beta / 2;
    if (next != m_beta) {
        m_beta = next;
        ++m_betaChanges;
        m_newSegment = true;
    }
}

void CfOgl::step()
{
    m_symmetricNonZeros += double(m_sym.S.nonZeros());
    for (int s = 0; s < m_options.innerSteps; ++s)
        lccfStep();
    m_vDistance = pairDistances(m_V);
    updateGraph();
    updateEmbedding();
    m_eigenFlops += m_lastEigenFlops;
    m_eigenBytes += m_lastEigenBytes;
    ++m_steps;
    tuneBeta();
    // The first recorded value opens the first segment anyway; no marker at iteration 1.
    if (!m_stepped)
        m_newSegment = false;
    m_stepped = true;
}

bool CfOgl::startedNewSegment()
{
    const bool started = m_newSegment;
    m_newSegment = false;
    return started;
}

CfOgl::ObjectiveParts CfOgl::objectiveParts() const
{
    ObjectiveParts parts;
    const Eigen::Map<const Vector> q(m_Qt.valuePtr(), m_Qt.nonZeros());
    const Eigen::Map<const Vector> g(m_G->S.valuePtr(), m_G->S.nonZeros());
    parts.graphFit = double((q - g).squaredNorm());
    // Tr(M^T L_Q M) = (1/2) sum_ij s_ij |m_i - m_j|^2 = (1/2) sum_ij q_ij |m_i - m_j|^2.
    parts.embedding = 0.5 * double(q.dot(m_fDistance));
    parts.smoothness = 0.5 * double(q.dot(m_vDistance));
    // Tr(K) - 2 Tr(V^T K W) + Tr(V W^T K W V^T), with Tr(V A V^T) = sum(A o V^T V).
    const Matrix VtV = m_V.transpose() * m_V;
    const double reconstruction = m_gram->trace() - 2.0 * double((m_V.array() * m_KW.array()).sum())
        + double((m_WtKW.array() * VtV.array()).sum());
    parts.reconstruction = std::max(reconstruction, 0.0);
    return parts;
}

double CfOgl::objective() const
{
    const ObjectiveParts p = objectiveParts();
    return p.graphFit + m_beta * p.embedding + m_options.lambda * p.smoothness
        + m_options.mu * p.reconstruction;
}

std::vector<Matrix> CfOgl::state() const
{
    const Eigen::Map<const Vector> q(m_Qt.valuePtr(), m_Qt.nonZeros());
    return { m_W, m_V, Matrix(q), m_F, Matrix(m_spectrum), Matrix::Constant(1, 1, Scalar(m_beta)) };
}

std::vector<Matrix> CfOgl::stateFromFactors(std::vector<Matrix> factors) const
{
    if (factors.size() != 2 || factors[0].rows() != m_W.rows() || factors[0].cols() != m_W.cols()
        || factors[1].rows() != m_V.rows() || factors[1].cols() != m_V.cols())
        return factors; // the driver names the mismatch
    CfOgl start(*this);
    start.initializeFrom(std::move(factors[0]), std::move(factors[1]));
    return start.state();
}

void CfOgl::restore(const std::vector<Matrix>& state)
{
    m_W = state.at(0);
    m_V = state.at(1);
    const Matrix& q = state.at(2);
    if (m_Qt.nonZeros() != q.size())
        throw std::invalid_argument("CF_OGL state: Q has " + std::to_string(q.size())
            + " values, the pattern of G " + std::to_string(m_Qt.nonZeros()));
    Eigen::Map<Vector>(m_Qt.valuePtr(), m_Qt.nonZeros()) = q.reshaped();
    m_F = state.at(3);
    m_spectrum = state.at(4).reshaped();
    m_warmEigenvectors.resize(0, 0); // from another graph than the restored one
    m_beta = double(state.at(5)(0, 0));
    refreshCache();
    refreshSymmetric();
    m_vDistance = pairDistances(m_V);
    m_fDistance = pairDistances(m_F);
}

void CfOgl::finalize()
{
    normalize();
}

void CfOgl::exportTo(Factorization& out) const
{
    out.W = m_W;
    out.V = m_V;
    out.basis.noalias() = m_X * m_W;
    // METHODS.md 3: when Q has exactly c connected components, they are a clustering too.
    if (const Components cc = components(); cc.count == m_options.clusters)
        out.graphClusters = cc.labels;
    if (m_steps > 0) {
        const double steps = double(m_steps);
        out.work["steps"] = steps;
        out.work["clusters"] = double(m_options.clusters);
        out.work["inner_steps"] = double(m_options.innerSteps);
        out.work["eigen_flops_per_step"] = m_eigenFlops / steps;
        out.work["eigen_bytes_per_step"] = m_eigenBytes / steps;
        out.work["q_nonzeros"] = double(m_Qt.nonZeros());
        out.work["s_nonzeros_per_step"] = m_symmetricNonZeros / steps;
        out.work["fused_passes"] = fusesPasses() ? 1 : 0;
    }
}

std::vector<std::string> CfOgl::notes() const
{
    std::vector<std::string> notes;
    const int c = m_options.clusters;
    notes.push_back("beta: " + formatOglNumber(m_options.beta) + " at start, "
        + formatOglNumber(m_beta) + " at the end after " + std::to_string(m_betaChanges)
        + " change(s) by the self-tuning rule; each change starts a new segment of "
          "the objective curve");
    const Components comps = components();
    if (comps.count == c)
        notes.push_back("the learned graph Q has exactly c = " + std::to_string(c)
            + " connected components: they are a clustering of their own");
    else
        notes.push_back("the learned graph Q has " + std::to_string(comps.count)
            + " connected component(s), not c = " + std::to_string(c)
            + ": no component clustering");
    if (m_options.paperVariant)
        notes.emplace_back("paper variant: the Q step drops lambda |v_i - v_j|^2, so it no longer "
                           "minimizes the objective, which may increase (not monotone)");
    if (fusesPasses())
        notes.emplace_back(m_gram->isExplicit()
                ? "fused passes: K is read once per inner step (K V, the W rule and K W)"
                : "fused passes: X is read twice per inner step instead of four times");
    if (m_spectralFailure)
        notes.emplace_back("the sparse eigensolver did not converge for L_Q");
    return notes;
}

} // namespace facet
