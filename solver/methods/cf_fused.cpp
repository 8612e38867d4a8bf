// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cf_fused.h"

#include "core/skinny_product.h"
#include "core/update.h"

namespace facet {

void fusedCfStep(const Gram& gram, const CfFusedCaches& c, const CfFusedRules& rules)
{
    const bool formed = gram.isExplicit();
    if (!formed && !c.xProductsValid) {
        multiplySkinny(gram.data(), c.V, c.XV);
        multiplySkinny(gram.data(), c.W, c.XW);
    }
    const Matrix& inner = rules.wInner;
    const Scalar scale = rules.kvScale;
    Matrix KV;
    const auto updateW = [&](Eigen::Index first, Eigen::Index count) {
        auto W = c.W.middleRows(first, count);
        const Matrix denominator = c.KW.middleRows(first, count) * inner;
        const auto kv = KV.middleRows(first, count);
        if (scale == 1)
            W = (W.array() * kv.array() / denominator.array().max(kUpdateEps)).max(kPositiveFloor);
        else
            W = (W.array() * (scale * kv).array() / denominator.array().max(kUpdateEps))
                    .max(kPositiveFloor);
    };
    if (formed) {
        Matrix KW; // not into c.KW: updateW reads the old K W's rows during the pass
        transposedUpdateProduct(gram.matrix(), c.V, KV, c.W, updateW, KW);
        c.KW = std::move(KW);
        c.WtKW = skinnyTransposedProduct(c.W, c.KW);
    } else {
        transposedUpdateProduct(gram.data(), c.XV, KV, c.W, updateW, c.XW);
        c.WtKW = c.XW.transpose() * c.XW;
    }

    if (rules.beforeVPass)
        rules.beforeVPass();
    const auto updateV = [&](Eigen::Index first, Eigen::Index count) {
        auto V = c.V.middleRows(first, count);
        Matrix numerator = c.KW.middleRows(first, count);
        Matrix denominator = V * c.WtKW;
        if (rules.addVRegularizer)
            rules.addVRegularizer(first, count, numerator, denominator);
        V = (V.array() * numerator.array() / denominator.array().max(kUpdateEps))
                .max(kPositiveFloor);
        if (rules.afterVRows)
            rules.afterVRows(first, count);
    };
    if (formed) {
        updateV(0, c.V.rows());
    } else {
        transposedUpdateProduct(gram.data(), c.XW, c.KW, c.V, updateV, c.XV);
        c.xProductsValid = true;
    }
}

bool fusesPasses(const Gram& gram, Eigen::Index k)
{
    return gram.isExplicit() ? fusesPasses(gram.matrix(), k) : fusesPasses(gram.data(), k);
}

} // namespace facet
