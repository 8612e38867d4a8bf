// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QSharedPointer>
#include <QStringList>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace facet {

// Every how many of `count` labels to show so that labels `labelPixels` apart fit in
// `axisPixels`: a 40-class axis labels every class when there is room, every fifth when small.
inline int labelStep(int count, double axisPixels, int labelPixels)
{
    const double room = std::max(axisPixels, 1.0) / std::max(labelPixels, 1);
    return std::max(1, int(std::ceil(count / std::max(room, 1.0))));
}

// Text ticks at `positions` (axis coordinates) showing every `step`-th name.
inline QSharedPointer<QCPAxisTickerText> sparseTextTicker(
    const QList<double>& positions, const QStringList& names, int step)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int count = int(std::min(positions.size(), names.size()));
    for (int i = 0; i < count; i += std::max(step, 1))
        ticker->addTick(positions[i], names[i]);
    return ticker;
}

} // namespace facet
