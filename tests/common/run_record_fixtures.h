// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/synthetic.h"
#include "experiment/run.h"
#include "session/session.h"

#include <QString>

#include <string>

namespace facet::fixtures {

// Three classes of 8x8 images: class c holds horizontal bars 2c and 2c+1 at full strength and
// one vertical bar at half strength (a different one per sample), so a rank-3 NMF finds the
// classes and its basis images show the bars upright.
inline Dataset labelledBars()
{
    const Matrix parts = barsParts(8); // 64 x 16: rows 0..7, then columns 0..7
    Dataset data;
    data.name = QStringLiteral("labelled bars 8x8");
    data.source = QStringLiteral("builtin:bars");
    data.height = 8;
    data.width = 8;
    constexpr int kPerClass = 20;
    data.X.resize(64, 3 * kPerClass);
    for (int c = 0; c < 3; ++c) {
        data.classNames << QString::number(c + 1);
        for (int s = 0; s < kPerClass; ++s) {
            const int i = c * kPerClass + s;
            data.X.col(i) = parts.col(2 * c) + parts.col(2 * c + 1) + 0.5 * parts.col(8 + s % 8);
            data.labels.push_back(c);
        }
    }
    return data;
}

// A record of a real solve of `data` (small, a fraction of a second).
inline RunRecord solvedRecord(const Dataset& data, const std::string& method, int rank,
    std::uint64_t seed, const QString& name = {}, int maxIter = 60)
{
    RunOptions options;
    options.method = method;
    options.params.rank = rank;
    options.driver.maxIter = maxIter;
    options.driver.minIter = 5;
    options.driver.seed = seed;
    options.cluster.replicates = 3;
    const RunResult result = runAndCluster(data.X, data.labels, options);
    return makeRunRecord(options, result, data, name);
}

} // namespace facet::fixtures
