// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/preprocess.h"

#include "core/huge_pages.h"
#include "data/face_align.h"

#include <opencv2/imgproc.hpp>

#include <functional>
#include <map>

namespace facet {
namespace {

// The images a pipeline reads: files (8-bit, nominal 255) or the columns of a Dataset (double,
// in the data's own range).
struct Source {
    int count = 0;
    double nominal = 255; // value of white
    std::function<cv::Mat(int)> image; // CV_8UC1, CV_8UC3 (RGB) or CV_64FC1
    std::function<QString(int)> name;
    std::function<cv::Size(int)> size;
};

cv::Mat fromQImage(const QImage& image)
{
    const int type = image.format() == QImage::Format_RGB888 ? CV_8UC3 : CV_8UC1;
    const QImage grey = type == CV_8UC1 && image.format() != QImage::Format_Grayscale8
        ? image.convertToFormat(QImage::Format_Grayscale8)
        : image;
    return cv::Mat(grey.height(), grey.width(), type, const_cast<uchar*>(grey.constBits()),
        std::size_t(grey.bytesPerLine()))
        .clone();
}

cv::Mat fromColumn(const Dataset& data, int j)
{
    cv::Mat image(data.height, data.width, CV_64FC1);
    for (int r = 0; r < data.height; ++r)
        for (int c = 0; c < data.width; ++c)
            image.at<double>(r, c) = double(data.X(Eigen::Index(r) * data.width + c, j));
    return image;
}

// The 8-bit grey view the detector and equalizeHist need.
cv::Mat grey8(const cv::Mat& image, double nominal)
{
    cv::Mat out;
    if (image.type() == CV_8UC3)
        cv::cvtColor(image, out, cv::COLOR_RGB2GRAY);
    else if (image.depth() == CV_8U)
        out = image;
    else
        image.convertTo(out, CV_8U, 255.0 / nominal);
    return out;
}

QString sizeText(cv::Size size)
{
    return QStringLiteral("%1x%2").arg(size.height).arg(size.width);
}

// The output size: asked for, else 32x32 for faces (METHODS.md section 8), else the most common
// input size (ties: the first met), so a few odd images do not decide the shape of the set.
cv::Size chooseTarget(const Source& source, const PreprocessSettings& s, QStringList& notes)
{
    if (s.hasSize())
        return { s.width, s.height };
    if (s.detectFaces) {
        notes << QStringLiteral("face crops are 32x32 (no size given)");
        return { 32, 32 };
    }
    std::map<std::pair<int, int>, int> counts;
    std::vector<std::pair<int, int>> order;
    for (int i = 0; i < source.count; ++i) {
        const cv::Size size = source.size(i);
        const std::pair key { size.width, size.height };
        if (counts[key]++ == 0)
            order.push_back(key);
    }
    std::pair best = order.front();
    for (const auto& key : order)
        if (counts[key] > counts[best])
            best = key;
    return { best.first, best.second };
}

struct Step {
    cv::Mat image; // empty when skipped
    std::optional<FaceOutcome> face;
    QString outcome;
};

Result<Step> processOne(cv::Mat image, const QString& name, double nominal,
    const PreprocessSettings& s, cv::Size target, FaceAligner* aligner)
{
    Step step;
    QStringList what;
    if (image.channels() == 3) {
        if (!s.grayscale)
            return Error { QStringLiteral("%1 is a colour image; each pixel is one feature, so "
                                          "turn grayscale on")
                               .arg(name) };
        cv::cvtColor(image, image, cv::COLOR_RGB2GRAY);
        what << QStringLiteral("colour to grey");
    }
    if (aligner) {
        cv::Mat out;
        step.face = aligner->align(grey8(image, nominal), image, target, out);
        if (*step.face == FaceOutcome::NoFace) {
            if (s.noFace == NoFacePolicy::Skip) {
                step.outcome = QStringLiteral("no face: skipped");
                return step;
            }
            out = centerCrop(image, target);
            what << QStringLiteral("no face: centre crop");
        } else {
            what << (*step.face == FaceOutcome::Eyes ? QStringLiteral("face aligned by the eyes")
                                                     : QStringLiteral("face box (eyes not found)"));
        }
        image = out;
    }
    if (image.size() != target) {
        what << QStringLiteral("resized from %1").arg(sizeText(image.size()));
        cv::resize(image, image, target, 0, 0, cv::INTER_AREA);
    }
    if (s.equalize) {
        cv::Mat g = grey8(image, nominal), equalized;
        cv::equalizeHist(g, equalized);
        if (image.depth() == CV_8U)
            image = equalized;
        else
            equalized.convertTo(image, CV_64F, nominal / 255.0);
        what << QStringLiteral("equalized");
    }
    image.convertTo(step.image, CV_64F);
    step.outcome = what.isEmpty() ? QStringLiteral("unchanged") : what.join(QStringLiteral(", "));
    return step;
}

// Held for the whole pipeline: another thread may switch the cached cascades meanwhile.
Result<std::shared_ptr<FaceAligner>> alignerFor(const PreprocessSettings& s)
{
    if (!s.detectFaces)
        return std::shared_ptr<FaceAligner>();
    return FaceAligner::shared();
}

// Keeps the classes that still have samples, renumbered in their old order.
void dropEmptyClasses(Dataset& data)
{
    if (!data.hasLabels())
        return;
    const std::vector<int> sizes = data.classSizes();
    std::vector<int> newIndex(sizes.size(), -1);
    QStringList names, dropped;
    for (std::size_t c = 0; c < sizes.size(); ++c) {
        if (sizes[c] > 0) {
            newIndex[c] = int(names.size());
            names << data.classNames[int(c)];
        } else {
            dropped << data.classNames[int(c)];
        }
    }
    if (dropped.isEmpty())
        return;
    for (int& label : data.labels)
        label = newIndex[std::size_t(label)];
    data.classNames = names;
    data.notes << QStringLiteral("dropped %1 class(es) left without images: %2")
                      .arg(dropped.size())
                      .arg(listSome(dropped));
}

Result<Dataset> runPipeline(const Source& source, const PreprocessSettings& s, Dataset data,
    const std::vector<int>& labels, PreprocessReport* report, const PreprocessControl& control)
{
    PreprocessReport local;
    PreprocessReport& r = report ? *report : local;
    r = PreprocessReport {};
    r.images = source.count;
    if (source.count == 0)
        return Error { QStringLiteral("%1: no images to preprocess").arg(data.name) };
    auto aligner = alignerFor(s);
    if (!aligner)
        return Error { aligner.error() };
    const cv::Size target = chooseTarget(source, s, data.notes);

    std::vector<cv::Mat> outputs;
    int colour = 0;
    try {
        for (int i = 0; i < source.count; ++i) {
            if (control.stop.stop_requested()) {
                r.cancelled = true;
                return Error { QStringLiteral("%1: cancelled after %2 of %3 images")
                                   .arg(data.name)
                                   .arg(i)
                                   .arg(source.count) };
            }
            const cv::Mat image = source.image(i);
            colour += image.channels() == 3;
            if (!s.hasSize() && !s.detectFaces && image.size() != target)
                r.resized << QStringLiteral("%1 (%2)").arg(source.name(i), sizeText(image.size()));
            auto step
                = processOne(image, source.name(i), source.nominal, s, target, aligner->get());
            if (!step)
                return Error { step.error() };
            if (step->face && *step->face != FaceOutcome::NoFace)
                ++r.faces;
            if (step->face == FaceOutcome::Eyes)
                ++r.eyesAligned;
            if (step->face == FaceOutcome::NoFace)
                r.noFace << source.name(i);
            if (!step->image.empty()) {
                outputs.push_back(step->image);
                r.kept.push_back(i);
            }
            if (control.onImage)
                control.onImage(i + 1, source.count);
        }
    } catch (const cv::Exception& e) {
        return Error { QStringLiteral("%1: image processing failed (%2)")
                           .arg(data.name, QString::fromStdString(e.msg).trimmed()) };
    }
    if (outputs.empty())
        return Error { QStringLiteral("%1: no face found in any of the %2 images; use the "
                                      "centre crop for misses (--no-face center)")
                           .arg(data.name)
                           .arg(source.count) };

    data.height = target.height;
    data.width = target.width;
    data.X.resize(Eigen::Index(target.height) * target.width, Eigen::Index(outputs.size()));
    adviseHugePages(data.X);
    for (std::size_t j = 0; j < outputs.size(); ++j)
        for (int row = 0; row < target.height; ++row)
            for (int c = 0; c < target.width; ++c)
                data.X(Eigen::Index(row) * target.width + c, Eigen::Index(j))
                    = Scalar(outputs[j].at<double>(row, c));
    data.labels.clear();
    if (!labels.empty())
        for (int i : r.kept)
            data.labels.push_back(labels[std::size_t(i)]);

    if (colour > 0)
        data.notes << QStringLiteral("%1 colour image(s) converted to grey (luma)").arg(colour);
    if (s.detectFaces) {
        const bool skip = s.noFace == NoFacePolicy::Skip;
        data.notes << QStringLiteral("face detection (OpenCV Haar): faces in %1 of %2 images, %3 "
                                     "aligned by both eyes, %4 cropped to the face box")
                          .arg(r.faces)
                          .arg(r.images)
                          .arg(r.eyesAligned)
                          .arg(r.faces - r.eyesAligned);
        if (!r.noFace.isEmpty())
            data.notes << QStringLiteral("no face in %1 image(s) (%2): %3")
                              .arg(r.noFace.size())
                              .arg(skip ? QStringLiteral("skipped") : QStringLiteral("centre crop"))
                              .arg(listSome(r.noFace));
    }
    if (!r.resized.isEmpty())
        data.notes << QStringLiteral("mixed sizes: %1 image(s) resized to %2, the most common "
                                     "size: %3")
                          .arg(r.resized.size())
                          .arg(sizeText(target))
                          .arg(listSome(r.resized));
    else if (s.hasSize() && !s.detectFaces)
        data.notes << QStringLiteral("resized to %1 (INTER_AREA)").arg(sizeText(target));
    if (s.equalize)
        data.notes << QStringLiteral("histogram equalized");
    dropEmptyClasses(data);
    return data;
}

Source sourceOf(const ImageSet& set)
{
    return { set.size(), 255.0, [&set](int i) { return fromQImage(set.images[std::size_t(i)]); },
        [&set](int i) { return set.files.value(i, QStringLiteral("image %1").arg(i + 1)); },
        [&set](int i) {
            const QImage& image = set.images[std::size_t(i)];
            return cv::Size(image.width(), image.height());
        } };
}

Result<Source> sourceOf(const Dataset& data)
{
    if (data.height <= 1 || Eigen::Index(data.height) * data.width != data.features())
        return Error { QStringLiteral("%1: image steps (size, faces, equalize) need images; the "
                                      "samples are %2-feature vectors")
                           .arg(data.name)
                           .arg(data.features()) };
    const double hi = data.X.size() ? double(data.X.maxCoeff()) : 1.0;
    const double nominal = hi <= 1 ? 1.0 : hi <= 255 ? 255.0 : hi;
    return Source { int(data.samples()), nominal, [&data](int j) { return fromColumn(data, j); },
        [](int j) { return QStringLiteral("sample %1").arg(j + 1); },
        [&data](int) { return cv::Size(data.width, data.height); } };
}

QImage toGreyImage(const cv::Mat& image, double nominal)
{
    const cv::Mat g = grey8(image, nominal);
    QImage out(g.cols, g.rows, QImage::Format_Grayscale8);
    for (int r = 0; r < g.rows; ++r)
        std::copy_n(g.ptr<uchar>(r), g.cols, out.scanLine(r));
    return out;
}

Result<SamplePreview> preview(
    const Source& source, int index, const PreprocessSettings& s, QImage before)
{
    if (index < 0 || index >= source.count)
        return Error {
            QStringLiteral("sample %1 does not exist (1..%2)").arg(index + 1).arg(source.count)
        };
    auto aligner = alignerFor(s);
    if (!aligner)
        return Error { aligner.error() };
    QStringList ignored;
    SamplePreview p;
    p.before = std::move(before);
    try {
        auto step = processOne(source.image(index), source.name(index), source.nominal, s,
            chooseTarget(source, s, ignored), aligner->get());
        if (!step)
            return Error { step.error() };
        p.outcome = step->outcome;
        p.kept = !step->image.empty();
        if (!p.kept)
            return p;
        cv::Mat after = step->image;
        if (s.noise.kind != NoiseKind::None) {
            if (s.noise.kind == NoiseKind::Occlusion
                && int(s.noise.amount) > std::min(after.rows, after.cols))
                return Error { QStringLiteral("occlusion block %1 does not fit the %2 image")
                                   .arg(s.noise.amount)
                                   .arg(sizeText(after.size())) };
            Vector column(after.rows * after.cols);
            for (int r = 0; r < after.rows; ++r)
                for (int c = 0; c < after.cols; ++c)
                    column(Eigen::Index(r) * after.cols + c) = Scalar(after.at<double>(r, c));
            addSampleNoise(
                column, after.rows, after.cols, s.noise, std::uint64_t(index), 0, source.nominal);
            for (int r = 0; r < after.rows; ++r)
                for (int c = 0; c < after.cols; ++c)
                    after.at<double>(r, c) = double(column(Eigen::Index(r) * after.cols + c));
        }
        p.after = toGreyImage(after, source.nominal);
    } catch (const cv::Exception& e) {
        return Error { QStringLiteral("%1: image processing failed (%2)")
                           .arg(source.name(index), QString::fromStdString(e.msg).trimmed()) };
    }
    return p;
}

} // namespace

Result<Dataset> preprocessImages(const ImageSet& set, const PreprocessSettings& settings,
    PreprocessReport* report, const PreprocessControl& control)
{
    Dataset data;
    data.name = set.name;
    data.source = set.source;
    data.classNames = set.classNames;
    data.notes = set.notes;
    return runPipeline(sourceOf(set), settings, std::move(data), set.labels, report, control);
}

Result<Dataset> preprocessDataset(const Dataset& data, const PreprocessSettings& settings,
    PreprocessReport* report, const PreprocessControl& control)
{
    if (!settings.changesImages()) {
        if (report) {
            *report = PreprocessReport {};
            report->images = int(data.samples());
            for (int j = 0; j < report->images; ++j)
                report->kept.push_back(j);
        }
        return data;
    }
    auto source = sourceOf(data);
    if (!source)
        return Error { source.error() };
    Dataset base = data;
    base.X = Matrix();
    base.labels.clear();
    return runPipeline(*source, settings, std::move(base), data.labels, report, control);
}

Result<SamplePreview> previewSample(
    const ImageSet& set, int index, const PreprocessSettings& settings)
{
    const QImage before
        = index >= 0 && index < set.size() ? set.images[std::size_t(index)] : QImage();
    return preview(sourceOf(set), index, settings, before);
}

Result<SamplePreview> previewSample(
    const Dataset& data, int index, const PreprocessSettings& settings)
{
    auto source = sourceOf(data);
    if (!source)
        return Error { source.error() };
    QImage before;
    if (index >= 0 && index < source->count)
        before = toGreyImage(fromColumn(data, index), source->nominal);
    return preview(*source, index, settings, before);
}

} // namespace facet
