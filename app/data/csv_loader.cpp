// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/csv_loader.h"

#include "data/image_decode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

namespace facet {
namespace {

struct Record {
    int line = 0; // 1-based line where the record starts
    QStringList fields;
};

// RFC 4180: quoted fields may hold the separator, quotes doubled, and line breaks.
Result<std::vector<Record>> parseRecords(const QString& text, QChar separator, const QString& file)
{
    std::vector<Record> records;
    Record current { 1, {} };
    QString field;
    bool quoted = false, wasQuoted = false;
    int line = 1;
    auto endField = [&] {
        current.fields << (wasQuoted ? field : field.trimmed());
        field.clear();
        wasQuoted = false;
    };
    auto endRecord = [&] {
        endField();
        const bool blank = current.fields.size() == 1 && current.fields.front().isEmpty();
        const bool comment = current.fields.front().startsWith(u'#');
        if (!blank && !comment)
            records.push_back(current);
        current = Record { line, {} };
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                if (c == u'\n')
                    ++line;
                field += c;
            }
        } else if (c == u'"' && field.trimmed().isEmpty()) {
            quoted = wasQuoted = true;
            field.clear();
        } else if (c == separator) {
            endField();
        } else if (c == u'\n') {
            ++line;
            endRecord();
        } else if (c != u'\r') {
            field += c;
        }
    }
    if (quoted)
        return Error {
            QStringLiteral("%1: line %2: a quoted field is not closed").arg(file).arg(current.line)
        };
    if (!field.isEmpty() || current.fields.size() > 0)
        endRecord();
    return records;
}

bool isHeader(const Record& record)
{
    static const QStringList kNames { QStringLiteral("path"), QStringLiteral("file"),
        QStringLiteral("filename"), QStringLiteral("file_name"), QStringLiteral("filepath"),
        QStringLiteral("image"), QStringLiteral("img") };
    return kNames.contains(record.fields.front().trimmed().toLower());
}

QChar chooseSeparator(const QString& path, const QString& text)
{
    if (QFileInfo(path).suffix().compare(QStringLiteral("tsv"), Qt::CaseInsensitive) == 0)
        return u'\t';
    const QString first = text.section(u'\n', 0, 0);
    return first.contains(u'\t') && !first.contains(u',') ? u'\t' : u',';
}

// The list's rows after the header, if any (`header` says whether there was one): the text
// decoded and split, with the errors loadImageListBytes reports.
Result<std::vector<Record>> listRecords(const QByteArray& bytes, const QString& path, bool& header)
{
    const QFileInfo info(path);
    if (bytes.contains('\0'))
        return Error { QStringLiteral("%1: binary content, not a text list of images").arg(path) };
    QStringDecoder utf8(QStringDecoder::Utf8);
    QString text = utf8(bytes);
    if (utf8.hasError())
        return Error { QStringLiteral("%1: not UTF-8 text; save the list as UTF-8").arg(path) };
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);

    const QString name = info.fileName();
    auto parsed = parseRecords(text, chooseSeparator(path, text), name);
    if (!parsed)
        return Error { parsed.error() };
    std::vector<Record>& records = *parsed;
    header = false;
    if (!records.empty() && isHeader(records.front())) {
        records.erase(records.begin());
        header = true;
    }
    if (records.empty())
        return Error { QStringLiteral("%1: the list has no rows (expected path,label per "
                                      "line)")
                           .arg(name) };
    return records;
}

constexpr qint64 kMaxListBytes = qint64(64) << 20;

} // namespace

bool looksLikeImageList(const QString& path)
{
    static const QStringList kSuffixes { QStringLiteral("csv"), QStringLiteral("tsv"),
        QStringLiteral("txt"), QStringLiteral("lst") };
    const QFileInfo info(path);
    if (kSuffixes.contains(info.suffix().toLower()))
        return true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.peek(4096);
    const QByteArray firstLine = head.left(head.indexOf('\n'));
    return !head.isEmpty() && !head.contains('\0')
        && (firstLine.contains(',') || firstLine.contains('\t'));
}

