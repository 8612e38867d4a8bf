// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/bench_report.h"
#include "util/atomic_write.h"
#include "util/openmp_environment.h"

#include "bench/bench_wire.h"
#include "bench/lowrank_data.h"
#include "cli/bench_command.h"
#include "core/openmp.h"
#include "data/dataset_source.h"

#include <Eigen/Core>

#include <algorithm>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QSaveFile>
#include <QTemporaryDir>

#include <fstream>
#include <sstream>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

struct Alias {
    const char* spec;
    const char* name;
    const char* file;
};
// Deng Cai's 32x32 sets and the MNIST subset of ../shared/data (its README.md).
constexpr Alias kAliases[]
    = { { "orl", "ORL", "ORL_32x32.mat" }, { "yale", "Yale", "Yale_32x32.mat" },
          { "coil20", "COIL-20", "COIL20.mat" }, { "mnist", "MNIST-4000", "mnist.mat" } };

const Alias* findAlias(const QString& spec)
{
    for (const Alias& alias : kAliases)
        if (spec.compare(QLatin1StringView(alias.spec), Qt::CaseInsensitive) == 0)
            return &alias;
    return nullptr;
}

QString dataDir()
{
    return qEnvironmentVariable("FACET_DATA_DIR", u"../shared/data"_s);
}

QString fixed(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

QString optionalNumber(const std::optional<double>& value)
{
    return value ? fixed(*value, 3) : u"-"_s;
}

} // namespace

QString benchInputName(const QString& spec)
{
    if (const Alias* alias = findAlias(spec))
        return QLatin1StringView(alias->name).toString();
    return spec;
}

Result<BenchInput> loadBenchInput(const QString& spec)
{
    BenchInput input;
    input.spec = spec;
    input.name = benchInputName(spec);
    if (const auto generated = parseLowRankName(spec.toStdString())) {
        input.generated = true;
        LowRankData data = makeLowRankData(*generated);
        input.X = std::move(data.X);
        input.labels = std::move(data.labels);
        return input;
    }
    DatasetRequest request;
    const Alias* alias = findAlias(spec);
    request.spec = alias ? QDir(dataDir()).filePath(QLatin1StringView(alias->file)) : spec;
    if (alias && !QFileInfo::exists(request.spec))
        return Error { u"%1: %2 not found (set FACET_DATA_DIR to the folder of the public data "
                       "sets; default ../shared/data)"_s.arg(input.name, request.spec) };
    request.prepare = PrepareOptions { true, false };
    Result<Dataset> loaded = loadDataset(request);
    if (!loaded)
        return Error { loaded.error() };
    input.X = std::move(loaded->X);
    input.labels = std::move(loaded->labels);
    return input;
}

QString fileStem(const QString& name)
{
    QString stem = name;
    for (QChar& c : stem)
        if (!c.isLetterOrNumber() && c != u'-' && c != u'_')
            c = u'_';
    return stem;
}

Result<bool> writeNpy(const QString& path, MatrixCRef X)
{
    // NPY 1.0: magic, version, little-endian header length, a Python dict literal padded with
    // spaces and a newline so the data starts at a multiple of 64 bytes.
    QByteArray header = "{'descr': '<f8', 'fortran_order': False, 'shape': ("
        + QByteArray::number(qlonglong(X.cols())) + ", " + QByteArray::number(qlonglong(X.rows()))
        + "), }";
    const qsizetype preamble = 10;
    header.append(QByteArray(64 - (preamble + header.size() + 1) % 64, ' '));
    header.append('\n');
    QSaveFile file(path);
    if (Result<bool> opened = openOutputFile(file, path); !opened)
        return opened;
    file.write("\x93NUMPY\x01\x00", 8);
    const quint16 length = quint16(header.size());
    file.write(reinterpret_cast<const char*>(&length), 2);
    file.write(header);
    Eigen::MatrixXd block;
    for (Eigen::Index j = 0; j < X.cols(); j += 1024) {
        block = X.middleCols(j, std::min<Eigen::Index>(1024, X.cols() - j)).cast<double>();
        file.write(reinterpret_cast<const char*>(block.data()), qint64(block.size()) * 8);
    }
    return commitOutputFile(file, path); // a failed write leaves Qt's error for the commit
}

