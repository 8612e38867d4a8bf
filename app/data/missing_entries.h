// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "util/result.h"

#include <QString>

#include <cstdint>

// Missing entries the explorer makes or loads (issue 38): a mask applied to the prepared data,
// whose hidden values are kept (Dataset::hidden) so a view can show how the reconstruction fills
// them. facet-cli's --mask reads its file through applyMaskFile too.
namespace facet {

enum class MissingKind {
    None,
    Pixels, // a fraction of each sample's pixels, chosen at random
    Block, // one square block per image at a random position (the occlusion noise's draws)
    File, // a variable of a .mat file, fea's shape (0 = missing)
};

struct MissingSettings {
    MissingKind kind = MissingKind::None;
    // Pixels: the fraction of each sample's entries hidden (0 < f < 1, rounded to whole
    // entries, at least one kept); Block: the block's side in pixels.
    double amount = 0;
    std::uint64_t seed = 0;
    QString file; // File: the .mat file
    QString variable; // File: its variable ("mask" when empty)

    bool operator==(const MissingSettings&) const = default;
};

// "none", "pixels:0.3", "block:8", "file" (the file and variable are separate keys).
Result<MissingSettings> parseMissing(const QString& text, std::uint64_t seed = 0);
QString missingText(const MissingSettings& missing);
// For notes and the GUI: "30 % of the pixels (seed 3)", "an 8 x 8 block (seed 0)",
// "mask from /data/m.mat:mask".
QString describeMissing(const MissingSettings& missing);

// Hides the entries `missing` names in data (weights 0, X 0), after the preparation: the values
// it hides go to data.hidden, to score how a reconstruction fills them. Sample j's draws come
// from the stream deriveSeed(seed, j), so a sample's mask does not depend on the others. Errors:
// a block that does not fit the images, vectors for a block, the file's errors
// (applyMaskFile), a mask that leaves a sample or a feature without an observed entry.
Result<bool> applyMissing(Dataset& data, const MissingSettings& missing, int pixelOrder);

// The variable `variable` ("mask" when empty) of the .mat file at `path` as weights, multiplied
// into data.weights: one sample per row like fea (N x D as stored), each row's pixels in the
// file's order (pixelOrder: a PixelOrder; auto is row-major for 28x28, else column-major), turned
// into X's row-major order. Entries of X under weight 0 are set to 0. Refused with the reason:
// another shape, a NaN or infinite weight, a negative one.
Result<bool> applyMaskFile(
    const QString& path, const QString& variable, int pixelOrder, Dataset& data);

// The hidden values of sample j with their rows: the entries of `hidden` (of a dataset with m
// features) in column j.
struct HiddenColumn {
    std::vector<Eigen::Index> rows;
    std::vector<Scalar> values;
};
HiddenColumn hiddenColumn(const Dataset::HiddenEntries& hidden, Eigen::Index m, Eigen::Index j);

} // namespace facet
