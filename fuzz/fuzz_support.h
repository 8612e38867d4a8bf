// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>

namespace facet::fuzz {

// A QCoreApplication, so Qt finds its image plugins (the GIF reader) as in the real programs.
void initQt();

// A folder private to this process, removed at exit: the .mat target writes its input there
// (matio reads files only), the list target resolves its image paths there.
const QString& scratchDir();

// libFuzzer's bytes as a QByteArray without a copy.
QByteArray bytesOf(const std::uint8_t* data, std::size_t size);

// Arguments are the input split at NUL or newline bytes (the seeds write one per line).
QStringList splitArguments(const std::uint8_t* data, std::size_t size);

// The few images an image list may name: written by Qt's own encoders into `dir`.
void writeListImages(const QString& dir);

} // namespace facet::fuzz
