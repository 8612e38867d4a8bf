// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_writer.h"

#include "data/image_set.h"
#include "data/mat_loader.h"
#include "data/mat_loader_structure.h"
#include "util/atomic_write.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>

#include <matio.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace facet {
namespace {

struct MatCloser {
    void operator()(mat_t* mat) const { Mat_Close(mat); }
};

// Writes one 2-D variable of `rows` x `cols` elements of `type`, in MATLAB's column-major order.
Result<bool> writeMatrix(mat_t* mat, const char* name, matio_classes classType, matio_types type,
    std::size_t rows, std::size_t cols, void* values)
{
    std::size_t dims[2] = { rows, cols };
    matvar_t* var = Mat_VarCreate(name, classType, type, 2, dims, values, 0);
    if (!var)
        return Error {
            QStringLiteral("could not create the variable '%1'").arg(QLatin1String(name))
        };
    // MAT 7.3 uncompressed (writeDatasetMat): a hyperslab of it reads only its own bytes.
    const int failed = Mat_VarWrite(mat, var,
        Mat_GetVersion(mat) == MAT_FT_MAT73 ? MAT_COMPRESSION_NONE : MAT_COMPRESSION_ZLIB);
    Mat_VarFree(var);
    if (failed)
        return Error { QStringLiteral("could not write the variable '%1' (disk full?)")
                           .arg(QLatin1String(name)) };
    return true;
}

// One n x m double matrix given in MATLAB's column-major element order.
Result<bool> writeVariable(
    mat_t* mat, const char* name, std::size_t rows, std::size_t cols, std::vector<double>& values)
{
    return writeMatrix(mat, name, MAT_C_DOUBLE, MAT_T_DOUBLE, rows, cols, values.data());
}

// A char row vector of UTF-16 code units, as MATLAB itself stores text.
Result<bool> writeText(mat_t* mat, const char* name, const QString& text)
{
    std::vector<char16_t> units(text.utf16(), text.utf16() + text.size());
    return writeMatrix(mat, name, MAT_C_CHAR, MAT_T_UINT16, 1, units.size(), units.data());
}

bool isImage(const Dataset& data)
{
    return data.height > 1
        && std::size_t(data.height) * std::size_t(data.width) == std::size_t(data.features());
}

// `gnd` as writeDatasetMat writes it: the class names when they are distinct integers, else
// 1..c. Names that are numbers but not distinct integers ("1", "1.0" and "01", three classes of
// a list file) were written as one value, gnd = 1 for every sample; "1.5" as a label the loader
// refuses.
std::vector<double> fileClasses(const Dataset& data)
{
    std::vector<double> numbers;
    if (classNamesAreNumbers(data.classNames)) {
        for (const QString& name : data.classNames) {
            const double v = name.trimmed().toDouble();
            if (v != std::floor(v) || std::abs(v) > 1e15) {
                numbers.clear();
                break;
            }
            numbers.push_back(v);
        }
        std::vector<double> sorted = numbers;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            numbers.clear();
    }
    std::vector<double> gnd(data.labels.size());
    for (std::size_t i = 0; i < gnd.size(); ++i) {
        const int label = data.labels[i];
        gnd[i] = numbers.empty() ? double(label + 1) : numbers[std::size_t(label)];
    }
    return gnd;
}

Result<bool> writeImageSize(mat_t* mat, const Dataset& data)
{
    std::vector<double> height { double(data.height) }, width { double(data.width) };
    if (auto r = writeVariable(mat, "im_height", 1, 1, height); !r)
        return r;
    return writeVariable(mat, "im_width", 1, 1, width);
}

// The rows of M (one per pixel, row-major as in X) in the file's pixel order, as MATLAB's
// column-major elements of that matrix or, with `transpose`, of its transpose (fea: one sample
// per row, fea(i, p) at p * n + i).
std::vector<double> inFilePixelOrder(const Matrix& M, const Dataset& data, bool transpose)
{
    const auto rows = std::size_t(M.rows()), cols = std::size_t(M.cols());
    std::vector<double> out(rows * cols);
    for (std::size_t p = 0; p < rows; ++p) {
        const Eigen::Index feature = featureOfFilePixel(p, data);
        for (std::size_t j = 0; j < cols; ++j)
            out[transpose ? p * cols + j : j * rows + p] = double(M(feature, Eigen::Index(j)));
    }
    return out;
}

Result<bool> writeAll(mat_t* mat, const Dataset& data)
{
    const auto n = std::size_t(data.samples()), m = std::size_t(data.features());
    std::vector<double> fea = inFilePixelOrder(data.X, data, true);
    if (auto r = writeVariable(mat, "fea", n, m, fea); !r)
        return r;
    fea = {};
    // Missing entries: `mask` of fea's shape and order, which --mask reads back.
    if (data.hasMask()) {
        std::vector<double> mask = inFilePixelOrder(data.weights, data, true);
        if (auto r = writeVariable(mat, "mask", n, m, mask); !r)
            return r;
    }

    if (data.hasLabels()) {
        std::vector<double> gnd = fileClasses(data);
        if (auto r = writeVariable(mat, "gnd", n, 1, gnd); !r)
            return r;
    }
    if (isImage(data) && data.height != data.width)
        return writeImageSize(mat, data);
    return true;
}

// A column-major copy of an n x k factor, for writeVariable.
std::vector<double> columnMajor(const Matrix& factor)
{
    std::vector<double> values(std::size_t(factor.size()));
    Eigen::Map<Eigen::MatrixXd>(values.data(), factor.rows(), factor.cols())
        = factor.cast<double>();
    return values;
}

Result<bool> writeFactors(
    mat_t* mat, const Dataset& data, const RunResult& result, const QJsonObject& report)
{
    const Factorization& f = result.factorization;
    const auto m = std::size_t(f.basis.rows()), n = std::size_t(f.V.rows()),
               k = std::size_t(f.basis.cols());
    std::vector<double> basis = inFilePixelOrder(f.basis, data, false);
    if (auto r = writeVariable(mat, "U", m, k, basis); !r)
        return r;
    basis = {};
    std::vector<double> v = columnMajor(f.V);
    if (auto r = writeVariable(mat, "V", n, std::size_t(f.V.cols()), v); !r)
        return r;
    if (f.W.size() > 0) {
        std::vector<double> w = columnMajor(f.W);
        if (auto r = writeVariable(mat, "W", n, std::size_t(f.W.cols()), w); !r)
            return r;
    }
    std::vector<double> labels(result.predicted.begin(), result.predicted.end());
    for (double& label : labels)
        label += 1;
    if (auto r = writeVariable(mat, "labels", labels.size(), 1, labels); !r)
        return r;
    if (data.hasLabels()) {
        std::vector<double> gnd = fileClasses(data);
        if (auto r = writeVariable(mat, "gnd", n, 1, gnd); !r)
            return r;
    }
    std::vector<double> objective = f.history;
    if (auto r = writeVariable(mat, "objective", objective.size(), 1, objective); !r)
        return r;
    if (isImage(data))
        if (auto r = writeImageSize(mat, data); !r)
            return r;
    QJsonObject run = report;
    run.remove(QStringLiteral("labels"));
    run.remove(QStringLiteral("objective_history"));
    // The data as factorized (after preparation), which --init-from compares: here rather than
    // in every run report, since hashing X byte by byte takes 0.6 s at 70,000 x 1,024.
    QJsonObject dataset = run.value(QStringLiteral("dataset")).toObject();
    dataset.insert(
        QStringLiteral("checksum"), data.whole ? data.whole->checksum : dataChecksum(data.X));
    run.insert(QStringLiteral("dataset"), dataset);
    return writeText(
        mat, "facet_run", QString::fromUtf8(QJsonDocument(run).toJson(QJsonDocument::Compact)));
}

// The variables of a MAT file, in file order (empty when matio cannot open it).
QStringList variableNames(const QString& path)
{
    QStringList names;
    std::unique_ptr<mat_t, MatCloser> mat(
        Mat_Open(QFile::encodeName(path).constData(), MAT_ACC_RDONLY));
    if (!mat)
        return names;
    while (matvar_t* var = Mat_VarReadNextInfo(mat.get())) {
        names << QString::fromUtf8(var->name ? var->name : "");
        Mat_VarFree(var);
    }
    return names;
}

// The permissions open(2) gives a new file: 0666 less the process's umask (read from
// /proc/self/status, since umask(2) can only be read by setting it, which races other threads).
QFileDevice::Permissions newFilePermissions()
{
    unsigned mask = 022;
    QFile status(QStringLiteral("/proc/self/status"));
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : status.readAll().split('\n')) {
            if (line.startsWith("Umask:")) {
                bool ok = false;
                const unsigned value = line.mid(6).trimmed().toUInt(&ok, 8);
                if (ok)
                    mask = value;
            }
        }
    }
    const unsigned mode = 0666u & ~mask;
    QFileDevice::Permissions permissions;
    const std::pair<unsigned, QFileDevice::Permission> bits[]
        = { { 0400, QFileDevice::ReadOwner }, { 0200, QFileDevice::WriteOwner },
              { 0040, QFileDevice::ReadGroup }, { 0020, QFileDevice::WriteGroup },
              { 0004, QFileDevice::ReadOther }, { 0002, QFileDevice::WriteOther } };
    for (const auto& [bit, permission] : bits)
        if (mode & bit)
            permissions |= permission;
    // Qt reports the owner's bits as the user's too; set both.
    if (permissions & QFileDevice::ReadOwner)
        permissions |= QFileDevice::ReadUser;
    if (permissions & QFileDevice::WriteOwner)
        permissions |= QFileDevice::WriteUser;
    return permissions;
}

