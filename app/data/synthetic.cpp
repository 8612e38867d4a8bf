// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/synthetic.h"

#include "core/random.h"

#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

constexpr int kSide = 32;
constexpr int kLimbs = 4;
constexpr int kPositions = 4;
constexpr int kLimbLength = 8; // pixels along the segment, joint included

// A vertical torso (rows 10..21, columns 14..17) with a head above it. Every limb starts just
// outside the torso's box, arms beside the shoulders and legs under the hips, and stays on its
// own side (arms rows <= 11 left of column 14 or right of 17, legs rows >= 22 left or right of
// the midline), so any four limbs and the torso never share a pixel: an image is exactly the
// sum of its parts, and the parts are the unique non-negative decomposition NMF should find.
struct Limb {
    int row; // the joint
    int col;
    double baseAngle; // direction of position 0, radians, 0 = right, counter-clockwise
    double turn; // angle step per position
};

constexpr double kDeg = std::numbers::pi / 180.0;
// Arms sweep from horizontal to straight up; legs from straight down to 75 degrees outwards.
const std::array<Limb, kLimbs> kLimbGeometry { {
    { 11, 13, 180 * kDeg, -30 * kDeg }, // left arm: left, then up
    { 11, 18, 0 * kDeg, 30 * kDeg }, // right arm: right, then up
    { 22, 14, 270 * kDeg, -25 * kDeg }, // left leg: down, then out to the left
    { 22, 17, 270 * kDeg, 25 * kDeg }, // right leg: down, then out to the right
} };

void setPixel(Vector& part, int r, int c)
{
    part(Eigen::Index(r) * kSide + c) = 1;
}

Vector torso()
{
    Vector part = Vector::Zero(kSide * kSide);
    for (int r = 10; r <= 21; ++r)
        for (int c = 14; c <= 17; ++c)
            setPixel(part, r, c);
    for (int r = 5; r <= 8; ++r) // head, with a one-row neck gap
        for (int c = 14; c <= 17; ++c)
            setPixel(part, r, c);
    return part;
}

Vector limb(int l, int position)
{
    const Limb& g = kLimbGeometry[std::size_t(l)];
    const double angle = g.baseAngle + position * g.turn;
    // Image rows grow downwards, so "up" is a negative row step.
    const double dr = -std::sin(angle), dc = std::cos(angle);
    Vector part = Vector::Zero(kSide * kSide);
    for (int t = 0; t < kLimbLength; ++t)
        setPixel(part, int(std::lround(g.row + t * dr)), int(std::lround(g.col + t * dc)));
    return part;
}

} // namespace

Matrix swimmerParts()
{
    Matrix parts(kSide * kSide, 1 + kLimbs * kPositions);
    parts.col(0) = torso();
    for (int l = 0; l < kLimbs; ++l)
        for (int p = 0; p < kPositions; ++p)
            parts.col(1 + kPositions * l + p) = limb(l, p);
    return parts;
}

Dataset makeSwimmer()
{
    const Matrix parts = swimmerParts();
    constexpr int kImages = kPositions * kPositions * kPositions * kPositions;
    Dataset data;
    data.name = QStringLiteral("Swimmer");
    data.source = QStringLiteral("builtin:swimmer");
    data.height = kSide;
    data.width = kSide;
    data.X.resize(kSide * kSide, kImages);
    // Image k = p0 + 4 p1 + 16 p2 + 64 p3 holds limb l in position p_l.
    for (int k = 0; k < kImages; ++k) {
        Vector image = parts.col(0);
        for (int l = 0, code = k; l < kLimbs; ++l, code /= kPositions)
            image += parts.col(1 + kPositions * l + code % kPositions);
        data.X.col(k) = image;
    }
    data.notes << QStringLiteral("synthetic Swimmer (Donoho & Stodden 2003): torso + 4 limbs x 4 "
                                 "positions, all 256 combinations, pixels 0/1");
    return data;
}

