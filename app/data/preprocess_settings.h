// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/missing_entries.h"
#include "data/noise.h"
#include "util/result.h"

#include <QJsonObject>

namespace facet {

// What happens to an image whose face the detector misses.
enum class NoFacePolicy {
    CenterCrop, // keep it: the largest centred region with the target's aspect ratio
    Skip, // leave it out of the dataset (listed in the notes)
};

// The image steps between the files and the data matrix, in this order, each optional:
// grayscale, face detection and eye alignment, resize, histogram equalization, then noise.
// Scaling to [0, 1] and per-sample L2 normalization follow as PrepareOptions. Sets loaded from
// image files start from 0..255 grey levels; .mat and built-in sets go through the same steps
// when any image step is asked for (resize, faces, equalize).
struct PreprocessSettings {
    // Colour files to luma grey. Off, a colour file is an error, since every pixel is one
    // feature; grey pictures saved as RGB count as grey either way.
    bool grayscale = true;
    // Haar cascades: the largest frontal face, then both eyes inside it; rotation and scale put
    // the eyes at fixed positions of the output (METHODS.md section 8 sizes). A face without two
    // eyes is cropped to its box.
    bool detectFaces = false;
    NoFacePolicy noFace = NoFacePolicy::CenterCrop;
    // Target size (INTER_AREA); 0 x 0 keeps the files' size, and images of another size than
    // the most common one are resized to it. Face detection without a size gives 32 x 32.
    int height = 0;
    int width = 0;
    bool equalize = false; // cv::equalizeHist on the 8-bit image after resizing
    NoiseSettings noise;
    // Missing pixels (data/missing_entries.h), made on the data after the preparation (scaling,
    // L2): the explorer's masks, whose hidden values a view compares with their fill-in.
    MissingSettings missing;

    bool hasSize() const { return height > 0 && width > 0; }
    // Steps that need the data as images; without them .mat and built-in sets stay untouched.
    bool changesImages() const { return detectFaces || hasSize() || equalize; }

    bool operator==(const PreprocessSettings&) const = default;
};

// Keys: grayscale, detect_faces, no_face ("center" | "skip"), height, width, equalize, noise
// ("gaussian:0.1" as parseNoise reads it), noise_seed, missing ("pixels:0.3" as parseMissing
// reads it), missing_seed, missing_file, missing_variable.
QJsonObject preprocessToJson(const PreprocessSettings& settings);

// Missing keys keep their defaults, so older files still load; wrong types or values are errors
// naming the key.
Result<PreprocessSettings> preprocessFromJson(const QJsonObject& object);

// One line for notes and the GUI: "faces (skip), 32x32, equalized, noise gaussian:0.1 seed 3".
QString describePreprocess(const PreprocessSettings& settings);

// "32x32" or "112x92" (HEIGHTxWIDTH, as `facet-cli info` prints sizes); a single number is a
// square. Sides must be 1..4096.
Result<bool> parseImageSize(const QString& text, int& height, int& width);

} // namespace facet
