// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/folder_loader.h"

#include "data/image_decode.h"
#include "data/natural_sort.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

namespace facet {
namespace {

// What became of the files that did not load, by cause, for the notes and the error message.
struct Skipped {
    QStringList notImages;
    QStringList empty;
    QStringList damaged; // "name (why)"
    QStringList unreadable;

    void addTo(QStringList& notes) const
    {
        if (!notImages.isEmpty())
            notes << QStringLiteral("skipped %1 file(s) that are not images: %2")
                         .arg(notImages.size())
                         .arg(listSome(notImages));
        if (!empty.isEmpty())
            notes << QStringLiteral("skipped %1 empty file(s) (0 bytes): %2")
                         .arg(empty.size())
                         .arg(listSome(empty));
        if (!damaged.isEmpty())
            notes << QStringLiteral("skipped %1 damaged image(s): %2")
                         .arg(damaged.size())
                         .arg(listSome(damaged, 5));
        if (!unreadable.isEmpty())
            notes << QStringLiteral("skipped %1 unreadable file(s): %2")
                         .arg(unreadable.size())
                         .arg(listSome(unreadable, 5));
    }
    QString summary() const
    {
        QStringList parts;
        addTo(parts);
        return parts.isEmpty() ? QStringLiteral("no files") : parts.join(QStringLiteral("; "));
    }
};

// Reads and decodes one file, sorting failures into `skipped`.
std::optional<QImage> readImage(const QString& path, const QString& name, Skipped& skipped)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        skipped.unreadable << QStringLiteral("%1 (%2)").arg(name, file.errorString());
        return std::nullopt;
    }
    const QByteArray head = file.peek(16);
    if (head.isEmpty() && file.size() == 0) {
        skipped.empty << name;
        return std::nullopt;
    }
    if (sniffImageFormat(head) == ImageFormat::Unknown) {
        skipped.notImages << name;
        return std::nullopt;
    }
    file.close();
    Result<QImage> decoded = decodeImageFile(path, name);
    if (!decoded) {
        skipped.damaged << decoded.error();
        return std::nullopt;
    }
    return std::move(*decoded);
}

// Only the first bytes are looked at: is this an image file at all?
bool hasImageSignature(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly)
        && sniffImageFormat(file.peek(16)) != ImageFormat::Unknown;
}

QFileInfoList naturallySorted(QFileInfoList list)
{
    std::stable_sort(list.begin(), list.end(), [](const QFileInfo& a, const QFileInfo& b) {
        return naturalLess(a.fileName(), b.fileName());
    });
    return list;
}

// Every file below `dir`, as paths relative to it, in natural order of those paths.
QStringList filesBelow(const QDir& dir)
{
    QStringList relative;
    QDirIterator it(dir.path(), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        relative << dir.relativeFilePath(it.next());
    naturalSort(relative);
    return relative;
}

// Yale's "subject01.glasses" -> "subject01": the name up to the first separator.
QString classPrefix(const QString& fileName)
{
    qsizetype cut = -1;
    for (const QChar separator : { u'.', u'_', u'-', u' ' }) {
        const qsizetype at = fileName.indexOf(separator, 1);
        if (at > 0 && (cut < 0 || at < cut))
            cut = at;
    }
    return cut > 0 ? fileName.left(cut) : fileName;
}

// `nestedClasses`: the class folders some of whose images sit in folders below them (they join
// the top folder's class, which a note says: a parent of the class folders chosen by mistake
// gives one class).
void loadClassFolders(const QDir& top, const QFileInfoList& subdirs, ImageSet& set,
    QStringList& classOfImage, Skipped& skipped, QStringList& emptyFolders,
    QStringList& nestedClasses)
{
    for (const QFileInfo& sub : subdirs) {
        const QDir dir(sub.absoluteFilePath());
        int loaded = 0;
        bool nested = false;
        for (const QString& relative : filesBelow(dir)) {
            const QString name = top.relativeFilePath(dir.filePath(relative));
            if (auto image = readImage(dir.filePath(relative), name, skipped)) {
                set.images.push_back(std::move(*image));
                set.files << name;
                classOfImage << sub.fileName();
                ++loaded;
                nested = nested || relative.contains(u'/');
            }
        }
        if (loaded == 0)
            emptyFolders << sub.fileName() + u'/';
        if (nested)
            nestedClasses << sub.fileName() + u'/';
    }
}

// Labels from file-name prefixes only when they group the files: at least two classes, and
// fewer classes than images (all-distinct prefixes are just numbered files).
void labelFlatFolder(ImageSet& set)
{
    QStringList prefixes;
    for (const QString& file : std::as_const(set.files))
        prefixes << classPrefix(file);
    const auto distinct = QSet<QString>(prefixes.begin(), prefixes.end()).size();
    if (distinct >= 2 && distinct < prefixes.size()) {
        assignClasses(set, prefixes);
        set.notes << QStringLiteral("flat folder: %1 images, labels from the file-name prefix "
                                    "before the first '.', '_', '-' or ' ' (%2 classes: %3)")
                         .arg(set.size())
                         .arg(set.classNames.size())
                         .arg(listSome(set.classNames, 6));
    } else {
        set.notes << QStringLiteral("flat folder: %1 images, unlabelled (no subfolders, and "
                                    "the file names share no class prefix)")
                         .arg(set.size());
    }
}

} // namespace

