// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/collectives.h"
#include "core/random.h"
#include "core/types.h"

#include <string_view>
#include <vector>

namespace facet {

// METHODS.md section 2: the label constraint matrix A (n x (c + n - l)) of CNMF and CCF, never
// stored densely. A labelled sample of class j has its single 1 in column j, the t-th unlabelled
// sample in column c + t, so V = A Z gives samples with the same label identical rows. Only the
// classes that have a labelled sample get a column (in increasing class index); a class without
// one is simply absent. With no labels A = I (CNMF is NMF, CCF is CF).
//
// Distributed (core/collectives.h; issue 40): this rank holds the rows of A of its samples and the
// columns they reach: the c class columns, which every rank shares (Z's class rows are replicated,
// like the basis), and its own unlabelled samples' columns, in sample order. A^T M sums a class's
// rows over every rank (transposeTimes, leastSquares, finishFusedRule reduce their c class rows),
// and diag(A^T A) holds the class sizes over all samples, so every rank applies the Z rule a single
// process applies.
class ConstraintMatrix {
public:
    // knownLabels: empty (no labels) or one entry per sample, the class index (>= 0) or -1 when
    // unknown. Throws std::invalid_argument for a wrong size or an index below -1.
    // With an active distribution, knownLabels holds every rank's samples (distribution's
    // totalSamples entries, or none) and `samples` is this rank's count.
    ConstraintMatrix(const std::vector<int>& knownLabels, Eigen::Index samples,
        const SampleDistribution& distribution = {});

    Eigen::Index rows() const { return Eigen::Index(m_column.size()); } // n (this rank's)
    Eigen::Index cols() const { return m_diag.size(); } // c + n - l (this rank's)
    int classes() const { return m_classes; } // c
    Eigen::Index labelled() const { return m_labelled; } // l (this rank's)
    // No labelled sample on any rank (distributed, a rank may hold none of its own while its
    // samples still share Z's class rows with the others).
    bool isIdentity() const { return m_classes == 0; }

    // A Z (n x k): row i is row column(i) of Z, a gather.
    Matrix times(const Matrix& Z) const;
    // A^T M ((c + n - l) x k): row r sums the rows of M whose sample maps to column r.
    Matrix transposeTimes(const Matrix& M) const;
    // diag(A^T A): the class sizes, then ones.
    const Vector& gramDiagonal() const { return m_diag; }
    // argmin_Z ||A Z - V||: (A^T A)^(-1) A^T V, the class means of V's rows, then V's unlabelled
    // rows. Maps a start V (n x k) to Z.
    Matrix leastSquares(const Matrix& V) const;

    // S = X A_L (m x c): column j sums the columns of X whose samples are labelled with class
    // j. The labelled samples' part of X V = X A Z is then S Z_C (Z_C: Z's c class rows), an
    // m x c x k product instead of a pass over their l columns of X (the fused steps' X V).
    Matrix classSums(MatrixCRef X) const;

    // Sets V's labelled rows among first..first+count to 0: the row hook of a fused pass
    // (transposedUpdateProduct), called concurrently for disjoint ranges, so that the pass's
    // X V holds the unlabelled samples' part only.
    void clearLabelledRows(Matrix& V, Eigen::Index first, Eigen::Index count) const;

    // The end of a fused step's Z rule (Cnmf::step, Ccf::step), after a pass over X that updated
    // every unlabelled row of V on its own, Z <- Z o (A^T G) / (A^T A Z H): that is already the
    // rule for an unlabelled sample's row (its column of A holds one 1). The labelled classes
    // take it here from their old rows of Z: row j gets Z_j o (sum over the class of G's rows) /
    // (|j| Z_j H). Z's unlabelled rows are then copied from V, and V's labelled rows (cleared
    // by the pass, clearLabelledRows) set to their class's row, so V = A Z again. G: n x k
    // (X^T U or K W), H: k x k (U^T U or W^T K W). The caller adds classSums(X) Z_C to the
    // pass's X V.
    void finishFusedRule(const Matrix& G, const Matrix& H, Matrix& Z, Matrix& V) const;

    // The (basis or W, Z) state of CNMF or CCF (`method`) for a warm start from exported
    // factors (basis or W, V): Z = leastSquares(V), so a V that came from such a run with the
    // same labels gives its Z back (each class's rows are one row repeated). Throws
    // std::invalid_argument unless there are two factors and V has a row per sample.
    std::vector<Matrix> stateFromFactors(
        std::vector<Matrix> factors, std::string_view method) const;

    // Z's random start: rng.uniformMatrix(cols(), k) in one process; distributed, this rank's rows
    // (the class rows and its unlabelled samples' rows) of the single process's draws.
    Matrix uniformStart(Rng& rng, Eigen::Index k) const;

private:
    // Sums rows [0, c) of M over the ranks (the class rows of an A^T product).
    void reduceClassRows(Matrix& M) const;

    SampleDistribution m_dist;
    Eigen::Index m_unlabelledBefore = 0; // unlabelled samples on the ranks before this one
    Eigen::Index m_unlabelledTotal = 0; // on every rank
    std::vector<Eigen::Index> m_column; // n entries: the column of A holding sample i's 1
    std::vector<Eigen::Index> m_labelledSamples;
    Vector m_diag;
    int m_classes = 0;
    Eigen::Index m_labelled = 0;
};

} // namespace facet
