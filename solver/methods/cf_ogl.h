// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/gram.h"
#include "core/method.h"
#include "graph/components.h"
#include "graph/graph.h"
#include "graph/spectral.h"

#include <memory>

namespace facet {

struct CfOglOptions {
    int rank = 0; // k
    int clusters = 0; // c, the number of eigenvectors / components wanted, 1 <= c <= n
    double beta = 0.1; // beta0, self-tuned (step 4)
    double lambda = 1;
    double mu = 1;
    int innerSteps = 10; // LCCF steps per outer iteration
    bool paperVariant = false; // Q step without the lambda term (not monotone)
    Eigen::Index denseEigenLimit = kDenseEigenLimit;
    // The sparse eigensolve tries the filtered subspace iteration from this many samples on
    // (graph/spectral.h).
    Eigen::Index filteredEigenFrom = kChebyshevMinNodes;
};

// METHODS.md section 3, CF with optimal graph learning:
//   O = ||Q - G||^2 + beta Tr(F^T L_Q F) + lambda Tr(V^T L_Q V) + mu ||X - X W V^T||^2,
// over W, V >= 0 (n x k), Q (n x n, rows on the simplex, support inside G's, q_ii = 0) and
// F (n x c, F^T F = I); L_Q is the Laplacian of S = (Q + Q^T)/2. G is the adaptive-neighbour
// graph (graph/adaptive_neighbors.h), built once per data set and shared by the replicates.
// Since Tr(F^T L_Q F) = (1/2) sum_ij q_ij |f_i - f_j|^2, the two graph terms are
// (1/2) sum_ij q_ij e_ij with e_ij = beta |f_i - f_j|^2 + lambda |v_i - v_j|^2.
//
// One driver step is one outer iteration, a block-coordinate descent on O:
//   (1) innerSteps LCCF steps (1.3) on W, V with S and weight lambda/mu (Q, F fixed);
//   (3) the exact minimizer over Q of O given F, W, V, row by row a simplex projection;
//   (2) F = the c eigenvectors of L_Q with the smallest eigenvalues (exact minimizer over F);
//   (4) beta self-tuning from that spectrum (CLR, Nie et al. 2016).
// Order: initialize() already computes F for Q0 (and tunes beta once), so each step runs the
// spec's sequence 1-2-3-4 shifted by one eigen-solve: (2) and (4) close the iteration instead of
// opening it. The sequence of iterates is the same, since step (1) does not involve F; what
// changes is that the recorded O(W, V, Q, F) always has F optimal for the recorded Q (O is the
// "profile" objective min_F O), the beta rule reads the spectrum of the Q it reports, and the
// final F, spectrum and components describe the final Q. Every sub-step minimizes O in its own
// block (1: the LCCF auxiliary function; 2, 3: exactly), so O is non-increasing while beta is
// fixed. A beta change at the end of iteration t makes O[t] (evaluated with the new beta) the
// first value of a new segment. Exception: paperVariant drops lambda |v_i - v_j|^2 from e in
// step (3), which then no longer minimizes O: the curve may rise (said in notes()).
class CfOgl : public Method {
public:
    // X (m x n) must outlive the method; gram is its kernel (K >= 0 entry-wise), G the initial
    // graph (n x n, symmetric, every row with at least one positive entry).
    CfOgl(MatrixCRef X, std::shared_ptr<const Gram> gram, std::shared_ptr<const Graph> G,
        const CfOglOptions& options);

