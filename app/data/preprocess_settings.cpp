// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/preprocess_settings.h"

#include <QJsonValue>

#include <cmath>

namespace facet {

namespace {

constexpr int kMaxSide = 4096;

QJsonValue seedValue(std::uint64_t seed)
{
    // JSON numbers are doubles: seeds past 2^53 are written as strings to stay exact.
    return seed <= (1ULL << 53) ? QJsonValue(double(seed)) : QJsonValue(QString::number(seed));
}

Result<std::uint64_t> seedFrom(const QJsonValue& value, const QString& key)
{
    if (value.isString()) {
        bool ok = false;
        const qulonglong seed = value.toString().toULongLong(&ok);
        if (ok)
            return std::uint64_t(seed);
    } else if (value.isDouble()) {
        const double v = value.toDouble();
        if (v >= 0 && v <= double(1ULL << 53) && v == std::floor(v))
            return std::uint64_t(v);
    }
    return Error { QStringLiteral("preprocess: %1 must be a non-negative whole number").arg(key) };
}

} // namespace

QJsonObject preprocessToJson(const PreprocessSettings& s)
{
    return QJsonObject {
        { QStringLiteral("grayscale"), s.grayscale },
        { QStringLiteral("detect_faces"), s.detectFaces },
        { QStringLiteral("no_face"),
            s.noFace == NoFacePolicy::Skip ? QStringLiteral("skip") : QStringLiteral("center") },
        { QStringLiteral("height"), s.height },
        { QStringLiteral("width"), s.width },
        { QStringLiteral("equalize"), s.equalize },
        { QStringLiteral("noise"), noiseText(s.noise) },
        { QStringLiteral("noise_seed"), seedValue(s.noise.seed) },
        { QStringLiteral("missing"), missingText(s.missing) },
        { QStringLiteral("missing_seed"), seedValue(s.missing.seed) },
        { QStringLiteral("missing_file"), s.missing.file },
        { QStringLiteral("missing_variable"), s.missing.variable },
    };
}

Result<PreprocessSettings> preprocessFromJson(const QJsonObject& o)
{
    PreprocessSettings s;
    for (const auto& [key, target] : { std::pair { QStringLiteral("grayscale"), &s.grayscale },
             std::pair { QStringLiteral("detect_faces"), &s.detectFaces },
             std::pair { QStringLiteral("equalize"), &s.equalize } }) {
        if (!o.contains(key))
            continue;
        if (!o.value(key).isBool())
            return Error { QStringLiteral("preprocess: %1 must be true or false").arg(key) };
        *target = o.value(key).toBool();
    }
    if (o.contains(QStringLiteral("no_face"))) {
        const QString policy = o.value(QStringLiteral("no_face")).toString();
        if (policy == u"skip")
            s.noFace = NoFacePolicy::Skip;
        else if (policy == u"center")
            s.noFace = NoFacePolicy::CenterCrop;
        else
            return Error { QStringLiteral("preprocess: no_face must be \"skip\" or \"center\"") };
    }
    for (const auto& [key, target] : { std::pair { QStringLiteral("height"), &s.height },
             std::pair { QStringLiteral("width"), &s.width } }) {
        if (!o.contains(key))
            continue;
        const QJsonValue v = o.value(key);
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 0 || d > kMaxSide || d != std::floor(d))
            return Error { QStringLiteral("preprocess: %1 must be a whole number 0..%2 (0 = the "
                                          "files' size)")
                               .arg(key)
                               .arg(kMaxSide) };
        *target = int(d);
    }
    if ((s.height > 0) != (s.width > 0))
        return Error { QStringLiteral("preprocess: give both height and width, or neither") };
    std::uint64_t seed = 0;
    if (o.contains(QStringLiteral("noise_seed"))) {
        auto parsed = seedFrom(o.value(QStringLiteral("noise_seed")), QStringLiteral("noise_seed"));
        if (!parsed)
            return Error { parsed.error() };
        seed = *parsed;
    }
    auto noise = parseNoise(o.value(QStringLiteral("noise")).toString(), seed);
    if (!noise)
        return Error { QStringLiteral("preprocess: %1").arg(noise.error()) };
    s.noise = *noise;
    std::uint64_t missingSeed = 0;
    if (o.contains(QStringLiteral("missing_seed"))) {
        auto parsed
            = seedFrom(o.value(QStringLiteral("missing_seed")), QStringLiteral("missing_seed"));
        if (!parsed)
            return Error { parsed.error() };
        missingSeed = *parsed;
    }
    for (const char* key : { "missing", "missing_file", "missing_variable" })
        if (o.contains(QLatin1String(key)) && !o.value(QLatin1String(key)).isString())
            return Error {
                QStringLiteral("preprocess: %1 must be a string").arg(QLatin1String(key))
            };
    auto missing = parseMissing(o.value(QStringLiteral("missing")).toString(), missingSeed);
    if (!missing)
        return Error { QStringLiteral("preprocess: %1").arg(missing.error()) };
    s.missing = *missing;
    if (s.missing.kind == MissingKind::File) {
        s.missing.file = o.value(QStringLiteral("missing_file")).toString();
        s.missing.variable = o.value(QStringLiteral("missing_variable")).toString();
        if (s.missing.file.isEmpty())
            return Error { QStringLiteral("preprocess: missing is \"file\" but missing_file "
                                          "names no file") };
    }
    return s;
}

QString describePreprocess(const PreprocessSettings& s)
{
    QStringList steps;
    if (!s.grayscale)
        steps << QStringLiteral("colour kept");
    if (s.detectFaces)
        steps << QStringLiteral("faces (%1)")
                     .arg(s.noFace == NoFacePolicy::Skip
                             ? QStringLiteral("skip misses")
                             : QStringLiteral("centre crop for misses"));
    if (s.hasSize())
        steps << QStringLiteral("%1x%2").arg(s.height).arg(s.width);
    if (s.equalize)
        steps << QStringLiteral("equalized");
    if (s.noise.kind != NoiseKind::None)
        steps << QStringLiteral("noise %1 seed %2").arg(noiseText(s.noise)).arg(s.noise.seed);
    if (s.missing.kind != MissingKind::None)
        steps << describeMissing(s.missing);
    return steps.isEmpty() ? QStringLiteral("as loaded") : steps.join(QStringLiteral(", "));
}

Result<bool> parseImageSize(const QString& text, int& height, int& width)
{
    const QStringList parts = text.trimmed().toLower().split(u'x');
    bool okH = false, okW = false;
    const int h = parts.value(0).trimmed().toInt(&okH);
    const int w = parts.size() == 1 ? h : parts.value(1).trimmed().toInt(&okW);
    if (parts.size() == 1)
        okW = okH;
    if (parts.size() > 2 || !okH || !okW || h < 1 || w < 1 || h > kMaxSide || w > kMaxSide)
        return Error { QStringLiteral("expected a size HEIGHTxWIDTH such as 32x32 or 112x92 "
                                      "(sides 1..%1), got '%2'")
                           .arg(kMaxSide)
                           .arg(text) };
    height = h;
    width = w;
    return true;
}

} // namespace facet
