// SPDX-License-Identifier: GPL-3.0-or-later
// The Level 5 element walk of matV5StructureProblem (MATLAB "MAT-File Format", chapter 1:
// data elements, miMATRIX subelements, the small data element format).
#include "data/mat_loader_structure.h"

#include <QFile>

#include <cstdint>
#include <limits>
#include <optional>

namespace facet {
namespace {

constexpr std::uint32_t kMiInt8 = 1, kMiInt32 = 5, kMiUint32 = 6, kMiMatrix = 14,
                        kMiCompressed = 15;
constexpr int kMaxDepth = 32; // nested cells and structs
constexpr int kMaxRank = 32;
constexpr std::uint32_t kMaxNameBytes = 4096;
// What is inflated of a variable whose class is not a container: its header subelements.
constexpr qsizetype kHeaderBytes = 8192;

// mxCELL_CLASS .. mxUINT64_CLASS, then function handles and opaque (MCOS) objects.
enum MatClass : std::uint32_t {
    Cell = 1,
    Struct = 2,
    Object = 3,
    Char = 4,
    Sparse = 5,
    LastNumeric = 15
};

struct Tag {
    std::uint32_t type = 0;
    std::uint32_t bytes = 0;
    qsizetype dataAt = 0; // where the data starts
    qsizetype next = 0; // where the next element starts (8-byte aligned)
};

class Walker {
public:
    // `buffer` holds the element at byte `offset` of the file, inflated when `compressed`.
    Walker(const QByteArray& buffer, bool swapped, qint64 offset, bool compressed)
        : m_buffer(buffer)
        , m_swapped(swapped)
        , m_offset(offset)
        , m_compressed(compressed)
    {
    }

    // The top-level variable's name and, for a char or numeric one whose values cannot be read
    // from its data element, why (matDataElementProblem); set by checkMatrix.
    const QString& name() const { return m_name; }
    const QString& dataProblem() const { return m_dataProblem; }

