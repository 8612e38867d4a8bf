// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_command.h"

#include "bench/knn_recall.h"
#include "cli/bench_process_memory.h"
#include "cli/bench_report.h"
#include "cli/cli_option_readers.h"
#include "cli/commands.h"
#include "core/openmp.h"
#include "data/dataset_source.h"
#include "util/atomic_write.h"

#include <Eigen/Core>

#include <QDir>
#include <QJsonArray>

#include <algorithm>
#include <limits>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

// The sets of issue 7: the four real ones, then two generated sets that leave the caches.
const QStringList kDefaultDatasets { u"orl"_s, u"yale"_s, u"coil20"_s, u"mnist"_s,
    u"gen:20000x784"_s, u"gen:70000x1024"_s };

Result<int> positive(const QCommandLineParser& p, const QString& name, int minimum)
{
    bool ok = false;
    const int value = p.value(name).toInt(&ok);
    if (!ok || value < minimum)
        return Error { u"--%1 expects a whole number >= %2, got '%3'"_s.arg(name).arg(minimum).arg(
            p.value(name)) };
    return value;
}

QStringList listValue(const QString& text)
{
    QStringList items;
    for (const QString& item : text.split(u',', Qt::SkipEmptyParts))
        items << item.trimmed();
    return items;
}

// The benchmark's own L2 preparation of X for the kNN recall when no CF-family method ran.
void normalizeColumns(Matrix& X)
{
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        if (const Scalar norm = X.col(j).norm(); norm > 0)
            X.col(j) /= norm;
}

} // namespace

void addBenchOptions(QCommandLineParser& p)
{
    p.addOptions({
        { u"datasets"_s, u"Datasets"_s, u"list"_s, kDefaultDatasets.join(u',') },
        { u"methods"_s, u"Methods"_s, u"list"_s, u"nmf,gnmf,cnmf,cf,lccf,lcf,ccf,kmeans,pca"_s },
        { u"ranks"_s, u"Ranks"_s, u"list"_s },
        { u"precision"_s, u"double or float"_s, u"p"_s, u"double"_s },
        { u"iterations"_s, u"Timed iterations per repeat"_s, u"n"_s, u"50"_s },
        { u"repeats"_s, u"Repeats"_s, u"r"_s, u"3"_s },
        { u"warmup"_s, u"Warm-up iterations"_s, u"n"_s, u"3"_s },
        { u"seed"_s, u"Seed"_s, u"s"_s, u"0"_s },
        { u"knn"_s, u"kNN search"_s, u"mode"_s, u"auto"_s },
        { u"init"_s, u"Start of every method"_s, u"kind"_s },
        { u"knn-recall"_s, u"Measure the HNSW recall"_s },
        { u"no-timing"_s, u"Skip the timings"_s },
        { u"no-score"_s, u"Skip AC/NMI"_s },
        { u"export-npy"_s, u"Write each dataset as .npy"_s, u"dir"_s },
        { u"threads"_s, u"Threads"_s, u"t"_s, u"0"_s },
        { u"ceilings"_s, u"When to measure the ceilings"_s, u"when"_s, u"case"_s },
        { u"json"_s, u"JSON output"_s, u"file"_s },
    });
}

