// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/image_set.h"
#include "data/preprocess_settings.h"
#include "util/result.h"

#include <QImage>

#include <functional>
#include <stop_token>
#include <vector>

namespace facet {

// What the image steps did, for the notes and for a GUI listing the misses.
struct PreprocessReport {
    int images = 0; // images that went in
    int faces = 0; // faces found (aligned by the eyes or cropped to the box)
    int eyesAligned = 0;
    QStringList noFace; // images where the detector found no face
    QStringList resized; // "name (HxW)" of images resized to the common size
    std::vector<int> kept; // for each output sample, the index of its image in the input
    bool cancelled = false; // the stop came before the last image: the result is an error
};

// Progress and cancel of the image steps, which take seconds on a folder when they look for
// faces (some 5-15 ms an image). `onImage(done, total)` runs on the caller's thread after each
// image; `stop` is checked before each one, as MatLoadOptions::stop is watched while a MAT 7.3
// file is read. A stop gives an error saying how far the steps came, with report->cancelled set.
struct PreprocessControl {
    std::function<void(int done, int total)> onImage;
    std::stop_token stop;
};

// The files' images through the image steps into a Dataset of 0..255 grey levels, one column
// per kept image. The set's labels, class names and notes carry over; classes left without
// images (all skipped) are dropped. Errors: colour files with grayscale off, a missing cascade,
// every image skipped.
Result<Dataset> preprocessImages(const ImageSet& set, const PreprocessSettings& settings,
    PreprocessReport* report = nullptr, const PreprocessControl& control = {});

// The same steps on a loaded set whose samples are images (.mat, built-in): values stay in the
// data's range (0..1 stays 0..1). Without image steps the data is returned as it was.
Result<Dataset> preprocessDataset(const Dataset& data, const PreprocessSettings& settings,
    PreprocessReport* report = nullptr, const PreprocessControl& control = {});

// One sample before and after the image steps, for an inspector. `after` is null when the
// image would be skipped (no face with NoFacePolicy::Skip). Noise is drawn as for sample
// `index`, which is the sample's column when no earlier image was skipped.
struct SamplePreview {
    QImage before; // as loaded: grey or colour, the file's size
    QImage after; // 8-bit grey at the target size, values drawn on their full range
    QString outcome; // "face aligned by the eyes", "no face: centre crop", "resized from 50x40"
    bool kept = true;
};

Result<SamplePreview> previewSample(
    const ImageSet& set, int index, const PreprocessSettings& settings);
Result<SamplePreview> previewSample(
    const Dataset& data, int index, const PreprocessSettings& settings);

} // namespace facet
