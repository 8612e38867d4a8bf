// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/missing_entries.h"

#include "core/random.h"
#include "data/mat_loader.h"
#include "data/noise.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

constexpr double kMaxFraction = 0.95;

// The entries of sample j that `missing` hides (Pixels, Block), as rows of X.
std::vector<Eigen::Index> drawnRows(const Dataset& data, const MissingSettings& missing,
    Eigen::Index j, std::vector<Eigen::Index>& order)
{
    const Eigen::Index m = data.features();
    std::vector<Eigen::Index> rows;
    if (missing.kind == MissingKind::Pixels) {
        // An exact count per sample (a partial Fisher-Yates shuffle), never every entry.
        const Eigen::Index count
            = std::min<Eigen::Index>(m - 1, Eigen::Index(std::llround(missing.amount * double(m))));
        std::iota(order.begin(), order.end(), Eigen::Index(0));
        Rng rng(deriveSeed(missing.seed, std::uint64_t(j)));
        for (Eigen::Index t = 0; t < count; ++t)
            std::swap(order[std::size_t(t)],
                order[std::size_t(t + Eigen::Index(rng.below(std::uint64_t(m - t))))]);
        rows.assign(order.begin(), order.begin() + count);
        std::sort(rows.begin(), rows.end());
    } else {
        // The occlusion noise's block, drawn the same way: a marker column gets the block's ones.
        Vector marker = Vector::Zero(m);
        const NoiseSettings block { NoiseKind::Occlusion, missing.amount, missing.seed, false };
        addSampleNoise(marker, data.height, data.width, block, std::uint64_t(j), 0, 1);
        for (Eigen::Index i = 0; i < m; ++i)
            if (marker(i) != 0)
                rows.push_back(i);
    }
    return rows;
}

// Each sample and each feature keeps an observed entry: a factor row with no data is not
// determined by the objective.
QString coverageProblem(const Dataset& data)
{
    const Eigen::Index m = data.features(), n = data.samples();
    for (Eigen::Index j = 0; j < n; ++j)
        if ((data.weights.col(j).array() == 0).all())
            return u"sample %1 has no observed entry left"_s.arg(j + 1);
    for (Eigen::Index i = 0; i < m; ++i)
        if ((data.weights.row(i).array() == 0).all())
            return u"feature %1 (pixel row %2, column %3) is missing in every sample"_s.arg(i + 1)
                .arg(data.width > 0 ? i / data.width + 1 : i + 1)
                .arg(data.width > 0 ? i % data.width + 1 : 1);
    return {};
}

} // namespace

Result<MissingSettings> parseMissing(const QString& text, std::uint64_t seed)
{
    const QString t = text.trimmed().toLower();
    MissingSettings s;
    s.seed = seed;
    if (t.isEmpty() || t == u"none")
        return MissingSettings {};
    if (t == u"file") {
        s.kind = MissingKind::File;
        return s;
    }
    const qsizetype colon = t.indexOf(u':');
    const QString kind = t.left(colon);
    bool ok = false;
    const double amount = colon < 0 ? 0 : t.mid(colon + 1).toDouble(&ok);
    if (kind == u"pixels") {
        if (!ok || !(amount > 0) || amount > kMaxFraction)
            return Error { u"missing: the fraction of pixels is a number above 0 and at most "
                           "%1, as in pixels:0.3; got '%2'"_s.arg(kMaxFraction)
                               .arg(text) };
        s.kind = MissingKind::Pixels;
    } else if (kind == u"block") {
        if (!ok || amount < 1 || amount > 4096 || amount != std::floor(amount))
            return Error { u"missing: the block side is a whole number of pixels 1..4096, as in "
                           "block:8; got '%1'"_s.arg(text) };
        s.kind = MissingKind::Block;
    } else {
        return Error {
            u"missing: expected none, pixels:FRACTION, block:SIDE or file; got '%1'"_s.arg(text)
        };
    }
    s.amount = amount;
    return s;
}

QString missingText(const MissingSettings& missing)
{
    switch (missing.kind) {
    case MissingKind::Pixels:
        return u"pixels:%1"_s.arg(missing.amount);
    case MissingKind::Block:
        return u"block:%1"_s.arg(int(missing.amount));
    case MissingKind::File:
        return u"file"_s;
    case MissingKind::None:
        break;
    }
    return u"none"_s;
}

QString describeMissing(const MissingSettings& missing)
{
    switch (missing.kind) {
    case MissingKind::Pixels:
        return u"%1 % of the pixels missing (seed %2)"_s.arg(100 * missing.amount)
            .arg(missing.seed);
    case MissingKind::Block:
        return u"a %1 x %1 block missing per image (seed %2)"_s.arg(int(missing.amount))
            .arg(missing.seed);
    case MissingKind::File:
        return u"mask from %1:%2"_s.arg(
            missing.file, missing.variable.isEmpty() ? u"mask"_s : missing.variable);
    case MissingKind::None:
        break;
    }
    return u"no missing pixels"_s;
}

