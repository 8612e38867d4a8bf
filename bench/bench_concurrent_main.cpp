// SPDX-License-Identifier: GPL-3.0-or-later
// facet-bench-concurrent: two solves in one process, as the explorer runs them (its 2-D demo's
// two panels, an experiment beside a run, a run still being cancelled beside its successor).
// bench/concurrent.sh measures two facet-cli processes; this measures two threads of one
// process, each running runAndCluster() with its own OpenMP team, the way the explorer's jobs do.
//
// Usage: facet-bench-concurrent FILE_A:RANK FILE_B:RANK [ITERATIONS] [METHOD]
// Prints, for 3 rounds: the time per iteration of A alone, B alone, A beside B (B runs three
// times as many iterations, so it outlasts A) and B beside a second B, with the ratios to the
// alone times. Time per iteration: from the run's time_history, after its first tenth (the
// start-up). The OpenMP wait is the explorer's (passive) unless the environment chooses one
// (OMP_WAIT_POLICY=active shows the runtime's spin). Numbers, never a pass/fail.
#include "data/dataset_source.h"
#include "experiment/run.h"
#include "util/openmp_environment.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

using namespace facet;

struct Input {
    Dataset data;
    int rank = 0;
};

Input load(const QString& argument)
{
    const qsizetype colon = argument.lastIndexOf(u':');
    if (colon <= 0) {
        std::fprintf(stderr, "expected FILE:RANK, got %s\n", qPrintable(argument));
        std::exit(2);
    }
    DatasetRequest request;
    request.spec = argument.left(colon);
    Result<Dataset> r = loadDataset(request);
    if (!r) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error()));
        std::exit(1);
    }
    return { std::move(*r), argument.mid(colon + 1).toInt() };
}

// Milliseconds per iteration of one solve of `iterations` iterations, after its first tenth.
double perIteration(const Input& in, const std::string& method, int iterations)
{
    RunOptions o;
    o.method = method;
    o.params.rank = in.rank;
    o.driver.maxIter = iterations;
    o.driver.minIter = 0;
    o.driver.tol = 0;
    o.driver.stationarityTol = 0;
    o.cluster.mode = ClusterMode::ArgMax;
    const RunResult r = runAndCluster(in.data.X, in.data.labels, o);
    const std::vector<double>& t = r.factorization.times;
    if (t.size() < 20)
        return 0;
    const std::size_t first = t.size() / 10;
    return (t.back() - t[first]) / double(t.size() - 1 - first) * 1e3;
}

} // namespace

int main(int argc, char** argv)
{
    ensureOpenMpWaitPolicy(argv, OpenMpUse::Shared);
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(stderr,
            "usage: facet-bench-concurrent FILE_A:RANK FILE_B:RANK [ITERATIONS] [METHOD]\n");
        return 2;
    }
    const Input a = load(args[1]);
    const Input b = load(args[2]);
    const int iterations = args.size() > 3 ? args[3].toInt() : 1000;
    const std::string method = args.size() > 4 ? args[4].toStdString() : "nmf";
    const char* wait = std::getenv("OMP_WAIT_POLICY");
    std::printf("method %s, %d iterations, OMP_WAIT_POLICY=%s\n", method.c_str(), iterations,
        wait ? wait : "(unset)");
    for (int round = 0; round < 3; ++round) {
        const double aAlone = perIteration(a, method, iterations);
        const double bAlone = perIteration(b, method, iterations);
        double aBeside = 0, bBeside1 = 0, bBeside2 = 0;
        {
            std::thread first([&] { aBeside = perIteration(a, method, iterations); });
            std::thread second([&] { perIteration(b, method, 3 * iterations); });
            first.join();
            second.join();
        }
        {
            std::thread first([&] { bBeside1 = perIteration(b, method, iterations); });
            std::thread second([&] { bBeside2 = perIteration(b, method, iterations); });
            first.join();
            second.join();
        }
        std::printf("A alone %.3f ms | B alone %.3f ms | A beside B %.3f ms (%.2fx) | B beside B "
                    "%.3f / %.3f ms (%.2fx / %.2fx)\n",
            aAlone, bAlone, aBeside, aBeside / aAlone, bBeside1, bBeside2, bBeside1 / bAlone,
            bBeside2 / bAlone);
    }
    return 0;
}
