// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment_data.h"

#include "data/dataset_source.h"

#include <stdexcept>

namespace facet {

ExperimentDataset::ExperimentDataset(Dataset data, SampleNormalization normalization)
    : m_raw(std::move(data))
    , m_normalization(normalization)
{
    if (!m_raw.hasLabels())
        throw std::invalid_argument("an experiment needs a labelled dataset; "
            + m_raw.name.toStdString() + " has no labels");
    if (normalization != SampleNormalization::None) {
        // The same routine as a single run's preparation, so the bits agree with `run`.
        Dataset normalized = m_raw;
        prepareDataset(normalized, PrepareOptions { false, true });
        m_normalized = std::move(normalized.X);
    }
}

bool ExperimentDataset::normalizesFor(const std::string& method) const
{
    if (m_normalization == SampleNormalization::None)
        return false;
    if (m_normalization == SampleNormalization::L2)
        return true;
    const MethodInfo* info = findMethod(method);
    return info && info->cfFamily;
}

ExperimentData ExperimentDataset::dataFor(const std::string& method) const
{
    return { normalizesFor(method) ? MatrixCRef(m_normalized) : MatrixCRef(m_raw.X), m_raw.labels };
}

} // namespace facet
