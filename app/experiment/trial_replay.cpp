// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/trial_replay.h"

#include <cmath>

namespace facet {

TrialRun makeTrialRun(
    const ExperimentDataset& data, const ExperimentOptions& options, const TrialResult& trial)
{
    const std::string& method = trial.cell.method;
    const CellReplay replay = replayCell(data.dataFor(method), options, trial.cell, trial.subrun);
    if (replay.classes != trial.classes)
        throw std::invalid_argument("the trial's classes differ from what its seed draws: the "
                                    "trial comes from another experiment");
    const Dataset& raw = data.raw();
    auto subset = std::make_shared<Dataset>();
    subset->source = raw.source;
    subset->height = raw.height;
    subset->width = raw.width;
    subset->X = replay.X;
    subset->labels = replay.truth;
    QStringList chosen;
    for (int c : replay.classes)
        chosen << raw.classNames.value(c, QString::number(c));
    subset->classNames = chosen;
    QString what = QStringLiteral("%1, c = %2, trial %3")
                       .arg(QString::fromStdString(method))
                       .arg(trial.cell.clusters)
                       .arg(trial.cell.trial + 1);
    if (options.parameterSweep())
        what += QStringLiteral(", %1 = %2")
                    .arg(QString::fromStdString(sweepParameterName(options.parameter)))
                    .arg(trial.parameterValue);
    subset->name = QStringLiteral("%1 [%2]").arg(raw.name, what);
    subset->notes = raw.notes;
    subset->notes << QStringLiteral("experiment trial: classes %1 (%2 samples)%3")
                         .arg(chosen.join(QStringLiteral(", ")))
                         .arg(replay.X.cols())
                         .arg(data.normalizesFor(method)
                                 ? QStringLiteral(", samples L2-normalized as the cell ran")
                                 : QString());
    if (trial.subrun > 0 || options.subruns > 1)
        subset->notes
            << QStringLiteral("kept sub-run %1 of %2").arg(trial.subrun + 1).arg(options.subruns);
    return { std::move(subset), replay.run, QStringLiteral("%1: %2").arg(raw.name, what), {} };
}

} // namespace facet
