// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/sweep.h"

#include <memory>
#include <string>

namespace facet {

// Per-sample L2 normalization for an experiment's methods (METHODS.md section 8): `Auto` gives
// the CF family unit-norm samples and every other method (NMF, k-means, ...) the data as loaded,
// exactly as `facet-cli run` does for one method, so a sweep cell and a single run agree.
enum class SampleNormalization { Auto, None, L2 };

// The labelled set an experiment draws its cells from, in both preparations, made once and
// shared read-only by every worker.
class ExperimentDataset {
public:
    // `data` must be labelled and loaded without L2 normalization (it is done here).
    ExperimentDataset(Dataset data, SampleNormalization normalization);

    const Dataset& raw() const { return m_raw; }
    bool normalizesFor(const std::string& method) const;
    // The data the given method sees.
    ExperimentData dataFor(const std::string& method) const;
    SampleNormalization normalization() const { return m_normalization; }

private:
    Dataset m_raw;
    Matrix m_normalized; // columns of m_raw.X scaled to unit L2 norm (zero columns stay zero)
    SampleNormalization m_normalization;
};

} // namespace facet
