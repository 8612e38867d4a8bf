// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cf_fused.h"

#include "core/skinny_product.h"
#include "core/update.h"

#include <algorithm>

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
        // The skinny kernels' X^T M (both threads from 2^17 multiply-adds): Eigen's product took
        // 0.031 ms at 1024 x 20 (COIL-20) against 0.012, 0.017 against 0.003 at 784 x 10.
        c.WtKW = skinnyTransposedProduct(c.XW, c.XW);
    }

    if (rules.beforeVPass)
        rules.beforeVPass();
    Matrix VM; // V W^T K W for all rows, where the formed route computes it before the rule
    const auto updateV = [&](Eigen::Index first, Eigen::Index count) {
        auto V = c.V.middleRows(first, count);
        Matrix numerator = c.KW.middleRows(first, count);
        Matrix denominator
            = VM.size() > 0 ? Matrix(VM.middleRows(first, count)) : Matrix(V * c.WtKW);
        if (rules.addVRegularizer)
            rules.addVRegularizer(first, count, numerator, denominator);
        V = (V.array() * numerator.array() / denominator.array().max(kUpdateEps))
                .max(kPositiveFloor);
        if (rules.afterVRows)
            rules.afterVRows(first, count);
    };
    if (formed) {
        // No pass over K is left, so the V rule runs on its own. V W^T K W is one skinny product
        // (core/skinny_product.h; Eigen's product of the whole V went to Eigen's own threads,
        // which cost more than they gained at these sizes), then the rule runs in
        // fixed blocks of rows shared out over the threads (the rules are row-local and take
        // disjoint ranges concurrently, as inside the implicit pass). The V rule as a whole,
        // before and after (Intel Xeon, medians of 4000 calls in one process): 1440 x 20 0.253
        // -> 0.060 ms, 4000 x 10 0.414 -> 0.077, 400 x 40 0.049 both ways.
        // Small products (Yale: 165 x 15 x 15), and any size on one thread, stay one call, which
        // costs less there. The two ways round differently, so (as for the pass over K, whose
        // threads add partials) a run repeats its bits on the same number of threads.
        const Eigen::Index n = c.V.rows(), k = c.V.cols();
        constexpr Eigen::Index kRows = 64;
        const Eigen::Index blocks = (n + kRows - 1) / kRows;
        const int threads = int(
            std::min<Eigen::Index>(threadsForRows(double(n) * double(k) * double(k)), blocks));
        if (threads == 1) {
            updateV(0, n);
        } else {
            multiplySkinny(c.V, c.WtKW, VM);
#pragma omp parallel for schedule(static) num_threads(threads)
            for (Eigen::Index b = 0; b < blocks; ++b)
                updateV(b * kRows, std::min(kRows, n - b * kRows));
        }
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
