// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

namespace facet {

// ||X - basis V^T||_F / ||X||_F, computed in column blocks so no extra m x n matrix is formed.
double relativeReconstructionError(MatrixCRef X, MatrixCRef basis, MatrixCRef V);
// Its two sums, which add over column blocks of X held apart (the ranks of a distributed run,
// each with its columns and its rows of V), and the error from them.
struct ReconstructionSums {
    double residualSquared = 0; // ||X - basis V^T||_F^2
    double dataSquared = 0; // ||X||_F^2
};
ReconstructionSums reconstructionSums(MatrixCRef X, MatrixCRef basis, MatrixCRef V);
double relativeReconstructionError(const ReconstructionSums& sums);

// Hoyer's sparseness averaged over the columns of V (n x k):
// (sqrt(n) - |v|_1 / |v|_2) / (sqrt(n) - 1), in [0, 1]; a zero column counts as 0.
double hoyerSparseness(MatrixCRef V);

} // namespace facet
