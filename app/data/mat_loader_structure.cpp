// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_loader_structure.h"

#include <QFile>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace facet {
namespace {

std::uint32_t word32(const QByteArray& bytes, int at, bool bigEndian)
{
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) {
        const auto byte = std::uint32_t(std::uint8_t(bytes.at(at + b)));
        v |= bigEndian ? byte << (8 * (3 - b)) : byte << (8 * b);
    }
    return v;
}

// A version 4 header: type = M*1000 + O*100 + P*10 + T with M the byte order (0 little,
// 1 big-endian), O = 0, P the element type (0 double .. 5 uint8), T 0 full, 1 text, 2 sparse.
struct V4Header {
    std::int32_t type = 0, rows = 0, columns = 0, imaginary = 0, nameLength = 0;

    int elementBytes() const
    {
        static constexpr std::array<int, 6> kBytes { 8, 4, 4, 2, 2, 1 };
        return kBytes[std::size_t(type / 10 % 10)];
    }
    // M must name the byte order the header was read in. matio (Mat_VarReadNextInfo4) takes the
    // type word as stored when it is 0..4052 and byte-swapped otherwise, then reads the other
    // four words in the order M names: a little-endian 1000 (M = 1) made it read this header's
    // name length 0x7F as 0x7F000000 and allocate 2 GB (fuzz_mat, CI). A word read one way as
    // 0..4052 is never below 2000 the other way (unless it is 0), so matio either reads what
    // this check read or gives up.
    bool valid(bool bigEndian) const
    {
        return type >= 0 && type / 1000 == (bigEndian ? 1 : 0) && type / 100 % 10 == 0
            && type / 10 % 10 <= 5 && type % 10 <= 2 && rows >= 0 && columns >= 0
            && (imaginary == 0 || imaginary == 1) && nameLength >= 1;
    }
};

V4Header readV4Header(const QByteArray& bytes, bool bigEndian)
{
    V4Header h;
    h.type = std::int32_t(word32(bytes, 0, bigEndian));
    h.rows = std::int32_t(word32(bytes, 4, bigEndian));
    h.columns = std::int32_t(word32(bytes, 8, bigEndian));
    h.imaginary = std::int32_t(word32(bytes, 12, bigEndian));
    h.nameLength = std::int32_t(word32(bytes, 16, bigEndian));
    return h;
}

} // namespace

int matLevel5Version(const QByteArray& head)
{
    if (head.size() < 128)
        return 0;
    const QByteArray mark = head.mid(126, 2);
    if (mark != "IM" && mark != "MI")
        return 0;
    const int version = int(word32(head.mid(124, 2) + QByteArray(2, '\0'), 0, false) & 0xFFFF);
    const int swapped = ((version & 0xFF) << 8) | (version >> 8);
    const int v = mark == "MI" ? swapped : version;
    return v == 0x0100 || v == 0x0200 ? v : 0;
}

QString matV4StructureProblem(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot be opened: %1").arg(file.errorString());
    if (matLevel5Version(file.read(128)) != 0)
        return {};
    const qint64 size = file.size();
    qint64 offset = 0;
    for (int k = 1; offset < size; ++k) {
        file.seek(offset);
        const QByteArray bytes = file.read(20);
        if (bytes.size() < 20)
            return k == 1 ? QStringLiteral("not a MATLAB MAT-file (%1 bytes is too short for any "
                                           "MAT-file header)")
                                .arg(size)
                          : QStringLiteral("is truncated: it ends inside the header of matrix %1 "
                                           "at byte %2")
                                .arg(k)
                                .arg(offset);
        const V4Header little = readV4Header(bytes, false);
        const bool isLittle = little.valid(false);
        const V4Header h = isLittle ? little : readV4Header(bytes, true);
        if (!isLittle && !h.valid(true))
            return k == 1 ? QStringLiteral("not a MATLAB MAT-file (no valid version 4, 5 or 7.3 "
                                           "header)")
                          : QStringLiteral("matrix %1 at byte %2 has a damaged version 4 header")
                                .arg(k)
                                .arg(offset);
        // In doubles: rows * columns * 8 * 2 would overflow 64 bits for the largest headers.
        const double dataBytes
            = double(h.rows) * double(h.columns) * h.elementBytes() * (1 + h.imaginary);
        const double end = double(offset) + 20 + h.nameLength + dataBytes;
        if (end > double(size))
            return QStringLiteral("is truncated or damaged: matrix %1 (a %2 x %3 version 4 "
                                  "matrix with a %4-byte name) needs bytes %5..%6, but the file "
                                  "has only %7 bytes")
                .arg(k)
                .arg(h.rows)
                .arg(h.columns)
                .arg(h.nameLength)
                .arg(offset)
                .arg(end, 0, 'f', 0)
                .arg(size);
        offset = qint64(end);
    }
    return {};
}

