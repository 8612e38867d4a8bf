// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/noise.h"

#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace facet {
namespace {

struct Range {
    double lo = 0;
    double hi = 1;
};

Range valueRange(const Dataset& data)
{
    const double lo = double(data.X.minCoeff()), hi = double(data.X.maxCoeff());
    if (lo >= 0 && hi <= 1)
        return { 0, 1 };
    const bool integers = (data.X.array() == data.X.array().round()).all();
    if (lo >= 0 && hi <= 255 && integers)
        return { 0, 255 };
    return { lo, hi > lo ? hi : lo + 1 };
}

// Box-Muller on the platform-independent uniform draws of Rng.
double standardNormal(Rng& rng)
{
    const double u = 1.0 - rng.uniform(); // (0, 1], so the log is finite
    const double v = rng.uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
}

} // namespace

std::pair<double, double> noiseRange(const Dataset& data)
{
    if (data.X.size() == 0)
        return { 0, 1 };
    const Range range = valueRange(data);
    return { range.lo, range.hi };
}

void addSampleNoise(Eigen::Ref<Vector> sample, int height, int width, const NoiseSettings& noise,
    std::uint64_t stream, double lo, double hi)
{
    Rng rng(deriveSeed(noise.seed, stream));
    switch (noise.kind) {
    case NoiseKind::Gaussian:
        for (Eigen::Index i = 0; i < sample.size(); ++i)
            sample(i) = Scalar(std::clamp(
                double(sample(i)) + noise.amount * (hi - lo) * standardNormal(rng), lo, hi));
        break;
    case NoiseKind::SaltPepper:
        for (Eigen::Index i = 0; i < sample.size(); ++i)
            if (rng.uniform() < noise.amount)
                sample(i) = Scalar(rng.uniform() < 0.5 ? lo : hi);
        break;
    case NoiseKind::Occlusion: {
        // White rather than black: for non-negative models a black block is merely missing
        // signal, a white one is an outlier the factorization has to explain.
        const int side = int(noise.amount);
        const int top = int(rng.below(std::uint64_t(height - side + 1)));
        const int left = int(rng.below(std::uint64_t(width - side + 1)));
        for (int r = top; r < top + side; ++r)
            for (int c = left; c < left + side; ++c)
                sample(Eigen::Index(r) * width + c) = Scalar(hi);
        break;
    }
    case NoiseKind::None:
        break;
    }
}

Result<NoiseSettings> parseNoise(const QString& text, std::uint64_t seed)
{
    const QString t = text.trimmed().toLower();
    NoiseSettings noise;
    noise.seed = seed;
    if (t.isEmpty() || t == u"none")
        return noise;
    const QString kind = t.section(u':', 0, 0);
    const QString value = t.section(u':', 1);
    const QString usage = QStringLiteral("expected none, gaussian:SIGMA, saltpepper:FRACTION or "
                                         "occlusion:SIDE, got '%1'")
                              .arg(text);
    bool ok = false;
    const double amount = value.toDouble(&ok);
    if (!ok || !std::isfinite(amount))
        return Error { QStringLiteral("noise: %1").arg(usage) };
    noise.amount = amount;
    if (kind == u"gaussian" || kind == u"gauss") {
        noise.kind = NoiseKind::Gaussian;
        if (amount <= 0 || amount > 10)
            return Error { QStringLiteral("noise: the Gaussian sigma is a fraction of the value "
                                          "range, in (0, 10]; got %1")
                               .arg(amount) };
    } else if (kind == u"saltpepper" || kind == u"salt-pepper" || kind == u"sp") {
        noise.kind = NoiseKind::SaltPepper;
        if (amount <= 0 || amount > 1)
            return Error { QStringLiteral("noise: the salt-and-pepper fraction must be in (0, 1]; "
                                          "got %1")
                               .arg(amount) };
    } else if (kind == u"occlusion" || kind == u"block") {
        noise.kind = NoiseKind::Occlusion;
        if (amount < 1 || amount != std::floor(amount) || amount > 100000)
            return Error { QStringLiteral("noise: the occlusion block side is a whole number of "
                                          "pixels >= 1; got %1")
                               .arg(amount) };
    } else {
        return Error { QStringLiteral("noise: %1").arg(usage) };
    }
    return noise;
}

QString noiseText(const NoiseSettings& noise)
{
    switch (noise.kind) {
    case NoiseKind::Gaussian:
        return QStringLiteral("gaussian:%1").arg(noise.amount);
    case NoiseKind::SaltPepper:
        return QStringLiteral("saltpepper:%1").arg(noise.amount);
    case NoiseKind::Occlusion:
        return QStringLiteral("occlusion:%1").arg(noise.amount);
    case NoiseKind::None:
        break;
    }
    return QStringLiteral("none");
}

Result<bool> addNoise(Dataset& data, const NoiseSettings& noise)
{
    if (noise.kind == NoiseKind::None || data.X.size() == 0)
        return true;
    const int side = int(noise.amount);
    if (noise.kind == NoiseKind::Occlusion) {
        if (data.height <= 1 || Eigen::Index(data.height) * data.width != data.features())
            return Error { QStringLiteral("occlusion noise needs images; %1 holds %2-feature "
                                          "vectors")
                               .arg(data.name)
                               .arg(data.features()) };
        if (side > std::min(data.height, data.width))
            return Error { QStringLiteral("occlusion block %1 x %1 does not fit the %2 x %3 "
                                          "images")
                               .arg(side)
                               .arg(data.height)
                               .arg(data.width) };
    }
    if (noise.missing && noise.kind != NoiseKind::Occlusion)
        return Error { QStringLiteral("only the occlusion noise can mark entries missing") };
    if (noise.missing) {
        // The same draws as the white block: a marker column of zeros gets the block's ones.
        Vector marker(data.X.rows());
        for (Eigen::Index j = 0; j < data.X.cols(); ++j) {
            marker.setZero();
            addSampleNoise(marker, data.height, data.width, noise, std::uint64_t(j), 0, 1);
            for (Eigen::Index i = 0; i < marker.size(); ++i)
                if (marker(i) != 0)
                    markMissing(data, i, j);
        }
        data.maskSources << noiseText(noise);
        data.notes << QStringLiteral("noise %1 (seed %2): the block is marked missing")
                          .arg(noiseText(noise))
                          .arg(noise.seed);
        return true;
    }
    const Range range = valueRange(data);
    for (Eigen::Index j = 0; j < data.X.cols(); ++j)
        addSampleNoise(
            data.X.col(j), data.height, data.width, noise, std::uint64_t(j), range.lo, range.hi);
    data.notes << QStringLiteral("noise %1 (seed %2) on the value range %3..%4, clipped to it")
                      .arg(noiseText(noise))
                      .arg(noise.seed)
                      .arg(range.lo)
                      .arg(range.hi);
    return true;
}

} // namespace facet
