// SPDX-License-Identifier: GPL-3.0-or-later
// Registry entries of the two base methods, NMF (1.1) and CF (1.2), with NCW (1.7) for both and
// the kernels (1.7) and general form (1.4) for CF.
#include "methods/cf.h"
#include "methods/cf_family.h"
#include "methods/ncw.h"
#include "methods/nmf.h"
#include "methods/registry.h"

namespace facet {
namespace {

// NMF factors X itself: the kernel and general-form options do not concern it.
MethodFactory makeNmf(MatrixCRef X, const MethodOptions& o, MethodContext&)
{
    Nmf probe(X, o.rank, o.init); // validates on the caller's thread
    const Algorithm algorithm = o.algorithm.value_or(defaultAlgorithm("nmf"));
    const auto make = [rank = o.rank, init = o.init, algorithm](MatrixCRef data) {
        auto nmf = std::make_unique<Nmf>(data, rank, init);
        nmf->setAlgorithm(algorithm);
        return nmf;
    };
    if (o.ncw) {
        const std::shared_ptr<const NcwData> data = makeNcwData(X, nullptr, true);
        return [data, make] { return std::make_unique<Ncw>(data, make(data->Xw)); };
    }
    return [X, make] { return make(X); };
}

MethodFactory makeCf(MatrixCRef X, const MethodOptions& o, MethodContext& context)
{
    const auto setup = prepareCfFamily(X, o, context, { "CF", true, true, InitKind::Random });
    return cfFamilyFactory(X, setup, [rank = o.rank](MatrixCRef data, const CfFamilySetup& s) {
        return std::make_unique<Cf>(data, s.gram, rank, s.settings);
    });
}

} // namespace

void appendBaseMethods(std::vector<MethodEntry>& table)
{
    table.push_back(
        { { "nmf", "NMF (Lee & Seung)", "min ||X - U V^T||^2 over U, V >= 0", true, false },
            makeNmf });
    table.push_back({ { "cf", "Concept Factorization (Xu & Gong)",
                          "min ||X - X W V^T||^2 over W, V >= 0", false, true },
        makeCf });
}

} // namespace facet
