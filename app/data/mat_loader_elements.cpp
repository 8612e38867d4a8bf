// SPDX-License-Identifier: GPL-3.0-or-later
// The Level 5 element walk of matV5StructureProblem (MATLAB "MAT-File Format", chapter 1:
// data elements, miMATRIX subelements, the small data element format).
#include "data/mat_loader_structure.h"

#include <QFile>

#include <zlib.h>

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

// The bytes of one value of a numeric data type (miINT8 .. miUINT64), else 0.
quint64 miTypeBytes(std::uint32_t type)
{
    switch (type) {
    case 1: // miINT8
    case 2: // miUINT8
        return 1;
    case 3: // miINT16
    case 4: // miUINT16
        return 2;
    case 5: // miINT32
    case 6: // miUINT32
    case 7: // miSINGLE
        return 4;
    case 9: // miDOUBLE
    case 12: // miINT64
    case 13: // miUINT64
        return 8;
    default:
        return 0;
    }
}

class Walker {
public:
    Walker(const QByteArray& buffer, bool swapped)
        : m_buffer(buffer)
        , m_swapped(swapped)
    {
    }

    // The miMATRIX element at `at`, whose data must end by `end` (its container's end, or the
    // declared end of a partially inflated top-level element).
    QString checkMatrix(qsizetype at, qint64 end, int depth, bool topLevel)
    {
        if (depth > kMaxDepth)
            return QStringLiteral("cells or structs nest more than %1 levels deep").arg(kMaxDepth);
        const std::optional<Tag> tag = readTag(at);
        if (!tag || tag->type != kMiMatrix)
            return QStringLiteral("an element at byte %1 is not a matrix (type %2)")
                .arg(at)
                .arg(tag ? tag->type : 0);
        // The format pads every matrix to a multiple of 8 bytes, and this walk steps to the next
        // element on that boundary while matio steps exactly by the declared size: a size off
        // the boundary would make the two read different elements (fuzz_mat: matio then read a
        // "matrix" 1 byte after this walk's and allocated 4 GB for its dimensions).
        if (tag->bytes % 8 != 0)
            return QStringLiteral("a matrix at byte %1 declares %2 bytes, not a multiple of 8")
                .arg(at)
                .arg(tag->bytes);
        const qint64 matrixEnd = qint64(tag->dataAt) + tag->bytes;
        if (matrixEnd > end)
            return QStringLiteral("a matrix of %1 bytes at byte %2 runs past its container")
                .arg(tag->bytes)
                .arg(at);
        if (tag->bytes == 0 && !topLevel)
            return {}; // an empty cell element
        qsizetype p = tag->dataAt;
        const std::optional<Tag> flags = readTag(p);
        if (!flags || flags->type != kMiUint32 || flags->bytes != 8 || !inside(*flags, matrixEnd))
            return QStringLiteral("damaged array flags at byte %1").arg(p);
        const std::uint32_t matClass = word(flags->dataAt) & 0xFF;
        p = flags->next;
        const std::optional<Tag> dims = readTag(p);
        if (!dims || dims->type != kMiInt32 || dims->bytes % 4 != 0 || dims->bytes < 8
            || dims->bytes > 4 * kMaxRank || !inside(*dims, matrixEnd))
            return QStringLiteral("damaged dimensions at byte %1").arg(p);
        // Saturating product: an absurd count must fail the checks below, not wrap around.
        quint64 count = 1;
        for (std::uint32_t d = 0; d < dims->bytes / 4; ++d) {
            const auto dim = std::int32_t(word(dims->dataAt + 4 * d));
            if (dim < 0)
                return QStringLiteral("a negative dimension at byte %1").arg(dims->dataAt);
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
        if (const std::optional<Tag> nameTag = readTag(p); nameTag && inside(*nameTag, matrixEnd))
            name = QString::fromUtf8(m_buffer.constData() + nameTag->dataAt, nameTag->bytes);
        const QString what = name.isEmpty() ? QStringLiteral("a variable (%1)").arg(shape)
                                            : QStringLiteral("'%1' (%2)").arg(name, shape);
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
                return QStringLiteral("damaged struct field name length at byte %1").arg(p);
            // The names may be packed in their tag, as scipy.io.savemat writes one short name
            // ("k" and its NUL): matio reads that small form too, and takes a long-form tag
            // only with the type word exactly miINT8, which readTag reads the same way.
            const std::uint32_t nameLength = word(length->dataAt);
            const std::optional<Tag> names = readTag(length->next);
            if (nameLength == 0 || nameLength > kMaxNameBytes || !names || names->type != kMiInt8
                || names->bytes % nameLength != 0 || !inside(*names, matrixEnd))
                return QStringLiteral("damaged struct field names at byte %1").arg(length->next);
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
                    return QStringLiteral("a data element of %1 bytes at byte %2 runs past its "
                                          "matrix")
                        .arg(data->bytes)
                        .arg(p);
                // A numeric array's real part must hold every element its dimensions count:
                // matio reads as many bytes as the element declares into an array of the
                // dimensions' size and leaves the rest as it found it (a 40 x 64 'fea' with 10
                // values loaded, the other 2,550 zero).
                if (data && matClass > Sparse) {
                    const quint64 size = miTypeBytes(data->type);
                    if (size != 0 && count > quint64(data->bytes) / size)
                        return QStringLiteral("%1 has %2 elements, but its data at byte %3 holds "
                                              "%4 (%5 bytes): the data is cut short")
                            .arg(what)
                            .arg(count)
                            .arg(p)
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
            return QStringLiteral("damaged variable name at byte %1").arg(p);
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
};

// At most `limit` bytes of the zlib stream; fewer when it ends or is damaged (the caller's
// checks then find the headers or children missing).
QByteArray inflatePrefix(const QByteArray& compressed, qsizetype limit)
{
    QByteArray out(limit, Qt::Uninitialized);
    z_stream z {};
    if (inflateInit(&z) != Z_OK)
        return {};
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.constData()));
    z.avail_in = uInt(compressed.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(limit);
    int rc = Z_OK;
    while (rc == Z_OK && z.avail_out > 0)
        rc = inflate(&z, Z_SYNC_FLUSH);
    out.resize(limit - qsizetype(z.avail_out));
    inflateEnd(&z);
    return out;
}

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
QString checkElement(
    QFile& file, qint64 offset, std::uint32_t type, qint64 bytes, bool swapped, int index)
{
    const qint64 available = std::min(bytes, file.size() - offset - 8);
    auto read = [&](qsizetype limit) -> QByteArray {
        file.seek(offset + (type == kMiCompressed ? 8 : 0));
        if (type == kMiCompressed)
            return inflatePrefix(file.read(std::min<qint64>(available, limit + (1 << 20))), limit);
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
            buffer = inflatePrefix(file.read(available), qsizetype(declared));
        } else {
            buffer = read(qsizetype(declared));
        }
    }
    Walker walker(buffer, swapped);
    // A partially read header-only buffer: the matrix may end beyond it.
    const qint64 end = type == kMiCompressed ? std::numeric_limits<qint64>::max() : bytes + 8;
    if (const QString problem = walker.checkMatrix(0, end, 0, true); !problem.isEmpty())
        return QStringLiteral("variable %1 is damaged: %2").arg(index).arg(problem);
    return {};
}

} // namespace

QString matV5StructureProblem(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot be opened: %1").arg(file.errorString());
    const QByteArray header = file.read(128);
    if (matLevel5Version(header) != 0x0100)
        return {}; // version 4, checked by matV4StructureProblem; 7.3 is HDF5
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
        if (type == kMiMatrix || type == kMiCompressed)
            if (const QString problem = checkElement(file, offset, type, bytes, swapped, index);
                !problem.isEmpty())
                return problem;
        offset += 8 + qint64(bytes);
        if (type != kMiCompressed)
            offset = (offset + 7) / 8 * 8;
    }
    return {};
}

} // namespace facet
