// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "graph/graph.h"
#include "methods/hals.h"

#include <memory>
#include <string>
#include <vector>

namespace facet {

// Missing entries and entry weights (issue 38; docs/algorithms.md, "Missing entries"). A weight
// matrix W (m x n, finite, >= 0, the shape of X) turns the data term of the NMF family's
// objective into
//
//     sum_ij W_ij (X - U V^T)_ij^2          (+ the method's graph term, unchanged)
//
// W enters linearly: a weight is the factor of the squared residual, not a factor of the residual
// that is squared (||M o (X - U V^T)||^2 with M = sqrt(W)). For a 0/1 mask both readings agree;
// a missing entry has weight 0. Entries with W_ij = 0 are never read: the methods see
// MaskedData::weighted (W o X, 0 there) and MaskedData::filled (X with those entries imputed from
// the observed ones of their row), never X itself.
//
// Methods that take a mask: nmf, gnmf, semignmf (mu, hals and their extrapolated forms) and cnmf
// (mu, mu-ex). The others are refused (maskRefusal): the CF family's objective is written through
// the kernel K = X^T X (or another kernel of the samples), which needs every entry of every
// sample; k-means and PCA measure distances between whole samples.

// The entries whose weight is below the mask's largest, w_max (for a 0/1 mask: the missing ones),
// with c_ij = 1 - W_ij / w_max, listed by rows and by columns: the entries hals imputes
// (mask.cpp, "hals by imputation").
struct ImputedEntries {
    std::vector<Eigen::Index> rowStart; // m + 1 offsets into rowCol / rowCoeff
    std::vector<int> rowCol;
    std::vector<Scalar> rowCoeff;
    std::vector<Eigen::Index> colStart; // n + 1 offsets into colRow / colCoeff
    std::vector<int> colRow;
    std::vector<Scalar> colCoeff;
    std::size_t size() const { return rowCol.size(); }
};

struct MaskedData {
    Matrix weights; // W (m x n)
    Matrix weighted; // W o X, 0 where W = 0
    // X with each weight-0 entry replaced by the weighted mean of its row's observed entries (the
    // mean of all observed entries for a row with none). Only the start (random starts do not
    // read X; nndsvd, kmeans and nmf starts do) and the kNN graph of GNMF and SemiGNMF read it:
    // a start and a graph need whole samples, and this fill depends on the observed entries only.
    Matrix filled;
    double missingFraction = 0; // share of entries with weight 0
    Scalar maxWeight = 1; // w_max
    double weightedNorm2 = 0; // sum W o X o X, in double
    ImputedEntries imputed;
};

// The run-log line of a masked run ("mask: 30.0% of the entries missing ...").
std::string maskNote(const MaskedData& mask);

// Whether `method` accepts a mask, and the reason it does not.
bool acceptsMask(const std::string& method);
std::string maskRefusal(const std::string& method);

// Checks W against X (shape, finite and >= 0 weights, at least one observed entry, every
// observed entry of X finite) and builds the MaskedData. Returns null when every weight is
// exactly 1: the run is then the unmasked one, bit for bit. Throws std::invalid_argument with
// the broken rule.
std::shared_ptr<const MaskedData> prepareMask(MatrixCRef X, const Matrix& weights);

// sum_ij W_ij (X - R)_ij^2 with R = U V^T given, in double.
double weightedSquaredError(const MaskedData& mask, const Matrix& R);

// sqrt(sum W (X - basis V^T)^2 / sum W X^2): relativeReconstructionError over the observed entries.
double weightedRelativeError(const MaskedData& mask, const Matrix& basis, const Matrix& V);

// The sparse parts of hals by imputation (mask.cpp), S = C o (U V^T) on the imputed entries
// (C = 1 - W / w_max, 0 elsewhere), each O(|imputed| k):
// out += S V (m x k), row by row;
void addImputedTimesV(const ImputedEntries& entries, const Matrix& U, const Matrix& V, Matrix& out);
// out += S^T U (n x k), column by column;
void addImputedTransposedTimesU(
    const ImputedEntries& entries, const Matrix& U, const Matrix& V, Matrix& out);
// sum_ij C_ij (U V^T)_ij^2, in double, in a fixed order.
double imputedSquaredSum(const ImputedEntries& entries, const Matrix& U, const Matrix& V);

} // namespace facet