    std::string_view name() const override { return "cf-ogl"; }
    // Uniform random W, V through initializeFrom(), then V scaled by the least-squares factor
    // of ||X - a X W V^T||^2 (see the .cpp for why).
    void initialize(Rng& rng) override;
    // Starts from given W, V (CF start-up normalization); Q0 = the row-wise simplex projection
    // of G on its support, F0 from Q0, and one beta tuning.
    void initializeFrom(Matrix W, Matrix V);
    void step() override;
    double objective() const override;
    // Factor 0: W, 1: V (the LCCF rules; the gradient of O is 2 mu (N - P)). Q and F are not
    // updated multiplicatively: empty terms.
    UpdateTerms updateTerms(int factor) const override;
    // { W, V, the values of Q on G's pattern (nnz x 1), F, spectrum, beta (1 x 1) }.
    std::vector<Matrix> state() const override;
    void restore(const std::vector<Matrix>& state) override;
    // A start from exported W, V (a warm start): the state initializeFrom(W, V) gives, so Q
    // begins again at Q0, F and beta from it. The exported factors carry no learned graph; a
    // run started from them is a new segment, not the continuation of the run that wrote them.
    std::vector<Matrix> stateFromFactors(std::vector<Matrix> factors) const override;
    // CF normalization of W, V (METHODS.md 1.2), after the last iteration only.
    void finalize() override;
    void exportTo(Factorization& out) const override;
    std::vector<std::string> notes() const override;
    bool startedNewSegment() override;

    const Matrix& W() const { return m_W; }
    const Matrix& V() const { return m_V; }
    const Matrix& F() const { return m_F; } // n x c
    double beta() const { return m_beta; }
    int clusters() const { return m_options.clusters; }
    // The min(c + 1, n) smallest eigenvalues of L_Q for the current Q, ascending.
    const Vector& spectrum() const { return m_spectrum; }
    // The learned graph Q (n x n): row i is q_i, on the simplex, inside G's support.
    SparseMatrix Q() const { return m_Qt.transpose(); }
    // Connected components of Q's support with positive weights. When count == c they are the
    // method's own clustering (METHODS.md 3), to be reported alongside k-means on V.
    Components components() const { return connectedComponents(m_Qt); }

    // The four terms of O, unweighted: O = graphFit + beta embedding + lambda smoothness
    // + mu reconstruction.
    struct ObjectiveParts {
        double graphFit = 0; // ||Q - G||^2
        double embedding = 0; // Tr(F^T L_Q F)
        double smoothness = 0; // Tr(V^T L_Q V)
        double reconstruction = 0; // ||X - X W V^T||^2
    };
    ObjectiveParts objectiveParts() const;

private:
    void lccfStep();
    // The inner step's fused passes (methods/cf_fused.h) when X, or a formed K, is past the
    // caches: LCCF's rules in two passes over X instead of four, or one over K instead of two.
    bool fusesPasses() const;
    void updateGraph();
    void updateEmbedding();
    void tuneBeta();
    void refreshCache();
    void refreshSymmetric();
    Vector pairDistances(const Matrix& M) const;
    void normalize();

    MatrixCRef m_X;
    std::shared_ptr<const Gram> m_gram;
    std::shared_ptr<const Graph> m_G;
    CfOglOptions m_options;
    Matrix m_W; // n x k
    Matrix m_V; // n x k
    Matrix m_F; // n x c
    Vector m_spectrum; // min(c + 1, n)
    // Q stored transposed on G's (symmetric) pattern: column i holds row q_i, so the row-wise
    // simplex projections are column operations and the values align with G's.
    SparseMatrix m_Qt;
    Graph m_sym; // S = (Q + Q^T)/2 and its degrees S 1
    // The work of the steps' eigensolves, and the steps (Factorization::work, for the bench).
    Matrix m_warmEigenvectors; // the latest sparse eigensolve's, the next one's start
    double m_lastEigenFlops = 0; // the latest eigensolve's
    double m_lastEigenBytes = 0;
    double m_eigenFlops = 0;
    double m_eigenBytes = 0;
    double m_symmetricNonZeros = 0; // summed over the steps
    int m_steps = 0;
    Vector m_fDistance; // |f_i - f_j|^2 for each stored entry of m_Qt
    Vector m_vDistance; // |v_i - v_j|^2 for each stored entry of m_Qt
    Matrix m_KW; // K W (n x k)
    Matrix m_WtKW; // W^T K W (k x k)
    Matrix m_XW, m_XV; // X W, X V (m x k), kept between fused inner steps
    bool m_xProductsValid = false; // cleared by refreshCache() (W or V changed elsewhere)
    double m_beta = 0;
    int m_betaChanges = 0;
    bool m_newSegment = false;
    bool m_stepped = false; // a step has run since initialization
    bool m_spectralFailure = false;
};

} // namespace facet