Result<ImageSet> loadImageList(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error { QStringLiteral("%1: cannot be read (%2)").arg(path, file.errorString()) };
    if (file.size() > kMaxListBytes)
        return Error {
            QStringLiteral("%1: %2 bytes is too large for an image list").arg(path).arg(file.size())
        };
    return loadImageListBytes(file.readAll(), path);
}

Result<ImageSet> loadImageListBytes(const QByteArray& bytes, const QString& path)
{
    const QFileInfo info(path);
    const QString name = info.fileName();
    bool header = false;
    auto parsed = listRecords(bytes, path, header);
    if (!parsed)
        return Error { parsed.error() };
    std::vector<Record>& records = *parsed;

    const bool labelled = records.front().fields.size() >= 2;
    for (const Record& r : records) {
        if (r.fields.size() > 2)
            return Error { QStringLiteral("%1: line %2 has %3 fields; expected path,label or a "
                                          "path alone")
                               .arg(name)
                               .arg(r.line)
                               .arg(r.fields.size()) };
        if (labelled && (r.fields.size() < 2 || r.fields[1].isEmpty()))
            return Error { QStringLiteral("%1: line %2 has no label, but line %3 has one; give "
                                          "every row a label or none")
                               .arg(name)
                               .arg(r.line)
                               .arg(records.front().line) };
        if (!labelled && r.fields.size() == 2)
            return Error { QStringLiteral("%1: line %2 has a label, but line %3 has none; give "
                                          "every row a label or none")
                               .arg(name)
                               .arg(r.line)
                               .arg(records.front().line) };
        if (r.fields[0].isEmpty())
            return Error { QStringLiteral("%1: line %2 has an empty path").arg(name).arg(r.line) };
    }

    ImageSet set;
    set.name = info.completeBaseName();
    set.source = path;
    const QDir base = info.absoluteDir();
    QStringList classOfImage, failed;
    for (const Record& r : records) {
        const QString imagePath = QDir::cleanPath(base.absoluteFilePath(r.fields[0]));
        const QString shown = QStringLiteral("line %1 (%2)").arg(r.line).arg(r.fields[0]);
        if (!QFileInfo(imagePath).isFile()) {
            failed << QStringLiteral("%1: file not found").arg(shown);
            continue;
        }
        Result<QImage> image = decodeImageFile(imagePath, shown);
        if (!image) {
            failed << image.error();
            continue;
        }
        set.images.push_back(std::move(*image));
        set.files << r.fields[0];
        if (labelled)
            classOfImage << r.fields[1];
    }
    if (set.images.empty())
        return Error { QStringLiteral("%1: none of the %2 listed images could be loaded: %3")
                           .arg(name)
                           .arg(records.size())
                           .arg(listSome(failed, 3)) };
    if (labelled)
        assignClasses(set, classOfImage);
    set.notes << QStringLiteral("image list%1: %2 images, %3")
                     .arg(header ? QStringLiteral(" with a header row") : QString())
                     .arg(set.size())
                     .arg(labelled ? QStringLiteral("%1 classes from the label column (%2)")
                                         .arg(set.classNames.size())
                                         .arg(listSome(set.classNames, 6))
                                   : QStringLiteral("unlabelled (no label column)"));
    if (!failed.isEmpty())
        set.notes << QStringLiteral("skipped %1 listed image(s): %2")
                         .arg(failed.size())
                         .arg(listSome(failed, 5));
    return set;
}

QStringList imageListPaths(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxListBytes)
        return {};
    bool header = false;
    const auto records = listRecords(file.readAll(), path, header);
    if (!records)
        return {};
    const QDir base = QFileInfo(path).absoluteDir();
    QStringList paths;
    for (const Record& r : *records)
        if (!r.fields.isEmpty() && !r.fields[0].isEmpty())
            paths << QDir::cleanPath(base.absoluteFilePath(r.fields[0]));
    return paths;
}

} // namespace facet
