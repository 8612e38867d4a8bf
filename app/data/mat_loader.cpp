// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_loader.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QStringList>

#include <matio.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace facet {
namespace {

// matio reports decoding problems (bad zlib stream, short read) only through its process-wide
// log function and may still hand back a variable, so the loader collects those messages per
// thread and treats any error logged during a read as a failed read.
thread_local QStringList* t_matioMessages = nullptr;

void matioLog(int level, char* message)
{
    const int serious = MATIO_LOG_LEVEL_ERROR | MATIO_LOG_LEVEL_CRITICAL;
    if (!(level & (serious | MATIO_LOG_LEVEL_WARNING)))
        return;
    const QString text = QString::fromLocal8Bit(message).trimmed();
    if (t_matioMessages && (level & serious))
        t_matioMessages->append(text);
    else if (!t_matioMessages)
        qWarning("matio: %s", qPrintable(text));
}

class MatioMessages {
public:
    MatioMessages()
    {
        static std::once_flag installed;
        std::call_once(installed, [] { Mat_LogInitFunc("facet", &matioLog); });
        m_previous = t_matioMessages;
        t_matioMessages = &m_messages;
    }
    ~MatioMessages() { t_matioMessages = m_previous; }
    MatioMessages(const MatioMessages&) = delete;
    MatioMessages& operator=(const MatioMessages&) = delete;

    qsizetype count() const { return m_messages.size(); }
    QString since(qsizetype first) const
    {
        return m_messages.mid(first).join(QStringLiteral("; "));
    }

private:
    QStringList m_messages;
    QStringList* m_previous = nullptr;
};

struct MatCloser {
    void operator()(mat_t* mat) const { Mat_Close(mat); }
};
struct VarFreer {
    void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using MatFile = std::unique_ptr<mat_t, MatCloser>;
using MatVar = std::unique_ptr<matvar_t, VarFreer>;

// What Mat_VarReadNextInfo tells about a variable, without its data.
struct VarInfo {
    QString name;
    matio_classes classType = MAT_C_EMPTY;
    bool isComplex = false;
    std::vector<std::size_t> dims;