    // The miMATRIX element at `at`, whose data must end by `end` (its container's end, or the
    // declared end of a partially inflated top-level element).
    QString checkMatrix(qsizetype at, qint64 end, int depth, bool topLevel)
    {
        if (depth > kMaxDepth)
            return QStringLiteral("cells or structs nest more than %1 levels deep").arg(kMaxDepth);
        const std::optional<Tag> tag = readTag(at);
        if (!tag || tag->type != kMiMatrix)
            return QStringLiteral("an element at %1 is not a matrix (type %2)")
                .arg(where(at))
                .arg(tag ? tag->type : 0);
        // The format pads every matrix to a multiple of 8 bytes, and this walk steps to the next
        // element on that boundary while matio steps exactly by the declared size: a size off
        // the boundary would make the two read different elements (fuzz_mat: matio then read a
        // "matrix" 1 byte after this walk's and allocated 4 GB for its dimensions).
        if (tag->bytes % 8 != 0)
            return QStringLiteral("a matrix at %1 declares %2 bytes, not a multiple of 8")
                .arg(where(at))
                .arg(tag->bytes);
        const qint64 matrixEnd = qint64(tag->dataAt) + tag->bytes;
        if (matrixEnd > end)
            return QStringLiteral("a matrix of %1 bytes at %2 runs past its container")
                .arg(tag->bytes)
                .arg(where(at));
        if (tag->bytes == 0 && !topLevel)
            return {}; // an empty cell element
        qsizetype p = tag->dataAt;
        const std::optional<Tag> flags = readTag(p);
        if (!flags || flags->type != kMiUint32 || flags->bytes != 8 || !inside(*flags, matrixEnd))
            return QStringLiteral("damaged array flags at %1").arg(where(p));
        const std::uint32_t matClass = word(flags->dataAt) & 0xFF;
        p = flags->next;
        const std::optional<Tag> dims = readTag(p);
        if (!dims || dims->type != kMiInt32 || dims->bytes % 4 != 0 || dims->bytes < 8
            || dims->bytes > 4 * kMaxRank || !inside(*dims, matrixEnd))
            return QStringLiteral("damaged dimensions at %1").arg(where(p));
        // Saturating product: an absurd count must fail the checks below, not wrap around.
        quint64 count = 1;
        for (std::uint32_t d = 0; d < dims->bytes / 4; ++d) {
            const auto dim = std::int32_t(word(dims->dataAt + 4 * d));
            if (dim < 0)
                return QStringLiteral("a negative dimension at %1").arg(where(dims->dataAt));
            count = dim != 0 && count > std::numeric_limits<quint64>::max() / quint64(dim)
                ? std::numeric_limits<quint64>::max()
                : count * quint64(dim);
        }
        p = dims->next;
        QString shape; // "40 x 64", for the messages
        for (std::uint32_t d = 0; d < dims->bytes / 4; ++d)
            shape += (d == 0 ? QString() : QStringLiteral(" x "))
                + QString::number(std::int32_t(word(dims->dataAt + 4 * d)));
        QString name;
        // Up to a NUL, as matio reads it: the name a data problem is filed under.
        if (const std::optional<Tag> nameTag = readTag(p); nameTag && inside(*nameTag, matrixEnd)) {
            const char* text = m_buffer.constData() + nameTag->dataAt;
            name = QString::fromUtf8(text, qsizetype(qstrnlen(text, nameTag->bytes)));
        }
        const QString what = name.isEmpty() ? QStringLiteral("a variable (%1)").arg(shape)
                                            : QStringLiteral("variable '%1' (%2)").arg(name, shape);
        if (topLevel)
            m_name = name;
        if (const QString problem = skipName(p, matrixEnd); !problem.isEmpty())
            return problem;
        if (matClass == Object) // an object's class name follows its array name
            if (const QString problem = skipName(p, matrixEnd); !problem.isEmpty())
                return problem;
        switch (matClass) {
        case Cell:
            return checkChildren(p, matrixEnd, count, depth);
        case Struct:
        case Object: {
            // matio reads the field name length as two words, a small-form tag and its value:
            // only that form (the one MATLAB, matio and scipy write) means the same to both. An
            // 8-byte length tag made matio take the tag's size as the length and the value and
            // padding as the names' tag (test_mat_hostile "long-form field name length": a 4 GB
            // malloc).
            const std::optional<Tag> length = readTag(p);
            if (!length || length->type != kMiInt32 || length->bytes != 4 || length->dataAt != p + 4
                || !inside(*length, matrixEnd))
                return QStringLiteral("damaged struct field name length at %1").arg(where(p));
            // The names may be packed in their tag, as scipy.io.savemat writes one short name
            // ("k" and its NUL): matio reads that small form too, and takes a long-form tag
            // only with the type word exactly miINT8, which readTag reads the same way.
            const std::uint32_t nameLength = word(length->dataAt);
            const std::optional<Tag> names = readTag(length->next);
            if (nameLength == 0 || nameLength > kMaxNameBytes || !names || names->type != kMiInt8
                || names->bytes % nameLength != 0 || !inside(*names, matrixEnd))
                return QStringLiteral("damaged struct field names at %1").arg(where(length->next));
            const quint64 fields = names->bytes / nameLength;
            const quint64 total
                = fields != 0 && count > std::numeric_limits<quint64>::max() / fields
                ? std::numeric_limits<quint64>::max()
                : count * fields;
            return checkChildren(names->next, matrixEnd, total, depth);
        }
        default:
            if (matClass >= Char && matClass <= LastNumeric) {
                // The first data element (a char array's text, a numeric array's real part, a
                // sparse array's row indices) must end inside its matrix: matio allocates a
                // char array by the bytes its data tag declares, not by its dimensions
                // (fuzz_mat: 788 MB for a 1 x 28 char). Its tag may lie past what a compressed
                // variable's partial inflation holds; then matio's own read finds the end.
                const std::optional<Tag> data = readTag(p);
                if (data && qint64(data->dataAt) + data->bytes > matrixEnd)
                    return QStringLiteral("a data element of %1 bytes at %2 runs past its "
                                          "matrix")
                        .arg(data->bytes)
                        .arg(where(p));
                if (topLevel && matClass != Sparse)
                    m_dataProblem = dataProblem(what, matClass, count, p, data, matrixEnd);
                // A nested numeric array's real part must hold every element its dimensions
                // count: matio reads as many values as they say (a top-level variable's data is
                // checked when it is read, by dataProblem).
                if (!topLevel && data && matClass > Sparse) {
                    const quint64 size = matNumericTypeBytes(data->type);
                    if (size != 0 && count > quint64(data->bytes) / size)
                        return QStringLiteral("%1 has %2 elements, but its data at %3 holds "
                                              "%4 (%5 bytes): the data is cut short")
                            .arg(what)
                            .arg(count)
                            .arg(where(p))
                            .arg(quint64(data->bytes) / size)
                            .arg(data->bytes);
                }
            }
            if (matClass == 0 || (matClass >= Char && matClass <= LastNumeric))
                return {}; // data is read later, by Mat_VarRead, within the memory budget
            return QStringLiteral("a variable has MATLAB class %1 (a function handle or an "
                                  "object Facet cannot read); save the numeric variables alone")
                .arg(matClass);
        }
    }

private:
    // A position in the buffer as the file has it: a byte of the file, or of the stream a
    // compressed element inflates to.
    QString where(qsizetype at) const
    {
        if (!m_compressed)
            return QStringLiteral("byte %1").arg(m_offset + at);
        return QStringLiteral("byte %1 (inflated) of the compressed element at byte %2")
            .arg(at)
            .arg(m_offset);
    }