Result<ImageSet> loadImageFolder(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return Error { QStringLiteral("%1: folder not found").arg(path) };
    if (!info.isDir())
        return Error { QStringLiteral("%1: is not a folder").arg(path) };
    QDir top(info.absoluteFilePath());
    if (!info.isReadable() || !top.isReadable())
        return Error {
            QStringLiteral("%1: the folder cannot be read (permission denied)").arg(path)
        };

    ImageSet set;
    set.name = top.dirName();
    set.source = path;
    const QFileInfoList subdirs
        = naturallySorted(top.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::NoSort));
    const QFileInfoList files = naturallySorted(top.entryInfoList(QDir::Files, QDir::NoSort));

    Skipped skipped;
    QStringList classOfImage, emptyFolders, nestedClasses;
    loadClassFolders(top, subdirs, set, classOfImage, skipped, emptyFolders, nestedClasses);

    if (!set.images.empty()) {
        QStringList stray;
        for (const QFileInfo& file : files) {
            if (file.size() > 0 && hasImageSignature(file.absoluteFilePath()))
                stray << file.fileName();
            else if (file.size() == 0)
                skipped.empty << file.fileName();
            else
                skipped.notImages << file.fileName();
        }
        assignClasses(set, classOfImage);
        set.notes << QStringLiteral("class folders: %1 images in %2 classes named by their "
                                    "folders (%3)")
                         .arg(set.size())
                         .arg(set.classNames.size())
                         .arg(listSome(set.classNames, 6));
        if (!nestedClasses.isEmpty())
            set.notes << QStringLiteral("images in folders below a class folder join its class "
                                        "(%1 of %2 class folder(s) hold some: %3)%4")
                             .arg(nestedClasses.size())
                             .arg(set.classNames.size())
                             .arg(listSome(nestedClasses))
                             .arg(set.classNames.size() == 1
                                     ? QStringLiteral("; with one class, open the folder that "
                                                      "holds the class folders")
                                     : QString());
        if (!stray.isEmpty())
            set.notes << QStringLiteral("left out %1 image(s) outside the class folders: %2")
                             .arg(stray.size())
                             .arg(listSome(stray));
    } else {
        for (const QFileInfo& file : files)
            if (auto image = readImage(file.absoluteFilePath(), file.fileName(), skipped)) {
                set.images.push_back(std::move(*image));
                set.files << file.fileName();
            }
        if (set.images.empty()) {
            const QString what = subdirs.isEmpty() && files.isEmpty()
                ? QStringLiteral("the folder is empty")
                : skipped.summary(); // "skipped 1 file(s) that are not images: a.txt"
            return Error { QStringLiteral("%1: no images in the folder or its class subfolders "
                                          "(PGM, PNG, JPEG, BMP, TIFF, GIF, WebP); %2")
                               .arg(path, what) };
        }
        labelFlatFolder(set);
    }
    if (!emptyFolders.isEmpty())
        set.notes << QStringLiteral("ignored %1 folder(s) without images: %2")
                         .arg(emptyFolders.size())
                         .arg(listSome(emptyFolders));
    skipped.addTo(set.notes);
    return set;
}

} // namespace facet