Matrix barsParts(int side)
{
    if (side < 2)
        throw std::invalid_argument("bars need a side of at least 2, got " + std::to_string(side));
    Matrix parts = Matrix::Zero(Eigen::Index(side) * side, 2 * side);
    for (int k = 0; k < side; ++k)
        for (int t = 0; t < side; ++t) {
            parts(Eigen::Index(k) * side + t, k) = 1; // row k
            parts(Eigen::Index(t) * side + k, side + k) = 1; // column k
        }
    return parts;
}

Dataset makeBars(const BarsOptions& options)
{
    if (options.samples < 1)
        throw std::invalid_argument(
            "bars need at least one sample, got " + std::to_string(options.samples));
    if (!(options.probability > 0 && options.probability <= 1))
        throw std::invalid_argument(
            "the bar probability must be in (0, 1], got " + std::to_string(options.probability));
    const Matrix parts = barsParts(options.side);
    Dataset data;
    data.name = QStringLiteral("Bars");
    data.source = QStringLiteral("builtin:bars");
    data.height = options.side;
    data.width = options.side;
    data.X.resize(parts.rows(), options.samples);
    Rng rng(options.seed);
    for (int j = 0; j < options.samples; ++j) {
        Vector image = Vector::Zero(parts.rows());
        while (image.sum() == 0)
            for (Eigen::Index b = 0; b < parts.cols(); ++b)
                if (rng.uniform() < options.probability)
                    image = image.cwiseMax(parts.col(b));
        data.X.col(j) = image;
    }
    data.notes << QStringLiteral("synthetic bars (Hoyer 2004): %1 images %2x%2, each of the %3 "
                                 "bars with probability %4, seed %5")
                      .arg(options.samples)
                      .arg(options.side)
                      .arg(2 * options.side)
                      .arg(options.probability)
                      .arg(options.seed);
    return data;
}

Dataset makeGaussians(const GaussiansOptions& options)
{
    const int k = int(options.components.size());
    if (k == 0)
        throw std::invalid_argument("the Gaussian mixture needs at least one component");
    if (options.count < k)
        throw std::invalid_argument("the Gaussian mixture needs at least one point per component: "
            + std::to_string(options.count) + " points for " + std::to_string(k) + " components");
    for (const Gaussian2D& g : options.components)
        if (!(g.spread >= 0) || !std::isfinite(g.x) || !std::isfinite(g.y))
            throw std::invalid_argument("a Gaussian needs a finite centre and a spread >= 0");

    Dataset data;
    data.name = QStringLiteral("Gaussians");
    data.source = QStringLiteral("builtin:gaussians");
    data.height = 1;
    data.width = 2;
    data.X.resize(2, options.count);
    Rng rng(options.seed);
    auto normal = [&rng] {
        const double u = 1.0 - rng.uniform(), v = rng.uniform();
        return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
    };
    QStringList centres;
    for (int c = 0, j = 0; c < k; ++c) {
        const Gaussian2D& g = options.components[std::size_t(c)];
        data.classNames << QString::number(c + 1);
        centres << QStringLiteral("(%1, %2) sd %3").arg(g.x).arg(g.y).arg(g.spread);
        const int size = options.count / k + (c < options.count % k ? 1 : 0);
        for (int i = 0; i < size; ++i, ++j) {
            double x = -1, y = -1;
            // Rejection keeps the shape of the Gaussian inside the quadrant; the cap turns a
            // hopeless centre into an error instead of a hang.
            for (int tries = 0; x < 0 || y < 0; ++tries) {
                if (tries == 10000)
                    throw std::invalid_argument("Gaussian " + std::to_string(c + 1)
                        + " lies outside the positive quadrant; move its centre");
                x = g.x + g.spread * normal();
                y = g.y + g.spread * normal();
            }
            data.X(0, j) = Scalar(x);
            data.X(1, j) = Scalar(y);
            data.labels.push_back(c);
        }
    }
    data.notes << QStringLiteral("synthetic 2-D Gaussian mixture (METHODS.md section 7): %1 "
                                 "points, seed %2, components %3")
                      .arg(options.count)
                      .arg(options.seed)
                      .arg(centres.join(QStringLiteral(", ")));
    return data;
}

} // namespace facet