// A MAT file written to its temporary file and checked, waiting for its rename.
class MatFileOutput final : public StagedOutput {
public:
    MatFileOutput(const QString& path, std::unique_ptr<QTemporaryFile> temp)
        : StagedOutput(path)
        , m_temp(std::move(temp))
    {
    }
    Result<bool> commit() override
    {
        const QFileInfo info(target());
        const QString tempPath = m_temp->fileName();
        // QTemporaryFile made the file 0600; give it the target's permissions, or those a new
        // file gets (0666 less the umask), as QSaveFile does for the JSON and image outputs.
        QFile::setPermissions(tempPath, info.exists() ? info.permissions() : newFilePermissions());
        // rename(2) replaces the target in one step, so readers see the old or the new file.
        if (std::rename(QFile::encodeName(tempPath).constData(),
                QFile::encodeName(info.absoluteFilePath()).constData())
            != 0)
            return Error { QStringLiteral("%1: could not replace the file (%2)")
                               .arg(target(), QString::fromLocal8Bit(std::strerror(errno))) };
        m_temp->setAutoRemove(false);
        return true;
    }

private:
    std::unique_ptr<QTemporaryFile> m_temp;
};

// Writes `path` to a temporary file beside it: `fill` writes the variables, `check` reads the
// closed temporary file back (empty: sound, else the problem); committed, it is renamed over
// `path`, so readers see the old or the new file and never a cut-off one.
Result<StagedOutputPtr> stageMatFile(const QString& path, const char* header,
    const std::function<Result<bool>(mat_t*)>& fill,
    const std::function<QString(const QString&)>& check, mat_ft version = MAT_FT_MAT5)
{
    const QFileInfo info(path);
    if (const QString problem = outputPathProblem(path); !problem.isEmpty())
        return Error { problem };

    auto temp = std::make_unique<QTemporaryFile>(info.absoluteDir().filePath(
        QStringLiteral(".") + info.fileName() + QStringLiteral(".XXXXXX")));
    if (!temp->open())
        return Error { QStringLiteral("%1: cannot write in %2 (%3)")
                           .arg(path, info.absolutePath(), temp->errorString()) };
    const QString tempPath = temp->fileName();
    temp->close(); // matio opens the file by name; QTemporaryFile still removes it on failure
    const QByteArray encoded = QFile::encodeName(tempPath);
    {
        std::unique_ptr<mat_t, MatCloser> mat(Mat_CreateVer(encoded.constData(), header, version));
        if (!mat)
            return Error { QStringLiteral("%1: matio could not create the file").arg(path) };
        if (auto r = fill(mat.get()); !r)
            return Error { QStringLiteral("%1: %2").arg(path, r.error()) };
    }
    // matio does not check its fwrite calls: on a full disk (or past a file-size limit) it closes
    // a cut-off file without a word. Reading the file back, checking every size against the bytes
    // present, catches that before the old file is replaced.
    if (QString problem = check(tempPath); !problem.isEmpty()) {
        problem.remove(
            QFileInfo(tempPath).fileName() + QStringLiteral(": ")); // the reader's prefix
        return Error { QStringLiteral("%1: the file could not be written completely (disk full?)%2")
                           .arg(path,
                               problem == u"-" ? QString() : QStringLiteral(": ") + problem) };
    }
    return StagedOutputPtr(std::make_unique<MatFileOutput>(path, std::move(temp)));
}

