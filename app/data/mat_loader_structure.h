// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <cstdint>

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
// `problem` refuses the file. `dataProblems` tells, for each top-level char or numeric variable
// (the first of its name, as matio finds it) whose data element cannot give its values
// (matDataElementProblem), why: the loader refuses such a variable when it is read, so a
// variable Facet does not use is stepped over whatever its data holds.
struct MatV5Structure {
    QString problem;
    QHash<QString, QString> dataProblems;
};
MatV5Structure matV5Structure(const QString& path);
// matV5Structure(path).problem.
QString matV5StructureProblem(const QString& path);

// The bytes of one value of a numeric data type (miINT8 .. miUINT64), else 0.
quint64 matNumericTypeBytes(std::uint32_t type);

// Why a char or numeric array of class `matClass` (4, 6..15) with `count` elements cannot take
// its values from a data element of `type` holding `bytes` (mat_loader_data_types.cpp), or empty
// when it can: the type must be one MATLAB writes for the class (a double array's in the
// smallest type that holds them) or one that converts to it exactly, and the bytes exactly
// `count` values of it (1 to 4 bytes a character for miUTF8). `what` names the array in the
// message and `where` places the element ("byte 176").
QString matDataElementProblem(const QString& what, const QString& where, std::uint32_t matClass,
    quint64 count, std::uint32_t type, quint64 bytes);

// At most `limit` bytes of a zlib stream; fewer when it ends or is damaged (the structure
// walk's checks then find the headers or children missing).
QByteArray matInflatePrefix(const QByteArray& compressed, qsizetype limit);

inline constexpr qint64 kMatMaxContainerBytes = qint64(64) << 20;

// Level 5 files: the top-level elements (8-byte tag: type, byte count) must lie inside the file;
// matio inflates a cut-off zlib stream without complaint. names[k] is the k-th variable matio
// listed, used to name the element that is cut off.
QString matV5TruncationProblem(const QString& path, const QStringList& names);

} // namespace facet
