// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/dataset_request_json.h"

namespace facet {
namespace {

QString pixelOrderName(PixelOrder order)
{
    switch (order) {
    case PixelOrder::ColumnMajor:
        return QStringLiteral("column");
    case PixelOrder::RowMajor:
        return QStringLiteral("row");
    case PixelOrder::Auto:
        break;
    }
    return QStringLiteral("auto");
}

} // namespace

QJsonObject preparationToJson(const DatasetRequest& request)
{
    QJsonObject o {
        { QStringLiteral("scale01"), request.prepare.scaleTo01 },
        { QStringLiteral("l2_normalize"), request.prepare.l2Normalize },
        { QStringLiteral("pixel_order"), pixelOrderName(request.mat.pixelOrder) },
    };
    const QJsonObject steps = preprocessToJson(request.preprocess);
    for (auto it = steps.begin(); it != steps.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QJsonObject datasetRequestToJson(const DatasetRequest& request)
{
    return QJsonObject {
        { QStringLiteral("path"), request.spec },
        { QStringLiteral("data_var"), request.mat.dataVariable },
        { QStringLiteral("label_var"), request.mat.labelVariable },
        { QStringLiteral("preprocess"), preparationToJson(request) },
    };
}

Result<DatasetRequest> datasetRequestFromJson(const QJsonObject& object)
{
    DatasetRequest r;
    if (!object.value(QStringLiteral("path")).isString())
        return Error { QStringLiteral("dataset: \"path\" must be a string") };
    r.spec = object.value(QStringLiteral("path")).toString();
    r.mat.dataVariable = object.value(QStringLiteral("data_var")).toString();
    r.mat.labelVariable = object.value(QStringLiteral("label_var")).toString();
    const QJsonObject p = object.value(QStringLiteral("preprocess")).toObject();
    for (const auto& [key, target] :
        { std::pair { QStringLiteral("scale01"), &r.prepare.scaleTo01 },
            std::pair { QStringLiteral("l2_normalize"), &r.prepare.l2Normalize } }) {
        if (!p.contains(key))
            continue;
        if (!p.value(key).isBool())
            return Error { QStringLiteral("preprocess: %1 must be true or false").arg(key) };
        *target = p.value(key).toBool();
    }
    const QString order = p.value(QStringLiteral("pixel_order")).toString(QStringLiteral("auto"));
    if (order == u"auto")
        r.mat.pixelOrder = PixelOrder::Auto;
    else if (order == u"column")
        r.mat.pixelOrder = PixelOrder::ColumnMajor;
    else if (order == u"row")
        r.mat.pixelOrder = PixelOrder::RowMajor;
    else
        return Error { QStringLiteral("preprocess: pixel_order must be auto, column or row") };
    auto steps = preprocessFromJson(p);
    if (!steps)
        return Error { steps.error() };
    r.preprocess = *steps;
    return r;
}

} // namespace facet
