// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/mask_options.h"

#include "cli/cli_options.h"
#include "data/noise.h"
#include "methods/mask.h"

#include <QJsonArray>

#include <cmath>

namespace facet::cli {

using namespace Qt::StringLiterals;

QList<QCommandLineOption> maskCommandOptions()
{
    return {
        { u"mask"_s, u"Entry weights (0 = missing) from a MAT-file"_s, u"file"_s },
        { u"mask-var"_s, u"The mask's variable"_s, u"name"_s, u"mask"_s },
        { u"missing"_s, u"nan: NaN entries of the data are missing"_s, u"what"_s },
        { u"occlusion-missing"_s, u"The occlusion block is missing, not white"_s },
    };
}

QString maskUsage()
{
    return u"Missing entries (nmf, gnmf, semignmf, cnmf; docs/algorithms.md):\n"
           "  --mask FILE.mat      entry weights W >= 0 (0 = missing), variable --mask-var\n"
           "                       (mask), shaped like fea (one sample per row, same pixel\n"
           "                       order); the objective becomes sum W o (X - U V^T)^2\n"
           "  --missing nan        NaN entries of the data are missing (else NaN is an error)\n"
           "  --occlusion-missing  with --noise occlusion:SIDE, the block is missing, not white\n"_s;
}

Result<bool> readMaskOptions(const QCommandLineParser& p, CliOptions& o)
{
    o.maskPath = p.value(u"mask"_s);
    o.maskVariable = p.value(u"mask-var"_s);
    if (p.isSet(u"mask"_s) && o.maskPath.isEmpty())
        return Error { u"--mask is empty; give a MAT-file"_s };
    if (p.isSet(u"mask-var"_s) && !p.isSet(u"mask"_s))
        return Error { u"--mask-var names the variable of --mask FILE; give --mask too"_s };
    if (p.isSet(u"missing"_s)) {
        if (p.value(u"missing"_s) != u"nan")
            return Error { u"--missing must be nan (NaN entries are missing), got '%1'"_s.arg(
                p.value(u"missing"_s)) };
        o.dataset.mat.allowNan = true;
    }
    if (p.isSet(u"occlusion-missing"_s)) {
        if (o.dataset.preprocess.noise.kind != NoiseKind::Occlusion)
            return Error {
                u"--occlusion-missing marks the block of --noise occlusion:SIDE missing; "
                "give that noise"_s
            };
        o.dataset.preprocess.noise.missing = true;
    }
    const bool masked
        = p.isSet(u"mask"_s) || p.isSet(u"missing"_s) || p.isSet(u"occlusion-missing"_s);
    if (masked && !acceptsMask(o.run.method))
        return Error { QString::fromStdString(maskRefusal(o.run.method)) };
    return true;
}

QJsonObject maskJson(const Dataset& data)
{
    if (!data.hasMask())
        return {};
    const Eigen::Index missing = (data.weights.array() == 0).count();
    const bool binary = ((data.weights.array() == 0) || (data.weights.array() == 1)).all();
    QJsonObject o;
    o.insert(u"sources"_s, QJsonArray::fromStringList(data.maskSources));
    o.insert(u"missing"_s, double(missing));
    o.insert(u"missing_fraction"_s, double(missing) / double(data.weights.size()));
    o.insert(u"weights"_s, binary ? u"0/1"_s : u"general (objective sum W o (X - U V^T)^2)"_s);
    return o;
}

} // namespace facet::cli
