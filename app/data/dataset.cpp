// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/dataset.h"

#include <cmath>

#include "core/huge_pages.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace facet {

std::vector<int> Dataset::classSizes() const
{
    std::vector<int> sizes(std::size_t(classCount()), 0);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const int label = labels[i];
        if (label < 0 || label >= classCount())
            throw std::invalid_argument("label " + std::to_string(label) + " of sample "
                + std::to_string(i) + " is outside the " + std::to_string(classCount())
                + " classes");
        ++sizes[std::size_t(label)];
    }
    return sizes;
}

Dataset Dataset::selectClasses(const std::vector<int>& classes) const
{
    if (!hasLabels())
        throw std::invalid_argument("selecting classes needs a labelled dataset");
    // new index of each old class, -1 when not selected
    std::vector<int> newIndex(std::size_t(classCount()), -1);
    for (std::size_t k = 0; k < classes.size(); ++k) {
        const int c = classes[k];
        if (c < 0 || c >= classCount())
            throw std::invalid_argument("class " + std::to_string(c) + " does not exist (0.."
                + std::to_string(classCount() - 1) + ")");
        if (newIndex[std::size_t(c)] >= 0)
            throw std::invalid_argument("class " + std::to_string(c) + " is selected twice");
        newIndex[std::size_t(c)] = int(k);
    }

    std::vector<Eigen::Index> kept;
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (newIndex[std::size_t(labels[i])] >= 0)
            kept.push_back(Eigen::Index(i));

    Dataset out;
    out.name = name;
    out.source = source;
    out.height = height;
    out.width = width;
    out.notes = notes;
    out.X.resize(X.rows(), Eigen::Index(kept.size()));
    adviseHugePages(out.X);
    out.labels.reserve(kept.size());
    out.maskSources = maskSources;
    if (hasMask())
        out.weights.resize(weights.rows(), Eigen::Index(kept.size()));
    for (std::size_t j = 0; j < kept.size(); ++j) {
        if (hasMask())
            out.weights.col(Eigen::Index(j)) = weights.col(kept[j]);
        out.X.col(Eigen::Index(j)) = X.col(kept[j]);
        out.labels.push_back(newIndex[std::size_t(labels[std::size_t(kept[j])])]);
    }
    // The hidden values of the kept columns, at their new columns (still ascending: the kept
    // columns keep their order).
    const Eigen::Index m = X.rows();
    for (std::size_t j = 0; j < kept.size() && !hidden.empty(); ++j) {
        const auto first = std::lower_bound(hidden.index.begin(), hidden.index.end(), kept[j] * m);
        for (auto it = first; it != hidden.index.end() && *it < (kept[j] + 1) * m; ++it) {
            out.hidden.index.push_back(Eigen::Index(j) * m + (*it - kept[j] * m));
            out.hidden.value.push_back(hidden.value[std::size_t(it - hidden.index.begin())]);
        }
    }
    QStringList chosen;
    for (int c : classes) {
        out.classNames << classNames[c];
        chosen << classNames[c];
    }
    out.notes << QStringLiteral("selected %1 of %2 classes (%3): %4 samples")
                     .arg(classes.size())
                     .arg(classCount())
                     .arg(chosen.join(QStringLiteral(", ")))
                     .arg(kept.size());
    return out;
}

void markMissing(Dataset& data, Eigen::Index i, Eigen::Index j)
{
    if (!data.hasMask())
        data.weights = Matrix::Ones(data.X.rows(), data.X.cols());
    data.weights(i, j) = 0;
    data.X(i, j) = 0;
}

Eigen::Index markNanMissing(Dataset& data)
{
    Eigen::Index count = 0;
    for (Eigen::Index j = 0; j < data.X.cols(); ++j)
        for (Eigen::Index i = 0; i < data.X.rows(); ++i)
            if (std::isnan(data.X(i, j))) {
                markMissing(data, i, j);
                ++count;
            }
    if (count > 0) {
        data.maskSources << QStringLiteral("nan");
        data.notes << QStringLiteral("%1 NaN entries (%2%) marked missing")
                          .arg(count)
                          .arg(100.0 * double(count) / double(data.X.size()), 0, 'f', 2);
    }
    return count;
}

std::uint64_t checksumAdd(std::uint64_t state, const Scalar* values, std::size_t count)
{
    const auto* bytes = reinterpret_cast<const unsigned char*>(values);
    for (std::size_t i = 0; i < count * sizeof(Scalar); ++i)
        state = (state ^ bytes[i]) * 0x100000001b3ULL;
    return state;
}

QString dataChecksum(const Matrix& X)
{
    return QString::number(checksumAdd(kChecksumStart, X.data(), std::size_t(X.size())), 16);
}

QString describe(const Dataset& data)
{
    const QString shape = data.height > 1
        ? QStringLiteral("%1 images %2x%3 (m = %4)")
              .arg(data.totalSamples())
              .arg(data.height)
              .arg(data.width)
              .arg(data.features())
        : QStringLiteral("%1 samples of %2 features").arg(data.totalSamples()).arg(data.features());

    QString classes = QStringLiteral("no labels");
    if (data.hasLabels()) {
        const std::vector<int> sizes = data.classSizes();
        const auto [smallest, largest] = std::minmax_element(sizes.begin(), sizes.end());
        const QString per = sizes.empty() ? QStringLiteral("0")
            : *smallest == *largest       ? QString::number(*smallest)
                                          : QStringLiteral("%1..%2").arg(*smallest).arg(*largest);
        classes = QStringLiteral("%1 classes of %2").arg(data.classCount()).arg(per);
    }

    QString values = QStringLiteral("no values");
    if (data.whole)
        values = QStringLiteral("values %1..%2")
                     .arg(double(data.whole->min), 0, 'g', 4)
                     .arg(double(data.whole->max), 0, 'g', 4);
    else if (data.X.size() > 0)
        values = QStringLiteral("values %1..%2")
                     .arg(double(data.X.minCoeff()), 0, 'g', 4)
                     .arg(double(data.X.maxCoeff()), 0, 'g', 4);
    return QStringLiteral("%1: %2, %3, %4").arg(data.name, shape, classes, values);
}

} // namespace facet
