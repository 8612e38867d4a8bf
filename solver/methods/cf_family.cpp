// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cf_family.h"

#include "core/collectives.h"
#include "core/update.h"
#include "methods/kernels.h"
#include "methods/lccf.h"

#include <stdexcept>

namespace facet {

std::shared_ptr<const CfFamilySetup> prepareCfFamily(
    MatrixCRef X, const MethodOptions& options, MethodContext& context, const CfFamilyRules& rules)
{
    requireRank(options.rank, totalSamples(currentDistribution(), X.cols())); // all ranks' n
    requireUsableData(X);
    auto setup = std::make_shared<CfFamilySetup>();
    std::vector<std::string>& notes = setup->settings.notes;

    const bool linear = options.kernel == KernelKind::Linear;
    if (linear) {
        if (!context.gram)
            context.gram = Gram::linear(X);
        if (context.gram->size() != X.cols())
            throw std::invalid_argument("the shared kernel has size "
                + std::to_string(context.gram->size())
                + " but the data has n = " + std::to_string(X.cols()) + " samples");
        setup->gram = context.gram;
    } else {
        // Not shared through the context, which holds the linear kernel for the other methods.
        context.beginStage(kKernelStage);
        setup->gram = makeKernel(X, options, notes, context.stop, context.onStageProgress);
    }

    if (options.ncw && !rules.ncw) {
        notes.push_back("ncw does not apply to " + rules.method + "; ignored");
    } else if (options.ncw) {
        setup->ncw = makeNcwData(X, setup->gram, linear);
        setup->gram = setup->ncw->gram;
    }

    const bool negative = setup->gram->hasNegativeEntries();
    if (negative || options.generalForm) {
        if (!rules.generalForm && negative)
            throw std::invalid_argument(rules.method
                + "'s multiplicative updates need K >= 0, but this kernel has negative entries "
                  "(data with negative inner products) and "
                + rules.method
                + " has no general form; make the data non-negative (e.g. scale to [0, 1])");
        if (!rules.generalForm) {
            notes.push_back("the general form does not apply to " + rules.method + "; ignored");
        } else {
            const MatrixCRef data = setup->ncw ? MatrixCRef(setup->ncw->Xw) : X;
            setup->settings.generalForm = KernelSplit::make(*setup->gram, data);
            // The notes are built in place (emplace_back from the literal): moving a temporary
            // std::string into the vector made GCC 12 at -O3 warn here and below (-Warray-bounds,
            // a false positive in its inlined memcpy).
            notes.emplace_back(negative
                    ? "general form: min(K) < 0"
                    : "general form forced (K >= 0: same as the plain updates)");
        }
    }

    InitKind init = options.initSet ? options.init : rules.defaultInit;
    if (init == InitKind::Nmf && X.minCoeff() < 0) {
        if (options.initSet)
            throw std::invalid_argument("init nmf runs NMF on X and needs non-negative data; use "
                                        "random, nndsvd or kmeans");
        init = InitKind::Random;
        notes.emplace_back("init: random (the default nmf start needs non-negative data)");
    } else if (init != InitKind::Random) {
        notes.emplace_back("init: ").append(initName(init));
    }
    setup->settings.init = init;
    return setup;
}

MethodFactory cfFamilyFactory(
    MatrixCRef X, std::shared_ptr<const CfFamilySetup> setup, CfBuilder build)
{
    if (setup->ncw) {
        build(setup->ncw->Xw, *setup); // validates on the caller's thread
        return [setup, build] {
            return std::make_unique<Ncw>(setup->ncw, build(setup->ncw->Xw, *setup));
        };
    }
    build(X, *setup);
    return [X, setup, build] { return build(X, *setup); };
}

MethodFactory lccfFactory(MatrixCRef X, const MethodOptions& options, MethodContext& context,
    std::shared_ptr<const Graph> graph, double lambda)
{
    const auto setup
        = prepareCfFamily(X, options, context, { "LCCF", true, true, InitKind::Random });
    if (setup->ncw && graph)
        graph = ncwGraph(*graph, setup->ncw->d); // L' = Gamma^(-1/2) L Gamma^(-1/2)
    return cfFamilyFactory(
        X, setup, [graph, lambda, rank = options.rank](MatrixCRef data, const CfFamilySetup& s) {
            auto method = std::make_unique<Lccf>(data, s.gram, graph, rank, lambda);
            method->configure(s.settings);
            return method;
        });
}

} // namespace facet