// The k-th top-level element is the k-th variable matio listed.
// How many inflated bytes a compressed element's matrix needs, from its first inflated bytes
// `head` (0: not known yet, head too short). For a numeric array, through the end of its real
// part's data element (so a stream that inflates far past it, a zip bomb behind a 1 x 1 matrix,
// is not inflated to the end); for anything else, its whole declared size, at most
// kMatMaxContainerBytes (the structure walk refuses larger containers). Malformed headers give
// the declared size: the structure walk has refused those already.
quint64 neededInflatedBytes(const QByteArray& head, bool swapped)
{
    if (head.size() < 8)
        return 0;
    const quint64 declared = 8 + quint64(word32(head, 4, swapped));
    const quint64 whole = std::min<quint64>(declared, quint64(kMatMaxContainerBytes));
    // A data element's size and where the next one starts (the small form: 4 bytes of data).
    struct Element {
        quint64 bytes = 0;
        qsizetype next = 0;
        qsizetype dataEnd = 0;
    };
    const auto element = [&](qsizetype at) -> std::optional<Element> {
        if (at + 8 > head.size())
            return std::nullopt;
        const std::uint32_t first = word32(head, int(at), swapped);
        if (first >> 16 != 0) // small data element
            return Element { first >> 16, at + 8, at + 4 + qsizetype(first >> 16) };
        const quint64 bytes = word32(head, int(at) + 4, swapped);
        const qsizetype padded = qsizetype((bytes + 7) / 8 * 8);
        return Element { bytes, at + 8 + padded, at + 8 + qsizetype(bytes) };
    };
    const std::optional<Element> flags = element(8);
    if (!flags || flags->bytes != 8 || 16 + 4 > head.size())
        return head.size() < 64 ? 0 : whole;
    const std::uint32_t matClass = word32(head, 16, swapped) & 0xFF;
    const bool numeric = matClass >= 6 && matClass <= 15;
    if (!numeric)
        return whole;
    const std::optional<Element> dims = element(flags->next);
    const std::optional<Element> name = dims ? element(dims->next) : std::nullopt;
    const std::optional<Element> real = name ? element(name->next) : std::nullopt;
    if (!real)
        return head.size() < 4096 ? 0 : whole;
    return std::min<quint64>(whole, quint64(real->dataEnd));
}

// The zlib stream of a compressed element (its `bytes` from the file's current position) must
// be sound and inflate to what its matrix needs (neededInflatedBytes) before its input ends. A
// writer that ran out of disk space (matio does not check its fwrite calls) leaves an element
// whose declared size matches the bytes present but whose stream stops early, and matio inflates
// such a stream without complaint, filling the rest of the variable with zeros. The stream is
// inflated into a scratch buffer and discarded, as far as the variable's data reaches: about as
// long again as matio's own read. (The whole declared size is not required: matio itself writes
// a compressed char array 8 bytes short of it.)
QString compressedStreamProblem(QFile& file, qint64 bytes, bool swapped)
{
    z_stream z {};
    if (inflateInit(&z) != Z_OK)
        return QStringLiteral("zlib could not be initialized");
    constexpr qint64 kInChunk = qint64(1) << 20;
    std::vector<unsigned char> out(std::size_t(1) << 18);
    QByteArray head; // the first inflated bytes, for neededInflatedBytes
    quint64 inflated = 0;
    quint64 needed = 0;
    int status = Z_OK;
    for (qint64 left = bytes; status == Z_OK && left > 0 && (needed == 0 || inflated < needed);) {
        QByteArray in = file.read(std::min(left, kInChunk));
        if (in.isEmpty())
            break;
        left -= in.size();
        z.next_in = reinterpret_cast<Bytef*>(in.data());
        z.avail_in = uInt(in.size());
        while (status == Z_OK && (z.avail_in > 0 || z.avail_out == 0)
            && (needed == 0 || inflated < needed)) {
            z.next_out = out.data();
            z.avail_out = uInt(out.size());
            status = inflate(&z, Z_NO_FLUSH);
            const std::size_t produced = out.size() - z.avail_out;
            if (head.size() < 4096)
                head.append(reinterpret_cast<const char*>(out.data()),
                    qsizetype(std::min<std::size_t>(produced, std::size_t(4096 - head.size()))));
            inflated += produced;
            if (needed == 0)
                needed = neededInflatedBytes(head, swapped);
            if (status == Z_BUF_ERROR && produced == 0 && z.avail_in == 0)
                status = Z_OK; // needs more input
        }
    }
    const QString message = z.msg ? QString::fromLatin1(z.msg) : QString();
    inflateEnd(&z);
    if (status == Z_DATA_ERROR || status == Z_MEM_ERROR || status == Z_NEED_DICT
        || status == Z_STREAM_ERROR)
        return QStringLiteral("its compressed data is corrupt (zlib: %1)")
            .arg(message.isEmpty() ? QStringLiteral("error %1").arg(status) : message);
    if (needed == 0)
        needed = neededInflatedBytes(head, swapped);
    if (status == Z_STREAM_END || (needed > 0 && inflated >= needed))
        return {};
    return QStringLiteral("its compressed data stops after %1 inflated bytes, before the "
                          "end of its stream (truncated)")
        .arg(inflated);
}

QByteArray matInflatePrefix(const QByteArray& compressed, qsizetype limit)
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

QString matV5TruncationProblem(const QString& path, const QStringList& names)
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
        auto word = [&](int at) { return word32(tag, at, swapped); };
        const qint64 end = offset + 8 + qint64(word(4));
        if (end > size) {
            const QString what = qsizetype(k) < names.size()
                ? QStringLiteral("variable '%1'").arg(names[qsizetype(k)])
                : QStringLiteral("element %1").arg(k + 1);
            return QStringLiteral("is truncated: %1 needs bytes %2..%3 but the file has only "
                                  "%4 bytes")
                .arg(what)
                .arg(offset)
                .arg(end)
                .arg(size);
        }
        if (word(0) == 15) { // miCOMPRESSED, not padded; the file is at its data
            if (const QString problem = compressedStreamProblem(file, end - offset - 8, swapped);
                !problem.isEmpty())
                return QStringLiteral("%1 is damaged: %2")
                    .arg(qsizetype(k) < names.size()
                            ? QStringLiteral("variable '%1'").arg(names[qsizetype(k)])
                            : QStringLiteral("element %1").arg(k + 1),
                        problem);
            offset = end;
        } else {
            offset = (end + 7) / 8 * 8; // uncompressed elements are padded to 8 bytes
        }
    }
    return {};
}

} // namespace facet
