// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace facet {

// Refuses an input path that exists and is neither a regular file (or a link to one) nor a folder:
// a FIFO would block the first read until something writes to it, and /dev/zero or /dev/urandom
// have no end (and report a size of 0). Names what the path is. Empty otherwise, absent included
// (the loader says "file not found").
QString inputFileProblem(const QString& path);

} // namespace facet