Result<bool> readBenchOptions(const QCommandLineParser& p, CliOptions& o)
{
    if (!p.positionalArguments().isEmpty())
        return Error { u"bench: unexpected argument '%1'"_s.arg(p.positionalArguments().first()) };
    BenchCliOptions& b = o.bench;
    b.datasets = listValue(p.value(u"datasets"_s));
    if (b.datasets.isEmpty())
        return Error { u"--datasets expects a list such as orl,coil20,gen:20000x784"_s };
    for (const QString& spec : b.datasets)
        if (spec.startsWith(u"gen:"_s))
            if (const QString problem = generatedSpecProblem(spec); !problem.isEmpty())
                return Error { u"--datasets: %1"_s.arg(problem) };
    b.run.methods.clear();
    for (const QString& method : listValue(p.value(u"methods"_s).toLower())) {
        try {
            b.run.methods.push_back(parseBenchMethod(method.toStdString()).label());
        } catch (const std::invalid_argument& e) {
            return Error { u"--methods: %1 (see: facet-cli help bench)"_s.arg(
                QString::fromStdString(e.what())) };
        }
    }
    for (const QString& rank : listValue(p.value(u"ranks"_s))) {
        bool ok = false;
        const int k = rank.toInt(&ok);
        if (!ok || k < 1)
            return Error { u"--ranks expects whole numbers >= 1, got '%1'"_s.arg(rank) };
        b.run.ranks.push_back(k);
    }
    const QString precision = p.value(u"precision"_s);
    if (precision != u"double" && precision != u"float")
        return Error { u"--precision must be double or float, got '%1'"_s.arg(precision) };
    b.singlePrecision = precision == u"float";
    const Result<int> iterations = positive(p, u"iterations"_s, 2);
    const Result<int> repeats = positive(p, u"repeats"_s, 1);
    const Result<int> warmup = positive(p, u"warmup"_s, 0);
    const Result<int> seed = positive(p, u"seed"_s, 0);
    const Result<int> threads = positive(p, u"threads"_s, 0);
    for (const Result<int>* r : { &iterations, &repeats, &warmup, &seed, &threads })
        if (!*r)
            return Error { r->error() };
    b.run.iterations = *iterations;
    b.run.repeats = *repeats;
    b.run.warmupIterations = *warmup;
    b.run.seed = std::uint64_t(*seed);
    o.threads = *threads;
    const Result<KnnSearch> knn = readChoice(p, u"knn"_s, kKnnSearchChoices);
    if (!knn)
        return Error { knn.error() };
    b.run.knn = *knn;
    if (p.isSet(u"init"_s)) {
        const Result<InitKind> init = readChoice(p, u"init"_s, kInitChoices);
        if (!init)
            return Error { init.error() };
        b.run.init = *init;
    }
    const QString ceilings = p.value(u"ceilings"_s);
    if (ceilings != u"case" && ceilings != u"once")
        return Error { u"--ceilings must be case or once, got '%1'"_s.arg(ceilings) };
    b.run.ceilingsPerCase = ceilings == u"case";
    b.run.score = !p.isSet(u"no-score"_s);
    b.knnRecall = p.isSet(u"knn-recall"_s);
    b.timing = !p.isSet(u"no-timing"_s);
    b.exportNpyDir = p.value(u"export-npy"_s);
    o.jsonPath = p.value(u"json"_s);
    if (o.jsonPath.isEmpty() && b.timing)
        return Error { u"bench needs --json OUT (see: facet-cli help bench)"_s };
    if (o.jsonPath == QLatin1String(kStandardOutputPath))
        return Error { u"bench prints its tables on standard output: give --json a file"_s };
    return true;
}