    // Why a top-level char or numeric array cannot take its values from the data element at
    // `at` (its real part): matio reads one of another type by skipping it, leaving its buffer
    // unfilled, and reads as many values as the dimensions say whatever the element holds.
    QString dataProblem(const QString& what, std::uint32_t matClass, quint64 count, qsizetype at,
        const std::optional<Tag>& data, qint64 matrixEnd) const
    {
        if (data)
            return matDataElementProblem(what, where(at), matClass, count, data->type, data->bytes);
        if (qint64(at) + 8 > matrixEnd)
            return QStringLiteral("%1 ends at %2, before its data element; the file is damaged")
                .arg(what, where(at));
        if (at + 8 <= m_buffer.size()) // a small-form tag of more than 4 bytes
            return QStringLiteral("%1: its data element at %2 has a damaged tag; the file is "
                                  "damaged")
                .arg(what, where(at));
        return {}; // past the inflated header: matio's own read finds the end
    }

    // `count` nested miMATRIX elements from `at`; each takes at least its 8-byte tag.
    QString checkChildren(qsizetype at, qint64 end, quint64 count, int depth)
    {
        if (count > quint64(std::max<qint64>(end - at, 0)) / 8)
            return QStringLiteral("a cell or struct of %1 elements does not fit its %2 bytes")
                .arg(count)
                .arg(end - at);
        if (end > m_buffer.size())
            return QStringLiteral("a cell or struct is cut off");
        for (quint64 i = 0; i < count; ++i) {
            if (const QString problem = checkMatrix(at, end, depth + 1, false); !problem.isEmpty())
                return problem;
            at = readTag(at)->next;
        }
        return {};
    }

    QString skipName(qsizetype& p, qint64 end)
    {
        const std::optional<Tag> name = readTag(p);
        if (!name || name->type != kMiInt8 || name->bytes > kMaxNameBytes || !inside(*name, end))
            return QStringLiteral("damaged variable name at %1").arg(where(p));
        p = name->next;
        return {};
    }

    // A tag inside the buffer; its data must also be, unless it is a matrix (checked by size).
    std::optional<Tag> readTag(qsizetype at) const
    {
        if (at < 0 || at > m_buffer.size() - 8)
            return std::nullopt;
        const std::uint32_t first = word(at);
        Tag tag;
        if (first >> 16 != 0) { // small data element: bytes in the upper half, data in 4 bytes
            tag.type = first & 0xFFFF;
            tag.bytes = first >> 16;
            if (tag.bytes > 4)
                return std::nullopt;
            tag.dataAt = at + 4;
            tag.next = at + 8;
            return tag;
        }
        tag.type = first;
        tag.bytes = word(at + 4);
        tag.dataAt = at + 8;
        const qint64 padded = (qint64(tag.bytes) + 7) / 8 * 8;
        tag.next
            = qsizetype(std::min<qint64>(tag.dataAt + padded, std::numeric_limits<int>::max()));
        return tag;
    }

    bool inside(const Tag& tag, qint64 end) const
    {
        const qint64 dataEnd = qint64(tag.dataAt) + tag.bytes;
        return dataEnd <= end && dataEnd <= m_buffer.size();
    }

    std::uint32_t word(qsizetype at) const
    {
        std::uint32_t v = 0;
        for (int b = 0; b < 4; ++b) {
            const auto byte = std::uint32_t(std::uint8_t(m_buffer.at(at + b)));
            v |= m_swapped ? byte << (8 * (3 - b)) : byte << (8 * b);
        }
        return v;
    }

