// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_loader_matio.h"

#include <QLocale>
#include <QRegularExpression>

#include <cstdint>
#include <mutex>

namespace facet::matio {
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

} // namespace

MatioMessages::MatioMessages()
{
    static std::once_flag installed;
    std::call_once(installed, [] { Mat_LogInitFunc("facet", &matioLog); });
    m_previous = t_matioMessages;
    t_matioMessages = &m_messages;
}

MatioMessages::~MatioMessages()
{
    t_matioMessages = m_previous;
}

QString MatioMessages::since(qsizetype first) const
{
    static const QRegularExpression frame(
        QStringLiteral("^HDF5 error #\\d+ in (\\S+)(?:.*\\n\\s*minor: ([^\\n]*))?"),
        QRegularExpression::DotMatchesEverythingOption);
    QStringList out;
    QString call, reason;
    for (const QString& message : m_messages.mid(first)) {
        const QRegularExpressionMatch match = frame.match(message);
        if (!match.hasMatch()) {
            out << message;
            continue;
        }
        if (call.isEmpty())
            call = match.captured(1); // the outermost frame: the library call that failed
        if (!match.captured(2).trimmed().isEmpty())
            reason = match.captured(2).trimmed(); // the innermost frame: why
    }
    if (!call.isEmpty())
        out << (reason.isEmpty() ? QStringLiteral("HDF5: %1 failed").arg(call)
                                 : QStringLiteral("HDF5: %1 failed: %2").arg(call, reason));
    return out.join(QStringLiteral("; "));
}

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

QStringList variableNames(const std::vector<VarInfo>& vars)
{
    QStringList names;
    for (const VarInfo& v : vars)
        names << v.name;
    return names;
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

Result<std::vector<double>> Reader::read(const VarInfo& info) const
{
    // matio reads a data element of a type it does not know by skipping it, and returns its
    // buffer of the dimensions' size unfilled (RELIABILITY.md).
    if (!info.dataProblem.isEmpty())
        return Error { QStringLiteral("%1: %2").arg(m_file, info.dataProblem) };
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

Result<std::vector<double>> Reader::readRows(
    const VarInfo& info, std::size_t first, std::size_t count) const
{
    if (info.dims.size() != 2 || first + count > info.dims[0])
        return Error { QStringLiteral("%1: rows %2..%3 of variable '%4' (%5) do not exist")
                           .arg(m_file)
                           .arg(first + 1)
                           .arg(first + count)
                           .arg(info.name, info.shape()) };
    const qsizetype before = m_log.count();
    MatVar var { Mat_VarReadInfo(m_mat, info.name.toUtf8().constData()) };
    const std::size_t columns = info.dims[1];
    std::vector<double> values(count * columns);
    int start[2] = { int(first), 0 }, stride[2] = { 1, 1 }, edge[2] = { int(count), int(columns) };
    // MAT 7.3 reads the slab in the memory type of the variable's class: asking for double
    // makes libhdf5 convert uint8 and the others as it reads.
    if (var && var->rank == 2 && !var->isComplex && isNumericClass(var->class_type))
        var->class_type = MAT_C_DOUBLE;
    const bool read = var && var->class_type == MAT_C_DOUBLE
        && Mat_VarReadData(m_mat, var.get(), values.data(), start, stride, edge) == 0;
    const QString why = m_log.since(before);
    if (!read || !why.isEmpty())
        return Error { QStringLiteral("%1: could not read rows %2..%3 of variable '%4'%5; the "
                                      "file may be truncated or damaged")
                           .arg(m_file)
                           .arg(first + 1)
                           .arg(first + count)
                           .arg(info.name,
                               why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why)) };
    return values;
}

Result<QString> Reader::readText(const VarInfo& info) const
{
    if (info.classType != MAT_C_CHAR || info.dims.size() != 2 || info.dims[0] > 1)
        return Error { QStringLiteral("%1: variable '%2' is not a text row (%3 %4)")
                           .arg(m_file, info.name, info.shape(), className(info.classType)) };
    if (!info.dataProblem.isEmpty())
        return Error { QStringLiteral("%1: %2").arg(m_file, info.dataProblem) };
    const qsizetype before = m_log.count();
    MatVar var { Mat_VarRead(m_mat, info.name.toUtf8().constData()) };
    const QString why = m_log.since(before);
    const std::size_t n = info.count();
    if (n == 0 && var && why.isEmpty())
        return QString();
    if (!var || !var->data || !why.isEmpty() || var->class_type != MAT_C_CHAR
        || var->nbytes < n * std::size_t(std::max(var->data_size, 1)))
        return Error { QStringLiteral("%1: could not read variable '%2'; the file may be "
                                      "truncated or damaged")
                           .arg(m_file, info.name) };
    if (var->data_size == 2)
        return QString::fromUtf16(static_cast<const char16_t*>(var->data), qsizetype(n));
    // UTF-8 char data counts characters in its dimensions and bytes in its data tag: a
    // character may take up to four bytes, so the whole tag is decoded (the structure walk has
    // checked that it ends inside the matrix).
    if (var->data_type == MAT_T_UTF8)
        return QString::fromUtf8(static_cast<const char*>(var->data), qsizetype(var->nbytes));
    if (var->data_size == 1)
        return QString::fromUtf8(static_cast<const char*>(var->data), qsizetype(n));
    return Error { QStringLiteral("%1: variable '%2' holds %3-byte characters")
                       .arg(m_file, info.name)
                       .arg(var->data_size) };
}

} // namespace facet::matio
