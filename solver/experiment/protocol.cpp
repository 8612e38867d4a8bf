// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/protocol.h"

#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <stdexcept>

namespace facet {

SweepParameter sweepParameterFromName(const std::string& name)
{
    if (name == "lambda")
        return SweepParameter::Lambda;
    if (name == "p")
        return SweepParameter::P;
    if (name == "beta")
        return SweepParameter::Beta;
    if (name == "rank" || name == "k")
        return SweepParameter::Rank;
    return SweepParameter::None;
}

std::string sweepParameterName(SweepParameter parameter)
{
    switch (parameter) {
    case SweepParameter::Lambda:
        return "lambda";
    case SweepParameter::P:
        return "p";
    case SweepParameter::Beta:
        return "beta";
    case SweepParameter::Rank:
        return "rank";
    case SweepParameter::None:
        break;
    }
    return "none";
}

void validateExperiment(const ExperimentOptions& options, int classCount)
{
    if (options.methods.empty())
        throw std::invalid_argument("an experiment needs at least one method");
    std::set<std::string> seen;
    for (const std::string& method : options.methods) {
        if (!findMethod(method))
            throw std::invalid_argument("unknown method '" + method + "'");
        if (!seen.insert(method).second)
            throw std::invalid_argument("method '" + method + "' is listed twice");
    }
    if (options.clusterCounts.empty())
        throw std::invalid_argument("an experiment needs at least one cluster count");
    std::set<int> counts;
    for (int c : options.clusterCounts) {
        if (c < 2 || c > classCount)
            throw std::invalid_argument("cluster count " + std::to_string(c)
                + " must be between 2 and the number of classes, " + std::to_string(classCount));
        if (!counts.insert(c).second)
            throw std::invalid_argument("cluster count " + std::to_string(c) + " is listed twice");
    }
    if (options.trials < 1)
        throw std::invalid_argument("trials must be >= 1");
    if (options.subruns < 1)
        throw std::invalid_argument("sub-runs must be >= 1");
    if (options.labeledFraction > 0 && options.labeledPerClass > 0)
        throw std::invalid_argument("give a labelled fraction or a count per class, not both");
    if (options.labeledFraction < 0 || options.labeledFraction >= 1)
        throw std::invalid_argument("the labelled fraction must be in (0, 1)");
    if (options.labeledPerClass < 0)
        throw std::invalid_argument("the labelled count per class must be >= 1");
    if (options.rankOffset < 0)
        throw std::invalid_argument("the rank offset must be >= 0");
    if (options.evaluate == EvaluateOn::Unlabeled && !options.semiSupervised())
        throw std::invalid_argument("evaluating on the unlabelled samples needs a labelled subset");
    if (!options.parameterSweep())
        return;
    if (options.parameterValues.empty())
        throw std::invalid_argument("a parameter sweep needs at least one value");
    const bool integral
        = options.parameter == SweepParameter::P || options.parameter == SweepParameter::Rank;
    for (double v : options.parameterValues) {
        if (!std::isfinite(v) || v < 0)
            throw std::invalid_argument(sweepParameterName(options.parameter)
                + " values must be finite and >= 0, got " + std::to_string(v));
        if (integral && (v < 1 || v != std::floor(v)))
            throw std::invalid_argument(sweepParameterName(options.parameter)
                + " values must be whole numbers >= 1, got " + std::to_string(v));
        if (options.parameter == SweepParameter::Beta && !(v > 0))
            throw std::invalid_argument("beta values must be > 0");
    }
}

void validateExperimentSizes(const ExperimentOptions& options, std::vector<int> classSizes)
{
    std::sort(classSizes.begin(), classSizes.end());
    for (int c : options.clusterCounts) {
        if (c > int(classSizes.size()))
            continue; // validateExperiment's to refuse
        long smallest = 0; // the samples of the c smallest classes: the smallest cell
        for (int j = 0; j < c; ++j)
            smallest += classSizes[std::size_t(j)];
        std::vector<double> ranks { double(c + options.rankOffset) };
        if (options.parameter == SweepParameter::Rank)
            ranks = options.parameterValues;
        for (double k : ranks)
            if (k > double(smallest))
                throw std::invalid_argument("rank " + std::to_string(long(k))
                    + " at c = " + std::to_string(c) + " exceeds the " + std::to_string(smallest)
                    + " samples of the " + std::to_string(c)
                    + " smallest classes, which a trial may draw");
    }
    if (options.evaluate == EvaluateOn::Unlabeled && options.labeledPerClass > 0
        && !classSizes.empty() && options.labeledPerClass >= classSizes.front())
        throw std::invalid_argument("a labelled count of " + std::to_string(options.labeledPerClass)
            + " per class labels every sample of the smallest class ("
            + std::to_string(classSizes.front())
            + "), leaving none to score among the unlabelled ones");
}

std::vector<ExperimentCell> planCells(const ExperimentOptions& options)
{
    std::vector<ExperimentCell> cells;
    for (int c : options.clusterCounts)
        for (int t = 0; t < options.trials; ++t)
            for (int v = 0; v < options.parameterCount(); ++v)
                for (const std::string& method : options.methods)
                    cells.push_back({ method, c, t, v });
    return cells;
}

std::uint64_t trialSeed(std::uint64_t experimentSeed, int clusters, int trial)
{
    // Distinct streams for every (c, trial) pair with c, trial < 2^32.
    return deriveSeed(experimentSeed, (std::uint64_t(clusters) << 32) | std::uint32_t(trial));
}

std::vector<int> drawClasses(int classCount, int clusters, std::uint64_t seed)
{
    if (clusters < 1 || clusters > classCount)
        throw std::invalid_argument("cannot draw " + std::to_string(clusters) + " of "
            + std::to_string(classCount) + " classes");
    std::vector<int> all(static_cast<std::size_t>(classCount));
    std::iota(all.begin(), all.end(), 0);
    Rng rng(seed);
    for (std::size_t i = 0; i < std::size_t(clusters); ++i)
        std::swap(all[i], all[i + rng.below(all.size() - i)]);
    all.resize(std::size_t(clusters));
    std::sort(all.begin(), all.end());
    return all;
}

} // namespace facet