Result<bool> applyMaskFile(
    const QString& path, const QString& variable, int pixelOrder, Dataset& data)
{
    const QString name = variable.isEmpty() ? u"mask"_s : variable;
    const Result<std::vector<Eigen::MatrixXd>> read = readMatMatrices(path, { name });
    if (!read)
        return Error { read.error() };
    const Eigen::MatrixXd& stored = read->front();
    const Eigen::Index n = data.X.cols(), m = data.X.rows();
    if (stored.rows() != n || stored.cols() != m)
        return Error { u"variable '%1' of %2 is %3 x %4 but the data is %5 x %6 (samples x "
                       "features, as fea is stored: one sample per row)"_s.arg(name, path)
                           .arg(stored.rows())
                           .arg(stored.cols())
                           .arg(n)
                           .arg(m) };
    const int h = data.height > 1 ? data.height : 1, w = data.height > 1 ? data.width : int(m);
    PixelOrder order = PixelOrder(pixelOrder);
    if (order == PixelOrder::Auto)
        order = h == 28 && w == 28 ? PixelOrder::RowMajor : PixelOrder::ColumnMajor;
    if (h == 1)
        order = PixelOrder::RowMajor; // vectors, not images: no reordering
    Matrix weights(m, n);
    for (Eigen::Index j = 0; j < m; ++j) { // file column j is one pixel position
        const Eigen::Index r = order == PixelOrder::ColumnMajor ? j % h : j / w;
        const Eigen::Index c = order == PixelOrder::ColumnMajor ? j / h : j % w;
        const Eigen::Index pixel = r * w + c;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double v = stored(i, j);
            if (!std::isfinite(v))
                return Error { u"variable '%1' has %2 at sample %3, feature %4; weights must be "
                               "finite (0 marks an entry missing)"_s.arg(name)
                                   .arg(std::isnan(v) ? u"NaN"_s : u"an infinite weight"_s)
                                   .arg(i + 1)
                                   .arg(j + 1) };
            if (v < 0)
                return Error { u"variable '%1' has the negative weight %2 at sample %3, feature "
                               "%4; weights must be >= 0 (0 marks an entry missing)"_s.arg(name)
                                   .arg(v)
                                   .arg(i + 1)
                                   .arg(j + 1) };
            weights(pixel, i) = Scalar(v);
        }
    }
    if (data.hasMask())
        data.weights.array() *= weights.array();
    else
        data.weights = std::move(weights);
    for (Eigen::Index i = 0; i < data.X.size(); ++i)
        if (data.weights.data()[i] == 0)
            data.X.data()[i] = 0;
    data.maskSources << QFileInfo(path).absoluteFilePath() + u":"_s + name;
    return true;
}

Result<bool> applyMissing(Dataset& data, const MissingSettings& missing, int pixelOrder)
{
    if (missing.kind == MissingKind::None || data.X.size() == 0)
        return true;
    const Eigen::Index m = data.features(), n = data.samples();
    if (missing.kind == MissingKind::Block) {
        const int side = int(missing.amount);
        if (data.height <= 1 || Eigen::Index(data.height) * data.width != m)
            return Error {
                u"a missing block needs images; %1 holds %2-feature vectors"_s.arg(data.name).arg(m)
            };
        if (side >= std::min(data.height, data.width))
            return Error { u"a missing %1 x %1 block leaves nothing of the %2 x %3 images' "
                           "rows or columns; choose a side below %4"_s.arg(side)
                               .arg(data.height)
                               .arg(data.width)
                               .arg(std::min(data.height, data.width)) };
    }
    if (missing.kind == MissingKind::File && missing.file.isEmpty())
        return Error { u"no mask file is chosen for the missing pixels"_s };
    // What was observed before: the values hidden now are those, for the view's score.
    const Matrix before = data.X;
    const Matrix weightsBefore = data.hasMask() ? data.weights : Matrix();
    if (missing.kind == MissingKind::File) {
        if (auto read = applyMaskFile(missing.file, missing.variable, pixelOrder, data); !read)
            return read;
    } else {
        std::vector<Eigen::Index> order(static_cast<std::size_t>(m));
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i : drawnRows(data, missing, j, order))
                markMissing(data, i, j);
        data.maskSources << missingText(missing) + u" seed %1"_s.arg(missing.seed);
    }
    if (const QString problem = coverageProblem(data); !problem.isEmpty()) {
        data.X = before;
        data.weights = weightsBefore;
        data.maskSources.removeLast();
        return Error { u"%1 leaves too little: %2"_s.arg(describeMissing(missing), problem) };
    }
    Dataset::HiddenEntries hidden;
    for (Eigen::Index k = 0; k < data.X.size(); ++k) {
        const bool observedBefore = weightsBefore.size() == 0 || weightsBefore.data()[k] != 0;
        if (observedBefore && data.weights.data()[k] == 0) {
            hidden.index.push_back(k);
            hidden.value.push_back(before.data()[k]);
        }
    }
    const Eigen::Index missingNow = (data.weights.array() == 0).count();
    data.notes << u"%1: %2 entries hidden (%3 % of the data missing in all)"_s
                      .arg(describeMissing(missing))
                      .arg(hidden.index.size())
                      .arg(100.0 * double(missingNow) / double(data.X.size()), 0, 'f', 1);
    data.hidden = std::move(hidden);
    return true;
}

HiddenColumn hiddenColumn(const Dataset::HiddenEntries& hidden, Eigen::Index m, Eigen::Index j)
{
    HiddenColumn column;
    const auto& index = hidden.index;
    auto it = std::lower_bound(index.begin(), index.end(), j * m);
    for (; it != index.end() && *it < (j + 1) * m; ++it) {
        column.rows.push_back(*it - j * m);
        column.values.push_back(hidden.value[std::size_t(it - index.begin())]);
    }
    return column;
}

} // namespace facet
