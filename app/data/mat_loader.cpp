// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_loader.h"

#include "core/collectives.h"
#include "core/huge_pages.h"
#include "core/sanitizers.h"
#include "data/mat_loader_matio.h"
#include "data/mat_reader_process.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <matio.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace facet {
namespace {

using namespace matio;

struct ImageSize {
    int height = 0;
    int width = 0;
    QString how;
};

// Options first, then the file's im_height/im_width, then MNIST's 28x28 and squares; a feature
// count that fits none of these is kept as 1 x D vectors.
Result<ImageSize> imageSize(const MatLoadOptions& options, const std::vector<VarInfo>& vars,
    const Reader& reader, const QString& file, const QString& dataName, std::size_t D,
    QStringList& notes)
{
    const auto features = qint64(D);
    if (options.height > 0 || options.width > 0) {
        qint64 h = options.height, w = options.width;
        if (h <= 0)
            h = features % w == 0 ? features / w : 0;
        if (w <= 0)
            w = features % h == 0 ? features / h : 0;
        if (h <= 0 || w <= 0 || h * w != features)
            return Error {
                QStringLiteral("%1: image size %2 x %3 does not fit variable '%4', "
                               "which has %5 features per sample")
                    .arg(file)
                    .arg(options.height > 0 ? QString::number(options.height) : QStringLiteral("?"),
                        options.width > 0 ? QString::number(options.width) : QStringLiteral("?"),
                        dataName)
                    .arg(features)
            };
        return ImageSize { int(h), int(w), QStringLiteral("as requested") };
    }
    const VarInfo* hv = findVariable(vars, QStringLiteral("im_height"));
    const VarInfo* wv = findVariable(vars, QStringLiteral("im_width"));
    if (hv && wv && shapeProblem(*hv).isEmpty() && shapeProblem(*wv).isEmpty() && hv->count() == 1
        && wv->count() == 1) {
        auto h = reader.read(*hv);
        auto w = reader.read(*wv);
        if (!h)
            return Error { h.error() };
        if (!w)
            return Error { w.error() };
        const double hd = h->front(), wd = w->front();
        if (hd >= 1 && wd >= 1 && hd == std::floor(hd) && wd == std::floor(wd)
            && hd * wd == double(features))
            return ImageSize { int(hd), int(wd), QStringLiteral("from im_height/im_width") };
        notes << QStringLiteral("ignored im_height = %1, im_width = %2: they do not match %3 "
                                "features")
                     .arg(hd)
                     .arg(wd)
                     .arg(features);
    }
    if (features == 28 * 28)
        return ImageSize { 28, 28, QStringLiteral("784 features: MNIST's 28x28") };
    const auto side = qint64(std::llround(std::sqrt(double(features))));
    if (side * side == features)
        return ImageSize { int(side), int(side), QStringLiteral("square feature count") };
    notes << QStringLiteral("%1 features is not a square and the file has no "
                            "im_height/im_width: samples are treated as 1 x %1 vectors, not "
                            "images")
                 .arg(features);
    return ImageSize { 1, int(features), QStringLiteral("not an image") };
}

QString nonFiniteText(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("-Inf") : QStringLiteral("Inf");
    return QStringLiteral("%1 (too large for single precision)").arg(v);
}

// The file is N x D column-major, one image per row: element (i, j) at j * N + i. Each file
// column j is one pixel position, sent to its row-major place inside the columns of X (D x N).
Result<Matrix> toColumns(const std::vector<double>& values, std::size_t N, std::size_t D,
    const ImageSize& size, PixelOrder order, bool allowNan)
{
    const int h = size.height, w = size.width;
    Matrix X(static_cast<Eigen::Index>(D), static_cast<Eigen::Index>(N));
    adviseHugePages(X);
    for (std::size_t j = 0; j < D; ++j) {
        const int r = order == PixelOrder::ColumnMajor ? int(j) % h : int(j) / w;
        const int c = order == PixelOrder::ColumnMajor ? int(j) / h : int(j) % w;
        const Eigen::Index pixel = Eigen::Index(r) * w + c;
        const double* source = values.data() + j * N;
        for (std::size_t i = 0; i < N; ++i) {
            const auto v = Scalar(source[i]);
            if (!std::isfinite(v) && !(allowNan && std::isnan(v))) {
                return Error { QStringLiteral(
                    "has %1 at sample %2, feature %3; the data must be finite%4")
                                   .arg(nonFiniteText(source[i]))
                                   .arg(i + 1)
                                   .arg(j + 1)
                                   .arg(std::isnan(source[i]) && !allowNan
                                           ? QStringLiteral(" (facet-cli run --missing nan takes "
                                                            "NaN entries as missing)")
                                           : QString()) };
            }
            X(pixel, Eigen::Index(i)) = v;
        }
    }
    return X;
}

// The first of the candidates the file holds; an explicit name must exist.
Result<const VarInfo*> chooseVariable(const std::vector<VarInfo>& vars, const QString& chosen,
    const QStringList& defaults, const QString& file, const QString& role, bool required)
{
    if (!chosen.isEmpty()) {
        if (const VarInfo* v = findVariable(vars, chosen))
            return v;
        return Error { QStringLiteral("%1: no variable '%2' for the %3; the file has %4")
                           .arg(file, chosen, role, variableList(vars)) };
    }
    for (const QString& name : defaults)
        if (const VarInfo* v = findVariable(vars, name))
            return v;
    if (!required)
        return static_cast<const VarInfo*>(nullptr);
    return Error { QStringLiteral("%1: no %2 variable: expected one of %3 (or name it in the "
                                  "options); the file has %4")
                       .arg(file, role, defaults.join(QStringLiteral(", ")), variableList(vars)) };
}

// Labels must be a real vector with one entry per sample (a row of the data).
QString labelProblem(const VarInfo& labels, const VarInfo& data)
{
    if (const QString problem = shapeProblem(labels); !problem.isEmpty())
        return QStringLiteral("label variable '%1' %2").arg(labels.name, problem);
    const std::size_t N = data.dims[0], D = data.dims[1];
    if (labels.dims[0] != 1 && labels.dims[1] != 1)
        return QStringLiteral(
            "variable '%1' is %2; expected a vector of %3 labels (N x 1 or 1 x N)")
            .arg(labels.name, labels.shape())
            .arg(N);
    if (labels.count() == N)
        return {};
    const QString hint = labels.count() == D
        ? QStringLiteral(" (one per column: the file should hold one sample per row)")
        : QString();
    return QStringLiteral("variable '%1' has %2 labels but '%3' has %4 samples%5")
        .arg(labels.name)
        .arg(labels.count())
        .arg(data.name)
        .arg(N)
        .arg(hint);
}

// Distinct label values in ascending order become class indices 0..c-1; each keeps its value as
// its name, so MNIST's digits stay "0".."9" and Deng Cai's subjects "1".."40".
Result<bool> mapLabels(
    const std::vector<double>& values, const QString& file, const QString& name, Dataset& data)
{
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    std::map<double, int> classOf;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        if (!std::isfinite(v) || v != std::floor(v) || std::abs(v) > kExactIntegers)
            return Error { QStringLiteral("%1: variable '%2' has label %3 at sample %4; labels "
                                          "must be finite integers")
                               .arg(file, name)
                               .arg(v)
                               .arg(i + 1) };
        classOf.emplace(v, 0);
    }
    int next = 0;
    for (auto& [value, index] : classOf) {
        index = next++;
        data.classNames << QString::number(qint64(value));
    }
    data.labels.reserve(values.size());
    for (double v : values)
        data.labels.push_back(classOf[v]);
    return true;
}

