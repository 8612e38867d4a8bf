// SPDX-License-Identifier: GPL-3.0-or-later
// facet-bench-float: the benchmark runner on the single-precision solver (facet_solver_float).
// `facet-cli bench --precision float` starts it; it is not meant to be run by hand. Datasets
// arrive as FACETDS1 files written by facet-cli (--data FILE) or are generated here (--gen
// gen:NxM, the same seeded values as in double); results go to stdout as "peaks" and "row"
// lines (bench/bench_wire.h), progress to stderr.
#include "bench/bench_wire.h"
#include "bench/lowrank_data.h"
#include "cli/bench_process_memory.h"
#include "core/openmp.h"
#include "util/openmp_environment.h"

#include <Eigen/Core>

#include <charconv>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace facet;

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> parts;
    std::istringstream in(text);
    for (std::string part; std::getline(in, part, ',');)
        if (!part.empty())
            parts.push_back(part);
    return parts;
}

int toInt(const std::string& text, const std::string& what)
{
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        throw std::invalid_argument(what + " expects a whole number, got '" + text + "'");
    return value;
}

struct Source {
    bool generated = false;
    std::string spec; // a file or gen:NxM
};

} // namespace

int main(int argc, char** argv)
{
    facet::ensureOpenMpWaitPolicy(argv, facet::OpenMpUse::Benchmark); // the runtime's spin
    try {
        BenchOptions options;
        std::vector<Source> sources;
        int threads = 0;
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            const auto value = [&]() -> std::string {
                if (i + 1 >= argc)
                    throw std::invalid_argument(arg + " needs a value");
                return argv[++i];
            };
            if (arg == "--data")
                sources.push_back({ false, value() });
            else if (arg == "--gen")
                sources.push_back({ true, value() });
            else if (arg == "--methods")
                options.methods = splitList(value());
            else if (arg == "--ranks")
                for (const std::string& r : splitList(value()))
                    options.ranks.push_back(toInt(r, "--ranks"));
            else if (arg == "--iterations")
                options.iterations = toInt(value(), arg);
            else if (arg == "--repeats")
                options.repeats = toInt(value(), arg);
            else if (arg == "--warmup")
                options.warmupIterations = toInt(value(), arg);
            else if (arg == "--seed")
                options.seed = std::uint64_t(toInt(value(), arg));
            else if (arg == "--threads")
                threads = toInt(value(), arg);
            else if (arg == "--no-score")
                options.score = false;
            else if (arg == "--ceilings-per-case")
                options.ceilingsPerCase = true;
            else if (arg == "--knn") {
                const std::string mode = value();
                options.knn = mode == "exact" ? KnnSearch::Exact
                    : mode == "approx"        ? KnnSearch::Approximate
                                              : KnnSearch::Auto;
            } else if (arg == "--init") {
                const std::string kind = value();
                if (kind == "random")
                    options.init = InitKind::Random;
                else if (kind == "nndsvd")
                    options.init = InitKind::Nndsvd;
                else if (kind == "nmf")
                    options.init = InitKind::Nmf;
                else if (kind == "kmeans")
                    options.init = InitKind::KMeans;
                else
                    throw std::invalid_argument("unknown --init '" + kind + "'");
            } else
                throw std::invalid_argument("unknown argument '" + arg + "'");
        }
        if (threads > 0)
            omp::setThreads(threads); // Eigen follows it (core/openmp.h)

        const MachinePeaks peaks = measureMachinePeaks();
        std::cout << formatMachinePeaks(peaks) << std::endl;
        BenchHooks hooks;
        hooks.resetPeakMemory = [] { cli::resetPeakResidentMemory(); };
        hooks.peakMemoryBytes = [] {
            const double bytes = cli::peakResidentMemoryBytes();
            return bytes > 0 ? bytes : processPeakMemoryBytes();
        };
        hooks.progress
            = [](const std::string& line) { std::cerr << "  float: " << line << std::endl; };
        for (const Source& source : sources) {
            BenchDataset data;
            if (source.generated) {
                const auto spec = parseLowRankName(source.spec);
                if (!spec)
                    throw std::invalid_argument("not a generated set: " + source.spec);
                LowRankData generated = makeLowRankData(*spec);
                data = { source.spec, std::move(generated.X), std::move(generated.labels) };
            } else {
                std::ifstream in(source.spec, std::ios::binary);
                if (!in)
                    throw std::runtime_error("cannot open " + source.spec);
                data = readBenchDataset(in);
            }
            for (const BenchRow& row :
                benchDataset(data.name, data.X, data.labels, options, peaks, hooks))
                std::cout << formatBenchRow(row) << std::endl;
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "facet-bench-float: " << e.what() << std::endl;
        return 1;
    }
}
