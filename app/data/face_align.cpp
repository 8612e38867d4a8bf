// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/face_align.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace facet {
namespace {

// Where the eyes land, as fractions of the output: where they sit in the Haar face box, so an
// aligned face and a box-cropped one (no eyes found) look alike.
constexpr double kEyeRow = 0.38;
constexpr double kLeftEyeColumn = 0.30;
constexpr double kRightEyeColumn = 0.70;

QString cascadeDir()
{
    const QByteArray env = qgetenv("FACET_CASCADE_DIR");
    return env.isEmpty() ? QStringLiteral("/usr/share/opencv4/haarcascades")
                         : QString::fromLocal8Bit(env);
}

Result<bool> loadCascade(cv::CascadeClassifier& cascade, const QString& dir, const QString& file)
{
    const QString path = QDir(dir).filePath(file);
    if (!QFileInfo::exists(path))
        return Error { QStringLiteral("face detection needs the Haar cascade %1, which is not in "
                                      "%2; install Debian's opencv-data package or set "
                                      "FACET_CASCADE_DIR to the folder holding it")
                           .arg(file, dir) };
    bool loaded = false;
    try {
        loaded = cascade.load(QFile::encodeName(path).toStdString());
    } catch (const cv::Exception&) {
        loaded = false;
    }
    if (!loaded || cascade.empty())
        return Error { QStringLiteral("%1: not a readable OpenCV cascade file").arg(path) };
    return true;
}

cv::Point2d centre(const cv::Rect& r)
{
    return { r.x + r.width / 2.0, r.y + r.height / 2.0 };
}

// Warps at an integer multiple of the output size near the face's own scale, then shrinks with
// INTER_AREA: warpAffine alone would alias when the face is much larger than the output.
cv::Mat warpSimilarity(const cv::Mat& image, cv::Point2d left, cv::Point2d right, cv::Size size)
{
    const double eyeDistance = std::hypot(right.x - left.x, right.y - left.y);
    const double targetDistance = (kRightEyeColumn - kLeftEyeColumn) * size.width;
    const int factor = std::clamp(int(std::lround(eyeDistance / targetDistance)), 1, 8);
    const cv::Size big(size.width * factor, size.height * factor);
    const cv::Point2d dl(kLeftEyeColumn * big.width, kEyeRow * big.height);
    const cv::Point2d dr(kRightEyeColumn * big.width, kEyeRow * big.height);
    // A third point, perpendicular to the eye line, makes the affine map a similarity.
    auto third = [](cv::Point2d a, cv::Point2d b) {
        return cv::Point2d(a.x - (b.y - a.y), a.y + (b.x - a.x));
    };
    const cv::Point2f src[3] = { left, right, third(left, right) };
    const cv::Point2f dst[3] = { dl, dr, third(dl, dr) };
    cv::Mat warped, out;
    cv::warpAffine(image, warped, cv::getAffineTransform(src, dst), big, cv::INTER_LINEAR,
        cv::BORDER_REPLICATE);
    cv::resize(warped, out, size, 0, 0, cv::INTER_AREA);
    return out;
}

} // namespace

Result<std::shared_ptr<FaceAligner>> FaceAligner::shared()
{
    static std::mutex mutex;
    static std::shared_ptr<FaceAligner> cached;
    static QString cachedDir;
    const std::lock_guard lock(mutex);
    const QString dir = cascadeDir();
    if (cached && cachedDir == dir)
        return cached;
    std::shared_ptr<FaceAligner> aligner(new FaceAligner);
    if (auto r
        = loadCascade(aligner->m_face, dir, QStringLiteral("haarcascade_frontalface_default.xml"));
        !r)
        return Error { r.error() };
    if (auto r = loadCascade(aligner->m_eye, dir, QStringLiteral("haarcascade_eye.xml")); !r)
        return Error { r.error() };
    cached = aligner;
    cachedDir = dir;
    return aligner;
}

FaceOutcome FaceAligner::align(
    const cv::Mat& greyIn, const cv::Mat& imageIn, cv::Size size, cv::Mat& out)
{
    const std::lock_guard lock(m_mutex);
    // Tight head shots (AT&T) have the face touching the border, where the detector's windows
    // cannot reach; a replicated margin lets them fit. Everything below works in the padded
    // frame.
    const int padY = greyIn.rows / 6, padX = greyIn.cols / 6;
    cv::Mat grey, image;
    cv::copyMakeBorder(greyIn, grey, padY, padY, padX, padX, cv::BORDER_REPLICATE);
    cv::copyMakeBorder(imageIn, image, padY, padY, padX, padX, cv::BORDER_REPLICATE);
    // Faces smaller than a fifth of the picture are background people or false hits.
    const int minSide = std::max(24, std::min(grey.rows, grey.cols) / 5);
    std::vector<cv::Rect> faces;
    m_face.detectMultiScale(grey, faces, 1.05, 3, 0, cv::Size(minSide, minSide));
    if (faces.empty())
        return FaceOutcome::NoFace;
    const cv::Rect face = *std::max_element(faces.begin(), faces.end(),
        [](const cv::Rect& a, const cv::Rect& b) { return a.area() < b.area(); });

    // Eyes live in the upper part of the box; one per half, the largest candidate of each.
    const cv::Rect upper(face.x, face.y, face.width, int(face.height * 0.6));
    std::vector<cv::Rect> eyes;
    const int eyeMin = std::max(8, face.width / 10);
    m_eye.detectMultiScale(grey(upper), eyes, 1.05, 3, 0, cv::Size(eyeMin, eyeMin));
    cv::Rect bestLeft, bestRight;
    for (const cv::Rect& eye : eyes) {
        const cv::Point2d c = centre(eye);
        cv::Rect& best = c.x < face.width / 2.0 ? bestLeft : bestRight;
        if (eye.area() > best.area())
            best = eye;
    }
    if (bestLeft.area() > 0 && bestRight.area() > 0) {
        const cv::Point2d offset(upper.x, upper.y);
        const cv::Point2d left = centre(bestLeft) + offset, right = centre(bestRight) + offset;
        const double distance = std::hypot(right.x - left.x, right.y - left.y);
        const double tilt = std::abs(std::atan2(right.y - left.y, right.x - left.x));
        // Implausible pairs (an eyebrow and an eye, a nostril) fall back to the face box.
        if (distance > 0.25 * face.width && distance < 0.75 * face.width && tilt < 0.5) {
            out = warpSimilarity(image, left, right, size);
            return FaceOutcome::Eyes;
        }
    }
    cv::resize(image(face), out, size, 0, 0, cv::INTER_AREA);
    return FaceOutcome::FaceBox;
}

cv::Mat centerCrop(const cv::Mat& image, cv::Size size)
{
    const double aspect = double(size.width) / size.height;
    int w = image.cols, h = int(std::lround(w / aspect));
    if (h > image.rows) {
        h = image.rows;
        w = std::clamp(int(std::lround(h * aspect)), 1, image.cols);
    }
    h = std::max(h, 1);
    const cv::Rect box((image.cols - w) / 2, (image.rows - h) / 2, w, h);
    cv::Mat out;
    cv::resize(image(box), out, size, 0, 0, cv::INTER_AREA);
    return out;
}

} // namespace facet
