// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace facet::cli {

// `facet-cli reproduce PAPER --out DIR [...]` and `facet-cli reproduce list`. Every option left
// out keeps the paper's protocol (resources/papers/<paper>.json, "sweep"); each one given is a
// departure from it, which every output lists.
struct ReproduceCliOptions {
    bool list = false; // `reproduce list`
    QString paper; // the record's key: lcf, cnmf, ccf, cf-ogl
    QString outDir; // --out
    QString dataDir; // --data-dir, else FACET_DATA_DIR, else ../shared/data
    QStringList datasets; // --datasets: some of the paper's data sets (empty: every available one)
    std::optional<int> trials; // --trials
    std::vector<int> clusters; // --clusters (empty: the paper's)
    QString clustersText;
    std::optional<int> subruns; // --subruns
    std::optional<int> maxIter; // --max-iter
    std::optional<std::uint64_t> seed; // --seed
    // --sensitivity: the baseline and one row per other value of each choice the paper leaves
    // open (experiment/sensitivity.h), into DIR/<row>/<data set>/ and DIR/sensitivity.*.
    bool sensitivity = false;
    std::vector<int> fixedIterations; // --fixed-iterations (with --sensitivity); empty: default
    QStringList arguments; // as given, for the outputs
};

} // namespace facet::cli
