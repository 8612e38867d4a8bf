// SPDX-License-Identifier: GPL-3.0-or-later
// Registry entries of lcf, cnmf, ccf (METHODS.md 1.5, 2.1, 2.2).
#include "methods/ccf.h"
#include "methods/cf_family.h"
#include "methods/cnmf.h"
#include "methods/lcf.h"
#include "methods/registry.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

// LCF takes any kernel with K >= 0; it has no general form and no NCW form.
MethodFactory makeLcf(MatrixCRef X, const MethodOptions& o, MethodContext& context)
{
    const double lambda = o.lambda.value_or(kDefaultLcfLambda); // METHODS.md 1.5: the paper's
    if (!(lambda >= 0) || !std::isfinite(lambda))
        throw std::invalid_argument(
            "lambda must be finite and >= 0, got " + std::to_string(lambda));
    const auto setup = prepareCfFamily(X, o, context, { "LCF", false, false, InitKind::Random });
    return cfFamilyFactory(X, setup,
        [rank = o.rank, lambda, each = o.normalizeEach](MatrixCRef data, const CfFamilySetup& s) {
            return std::make_unique<Lcf>(data, s.gram, rank, lambda, each, s.settings);
        });
}

// CNMF factors X itself (X >= 0); kernels, NCW and the general form do not concern it.
MethodFactory makeCnmf(MatrixCRef X, const MethodOptions& o, MethodContext&)
{
    const auto A
        = std::make_shared<const ConstraintMatrix>(o.knownLabels, X.cols(), currentDistribution());
    Cnmf probe(X, o.rank, A, o.init); // validates on the caller's thread
    return
        [X, rank = o.rank, A, init = o.init] { return std::make_unique<Cnmf>(X, rank, A, init); };
}

// CCF: kernels and the general form as CF; starts from a short NMF run unless told otherwise.
MethodFactory makeCcf(MatrixCRef X, const MethodOptions& o, MethodContext& context)
{
    const auto A
        = std::make_shared<const ConstraintMatrix>(o.knownLabels, X.cols(), currentDistribution());
    const auto setup = prepareCfFamily(X, o, context, { "CCF", true, false, InitKind::Nmf });
    return cfFamilyFactory(X, setup, [rank = o.rank, A](MatrixCRef data, const CfFamilySetup& s) {
        return std::make_unique<Ccf>(data, s.gram, rank, A, s.settings);
    });
}

} // namespace

void appendLocalityAndLabelMethods(std::vector<MethodEntry>& table)
{
    table.push_back({ { "lcf", "Locality-constrained CF (Liu, Yang & Wu)",
                          "min ||X - X W V^T||^2 + lambda sum_ij v_ij ||X w_j - x_i||^2 over "
                          "W, V >= 0",
                          false, true },
        makeLcf });
    table.push_back(
        { { "cnmf", "Constrained NMF (Liu & Wu)",
              "min ||X - U Z^T A^T||^2 over U, Z >= 0, V = A Z (known labels)", true, false, true },
            makeCnmf });
    table.push_back({ { "ccf", "Constrained CF (Liu, Yang, Wu & Cai)",
                          "min ||X - X W Z^T A^T||^2 over W, Z >= 0, V = A Z (known labels)", false,
                          true, true },
        makeCcf });
}

} // namespace facet