QString benchUsage()
{
    return u"Usage: facet-cli bench [options] --json OUT\n"
           "  Times each method x dataset x rank: the median over repeats of the ms per\n"
           "  iteration (after a warm-up), GFLOP/s from the method's flop count, the roofline\n"
           "  limit max(flops / GEMM peak, bytes / triad bandwidth) measured in the same run,\n"
           "  and the peak resident memory. Never pass/fail on time: see bench/RESULTS.md.\n"
           "  A case that cannot run (say, a rank above the samples) is an error row; the\n"
           "  exit code is 1 when no case ran.\n"
           "  --datasets LIST      orl, yale, coil20, mnist (in $FACET_DATA_DIR, default\n"
           "                       ../shared/data), gen:NxM (n samples, m features, generated),\n"
           "                       or a dataset path (default: orl,yale,coil20,mnist,\n"
           "                       gen:20000x784,gen:70000x1024)\n"
           "  --methods LIST       (nmf,gnmf,cnmf,cf,lccf,lcf,ccf,kmeans,pca; kmeans: one\n"
           "                       Lloyd round per iteration, pca: one whole solve; also\n"
           "                       cf-ogl: one outer iteration); an entry may add variants:\n"
           "                       +gaussian or +polynomial (a formed kernel, CF family) and\n"
           "                       +ncw (nmf, cf, lccf), e.g. cf+gaussian,lccf+ncw\n"
           "  --ranks LIST         (default: each dataset's number of classes)\n"
           "  --precision P        double (default) or float (runs facet-bench-float)\n"
           "  --iterations N       timed iterations per repeat (50), --repeats R (3),\n"
           "  --warmup N           iterations of the untimed first run (3), --seed S (0)\n"
           "  --knn MODE           kNN search of the graph methods: exact, approx or auto\n"
           "  --init KIND          start of every method: random, nndsvd, nmf or kmeans\n"
           "                       (default: each method's own, random; nmf for ccf)\n"
           "  --knn-recall         also time the exact and the HNSW kNN search (p = 5) on each\n"
           "                       dataset and print the recall of HNSW\n"
           "  --no-timing          only the recall and / or the export\n"
           "  --no-score           skip AC/NMI (k-means on V after the last repeat)\n"
           "  --export-npy DIR     write each dataset as DIR/NAME.npy (n x m float64), the data\n"
           "                       bench/compare_sklearn.sh hands to scikit-learn\n"
           "  --threads T          threads (default: all cores)\n"
           "  --ceilings WHEN      case (default): measure the GEMM and triad ceilings again\n"
           "                       before each case and judge it against them; once: only at\n"
           "                       the start of the run\n"_s;
}

