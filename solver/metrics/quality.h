// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

namespace facet {

// ||X - basis V^T||_F / ||X||_F, computed in column blocks so no extra m x n matrix is formed.
double relativeReconstructionError(MatrixCRef X, MatrixCRef basis, MatrixCRef V);

// Hoyer's sparseness averaged over the columns of V (n x k):
// (sqrt(n) - |v|_1 / |v|_2) / (sqrt(n) - 1), in [0, 1]; a zero column counts as 0.
double hoyerSparseness(MatrixCRef V);

} // namespace facet
