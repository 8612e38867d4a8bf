// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/image_set.h"
#include "util/result.h"

namespace facet {

// An image list: one image per row, `path,label` (or `path` alone: unlabelled), separated by
// commas, or by tabs in a .tsv file or when the first row has tabs and no commas. Paths are
// relative to the list's folder unless absolute; fields may be quoted ("a, b.png" with ""
// for a quote); a first row naming columns (path/file/filename/image) is a header; empty rows
// and rows starting with '#' are skipped. Labels keep their text as class names. Rows whose
// image is missing or damaged are skipped and listed in the notes; a list without a single
// loadable image is an error.
Result<ImageSet> loadImageList(const QString& path);

// The same for a list already read into memory; `path` names it in messages, and its folder
// is where relative image paths are resolved.
Result<ImageSet> loadImageListBytes(const QByteArray& bytes, const QString& path);

// The images the list at `path` names, as absolute paths, without reading them; empty when the
// list cannot be read or parsed (loading it says why).
QStringList imageListPaths(const QString& path);

// Whether `path` should be read as an image list: a .csv/.tsv/.txt/.lst file, or a small text
// file (no NUL bytes) whose first line has a comma or a tab.
bool looksLikeImageList(const QString& path);

} // namespace facet
