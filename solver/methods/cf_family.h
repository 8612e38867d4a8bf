// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "methods/cf.h"
#include "methods/ncw.h"
#include "methods/registry.h"

#include <functional>
#include <memory>
#include <string>

namespace facet {

// Registry support shared by the CF-family entries (cf, lccf, lcf, ccf): the kernel (1.7), NCW
// (1.7), the general form (1.4) and the start (section 0), prepared once per data set.

// What a method accepts of those options.
struct CfFamilyRules {
    std::string method; // for messages and notes: "CF", "LCCF", ...
    bool generalForm = true; // 1.4 applies; otherwise K must be >= 0
    bool ncw = false; // 1.7 NCW applies
    InitKind defaultInit = InitKind::Random; // used when !options.initSet
};

struct CfFamilySetup {
    std::shared_ptr<const Gram> gram; // the kernel, K' = Gamma^(1/2) K Gamma^(1/2) under NCW
    CfSettings settings; // start, general form, notes for the run log
    std::shared_ptr<const NcwData> ncw; // set under NCW: build the method on ncw->Xw
};

// Builds the kernel (the linear one is shared through context.gram), applies NCW, chooses the
// general form when min(K) < 0 or options.generalForm asks for it ("general form: min(K) < 0" /
// "general form forced" in the notes), and resolves the start (an nmf start on data with negative
// entries falls back to random when it was only the default, and is refused when asked for).
// Options that do not apply to the method are ignored with a note. Throws
// std::invalid_argument with the broken rule (K < 0 without a general form, sizes beyond the
// memory budget, bad kernel parameters, rank out of [1, n]).
std::shared_ptr<const CfFamilySetup> prepareCfFamily(
    MatrixCRef X, const MethodOptions& options, MethodContext& context, const CfFamilyRules& rules);

// Makes one method on the data it is given (X, or X' under NCW) with setup.gram and
// setup.settings (for a Cf subclass whose constructor takes no settings: configure()).
using CfBuilder = std::function<std::unique_ptr<Method>(MatrixCRef X, const CfFamilySetup& setup)>;

// The driver's factory: builds one method now (validation on the caller's thread), and wraps
// every method in Ncw when setup->ncw is set. X must outlive the factory.
MethodFactory cfFamilyFactory(
    MatrixCRef X, std::shared_ptr<const CfFamilySetup> setup, CfBuilder build);

// The whole LCCF entry but the graph, for graph_methods.cpp: kernels, the general form (Q+ / Q-
// with lambda D V / lambda S V), the start, and NCW with the graph weighted by ncwGraph().
// graph: the kNN graph of X (unweighted by NCW); lambda validated by the caller.
MethodFactory lccfFactory(MatrixCRef X, const MethodOptions& options, MethodContext& context,
    std::shared_ptr<const Graph> graph, double lambda);

} // namespace facet
