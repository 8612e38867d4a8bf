// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/preprocess_options.h"

namespace facet::cli {

using namespace Qt::StringLiterals;

void addPreprocessOptions(QCommandLineParser& p)
{
    p.addOptions({
        { u"size"_s, u"Target size HEIGHTxWIDTH, or raw."_s, u"size"_s },
        { u"gray"_s, u"Colour images to grey (the default)."_s },
        { u"no-gray"_s, u"Keep colour: colour images are then an error."_s },
        { u"detect-faces"_s, u"Find the face and align it by the eyes."_s },
        { u"no-face"_s, u"Images without a face: skip or center."_s, u"policy"_s },
        { u"equalize"_s, u"Histogram equalization."_s },
        { u"noise"_s, u"gaussian:S, saltpepper:F or occlusion:N."_s, u"spec"_s },
        { u"noise-seed"_s, u"Seed of the noise."_s, u"seed"_s, u"0"_s },
    });
}

Result<bool> readPreprocessOptions(
    const QCommandLineParser& p, DatasetRequest& request, bool paperSize)
{
    PreprocessSettings& s = request.preprocess;
    if (p.isSet(u"gray"_s) && p.isSet(u"no-gray"_s))
        return Error { u"give --gray or --no-gray, not both"_s };
    s.grayscale = !p.isSet(u"no-gray"_s);
    s.detectFaces = p.isSet(u"detect-faces"_s);
    s.equalize = p.isSet(u"equalize"_s);
    if (p.isSet(u"no-face"_s)) {
        const QString policy = p.value(u"no-face"_s);
        if (policy == u"skip")
            s.noFace = NoFacePolicy::Skip;
        else if (policy == u"center" || policy == u"centre")
            s.noFace = NoFacePolicy::CenterCrop;
        else
            return Error { u"--no-face must be skip or center, got '%1'"_s.arg(policy) };
        if (!s.detectFaces)
            return Error { u"--no-face only applies with --detect-faces"_s };
    }

    const QString size = p.value(u"size"_s);
    if (p.isSet(u"size"_s) && size != u"raw") {
        if (auto parsed = parseImageSize(size, s.height, s.width); !parsed)
            return Error { u"--size: %1"_s.arg(parsed.error()) };
    } else if (!p.isSet(u"size"_s) && paperSize) {
        const DatasetKind kind = datasetKind(request.spec);
        if (kind == DatasetKind::ImageFolder || kind == DatasetKind::ImageList)
            s.height = s.width = 32;
    }

    bool seedOk = false;
    const qulonglong seed = p.value(u"noise-seed"_s).toULongLong(&seedOk);
    if (!seedOk)
        return Error { u"--noise-seed expects a non-negative whole number, got '%1'"_s.arg(
            p.value(u"noise-seed"_s)) };
    auto noise = parseNoise(p.value(u"noise"_s), seed);
    if (!noise)
        return Error { u"--%1"_s.arg(noise.error()) };
    s.noise = *noise;
    return true;
}

QString preprocessUsage()
{
    return u"Preprocessing (image folders and lists; .mat and built-in sets when asked):\n"
           "  --size HxW           resize to HEIGHTxWIDTH, INTER_AREA (run and export-dataset:\n"
           "                       32x32 for image folders and lists; info: the files' size);\n"
           "                       --size raw keeps the files' size (mixed sizes go to the most\n"
           "                       common one)\n"
           "  --gray | --no-gray   colour images to grey (default) | colour is an error\n"
           "  --detect-faces       Haar face + eyes (opencv-data; FACET_CASCADE_DIR overrides),\n"
           "                       rotated and scaled so the eyes sit at fixed points\n"
           "  --no-face MODE       images without a face: center (crop, default) or skip\n"
           "  --equalize           histogram equalization after resizing\n"
           "  --noise SPEC         gaussian:SIGMA (fraction of the value range),\n"
           "                       saltpepper:FRACTION or occlusion:SIDE (one white block)\n"
           "  --noise-seed S       seed of the noise (0)\n"_s;
}

} // namespace facet::cli
