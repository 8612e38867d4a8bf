// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/folder_loader.h"

#include "data/folder_listing.h"
#include "data/image_decode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

namespace facet {
namespace {

using Kind = FolderEntry::Kind;

// What became of the files that did not load, by cause, for the notes and the error message.
struct Skipped {
    QStringList notImages;
    QStringList empty;
    QStringList damaged; // "name (why)"
    QStringList unreadable;
    QStringList notFiles; // FIFOs, sockets, devices, dangling links: never opened

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
        if (!notFiles.isEmpty())
            notes << QStringLiteral("skipped %1 entries that are not files (a FIFO, socket, "
                                    "device or dangling link): %2")
                         .arg(notFiles.size())
                         .arg(listSome(notFiles));
    }
    QString summary() const
    {
        QStringList parts;
        addTo(parts);
        return parts.isEmpty() ? QStringLiteral("no files") : parts.join(QStringLiteral("; "));
    }
};

// Opens a listed file by its bytes. O_NONBLOCK: a file swapped for a FIFO since it was listed
// does not wait for a writer; it is then refused as not a file.
int openListed(const FolderEntry& entry)
{
    const int fd = ::open(entry.path.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat status { };
    if (fd >= 0 && (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))) {
        ::close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

// Reads and decodes one file, sorting failures into `skipped`.
std::optional<QImage> readImage(const FolderEntry& entry, Skipped& skipped)
{
    if (entry.kind != Kind::File) {
        skipped.notFiles << entry.name;
        return std::nullopt;
    }
    const int fd = openListed(entry);
    QFile file;
    if (fd < 0 || !file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        const int error = errno;
        if (fd >= 0)
            ::close(fd);
        if (error == EINVAL)
            skipped.notFiles << entry.name;
        else
            skipped.unreadable << QStringLiteral("%1 (%2)").arg(
                entry.name, QString::fromLocal8Bit(std::strerror(error)));
        return std::nullopt;
    }
    const QByteArray head = file.peek(16);
    if (head.isEmpty() && file.size() == 0) {
        skipped.empty << entry.name;
        return std::nullopt;
    }
    if (sniffImageFormat(head) == ImageFormat::Unknown) {
        skipped.notImages << entry.name;
        return std::nullopt;
    }
    Result<QImage> decoded = decodeOpenImageFile(file, entry.name);
    if (!decoded) {
        skipped.damaged << decoded.error();
        return std::nullopt;
    }
    return std::move(*decoded);
}

// Only the first bytes are looked at: is this an image file at all?
bool hasImageSignature(const FolderEntry& entry)
{
    const int fd = openListed(entry);
    if (fd < 0)
        return false;
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return false;
    }
    return sniffImageFormat(file.peek(16)) != ImageFormat::Unknown;
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

// Class names from the folders' names; folders whose names show alike (bytes that are not
// UTF-8, each shown as U+FFFD) stay apart as "name (2)", "name (3)".
QStringList classNamesOf(const std::vector<FolderEntry>& folders)
{
    QStringList names;
    std::map<QString, int> seen;
    for (const FolderEntry& folder : folders) {
        const int times = ++seen[folder.name];
        names << (times == 1 ? folder.name
                             : QStringLiteral("%1 (%2)").arg(folder.name, QString::number(times)));
    }
    return names;
}

// `nestedClasses`: the class folders some of whose images sit in folders below them (they join
// the top folder's class, which a note says: a parent of the class folders chosen by mistake
// gives one class). `notUtf8` collects the names that are not UTF-8.
void loadClassFolders(const std::vector<FolderEntry>& subdirs, ImageSet& set,
    QStringList& classOfImage, Skipped& skipped, QStringList& emptyFolders,
    QStringList& nestedClasses, QStringList& notUtf8)
{
    const QStringList classNames = classNamesOf(subdirs);
    for (std::size_t c = 0; c < subdirs.size(); ++c) {
        const FolderEntry& sub = subdirs[c];
        if (!sub.utf8)
            notUtf8 << sub.name + u'/';
        int loaded = 0;
        bool nested = false;
        for (FolderEntry& file : listFilesBelow(sub.path)) {
            if (!file.utf8 && sub.utf8)
                notUtf8 << sub.name + u'/' + file.name;
            const bool below = file.name.contains(u'/');
            file.name = sub.name + u'/' + file.name;
            if (auto image = readImage(file, skipped)) {
                set.images.push_back(std::move(*image));
                set.files << file.name;
                classOfImage << classNames[qsizetype(c)];
                ++loaded;
                nested = nested || below;
            }
        }
        if (loaded == 0)
            emptyFolders << sub.name + u'/';
        if (nested)
            nestedClasses << sub.name + u'/';
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
    // By their bytes: QDir leaves out the names that are not UTF-8 (folder_listing.h).
    std::vector<FolderEntry> subdirs, files;
    for (FolderEntry& entry : listFolder(QFile::encodeName(top.absolutePath())))
        (entry.kind == Kind::Folder ? subdirs : files).push_back(std::move(entry));

    Skipped skipped;
    QStringList classOfImage, emptyFolders, nestedClasses, notUtf8;
    loadClassFolders(subdirs, set, classOfImage, skipped, emptyFolders, nestedClasses, notUtf8);
    for (const FolderEntry& file : files)
        if (!file.utf8)
            notUtf8 << file.name;

    if (!set.images.empty()) {
        QStringList stray;
        for (const FolderEntry& file : files) {
            if (file.kind != Kind::File)
                skipped.notFiles << file.name;
            else if (file.size > 0 && hasImageSignature(file))
                stray << file.name;
            else if (file.size == 0)
                skipped.empty << file.name;
            else
                skipped.notImages << file.name;
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
        for (const FolderEntry& file : files)
            if (auto image = readImage(file, skipped)) {
                set.images.push_back(std::move(*image));
                set.files << file.name;
            }
        if (set.images.empty()) {
            const QString what = subdirs.empty() && files.empty()
                ? QStringLiteral("the folder is empty")
                : skipped.summary(); // "skipped 1 file(s) that are not images: a.txt"
            return Error { QStringLiteral("%1: no images in the folder or its class subfolders "
                                          "(PGM, PNG, JPEG, BMP, TIFF, GIF, WebP); %2")
                               .arg(path, what) };
        }
        labelFlatFolder(set);
    }
    if (!notUtf8.isEmpty())
        set.notes << QStringLiteral("read %1 name(s) that are not UTF-8 by their bytes; they show "
                                    "%2 for each byte that is not: %3")
                         .arg(notUtf8.size())
                         .arg(QChar(QChar::ReplacementCharacter))
                         .arg(listSome(notUtf8));
    if (!emptyFolders.isEmpty())
        set.notes << QStringLiteral("ignored %1 folder(s) without images: %2")
                         .arg(emptyFolders.size())
                         .arg(listSome(emptyFolders));
    skipped.addTo(set.notes);
    return set;
}

} // namespace facet
