// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

namespace facet::testing {

// L = D - S for a symmetric affinity S (both triangles stored), D = diag(S 1): the graph
// Laplacian that CF_OGL's eigensolve takes (graph/spectral.h), in the build's own precision.
inline SparseMatrix laplacian(const SparseMatrix& S)
{
    const Vector degree = S * Vector::Ones(S.cols());
    SparseMatrix D(S.rows(), S.cols());
    D.setIdentity();
    D.diagonal() = degree;
    return D - S;
}

} // namespace facet::testing