Result<bool> committed(Result<StagedOutputPtr> staged)
{
    if (!staged)
        return Error { staged.error() };
    return (*staged)->commit();
}

} // namespace

Eigen::Index featureOfFilePixel(std::size_t p, const Dataset& data)
{
    if (!isImage(data))
        return Eigen::Index(p);
    const auto h = std::size_t(data.height), w = std::size_t(data.width);
    return Eigen::Index((p % h) * w + p / h);
}

std::vector<QString> warmStartFactors(const std::string& method)
{
    if (method == "nmf" || method == "gnmf" || method == "semignmf" || method == "cnmf")
        return { QStringLiteral("U"), QStringLiteral("V") };
    if (method == "cf" || method == "lccf" || method == "lcf" || method == "ccf"
        || method == "cf-ogl")
        return { QStringLiteral("W"), QStringLiteral("V") };
    return {};
}

bool warmStartContinues(const std::string& method)
{
    return !warmStartFactors(method).empty() && method != "cf-ogl";
}

namespace {

// A report's seed (a number, or a decimal string past 2^53); none when it is neither (a file
// from anyone: a negative or huge number must not reach the conversion).
std::optional<std::uint64_t> reportSeed(const QJsonValue& seed)
{
    if (seed.isString()) {
        bool ok = false;
        const std::uint64_t value = seed.toString().toULongLong(&ok);
        return ok ? std::optional(value) : std::nullopt;
    }
    const double value = seed.toDouble(-1);
    if (!(value >= 0 && value <= double(std::uint64_t(1) << 53)) || value != std::floor(value))
        return std::nullopt;
    return std::uint64_t(value);
}

QString labelOptions(std::uint64_t seed, double fraction, int perClass)
{
    QString text = QStringLiteral("seed %1").arg(seed);
    if (fraction > 0)
        text += QStringLiteral(", labeled-fraction %1").arg(fraction);
    if (perClass > 0)
        text += QStringLiteral(", labeled-per-class %1").arg(perClass);
    if (fraction <= 0 && perClass <= 0)
        text += QStringLiteral(", no labels");
    return text;
}

// What StartFactors::notes says, from the file's run report.
QStringList startNotes(
    const QString& file, const QJsonObject& run, const RunOptions& options, const Dataset& data)
{
    const QString method = run.value(u"method").toString();
    const QString wanted = QString::fromStdString(options.method);
    if (method.isEmpty())
        return {};
    // Factors of the same shape from other data (another file of the same size, other
    // preprocessing): a start, but its objective history is another function's.
    const QString checksum = run.value(u"dataset").toObject().value(u"checksum").toString();
    if (!checksum.isEmpty()) {
        const QString ours = dataChecksum(data.X);
        if (checksum != ours)
            return { QStringLiteral("%1's run factorized other data (another file or other "
                                    "preprocessing: checksum %2, this run's %3); %4 starts from "
                                    "its factors and does not continue that run")
                         .arg(file, checksum, ours, wanted) };
    }
    if (method != wanted)
        return { QStringLiteral("%1 holds the factors of a %2 run; %3 starts from them, which "
                                "does not continue that run")
                     .arg(file, method, wanted) };
    // NCW minimizes a weighted objective (METHODS.md 1.7): the same factors, another function.
    const bool fileNcw = run.value(u"params").toObject().value(u"ncw").toBool(false);
    if (fileNcw != options.params.ncw)
        return { QStringLiteral("%1's run %2 normalized-cut weighting and this one %3, so their "
                                "objectives differ; %4 starts from the file's factors and does "
                                "not continue that run")
                     .arg(file, fileNcw ? QStringLiteral("used") : QStringLiteral("did not use"),
                         options.params.ncw ? QStringLiteral("does") : QStringLiteral("does not"),
                         wanted) };
    if (wanted != u"cnmf" && wanted != u"ccf")
        return {};
    const QJsonObject params = run.value(u"params").toObject();
    const std::optional<std::uint64_t> seed = reportSeed(run.value(u"seed"));
    const double fraction = params.value(u"labeled-fraction").toDouble(0);
    const int perClass = params.value(u"labeled-per-class").toInt(0);
    if (seed == options.driver.seed && fraction == options.labeledFraction
        && perClass == options.labeledPerClass)
        return {};
    if (!seed)
        return { QStringLiteral("%1's run names no seed, so this %2 run cannot tell whether it "
                                "labels the same samples; it does not continue that run")
                     .arg(file, wanted) };
    return { QStringLiteral("%1's run labelled its samples with %2; this run labels them with %3, "
                            "so %4 starts from Z fitted to the file's V and does not continue "
                            "that run (give the same options to continue it)")
                 .arg(file, labelOptions(*seed, fraction, perClass),
                     labelOptions(
                         options.driver.seed, options.labeledFraction, options.labeledPerClass),
                     wanted) };
}

} // namespace

