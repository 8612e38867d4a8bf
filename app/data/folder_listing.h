// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace facet {

// A folder's entries, read by their bytes. Linux file names are bytes, not text, and Qt's QDir
// leaves out every name that is not UTF-8 without a word (a folder of Latin-1 names looked
// empty, issue 36). Each entry keeps the bytes to open it by, and a name to show in which the
// bytes that are not UTF-8 appear as U+FFFD.
struct FolderEntry {
    enum class Kind { File, Folder, Other }; // Other: a FIFO, socket, device or dangling link
    QByteArray path; // the native path: opens the entry whatever its bytes
    QString name; // relative to the folder listed ("s1/1.pgm"), for the notes and the GUI
    Kind kind = Kind::Other;
    qint64 size = 0;
    bool utf8 = true; // whether every byte of the relative name is UTF-8 (else `name` has U+FFFD)
};

// The entries directly in `folder` (a native path), in natural order of their names with their
// bytes breaking ties; hidden ones (a leading '.') are left out, as QDir does. A symbolic link
// counts as what it points to.
std::vector<FolderEntry> listFolder(const QByteArray& folder);

// Every entry below `folder` that is not a folder, named relative to it ("a/b/1.png"), in natural
// order of those names; linked folders are entered once each, so a link loop ends.
std::vector<FolderEntry> listFilesBelow(const QByteArray& folder);

} // namespace facet
