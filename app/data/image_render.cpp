// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/image_render.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

// Non-finite entries (a diverged basis, a hole in the data) draw as 0 instead of poisoning the
// min/max of the whole tile.
double finiteOrZero(Scalar v)
{
    return std::isfinite(v) ? double(v) : 0.0;
}

int toByte(double t)
{
    return std::clamp(int(std::lround(255.0 * t)), 0, 255);
}

// Diverging map: -1 blue, 0 white, +1 red, linear in between (ColorBrewer RdBu end points).
QRgb diverging(double t)
{
    const QColor negative(33, 102, 172), positive(178, 24, 43);
    const QColor& end = t < 0 ? negative : positive;
    const double a = std::min(std::abs(t), 1.0);
    auto mix = [a](int e) { return int(std::lround(255.0 + a * (e - 255.0))); };
    return qRgb(mix(end.red()), mix(end.green()), mix(end.blue()));
}

void checkShape(Eigen::Index size, int height, int width)
{
    if (height <= 0 || width <= 0 || Eigen::Index(height) * width != size)
        throw std::invalid_argument("an image of " + std::to_string(height) + " x "
            + std::to_string(width) + " pixels needs that many values; the column has "
            + std::to_string(size));
}

} // namespace

QImage columnToImage(
    const Eigen::Ref<const Vector>& column, int height, int width, ImageScaling scaling)
{
    checkShape(column.size(), height, width);
    double lo = 0, hi = 0, magnitude = 0;
    for (Eigen::Index k = 0; k < column.size(); ++k) {
        const double v = finiteOrZero(column(k));
        lo = k == 0 ? v : std::min(lo, v);
        hi = k == 0 ? v : std::max(hi, v);
        magnitude = std::max(magnitude, std::abs(v));
    }

    if (scaling == ImageScaling::Signed) {
        QImage image(width, height, QImage::Format_RGB32);
        for (int r = 0; r < height; ++r) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
            for (int c = 0; c < width; ++c) {
                const double v = finiteOrZero(column(Eigen::Index(r) * width + c));
                line[c] = diverging(magnitude > 0 ? v / magnitude : 0.0);
            }
        }
        return image;
    }

    QImage image(width, height, QImage::Format_Grayscale8);
    const double range = hi - lo;
    for (int r = 0; r < height; ++r) {
        uchar* line = image.scanLine(r);
        for (int c = 0; c < width; ++c) {
            const double v = finiteOrZero(column(Eigen::Index(r) * width + c));
            // A constant tile has no contrast to stretch; mid grey says "flat" without
            // pretending to be black or white.
            line[c] = uchar(range > 0 ? toByte((v - lo) / range) : 128);
        }
    }
    return image;
}

QImage imageMosaic(
    MatrixCRef M, int height, int width, int columns, int zoom, int gap, ImageScaling scaling)
{
    checkShape(M.rows(), height, width);
    if (columns <= 0 || zoom <= 0 || gap < 0)
        throw std::invalid_argument("a mosaic needs columns >= 1, zoom >= 1 and gap >= 0");
    const int tiles = int(M.cols());
    if (tiles == 0)
        return {};
    const int across = std::min(columns, tiles);
    const int down = (tiles + across - 1) / across;
    const int tileW = width * zoom, tileH = height * zoom;

    const bool colour = scaling == ImageScaling::Signed;
    QImage mosaic(across * tileW + (across - 1) * gap, down * tileH + (down - 1) * gap,
        colour ? QImage::Format_RGB32 : QImage::Format_Grayscale8);
    // White gaps separate the tiles of parts-based bases, which are mostly black.
    mosaic.fill(Qt::white);

    for (int t = 0; t < tiles; ++t) {
        const QImage tile = columnToImage(M.col(t), height, width, scaling);
        const int x0 = (t % across) * (tileW + gap), y0 = (t / across) * (tileH + gap);
        for (int y = 0; y < tileH; ++y) {
            const uchar* source = tile.constScanLine(y / zoom);
            uchar* target = mosaic.scanLine(y0 + y);
            for (int x = 0; x < tileW; ++x) {
                if (colour)
                    reinterpret_cast<QRgb*>(target)[x0 + x]
                        = reinterpret_cast<const QRgb*>(source)[x / zoom];
                else
                    target[x0 + x] = source[x / zoom];
            }
        }
    }
    return mosaic;
}

} // namespace facet