int runBench(const CliOptions& options, QTextStream& out, QTextStream& err)
{
    const BenchCliOptions& b = options.bench;
    if (options.threads > 0) {
        omp::setThreads(options.threads); // Eigen follows it (core/openmp.h)
    }
    // Every choice that determines the numbers, so that the file says how to reproduce them.
    QJsonObject report { { u"machine"_s, machineJson() },
        { u"options"_s,
            QJsonObject { { u"iterations"_s, b.run.iterations }, { u"repeats"_s, b.run.repeats },
                { u"warmup"_s, b.run.warmupIterations }, { u"seed"_s, qint64(b.run.seed) },
                { u"knn"_s, choiceName(kKnnSearchChoices, b.run.knn) },
                { u"init"_s, b.run.init ? choiceName(kInitChoices, *b.run.init) : u"default"_s },
                { u"threads"_s, options.threads }, { u"labeled_fraction"_s, b.run.labeledFraction },
                { u"kmeans_replicates"_s, b.run.kmeansReplicates },
                { u"ceilings"_s, b.run.ceilingsPerCase ? u"case"_s : u"once"_s } } } };
    out << "facet-cli bench: Eigen " << Eigen::nbThreads() << " threads, OpenMP "
        << omp::maxThreads() << ", " << Eigen::SimdInstructionSetsInUse() << ", load average "
        << loadAverage() << '\n';
    out.flush();
    if (!b.exportNpyDir.isEmpty() && !QDir().mkpath(b.exportNpyDir)) {
        err << "facet-cli: cannot create " << b.exportNpyDir << Qt::endl;
        return kExitFailure;
    }

    const bool doubleTiming = b.timing && !b.singlePrecision;
    MachinePeaks peaks;
    if (doubleTiming) {
        peaks = measureMachinePeaks();
        out << peaksLine(peaks, u"double"_s) << '\n';
        out.flush();
    }
    BenchHooks hooks;
    hooks.resetPeakMemory = [] { resetPeakResidentMemory(); };
    hooks.peakMemoryBytes = [] {
        const double bytes = peakResidentMemoryBytes();
        return bytes > 0 ? bytes : processPeakMemoryBytes();
    };
    hooks.progress = [&err](const std::string& line) {
        err << "  " << QString::fromStdString(line) << Qt::endl;
    };

    std::vector<BenchRow> rows;
    std::vector<BenchInput> floatInputs;
    QJsonArray recalls;
    for (const QString& spec : b.datasets) {
        // A generated set for the float run is generated by facet-bench-float itself.
        const bool floatGen = b.singlePrecision && b.timing && b.exportNpyDir.isEmpty()
            && !b.knnRecall && spec.startsWith(u"gen:"_s);
        if (floatGen) {
            floatInputs.push_back({ benchInputName(spec), spec, true, {}, {} });
            continue;
        }
        err << "loading " << spec << Qt::endl;
        Result<BenchInput> input = loadBenchInput(spec);
        if (!input) {
            err << "facet-cli: " << input.error() << Qt::endl;
            return kExitFailure;
        }
        if (!b.exportNpyDir.isEmpty()) {
            const QString path = QDir(b.exportNpyDir).filePath(fileStem(input->name) + u".npy"_s);
            if (const Result<bool> written = writeNpy(path, input->X); !written) {
                err << "facet-cli: " << written.error() << Qt::endl;
                return kExitFailure;
            }
            out << "wrote " << path << '\n';
        }
        if (doubleTiming) {
            for (BenchRow& row : benchDataset(
                     input->name.toStdString(), input->X, input->labels, b.run, peaks, hooks))
                rows.push_back(std::move(row));
        } else if (b.singlePrecision && b.timing) {
            floatInputs.push_back(*input); // before the recall normalizes X
        }
        if (b.knnRecall) {
            // On the data LCCF's graph is built from: unit-norm samples (idempotent when the CF
            // pass already normalized X).
            normalizeColumns(input->X);
            const KnnRecall recall = measureKnnRecall(input->X, MethodOptions {}.p, b.run.seed,
                hooks.resetPeakMemory, hooks.peakMemoryBytes);
            const auto mib
                = [](double bytes) { return QString::number(bytes / 1048576.0, 'f', 0); };
            out << "kNN " << input->name << " (n = " << recall.n << ", p = " << recall.p
                << "): exact " << QString::number(recall.exactSeconds, 'f', 2) << " s (peak "
                << mib(recall.exactPeakBytes) << " MiB), HNSW "
                << QString::number(recall.approximateSeconds, 'f', 2) << " s (peak "
                << mib(recall.approximatePeakBytes) << " MiB), recall "
                << QString::number(recall.recall, 'f', 4) << '\n';
            out.flush();
            recalls.append(knnRecallJson(input->name, recall));
        }
    }
    if (b.singlePrecision && b.timing) {
        Result<FloatBenchOutput> run = runFloatBench(floatInputs, b.run, options.threads, err);
        if (!run) {
            err << "facet-cli: " << run.error() << Qt::endl;
            return kExitFailure;
        }
        peaks = run->peaks;
        rows = std::move(run->rows);
        out << peaksLine(peaks, u"float"_s) << '\n';
    }
    if (b.timing) {
        out << benchTable(rows);
        QJsonArray jsonRows;
        for (const BenchRow& row : rows)
            jsonRows.append(benchRowJson(row));
        report[u"peaks"_s] = peaksJson(peaks);
        report[u"rows"_s] = jsonRows;
        report[u"precision"_s] = b.singlePrecision ? u"float"_s : u"double"_s;
    }
    if (!recalls.isEmpty())
        report[u"knn_recall"_s] = recalls;
    report[u"load_average_end"_s] = loadAverage();
    out << "load average at the end: " << loadAverage() << '\n';
    out.flush();
    if (!options.jsonPath.isEmpty()) {
        if (const Result<bool> written = writeJsonFile(options.jsonPath, report); !written) {
            err << "facet-cli: " << written.error() << Qt::endl;
            return kExitFailure;
        }
    }
    // A case that could not run is a row of its own (a kernel's refusal of a K that does not
    // fit is such a row by design), and the rest of the table stands. When no case ran, nothing
    // was measured: that is a failure, not a table.
    const auto failed
        = std::ranges::count_if(rows, [](const BenchRow& r) { return !r.error.empty(); });
    if (failed > 0) {
        err << "facet-cli: " << failed << " of " << rows.size()
            << " case(s) could not run: see their error rows" << Qt::endl;
        if (failed == qsizetype(rows.size()))
            return kExitFailure;
    }
    return kExitOk;
}

} // namespace facet::cli
