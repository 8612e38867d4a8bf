// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/new_sample.h"

#include "data/image_decode.h"
#include "data/image_render.h"
#include "data/preprocess.h"

#include <QFileInfo>

namespace facet {

Result<NewSample> sampleFromImageFile(
    const QString& path, const Dataset& data, const DatasetRequest& request)
{
    if (data.height < 2 || data.width < 2
        || Eigen::Index(data.height) * data.width != data.features())
        return Error { QObject::tr("%1 holds %2 features per sample, not images: there is no "
                                   "image size to bring %3 to")
                           .arg(data.name)
                           .arg(data.features())
                           .arg(QFileInfo(path).fileName()) };
    Result<QImage> decoded = decodeImageFile(path);
    if (!decoded)
        return Error { decoded.error() };

    ImageSet set;
    set.name = QFileInfo(path).completeBaseName();
    set.source = QFileInfo(path).absolutePath();
    set.files << QFileInfo(path).fileName();
    const QSize original = decoded->size();
    set.images.push_back(std::move(*decoded));
    PreprocessSettings steps = request.preprocess;
    steps.height = data.height;
    steps.width = data.width;
    steps.noise = {};
    PreprocessReport report;
    Result<Dataset> prepared = preprocessImages(set, steps, &report);
    if (!prepared)
        return Error { prepared.error() };
    if (prepared->samples() != 1)
        return Error { QObject::tr("no face was found in %1, and %2 leaves such images out")
                           .arg(set.files.front(), data.name) };

    NewSample sample;
    sample.x = prepared->X.col(0);
    // The dataset's preparation (dataset_source.h): the image steps give 0..255 grey levels.
    if (request.prepare.scaleTo01)
        sample.x /= Scalar(255);
    if (request.prepare.l2Normalize && sample.x.norm() > 0)
        sample.x.normalize();
    sample.image = columnToImage(sample.x, data.height, data.width);
    QStringList outcome;
    if (report.faces > 0)
        outcome << (report.eyesAligned > 0 ? QObject::tr("face aligned by the eyes")
                                           : QObject::tr("face cropped to its box"));
    else if (steps.detectFaces)
        outcome << QObject::tr("no face: centre crop");
    if (report.faces == 0 && original != QSize(data.width, data.height))
        outcome << QObject::tr("resized from %1x%2 to %3x%4")
                       .arg(original.height())
                       .arg(original.width())
                       .arg(data.height)
                       .arg(data.width);
    sample.outcome = outcome.join(QStringLiteral("; "));
    return sample;
}

} // namespace facet
