// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "util/result.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonObject>
#include <QList>

// facet-cli run's missing entries (solver/methods/mask.h): --mask FILE.mat [--mask-var NAME],
// --missing nan, --occlusion-missing (with --noise occlusion:SIDE). The weights reach the solver
// as RunOptions::params.weights from Dataset::weights.
namespace facet::cli {

struct CliOptions;

QList<QCommandLineOption> maskCommandOptions();
// The flags into `o` (o.run.method already read): refuses them for a method without a masked
// route, --occlusion-missing without occlusion noise, --missing other than nan.
Result<bool> readMaskOptions(const QCommandLineParser& p, CliOptions& o);
// The help lines of these flags.
QString maskUsage();

// The run JSON's "mask" object: sources, the missing fraction, whether weights other than 0 and
// 1 occur. Empty when the data has no mask.
QJsonObject maskJson(const Dataset& data);

} // namespace facet::cli