// Caps this process's address space at its present size plus `bytes` and a margin of 1 GiB for
// libhdf5's caches, matio's copies and the dataset written back (MatLoadOptions::capAddressSpace;
// the helper process only). An allocation past it fails, and libhdf5 reports the read as failed.
void capAddressSpace(double bytes)
{
#if defined(FACET_SANITIZE_ADDRESS) || defined(FACET_SANITIZE_THREAD)
    // The sanitizers reserve terabytes of shadow address space; a cap would fail every
    // allocation after it.
    (void)bytes;
    return;
#endif
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return;
    bool ok = false;
    const double pages = QString::fromLatin1(statm.readLine()).section(u' ', 0, 0).toDouble(&ok);
    if (!ok)
        return;
    const double limit = pages * double(sysconf(_SC_PAGESIZE)) + 2 * bytes + double(1 << 30);
    if (limit >= 9.0e18)
        return;
    const rlimit cap { rlim_t(limit), rlim_t(limit) };
    setrlimit(RLIMIT_AS, &cap);
}

Result<Dataset> loadMatHere(const QString& path, const MatLoadOptions& options)
{
    const QString file = fileLabel(path);
    try {
        MatioMessages log;
        Result<CheckedMatFile> opened = openChecked(path, file);
        if (!opened)
            return Error { opened.error() };
        const MatFile& mat = opened->mat;
        const std::vector<VarInfo>& vars = opened->vars;
        if (vars.empty())
            return Error { QStringLiteral("%1: no readable variables; the file may be truncated or "
                                          "damaged")
                               .arg(file) };

        auto dataChoice = chooseVariable(vars, options.dataVariable,
            { QStringLiteral("fea"), QStringLiteral("X"), QStringLiteral("data") }, file,
            QStringLiteral("data"), true);
        if (!dataChoice)
            return Error { dataChoice.error() };
        auto labelChoice = chooseVariable(vars, options.labelVariable,
            { QStringLiteral("gnd"), QStringLiteral("Y"), QStringLiteral("class") }, file,
            QStringLiteral("label"), false);
        if (!labelChoice)
            return Error { labelChoice.error() };
        const VarInfo& dataVar = **dataChoice;
        const VarInfo* labelVar = *labelChoice;

        if (const QString problem = shapeProblem(dataVar); !problem.isEmpty())
            return Error {
                QStringLiteral("%1: variable '%2' %3").arg(file, dataVar.name, problem)
            };
        // A damaged data element before the memory budget: a header whose dimensions its data
        // does not hold is damaged, not too large (Reader refuses it too).
        if (!dataVar.dataProblem.isEmpty())
            return Error { QStringLiteral("%1: %2").arg(file, dataVar.dataProblem) };
        const std::size_t N = dataVar.dims[0], D = dataVar.dims[1];
        // A part of the samples (MatLoadOptions::part): its rows only, as one HDF5 hyperslab.
        const bool part = options.parts != 1;
        std::size_t first = 0, rows = N;
        if (part) {
            if (Mat_GetVersion(mat.get()) != MAT_FT_MAT73)
                return Error { QStringLiteral("%1: only a MAT 7.3 (HDF5) file can be read in "
                                              "parts; save it with -v7.3")
                                   .arg(file) };
            if (options.parts < 1 || options.part < 0 || options.part >= options.parts
                || std::size_t(options.parts) > N)
                return Error { QStringLiteral("%1: variable '%2' has %3 samples, which cannot be "
                                              "split into %4 parts")
                                   .arg(file, dataVar.name)
                                   .arg(N)
                                   .arg(options.parts) };
            const SampleRange range = sampleRange(Eigen::Index(N), options.parts, options.part);
            first = std::size_t(range.first);
            rows = std::size_t(range.count);
        }
        const std::size_t count = rows * D;
        constexpr auto kIntMax = std::size_t(std::numeric_limits<int>::max());
        // Peak use per element: matio's buffer in the file's class or the matrix, plus the
        // double copy between them.
        const std::size_t perElement
            = sizeof(double) + std::max(Mat_SizeOfClass(dataVar.classType), sizeof(Scalar));
        if (count == 0 || N > kIntMax || D > kIntMax
            || count > std::numeric_limits<std::size_t>::max() / perElement
            || count * perElement > std::size_t(std::max<qint64>(options.memoryBudgetBytes, 0)))
            return Error { QStringLiteral("%1: variable '%2' is %3 (%4); loading it would need "
                                          "%5, above the memory budget of %6")
                               .arg(file, dataVar.name, dataVar.shape(),
                                   className(dataVar.classType),
                                   byteSize(double(rows) * double(D) * double(perElement)),
                                   byteSize(double(options.memoryBudgetBytes))) };

        if (labelVar)
            if (const QString problem = labelProblem(*labelVar, dataVar); !problem.isEmpty())
                return Error { QStringLiteral("%1: %2").arg(file, problem) };
        if (options.capAddressSpace)
            capAddressSpace(double(count) * double(perElement)
                + (labelVar ? double(labelVar->count()) * 16.0 : 0.0));

        const Reader reader(mat.get(), file, log);
        Dataset data;
        data.name = QFileInfo(path).completeBaseName();
        data.source = path;
        auto size = imageSize(options, vars, reader, file, dataVar.name, D, data.notes);
        if (!size)
            return Error { size.error() };
        data.height = size->height;
        data.width = size->width;

        PixelOrder order = options.pixelOrder;
        if (order == PixelOrder::Auto)
            order = (data.height == 28 && data.width == 28) ? PixelOrder::RowMajor
                                                            : PixelOrder::ColumnMajor;

        auto values = part ? reader.readRows(dataVar, first, rows) : reader.read(dataVar);
        if (!values)
            return Error { values.error() };
        auto X = toColumns(*values, rows, D, *size, order, options.allowNan);
        if (!X)
            return Error {
                QStringLiteral("%1: variable '%2' %3").arg(file, dataVar.name, X.error())
            };
        data.X = std::move(*X);
        values = std::vector<double> {}; // free the file's copy before the labels arrive

        data.notes << QStringLiteral("%1: '%2' %3 (class %4), one sample per row")
                          .arg(file, dataVar.name, dataVar.shape(), className(dataVar.classType));
        if (data.height > 1)
            data.notes << QStringLiteral(
                "image %1x%2 (%3); pixels %4 in the file, stored row-major")
                              .arg(data.height)
                              .arg(data.width)
                              .arg(size->how,
                                  order == PixelOrder::ColumnMajor
                                      ? QStringLiteral("column-major (MATLAB reshape)")
                                      : QStringLiteral("row-major"));

        if (labelVar) {
            auto labels = reader.read(*labelVar);
            if (!labels)
                return Error { labels.error() };
            auto mapped = mapLabels(*labels, file, labelVar->name, data);
            if (!mapped)
                return Error { mapped.error() };
            data.notes << QStringLiteral("labels from '%1': %2 classes, values %3..%4")
                              .arg(labelVar->name)
                              .arg(data.classCount())
                              .arg(data.classNames.front(), data.classNames.back());
        } else {
            data.notes << QStringLiteral("no label variable (gnd, Y or class): unlabelled");
        }
        return data;
    } catch (const std::bad_alloc&) {
        return Error { QStringLiteral("%1: not enough memory to load the data").arg(file) };
    }
}

} // namespace

Result<Dataset> loadMat(const QString& path, const MatLoadOptions& options)
{
    if (options.isolateHdf5 && isHdf5MatFile(path))
        if (std::optional<Result<Dataset>> isolated = loadMatInHelper(path, options))
            return std::move(*isolated);
    return loadMatHere(path, options);
}

} // namespace facet
