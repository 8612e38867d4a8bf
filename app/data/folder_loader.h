// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/image_set.h"
#include "util/result.h"

namespace facet {

// Loads every image of a folder, recognising the file type by content (so the Yale files, GIFs
// named subject01.happy, load). The layout decides the labels:
//  - one subfolder per class (AT&T's s1/1.pgm .. s40/10.pgm, or any class/*.png tree): the
//    folder name is the class, classes in natural order (s1, s2, .., s10); images directly in
//    the top folder are then left out and listed;
//  - a flat folder whose file names start with a shared class prefix before the first '.', '_',
//    '-' or ' ' (Yale's subject01.glasses): the prefix is the class;
//  - any other flat folder: unlabelled.
// Files that are not images, empty, damaged or unreadable are skipped and listed in the notes,
// as are FIFOs, sockets, devices and dangling links (never opened); a folder without a single
// image is an error. Names are read by their bytes (data/folder_listing.h): one that is not UTF-8
// loads, shows U+FFFD for each byte that is not, and a note lists it.
Result<ImageSet> loadImageFolder(const QString& path);

} // namespace facet