Result<StartFactors> readStartFactors(
    const QString& path, const Dataset& data, const RunOptions& options)
{
    const std::string& method = options.method;
    const std::vector<QString> names = warmStartFactors(options.method);
    if (names.empty())
        return Error { QStringLiteral("a start from given factors is for nmf, gnmf, semignmf, "
                                      "cnmf, cf, lccf, lcf, ccf and cf-ogl; %1 keeps other factors")
                           .arg(QString::fromStdString(method)) };
    const QString& basisSide = names[0];
    const bool nmfFamily = basisSide == u"U";
    Result<std::vector<Eigen::MatrixXd>> read = readMatMatrices(
        path, { basisSide, names[1] }, qint64(1) << 30, { QStringLiteral("objective") });
    if (!read)
        return Error { read.error() };
    const Eigen::MatrixXd& first = (*read)[0];
    const Eigen::MatrixXd& v = (*read)[1];
    const auto n = data.samples(), m = data.features();
    const int k = options.params.rank;
    const Eigen::Index firstRows = nmfFamily ? m : n;
    const QString file = QFileInfo(path).fileName();
    const auto mismatch = [&](const QString& name, const Eigen::MatrixXd& got, Eigen::Index rows) {
        return Error { QStringLiteral(
            "%1: %2 is %3 x %4, but the start needs %5 x %6 (%7, rank %8)")
                           .arg(file, name)
                           .arg(got.rows())
                           .arg(got.cols())
                           .arg(rows)
                           .arg(k)
                           .arg(name == u"U" ? QStringLiteral("%1 features").arg(m)
                                             : QStringLiteral("%1 samples").arg(n))
                           .arg(k) };
    };
    if (first.rows() != firstRows || first.cols() != k)
        return mismatch(basisSide, first, firstRows);
    if (v.rows() != n || v.cols() != k)
        return mismatch(QStringLiteral("V"), v, n);
    const Eigen::MatrixXd& objective = (*read)[2];
    if (objective.size() > 0 && objective.rows() != 1 && objective.cols() != 1)
        return Error { QStringLiteral("%1: objective is %2 x %3; it should be the vector of the "
                                      "run's objective after each iteration")
                           .arg(file)
                           .arg(objective.rows())
                           .arg(objective.cols()) };
    if (!objective.allFinite())
        return Error { QStringLiteral("%1: objective has a value that is not finite").arg(file) };
    Matrix start = first.cast<Scalar>();
    if (nmfFamily)
        for (Eigen::Index p = 0; p < m; ++p)
            start.row(featureOfFilePixel(std::size_t(p), data)) = first.row(p).cast<Scalar>();
    StartFactors out;
    out.factors = { std::move(start), v.cast<Scalar>() };
    out.history.assign(objective.data(), objective.data() + objective.size());
    const Result<std::optional<QString>> run = readMatText(path, QStringLiteral("facet_run"));
    if (!run)
        return Error { run.error() };
    if (*run) {
        const QJsonDocument report = QJsonDocument::fromJson((**run).toUtf8());
        if (!report.isObject())
            return Error {
                QStringLiteral("%1: facet_run is not the JSON report of a run").arg(file)
            };
        out.notes = startNotes(file, report.object(), options, data);
    }
    if (out.notes.isEmpty() && !warmStartContinues(method))
        out.notes << QStringLiteral("%1 starts from the W and V of %2 and learns its graph anew "
                                    "(Q from the adaptive-neighbour graph, beta from --beta), "
                                    "which the factors do not carry: a new run, counted from "
                                    "iteration 1")
                         .arg(QString::fromStdString(method), file);
    // Another method's or other labels' objective, or a new graph: a new start, counted from 1.
    if (!out.notes.isEmpty())
        out.history.clear();
    return out;
}