    const QByteArray& m_buffer;
    bool m_swapped;
    qint64 m_offset;
    bool m_compressed;
    QString m_name;
    QString m_dataProblem;
};

// The class byte of a matrix whose first bytes are in `head` (0 when they are not readable).
std::uint32_t matrixClass(const QByteArray& head, bool swapped)
{
    if (head.size() < 24)
        return 0;
    std::uint32_t v = 0;
    const int at = 16; // miMATRIX tag (8), flags tag (8), flags word
    for (int b = 0; b < 4; ++b) {
        const auto byte = std::uint32_t(std::uint8_t(head.at(at + b)));
        v |= swapped ? byte << (8 * (3 - b)) : byte << (8 * b);
    }
    return v & 0xFF;
}

// The element's bytes (inflated when compressed): its headers, or all of it for a container.
// A top-level variable's data problem goes to `dataProblems` under its name.
QString checkElement(QFile& file, qint64 offset, std::uint32_t type, qint64 bytes, bool swapped,
    int index, QHash<QString, QString>& dataProblems)
{
    const qint64 available = std::min(bytes, file.size() - offset - 8);
    auto read = [&](qsizetype limit) -> QByteArray {
        file.seek(offset + (type == kMiCompressed ? 8 : 0));
        if (type == kMiCompressed)
            return matInflatePrefix(
                file.read(std::min<qint64>(available, limit + (1 << 20))), limit);
        return file.read(std::min<qint64>(limit, available + 8));
    };
    QByteArray buffer = read(kHeaderBytes);
    const std::uint32_t matClass = matrixClass(buffer, swapped);
    if (matClass == Cell || matClass == Struct || matClass == Object) {
        if (buffer.size() < 8)
            return QStringLiteral("variable %1 is damaged").arg(index);
        const qint64 declared = qint64(8)
            + (qint64(std::uint8_t(buffer.at(swapped ? 7 : 4)))
                | qint64(std::uint8_t(buffer.at(swapped ? 6 : 5))) << 8
                | qint64(std::uint8_t(buffer.at(swapped ? 5 : 6))) << 16
                | qint64(std::uint8_t(buffer.at(swapped ? 4 : 7))) << 24);
        if (declared > kMatMaxContainerBytes)
            return QStringLiteral("variable %1 is a cell or struct of %2 bytes, more than the %3 "
                                  "bytes Facet checks; save the numeric variables alone")
                .arg(index)
                .arg(declared)
                .arg(kMatMaxContainerBytes);
        if (type == kMiCompressed) {
            file.seek(offset + 8);
            buffer = matInflatePrefix(file.read(available), qsizetype(declared));
        } else {
            buffer = read(qsizetype(declared));
        }
    }
    Walker walker(buffer, swapped, offset, type == kMiCompressed);
    // A partially read header-only buffer: the matrix may end beyond it.
    const qint64 end = type == kMiCompressed ? std::numeric_limits<qint64>::max() : bytes + 8;
    if (const QString problem = walker.checkMatrix(0, end, 0, true); !problem.isEmpty())
        return QStringLiteral("variable %1 is damaged: %2").arg(index).arg(problem);
    // matio reads the first variable of a name; a later one is never read.
    if (!dataProblems.contains(walker.name()))
        dataProblems.insert(walker.name(), walker.dataProblem());
    return {};
}

} // namespace

MatV5Structure matV5Structure(const QString& path)
{
    MatV5Structure result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.problem = QStringLiteral("cannot be opened: %1").arg(file.errorString());
        return result;
    }
    const QByteArray header = file.read(128);
    if (matLevel5Version(header) != 0x0100)
        return result; // version 4, checked by matV4StructureProblem; 7.3 is HDF5
    const bool swapped = header.at(126) == 'M';
    const qint64 size = file.size();
    qint64 offset = 128;
    for (int index = 1; offset + 8 <= size; ++index) {
        file.seek(offset);
        const QByteArray tag = file.read(8);
        std::uint32_t type = 0, bytes = 0;
        for (int b = 0; b < 4; ++b) {
            const int shift = swapped ? 8 * (3 - b) : 8 * b;
            type |= std::uint32_t(std::uint8_t(tag.at(b))) << shift;
            bytes |= std::uint32_t(std::uint8_t(tag.at(4 + b))) << shift;
        }
        if (type == kMiMatrix || type == kMiCompressed) {
            result.problem
                = checkElement(file, offset, type, bytes, swapped, index, result.dataProblems);
            if (!result.problem.isEmpty())
                return result;
        }
        offset += 8 + qint64(bytes);
        if (type != kMiCompressed)
            offset = (offset + 7) / 8 * 8;
    }
    // Only the variables with a problem: the empty entries kept the first of each name.
    result.dataProblems.removeIf([](const auto& entry) { return entry.value().isEmpty(); });
    return result;
}

QString matV5StructureProblem(const QString& path)
{
    return matV5Structure(path).problem;
}

} // namespace facet