    // Saturates at SIZE_MAX, so a header with absurd dimensions fails the memory budget
    // instead of wrapping around to a small count.
    std::size_t count() const
    {
        constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
        if (dims.empty() || std::find(dims.begin(), dims.end(), 0) != dims.end())
            return 0;
        std::size_t n = 1;
        for (std::size_t d : dims)
            n = n > kMax / d ? kMax : n * d;
        return n;
    }
    QString shape() const
    {
        QStringList parts;
        for (std::size_t d : dims)
            parts << QString::number(d);
        return parts.join(QStringLiteral(" x "));
    }
};

QString className(matio_classes c)
{
    static const char* const names[] = { "empty", "cell array", "struct", "object", "char array",
        "sparse matrix", "double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32",
        "int64", "uint64", "function handle", "opaque object" };
    const int i = int(c);
    return (i >= 0 && i < int(std::size(names))) ? QString::fromLatin1(names[i])
                                                 : QStringLiteral("unknown class %1").arg(i);
}

QString byteSize(double bytes)
{
    return QLocale::c().formattedDataSize(qint64(std::min(bytes, 9.0e18)), 1);
}

bool isNumericClass(matio_classes c)
{
    return c >= MAT_C_DOUBLE && c <= MAT_C_UINT64;
}

std::vector<VarInfo> listVariables(mat_t* mat)
{
    std::vector<VarInfo> vars;
    Mat_Rewind(mat);
    while (MatVar var { Mat_VarReadNextInfo(mat) }) {
        VarInfo info;
        info.name = QString::fromUtf8(var->name ? var->name : "");
        info.classType = var->class_type;
        info.isComplex = var->isComplex != 0;
        for (int k = 0; k < var->rank && var->dims; ++k)
            info.dims.push_back(var->dims[k]);
        vars.push_back(std::move(info));
    }
    return vars;
}

const VarInfo* findVariable(const std::vector<VarInfo>& vars, const QString& name)
{
    for (const VarInfo& v : vars)
        if (v.name == name)
            return &v;
    return nullptr;
}

QString variableList(const std::vector<VarInfo>& vars)
{
    QStringList parts;
    for (const VarInfo& v : vars)
        parts << QStringLiteral("'%1' (%2 %3)").arg(v.name, v.shape(), className(v.classType));
    return parts.isEmpty() ? QStringLiteral("no variables") : parts.join(QStringLiteral(", "));
}

// The rules every matrix we read must follow; empty when it does.
QString shapeProblem(const VarInfo& v)
{
    if (!isNumericClass(v.classType))
        return v.classType == MAT_C_SPARSE
            ? QStringLiteral("is a sparse matrix; save it with full(...) first")
            : QStringLiteral("is a %1; expected a numeric matrix").arg(className(v.classType));
    if (v.isComplex)
        return QStringLiteral("is complex; expected real numbers");
    if (v.dims.size() != 2)
        return QStringLiteral("has %1 dimensions (%2); expected a 2-D matrix")
            .arg(v.dims.size())
            .arg(v.shape());
    if (v.count() == 0)
        return QStringLiteral("is empty (%1)").arg(v.shape());
    return {};
}

// Calls f(const T* data) with the element type matio used for the variable's class.
template <class F> bool visitNumeric(const matvar_t& var, F&& f)
{
    switch (var.class_type) {
    case MAT_C_DOUBLE:
        return f(static_cast<const double*>(var.data));
    case MAT_C_SINGLE:
        return f(static_cast<const float*>(var.data));
    case MAT_C_INT8:
        return f(static_cast<const std::int8_t*>(var.data));
    case MAT_C_UINT8:
        return f(static_cast<const std::uint8_t*>(var.data));
    case MAT_C_INT16:
        return f(static_cast<const std::int16_t*>(var.data));
    case MAT_C_UINT16:
        return f(static_cast<const std::uint16_t*>(var.data));
    case MAT_C_INT32:
        return f(static_cast<const std::int32_t*>(var.data));
    case MAT_C_UINT32:
        return f(static_cast<const std::uint32_t*>(var.data));
    case MAT_C_INT64:
        return f(static_cast<const std::int64_t*>(var.data));
    case MAT_C_UINT64:
        return f(static_cast<const std::uint64_t*>(var.data));
    default:
        return false;
    }
}

// The whole variable converted to double, in the file's column-major element order.
class Reader {
public:
    Reader(mat_t* mat, QString file, MatioMessages& log)
        : m_mat(mat)
        , m_file(std::move(file))
        , m_log(log)
    {
    }

