// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/sweep_arguments.h"

#include "data/noise.h"
#include "util/params_json.h"

#include <QFileInfo>
#include <QJsonObject>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// Shortest text that reads back to the same double.
QString exactNumber(double v)
{
    return QString::number(v, 'g', 17);
}

void addDataset(QStringList& args, const DatasetRequest& request)
{
    QString spec = request.spec;
    if (!spec.startsWith(u"builtin:"_s) && QFileInfo::exists(spec))
        spec = QFileInfo(spec).absoluteFilePath();
    args << u"--dataset"_s << spec;
    if (request.mat.pixelOrder == PixelOrder::ColumnMajor)
        args << u"--pixel-order"_s << u"column"_s;
    else if (request.mat.pixelOrder == PixelOrder::RowMajor)
        args << u"--pixel-order"_s << u"row"_s;
    if (!request.mat.dataVariable.isEmpty())
        args << u"--data-var"_s << request.mat.dataVariable;
    if (!request.mat.labelVariable.isEmpty())
        args << u"--label-var"_s << request.mat.labelVariable;

    const PreprocessSettings& s = request.preprocess;
    const DatasetKind kind = datasetKind(request.spec);
    const bool imageFiles = kind == DatasetKind::ImageFolder || kind == DatasetKind::ImageList;
    // The sweep gives image files 32 x 32 unless told otherwise (the papers' size).
    if (s.hasSize() && !(imageFiles && s.height == 32 && s.width == 32))
        args << u"--size"_s << u"%1x%2"_s.arg(s.height).arg(s.width);
    else if (!s.hasSize() && imageFiles)
        args << u"--size"_s << u"raw"_s;
    if (!s.grayscale)
        args << u"--no-gray"_s;
    if (s.detectFaces) {
        args << u"--detect-faces"_s;
        if (s.noFace == NoFacePolicy::Skip)
            args << u"--no-face"_s << u"skip"_s;
    }
    if (s.equalize)
        args << u"--equalize"_s;
    if (s.noise.kind != NoiseKind::None) {
        args << u"--noise"_s << noiseText(s.noise);
        if (s.noise.seed != 0)
            args << u"--noise-seed"_s << QString::number(s.noise.seed);
    }
}

// The run options every cell starts from, under the CLI's flag names (runParamsToJson); the
// keys a sweep sets per cell or takes from its own flags are left out.
void addRunOptions(QStringList& args, const RunOptions& base)
{
    const QJsonObject defaults = runParamsToJson(RunOptions {});
    const QJsonObject params = runParamsToJson(base);
    for (auto it = params.begin(); it != params.end(); ++it) {
        const QString& key = it.key();
        if (key == u"rank" || key == u"clusters" || key == u"labeled-fraction"
            || key == u"labeled-per-class")
            continue;
        const QJsonValue value = it.value();
        if (value == defaults.value(key) || value.isNull())
            continue;
        if (value.isBool()) {
            if (value.toBool())
                args << u"--"_s + key;
        } else if (value.isDouble()) {
            args << u"--"_s + key << exactNumber(value.toDouble());
        } else {
            args << u"--"_s + key << value.toString();
        }
    }
}

} // namespace

QStringList sweepArguments(const ExperimentOptions& o, const DatasetRequest& request)
{
    QStringList args { u"sweep"_s };
    addDataset(args, request);
    QStringList methods, clusters;
    for (const std::string& m : o.methods)
        methods << QString::fromStdString(m);
    for (int c : o.clusterCounts)
        clusters << QString::number(c);
    args << u"--methods"_s << methods.join(u',') << u"--clusters"_s << clusters.join(u',');
    args << u"--trials"_s << QString::number(o.trials);
    if (o.subruns != 1)
        args << u"--subruns"_s << QString::number(o.subruns);
    if (o.selection == SubrunSelection::Accuracy)
        args << u"--select"_s << u"accuracy"_s;
    if (o.labeledFraction > 0)
        args << u"--labeled-fraction"_s << exactNumber(o.labeledFraction);
    if (o.labeledPerClass > 0)
        args << u"--labeled-per-class"_s << QString::number(o.labeledPerClass);
    if (o.rankOffset != 0)
        args << u"--rank-offset"_s << QString::number(o.rankOffset);
    if (o.evaluate == EvaluateOn::Unlabeled)
        args << u"--evaluate"_s << u"unlabeled"_s;
    if (o.parameterSweep()) {
        QStringList values;
        for (double v : o.parameterValues)
            values << exactNumber(v);
        args << u"--param"_s
             << u"%1=%2"_s.arg(
                    QString::fromStdString(sweepParameterName(o.parameter)), values.join(u','));
    }
    args << u"--seed"_s << QString::number(o.seed);
    addRunOptions(args, o.base);
    return args;
}

} // namespace facet
