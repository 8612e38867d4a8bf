// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_source.h"
#include "experiment/experiment_data.h"

#include <QString>

#include <memory>

namespace facet {

// A finished experiment cell set up as a single run for the explorer: the drawn classes' samples
// as a dataset of their own (images, class names), and the exact options of the kept sub-run.
// Run with one inner thread (as cells run), it gives the cell's factors bit for bit.
struct TrialRun {
    std::shared_ptr<const Dataset> data;
    RunOptions options;
    QString title; // "Yale_32x32: lcf, c = 5, trial 3"
    // The request that loaded the experiment's dataset (set by the caller; makeTrialRun does not
    // know it), so a report of the trial's run names the file its classes came from.
    DatasetRequest request;
};

// Throws std::invalid_argument when the trial does not belong to the experiment.
TrialRun makeTrialRun(
    const ExperimentDataset& data, const ExperimentOptions& options, const TrialResult& trial);

} // namespace facet
