// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace facet {

// Structural checks of a MAT-file's bytes that matio does not make: it allocates and reads what
// the headers say. Each returns an empty string for a sound file, else the problem (without the
// file name), for loadMat to prefix.

// The version a Level 5 header at the start of `head` gives (0x0100 Level 5, 0x0200 for 7.3,
// which is HDF5), or 0 when there is none: matio then reads the file as version 4.
int matLevel5Version(const QByteArray& head);

// Version 4 files (anything without a Level 5 header: the 'IM'/'MI' mark at byte 126 and
// version 0x0100 or 0x0200): each matrix header
// (type, rows, columns, imaginary flag, name length) must be valid and its name and data must lie
// inside the file. Run before Mat_Open, which already reads the first header.
QString matV4StructureProblem(const QString& path);

// Level 5 files (mat_loader_elements.cpp): every variable's header subelements (array flags,
// dimensions, name) must be well formed and inside their element, and a cell, struct or object
// must hold as many nested elements as its dimensions say, each checked the same way, so matio's
// listing allocates nothing the file does not hold. Compressed elements are inflated only as far
// as needed (their headers; containers up to kMatMaxContainerBytes). Run before Mat_Open.
QString matV5StructureProblem(const QString& path);

inline constexpr qint64 kMatMaxContainerBytes = qint64(64) << 20;

// Level 5 files: the top-level elements (8-byte tag: type, byte count) must lie inside the file;
// matio inflates a cut-off zlib stream without complaint. names[k] is the k-th variable matio
// listed, used to name the element that is cut off.
QString matV5TruncationProblem(const QString& path, const QStringList& names);

} // namespace facet
