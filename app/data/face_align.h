// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to facet_app: this header needs OpenCV, which only facet_app links.

#include "util/result.h"

#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>

#include <memory>
#include <mutex>

namespace facet {

enum class FaceOutcome {
    Eyes, // face and both eyes found: rotated and scaled so the eyes sit at fixed points
    FaceBox, // face found, eyes not: cropped to the detector's box
    NoFace,
};

// The Haar cascades of Debian's opencv-data: frontal faces, then eyes inside the face.
class FaceAligner {
public:
    // Loads haarcascade_frontalface_default.xml and haarcascade_eye.xml from FACET_CASCADE_DIR,
    // else /usr/share/opencv4/haarcascades; a missing or unreadable cascade is an error saying
    // where it looked and what to install. The cascades are loaded once per process.
    static Result<std::shared_ptr<FaceAligner>> shared();

    // `grey` is the 8-bit image the detector looks at; `image` (any depth, same size) is the
    // one cut out, so .mat data keeps its precision. The output is `size`.
    FaceOutcome align(const cv::Mat& grey, const cv::Mat& image, cv::Size size, cv::Mat& out);

private:
    FaceAligner() = default;

    cv::CascadeClassifier m_face;
    cv::CascadeClassifier m_eye;
    std::mutex m_mutex; // detectMultiScale reuses the classifier's buffers
};

// The largest centred region with the aspect ratio of `size`, resized to it (INTER_AREA).
cv::Mat centerCrop(const cv::Mat& image, cv::Size size);

} // namespace facet