    Result<std::vector<double>> read(const VarInfo& info) const
    {
        const qsizetype before = m_log.count();
        MatVar var { Mat_VarRead(m_mat, info.name.toUtf8().constData()) };
        const QString why = m_log.since(before);
        if (!var || !var->data || !why.isEmpty() || var->class_type != info.classType)
            return Error { QStringLiteral("%1: could not read variable '%2'%3; the file may "
                                          "be truncated or damaged")
                               .arg(m_file, info.name,
                                   why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why)) };
        const std::size_t n = info.count();
        std::vector<double> values;
        const bool converted = visitNumeric(*var, [&](const auto* p) {
            if (std::size_t(var->data_size) != sizeof(*p) || var->nbytes < n * sizeof(*p))
                return false;
            values.assign(p, p + n);
            return true;
        });
        if (!converted)
            return Error { QStringLiteral("%1: variable '%2' came back from matio with %3 "
                                          "bytes of %4-byte elements; expected %5 elements")
                               .arg(m_file, info.name)
                               .arg(var->nbytes)
                               .arg(var->data_size)
                               .arg(n) };
        return values;
    }

private:
    mat_t* m_mat;
    QString m_file;
    MatioMessages& m_log;
};

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

// matio inflates a cut-off zlib stream without complaint and returns a half-filled variable, so
// a Level 5 file's top-level elements (8-byte tag: type, byte count) are checked to lie inside
// the file before anything is read. The k-th element is the k-th variable matio listed.
QString truncationProblem(const QString& path, const std::vector<VarInfo>& vars)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot be opened: %1").arg(file.errorString());
    const QByteArray header = file.read(128);
    if (header.size() < 128)
        return QStringLiteral("ends inside the 128-byte MAT-file header");
    const bool swapped = header.at(126) == 'M' && header.at(127) == 'I';
    const qint64 size = file.size();
    qint64 offset = 128;
    for (std::size_t k = 0; offset < size; ++k) {
        file.seek(offset);
        const QByteArray tag = file.read(8);
        if (tag.size() < 8)
            return QStringLiteral("ends inside the tag of element %1 at byte %2 (truncated)")
                .arg(k + 1)
                .arg(offset);
        auto word = [&](int at) {
            std::uint32_t v = 0;
            for (int b = 0; b < 4; ++b) {
                const auto byte = std::uint32_t(std::uint8_t(tag.at(at + b)));
                v |= swapped ? byte << (8 * (3 - b)) : byte << (8 * b);
            }
            return v;
        };
        const qint64 end = offset + 8 + qint64(word(4));
        if (end > size) {
            const QString what = k < vars.size() ? QStringLiteral("variable '%1'").arg(vars[k].name)
                                                 : QStringLiteral("element %1").arg(k + 1);
            return QStringLiteral("is truncated: %1 needs bytes %2..%3 but the file has only "
                                  "%4 bytes")
                .arg(what)
                .arg(offset)
                .arg(end)
                .arg(size);
        }
        offset = (end + 7) / 8 * 8; // uncompressed elements are padded to 8 bytes
        if (word(0) == 15) // miCOMPRESSED is not padded
            offset = end;
    }
    return {};
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
    const ImageSize& size, PixelOrder order)
{
    const int h = size.height, w = size.width;
    Matrix X(static_cast<Eigen::Index>(D), static_cast<Eigen::Index>(N));
    for (std::size_t j = 0; j < D; ++j) {
        const int r = order == PixelOrder::ColumnMajor ? int(j) % h : int(j) / w;
        const int c = order == PixelOrder::ColumnMajor ? int(j) / h : int(j) % w;
        const Eigen::Index pixel = Eigen::Index(r) * w + c;
        const double* source = values.data() + j * N;
        for (std::size_t i = 0; i < N; ++i) {
            const auto v = Scalar(source[i]);
            if (!std::isfinite(v)) {
                return Error { QStringLiteral(
                    "has %1 at sample %2, feature %3; the data must be finite")
                                   .arg(nonFiniteText(source[i]))
                                   .arg(i + 1)
                                   .arg(j + 1) };
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

} // namespace

Result<Dataset> loadMat(const QString& path, const MatLoadOptions& options)
{
    const QFileInfo fileInfo(path);
    const QString file = fileInfo.fileName().isEmpty() ? path : fileInfo.fileName();
    if (!fileInfo.exists())
        return Error { QStringLiteral("%1: file not found").arg(path) };
    if (fileInfo.isDir())
        return Error { QStringLiteral("%1: is a folder, not a MAT-file").arg(path) };
    if (fileInfo.size() == 0)
        return Error {
            QStringLiteral("%1: the file is empty (0 bytes), not a MAT-file").arg(file)
        };

    try {
        MatioMessages log;
        MatFile mat { Mat_Open(QFile::encodeName(path).constData(), MAT_ACC_RDONLY) };
        // matio's own complaint here only repeats the path, so it is left out.
        if (!mat)
            return Error { QStringLiteral("%1: not a MATLAB MAT-file (no valid version 4, 5 or "
                                          "7.3 header)")
                               .arg(file) };
        const std::vector<VarInfo> vars = listVariables(mat.get());
        if (Mat_GetVersion(mat.get()) == MAT_FT_MAT5)
            if (const QString problem = truncationProblem(path, vars); !problem.isEmpty())
                return Error { QStringLiteral("%1: %2").arg(file, problem) };
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
        const std::size_t N = dataVar.dims[0], D = dataVar.dims[1];
        const std::size_t count = dataVar.count();
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
                                   byteSize(double(N) * double(D) * double(perElement)),
                                   byteSize(double(options.memoryBudgetBytes))) };

        if (labelVar)
            if (const QString problem = labelProblem(*labelVar, dataVar); !problem.isEmpty())
                return Error { QStringLiteral("%1: %2").arg(file, problem) };

        const Reader reader(mat.get(), file, log);
        Dataset data;
        data.name = fileInfo.completeBaseName();
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

        auto values = reader.read(dataVar);
        if (!values)
            return Error { values.error() };
        auto X = toColumns(*values, N, D, *size, order);
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

} // namespace facet