Result<FloatBenchOutput> runFloatBench(const std::vector<BenchInput>& inputs,
    const BenchOptions& options, int threads, QTextStream& progress)
{
    QString program = qEnvironmentVariable("FACET_BENCH_FLOAT");
    if (program.isEmpty())
        program = QDir(QCoreApplication::applicationDirPath()).filePath(u"facet-bench-float"_s);
    if (!QFileInfo(program).isExecutable())
        return Error {
            u"--precision float needs %1, which is not built: build it with `cmake --build "
            "--preset release --target facet-bench-float` (FACET_BUILD_FLOAT_BENCH=ON), "
            "or run scripts/test, which builds everything"_s.arg(program)
        };
    QTemporaryDir folder;
    if (!folder.isValid())
        return Error { u"cannot make a temporary folder: %1"_s.arg(folder.errorString()) };
    QStringList arguments;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const BenchInput& input = inputs[i];
        if (input.generated) {
            arguments << u"--gen"_s << input.spec;
            continue;
        }
        const QString path = folder.filePath(u"dataset%1.bin"_s.arg(i));
        std::ofstream out(QFile::encodeName(path).toStdString(), std::ios::binary);
        writeBenchDataset(out, input.name.toStdString(), input.X, input.labels);
        if (!out)
            return Error { u"cannot write %1"_s.arg(path) };
        arguments << u"--data"_s << path;
    }
    QStringList methods, ranks;
    for (const std::string& m : options.methods)
        methods << QString::fromStdString(m);
    for (const int r : options.ranks)
        ranks << QString::number(r);
    arguments << u"--methods"_s << methods.join(u',') << u"--iterations"_s
              << QString::number(options.iterations) << u"--repeats"_s
              << QString::number(options.repeats) << u"--warmup"_s
              << QString::number(options.warmupIterations) << u"--seed"_s
              << QString::number(options.seed) << u"--knn"_s
              << choiceName(kKnnSearchChoices, options.knn);
    if (!ranks.isEmpty())
        arguments << u"--ranks"_s << ranks.join(u',');
    if (threads > 0)
        arguments << u"--threads"_s << QString::number(threads);
    if (!options.score)
        arguments << u"--no-score"_s;
    if (options.init)
        arguments << u"--init"_s << choiceName(kInitChoices, *options.init);
    if (options.ceilingsPerCase)
        arguments << u"--ceilings-per-case"_s;

    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(program, arguments);
    if (!process.waitForStarted())
        return Error { u"cannot start %1: %2"_s.arg(program, process.errorString()) };
    process.waitForFinished(-1);
    progress.flush();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return Error { u"%1 failed (exit code %2)"_s.arg(program).arg(process.exitCode()) };
    FloatBenchOutput output;
    std::istringstream lines(process.readAllStandardOutput().toStdString());
    for (std::string line; std::getline(lines, line);) {
        if (auto peaks = parseMachinePeaks(line))
            output.peaks = *peaks;
        else if (auto row = parseBenchRow(line))
            output.rows.push_back(std::move(*row));
    }
    return output;
}

QString peaksLine(const MachinePeaks& p, const QString& precision)
{
    return u"machine (%1): GEMM %2^3 %3 GFLOP/s on %4 threads (%5 on 1), triad %6 GB/s"_s.arg(
        precision, QString::number(p.gemmSize), fixed(p.gemmGflops, 1), QString::number(p.threads),
        fixed(p.gemmGflopsOneThread, 1), fixed(p.triadGBs, 1));
}

QString benchTable(const std::vector<BenchRow>& rows)
{
    // The method column fits the longest entry ("lccf+gaussian+ncw" with its variants).
    int methodWidth = 8;
    for (const BenchRow& r : rows)
        methodWidth = std::max(methodWidth, int(r.method.size()));
    // "GEMM" and "triad": the ceilings (GFLOP/s, GB/s) the row's limit was computed from.
    QString table = u"%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13\n"_s.arg(u"dataset"_s, -14)
                        .arg(u"method"_s, -methodWidth)
                        .arg(u"prec"_s, -6)
                        .arg(u"k"_s, 3)
                        .arg(u"ms/iter"_s, 9)
                        .arg(u"GFLOP/s"_s, 8)
                        .arg(u"limit ms"_s, 9)
                        .arg(u"of limit"_s, 8)
                        .arg(u"GEMM"_s, 5)
                        .arg(u"triad"_s, 5)
                        .arg(u"peak MiB"_s, 9)
                        .arg(u"AC"_s, 6)
                        .arg(u"NMI"_s, 6);
    for (const BenchRow& r : rows) {
        const QString name = QString::fromStdString(r.dataset);
        if (!r.error.empty()) {
            table += u"%1 %2 %3 %4 error: %5\n"_s.arg(name, -14)
                         .arg(QString::fromStdString(r.method), -methodWidth)
                         .arg(QString::fromStdString(r.precision), -6)
                         .arg(r.rank, 3)
                         .arg(QString::fromStdString(r.error));
            continue;
        }
        table += u"%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13\n"_s.arg(name, -14)
                     .arg(QString::fromStdString(r.method), -methodWidth)
                     .arg(QString::fromStdString(r.precision), -6)
                     .arg(r.rank, 3)
                     .arg(fixed(r.msPerIteration, 3), 9)
                     .arg(r.modelled ? fixed(r.gflops, 1) : u"-"_s, 8)
                     .arg(r.modelled ? fixed(r.limitMs, 3) : u"-"_s, 9)
                     .arg(r.modelled ? fixed(r.limitFraction, 2) : u"-"_s, 8)
                     .arg(r.modelled ? fixed(r.gemmGflops, 0) : u"-"_s, 5)
                     .arg(r.modelled ? fixed(r.triadGBs, 0) : u"-"_s, 5)
                     .arg(fixed(r.peakMemoryBytes / 1048576.0, 0), 9)
                     .arg(optionalNumber(r.ac), 6)
                     .arg(optionalNumber(r.nmi), 6);
    }
    return table;
}