Result<bool> writeDatasetMat(const QString& path, const Dataset& data, bool mat73)
{
    if (data.samples() == 0 || data.features() == 0)
        return Error { QStringLiteral("%1: nothing to write, the dataset is empty").arg(path) };
    return committed(stageMatFile(
        path, "Written by Facet (facet-cli export-dataset)",
        [&](mat_t* mat) { return writeAll(mat, data); },
        [&](const QString& written) {
            const Result<Dataset> back = loadMat(written);
            if (!back)
                return back.error();
            return back->samples() == data.samples() && back->features() == data.features()
                ? QString()
                : QStringLiteral("-");
        },
        mat73 ? MAT_FT_MAT73 : MAT_FT_MAT5));
}

Result<bool> writeFactorsMat(
    const QString& path, const Dataset& data, const RunResult& result, const QJsonObject& report)
{
    return committed(stageFactorsMat(path, data, result, report));
}

Result<StagedOutputPtr> stageFactorsMat(
    const QString& path, const Dataset& data, const RunResult& result, const QJsonObject& report)
{
    const Factorization& f = result.factorization;
    if (f.basis.size() == 0 || f.V.size() == 0)
        return Error { QStringLiteral("%1: nothing to write, the run has no factors").arg(path) };
    if (f.basis.rows() != data.features() || f.V.rows() != data.totalSamples()
        || result.predicted.size() != std::size_t(data.totalSamples()))
        return Error { QStringLiteral("%1: the factors (%2 x %3 basis, %4 x %5 V) do not match the "
                                      "data (%6 features, %7 samples)")
                           .arg(path)
                           .arg(f.basis.rows())
                           .arg(f.basis.cols())
                           .arg(f.V.rows())
                           .arg(f.V.cols())
                           .arg(data.features())
                           .arg(data.totalSamples()) };
    // The version as the report records it (this file is also built outside facet_app, without
    // FACET_VERSION_STRING).
    const QString version = report.value(QStringLiteral("facet_version")).toString();
    const QByteArray header
        = QStringLiteral("Written by Facet%1, the factors of a run of %2")
              .arg(version.isEmpty() ? QString() : u' ' + version, QString::fromStdString(f.method))
              .toUtf8();
    return stageMatFile(
        path, header.constData(),
        [&](mat_t* mat) { return writeFactors(mat, data, result, report); },
        [&](const QString& written) {
            // Every element's headers inside the file, each variable's values readable, each
            // top-level element whole, and every variable there: a file cut between two
            // elements passes the first three checks.
            const MatV5Structure structure = matV5Structure(written);
            if (!structure.problem.isEmpty())
                return structure.problem;
            if (!structure.dataProblems.isEmpty())
                return structure.dataProblems.cbegin().value();
            if (QString problem = matV5TruncationProblem(written, {}); !problem.isEmpty())
                return problem;
            QStringList expected { QStringLiteral("U"), QStringLiteral("V") };
            if (f.W.size() > 0)
                expected << QStringLiteral("W");
            expected << QStringLiteral("labels");
            if (data.hasLabels())
                expected << QStringLiteral("gnd");
            expected << QStringLiteral("objective");
            if (isImage(data))
                expected << QStringLiteral("im_height") << QStringLiteral("im_width");
            expected << QStringLiteral("facet_run");
            const QStringList found = variableNames(written);
            return found == expected ? QString()
                                     : QStringLiteral("it holds %1 of the variables %2")
                                           .arg(found.join(u' '), expected.join(u' '));
        });
}

} // namespace facet
