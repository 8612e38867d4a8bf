// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/gram.h"
#include "core/types.h"

#include <functional>

namespace facet {

// The factors and caches of a CF-family step, by reference: Cf and its subclasses, and CF_OGL's
// inner LCCF steps, run the same fused passes on their own members.
struct CfFusedCaches {
    Matrix& W; // n x k
    Matrix& V; // n x k
    Matrix& KW; // K W for the current W; updated
    Matrix& WtKW; // W^T K W; updated
    Matrix& XW; // X W, X V (m x k) of the implicit kernel's X: kept between steps
    Matrix& XV;
    bool& xProductsValid; // false: XW, XV are recomputed first (W or V changed elsewhere)
};

// The method's rules, around the common ones W <- W o (s K V) / ((K W) M) and
// V <- V o (K W + R-) / (V W^T K W + R+).
struct CfFusedRules {
    Matrix wInner; // M (CF: V^T V)
    Scalar kvScale = 1; // s
    // Called after the W pass and before the V pass (e.g. the graph terms of the old V).
    std::function<void()> beforeVPass;
    // Adds the regularizer's rows first..first+count to the V rule's numerator and denominator.
    std::function<void(
        Eigen::Index first, Eigen::Index count, Matrix& numerator, Matrix& denominator)>
        addVRegularizer;
    // If given, runs right after the V rule on rows first..first+count, before their share of
    // X V is added (concurrently for disjoint ranges; with a formed K in blocks of 64 rows, also
    // concurrently).
    std::function<void(Eigen::Index first, Eigen::Index count)> afterVRows;
};

// The plain rules with K = X^T X implicit, in two passes over X instead of four. Both rules are
// row by row, so each pass computes one K-product's rows block by block, updates those rows of
// the factor, and adds their share of the next X-product while X's block is in L2:
//   pass 1: K V = X^T (X V); W <- W o (s K V) / ((K W) M), with the K W of the old W; X W.
//   W^T K W = (X W)^T (X W), without another pass.
//   pass 2: K W = X^T (X W); V <- V o (K W + R-) / (V W^T K W + R+); X V, kept for the next
//           step's pass 1.
// With K formed (a non-linear kernel, NCW's, or the linear one when n <= m), one pass over K
// instead of two: K is symmetric, so the W rule's K V = K^T V is computed block by block with the W
// rule on those rows, and K W of the new W accumulates in the same pass; the V rule then needs no
// product with K. The values are the unfused rules' up to the rounding of the products' summation
// order.
void fusedCfStep(const Gram& gram, const CfFusedCaches& caches, const CfFusedRules& rules);

// Whether fusedCfStep runs for this kernel and rank k, decided on the operand its passes read (X
// of an implicit kernel, or the formed K; core/skinny_product.h: fusesPasses).
bool fusesPasses(const Gram& gram, Eigen::Index k);

} // namespace facet