QJsonObject benchRowJson(const BenchRow& r)
{
    QJsonObject o { { u"dataset"_s, QString::fromStdString(r.dataset) },
        { u"method"_s, QString::fromStdString(r.method) },
        { u"precision"_s, QString::fromStdString(r.precision) }, { u"rank"_s, r.rank },
        { u"m"_s, qint64(r.m) }, { u"n"_s, qint64(r.n) }, { u"iterations"_s, r.iterations },
        { u"repeats"_s, r.repeats } };
    if (!r.error.empty()) {
        o[u"error"_s] = QString::fromStdString(r.error);
        return o;
    }
    o[u"ms_per_iteration"_s] = r.msPerIteration;
    o[u"ms_min"_s] = r.msMin;
    o[u"ms_max"_s] = r.msMax;
    o[u"setup_seconds"_s] = r.setupSeconds;
    o[u"explicit_kernel"_s] = r.explicitKernel;
    o[u"fused_passes"_s] = r.fusedPasses;
    if (!r.knnSearch.empty()) {
        o[u"knn_search"_s] = QString::fromStdString(r.knnSearch);
        o[u"graph_seconds"_s] = r.graphSeconds;
        o[u"graph_nonzeros"_s] = qint64(r.graphNonZeros);
    }
    if (r.modelled) {
        o[u"flops_per_iteration"_s] = r.flopsPerIteration;
        o[u"bytes_per_iteration"_s] = r.bytesPerIteration;
        o[u"gflops"_s] = r.gflops;
        o[u"roofline_limit_ms"_s] = r.limitMs;
        o[u"fraction_of_limit"_s] = r.limitFraction;
        o[u"ceiling_gemm_gflops"_s] = r.gemmGflops;
        o[u"ceiling_triad_gb_per_s"_s] = r.triadGBs;
    }
    o[u"peak_resident_bytes"_s] = r.peakMemoryBytes;
    o[u"objective"_s] = r.objective;
    if (r.ac)
        o[u"ac"_s] = *r.ac;
    if (r.nmi)
        o[u"nmi"_s] = *r.nmi;
    return o;
}

QJsonObject peaksJson(const MachinePeaks& p)
{
    return { { u"threads"_s, p.threads }, { u"gemm_size"_s, qint64(p.gemmSize) },
        { u"gemm_gflops"_s, p.gemmGflops }, { u"gemm_gflops_one_thread"_s, p.gemmGflopsOneThread },
        { u"triad_gb_per_s"_s, p.triadGBs }, { u"triad_elements"_s, qint64(p.triadElements) } };
}

QJsonObject knnRecallJson(const QString& dataset, const KnnRecall& r)
{
    return { { u"dataset"_s, dataset }, { u"n"_s, qint64(r.n) }, { u"p"_s, r.p },
        { u"exact_seconds"_s, r.exactSeconds }, { u"approximate_seconds"_s, r.approximateSeconds },
        { u"recall"_s, r.recall }, { u"exact_peak_bytes"_s, r.exactPeakBytes },
        { u"approximate_peak_bytes"_s, r.approximatePeakBytes } };
}

QString loadAverage()
{
    QFile file(u"/proc/loadavg"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.readLine()).section(u' ', 0, 2);
}

QJsonObject openMpWaitJson()
{
    QJsonObject wait;
    for (const char* name : kOpenMpWaitVariables) {
        const QByteArray value = qgetenv(name);
        wait.insert(QString::fromLatin1(name),
            value.isEmpty() ? QJsonValue() : QJsonValue(QString::fromLocal8Bit(value)));
    }
    return wait;
}

QJsonObject machineJson()
{
    QString cpu;
    QFile info(u"/proc/cpuinfo"_s);
    if (info.open(QIODevice::ReadOnly))
        for (QByteArray line = info.readLine(); !line.isEmpty(); line = info.readLine())
            if (line.startsWith("model name")) {
                cpu = QString::fromLatin1(line.mid(line.indexOf(':') + 1)).trimmed();
                break;
            }
    return { { u"cpu"_s, cpu }, { u"eigen_threads"_s, Eigen::nbThreads() },
        { u"omp_max_threads"_s, omp::maxThreads() }, { u"load_average"_s, loadAverage() },
        { u"simd"_s, QString::fromLatin1(Eigen::SimdInstructionSetsInUse()) },
        { u"openmp_wait"_s, openMpWaitJson() } };
}

} // namespace facet::cli
