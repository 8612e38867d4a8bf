// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/folder_listing.h"

#include "data/natural_sort.h"

#include <QFile>

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>
#include <utility>

namespace facet {
namespace {

void sortByName(std::vector<FolderEntry>& entries)
{
    std::sort(entries.begin(), entries.end(), [](const FolderEntry& a, const FolderEntry& b) {
        if (naturalLess(a.name, b.name))
            return true;
        // Two names that differ only in bytes shown as U+FFFD: their bytes decide.
        return !naturalLess(b.name, a.name) && a.path < b.path;
    });
}

// The entries of `folder`, named `prefix` + their name; `prefixBytes` is the prefix's bytes.
std::vector<FolderEntry> readFolder(
    const QByteArray& folder, const QString& prefix, const QByteArray& prefixBytes)
{
    std::vector<FolderEntry> entries;
    const std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(folder.constData()), ::closedir);
    if (!dir)
        return entries;
    while (const dirent* found = ::readdir(dir.get())) {
        const QByteArray bytes(found->d_name);
        if (bytes.startsWith('.')) // ".", ".." and hidden entries
            continue;
        FolderEntry entry;
        entry.path = folder + '/' + bytes;
        entry.name = prefix + QFile::decodeName(bytes);
        // Qt decodes names as UTF-8: a name survives the round trip exactly when it is UTF-8.
        entry.utf8 = QFile::encodeName(entry.name) == prefixBytes + bytes;
        struct stat status { };
        if (::stat(entry.path.constData(), &status) == 0) {
            entry.size = qint64(status.st_size);
            entry.kind = S_ISREG(status.st_mode) ? FolderEntry::Kind::File
                : S_ISDIR(status.st_mode)        ? FolderEntry::Kind::Folder
                                                 : FolderEntry::Kind::Other;
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

} // namespace

std::vector<FolderEntry> listFolder(const QByteArray& folder)
{
    std::vector<FolderEntry> entries = readFolder(folder, QString(), QByteArray());
    sortByName(entries);
    return entries;
}

std::vector<FolderEntry> listFilesBelow(const QByteArray& folder)
{
    std::vector<FolderEntry> files;
    std::set<std::pair<dev_t, ino_t>> entered;
    // Folders still to read: native path, shown prefix, prefix bytes.
    std::vector<std::tuple<QByteArray, QString, QByteArray>> pending { { folder, {}, {} } };
    while (!pending.empty()) {
        auto [path, prefix, prefixBytes] = std::move(pending.back());
        pending.pop_back();
        struct stat status { };
        if (::stat(path.constData(), &status) != 0
            || !entered.insert({ status.st_dev, status.st_ino }).second)
            continue;
        for (FolderEntry& entry : readFolder(path, prefix, prefixBytes)) {
            if (entry.kind != FolderEntry::Kind::Folder) {
                files.push_back(std::move(entry));
                continue;
            }
            QByteArray bytes = entry.path.mid(path.size() + 1);
            pending.emplace_back(
                std::move(entry.path), entry.name + u'/', prefixBytes + bytes + '/');
        }
    }
    sortByName(files);
    return files;
}

} // namespace facet
