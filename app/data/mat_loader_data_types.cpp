// SPDX-License-Identifier: GPL-3.0-or-later
// Which data types a Level 5 array's values may be stored in (MATLAB "MAT-File Format",
// chapter 1, tables 1-1 and 1-3), for the variables Facet reads: matio reads an element of any
// other type by skipping it, and hands back its buffer unfilled.
#include "data/mat_loader_structure.h"

#include <cstdint>
#include <initializer_list>
#include <iterator>

namespace facet {
// Named, not anonymous: the library compiles in unity batches, where the other loader files'
// anonymous namespaces (kMiInt8, className) would meet these.
namespace mat_data_types {

// mxCHAR_CLASS, mxSPARSE_CLASS, then the numeric classes mxDOUBLE_CLASS .. mxUINT64_CLASS.
enum : std::uint32_t {
    kChar = 4,
    kDouble = 6,
    kSingle = 7,
    kInt8 = 8,
    kUint8 = 9,
    kInt16 = 10,
    kUint16 = 11,
    kInt32 = 12,
    kUint32 = 13,
    kInt64 = 14,
    kUint64 = 15,
};

// miINT8 .. miUTF32; 8, 10 and 11 are reserved.
enum : std::uint32_t {
    kMiInt8 = 1,
    kMiUint8 = 2,
    kMiInt16 = 3,
    kMiUint16 = 4,
    kMiInt32 = 5,
    kMiUint32 = 6,
    kMiSingle = 7,
    kMiDouble = 9,
    kMiInt64 = 12,
    kMiUint64 = 13,
    kMiMatrix = 14,
    kMiCompressed = 15,
    kMiUtf8 = 16,
    kMiUtf16 = 17,
    kMiUtf32 = 18,
};

QString typeName(std::uint32_t type)
{
    static const char* const names[] = { nullptr, "miINT8", "miUINT8", "miINT16", "miUINT16",
        "miINT32", "miUINT32", "miSINGLE", nullptr, "miDOUBLE", nullptr, nullptr, "miINT64",
        "miUINT64", "miMATRIX", "miCOMPRESSED", "miUTF8", "miUTF16", "miUTF32" };
    return type < std::size(names) && names[type] ? QString::fromLatin1(names[type]) : QString();
}

QString className(std::uint32_t matClass)
{
    static const char* const names[] = { "char", "sparse", "double", "single", "int8", "uint8",
        "int16", "uint16", "int32", "uint32", "int64", "uint64" };
    return matClass >= kChar && matClass <= kUint64 ? QString::fromLatin1(names[matClass - kChar])
                                                    : QStringLiteral("class %1").arg(matClass);
}

// Whether an array of `matClass` holds values of `type`: what MATLAB writes (a double array in
// the smallest type that holds its values, any other class in its own type) and every type
// whose values convert to the class exactly, as matio converts them. A char array holds text.
bool holds(std::uint32_t matClass, std::uint32_t type)
{
    const auto among = [type](std::initializer_list<std::uint32_t> types) {
        for (std::uint32_t t : types)
            if (t == type)
                return true;
        return false;
    };
    switch (matClass) {
    case kChar: // the types matio reads as text (Reader::readText)
        return among({ kMiUint8, kMiUint16, kMiUtf8, kMiUtf16 });
    case kDouble:
        return among(
            { kMiInt8, kMiUint8, kMiInt16, kMiUint16, kMiInt32, kMiUint32, kMiSingle, kMiDouble });
    case kSingle:
        return among({ kMiInt8, kMiUint8, kMiInt16, kMiUint16, kMiSingle });
    case kInt8:
        return type == kMiInt8;
    case kUint8:
        return type == kMiUint8;
    case kInt16:
        return among({ kMiInt8, kMiUint8, kMiInt16 });
    case kUint16:
        return among({ kMiUint8, kMiUint16 });
    case kInt32:
        return among({ kMiInt8, kMiUint8, kMiInt16, kMiUint16, kMiInt32 });
    case kUint32:
        return among({ kMiUint8, kMiUint16, kMiUint32 });
    case kInt64:
        return among({ kMiInt8, kMiUint8, kMiInt16, kMiUint16, kMiInt32, kMiUint32, kMiInt64 });
    case kUint64:
        return among({ kMiUint8, kMiUint16, kMiUint32, kMiUint64 });
    default:
        return false;
    }
}

// Why `type` cannot hold the values of an array of `matClass`.
QString typeProblem(std::uint32_t matClass, std::uint32_t type)
{
    const QString name = typeName(type);
    const QString tag = name.isEmpty() ? QStringLiteral("type %1").arg(type)
                                       : QStringLiteral("type %1 (%2)").arg(type).arg(name);
    if (type == 8 || type == 10 || type == 11)
        return QStringLiteral("%1, which the MAT-file format reserves").arg(tag);
    if (name.isEmpty())
        return QStringLiteral("%1, which is no MAT-file data type").arg(tag);
    if (type == kMiMatrix || type == kMiCompressed)
        return QStringLiteral("%1, which is no data type for values").arg(tag);
    if (type == kMiUtf32 && matClass == kChar)
        return QStringLiteral("%1, which Facet does not read (only miUINT8, miUINT16, miUTF8 and "
                              "miUTF16 text)")
            .arg(tag);
    if (type >= kMiUtf8 || matClass == kChar)
        return QStringLiteral("%1, which a %2 array does not hold").arg(tag, className(matClass));
    return QStringLiteral("%1, whose values a %2 array cannot hold exactly")
        .arg(tag, className(matClass));
}

} // namespace mat_data_types

quint64 matNumericTypeBytes(std::uint32_t type)
{
    namespace types = mat_data_types;
    switch (type) {
    case types::kMiInt8:
    case types::kMiUint8:
        return 1;
    case types::kMiInt16:
    case types::kMiUint16:
        return 2;
    case types::kMiInt32:
    case types::kMiUint32:
    case types::kMiSingle:
        return 4;
    case types::kMiDouble:
    case types::kMiInt64:
    case types::kMiUint64:
        return 8;
    default:
        return 0;
    }
}

QString matDataElementProblem(const QString& what, const QString& where, std::uint32_t matClass,
    quint64 count, std::uint32_t type, quint64 bytes)
{
    namespace types = mat_data_types;
    if (!types::holds(matClass, type))
        return QStringLiteral("%1: its data element at %2 has %3; the file is damaged")
            .arg(what, where, types::typeProblem(matClass, type));
    // A UTF-8 character takes 1 to 4 bytes; every other type one unit of its size per element.
    const bool utf8 = type == types::kMiUtf8;
    quint64 size = matNumericTypeBytes(type);
    if (type == types::kMiUtf16)
        size = 2;
    else if (utf8)
        size = 1;
    const quint64 units = bytes / size;
    const bool fits
        = bytes % size == 0 && (utf8 ? units >= count && (units + 3) / 4 <= count : units == count);
    if (fits)
        return {};
    // Multi-argument arg(): a name with "%1" in it must not take the numbers' place.
    if (units < count)
        return QStringLiteral("%1 has %2 elements, but its data at %3 holds %4 (%5 bytes of %6): "
                              "the data is cut short")
            .arg(what, QString::number(count), where, QString::number(units),
                QString::number(bytes), types::typeName(type));
    const QString expected = utf8
        ? QStringLiteral("%1 to %2 (1 to 4 per character)")
              .arg(count)
              .arg(double(count) * 4, 0, 'f', 0)
        : QStringLiteral("%1").arg(double(count) * double(size), 0, 'f', 0);
    return QStringLiteral("%1 has %2 elements, but its data element at %3 holds %4 bytes of %5, "
                          "not %6; the file is damaged")
        .arg(what, QString::number(count), where, QString::number(bytes), types::typeName(type),
            expected);
}

} // namespace facet
