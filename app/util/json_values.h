// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonValue>

#include <cmath>
#include <optional>
#include <vector>

namespace facet {

// JSON has no NaN or infinity: a number that is not finite is written as null.
inline QJsonValue numberOrNull(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

// An absent value (a score without labels) is null too.
inline QJsonValue optionalNumber(const std::optional<double>& v)
{
    return v ? numberOrNull(*v) : QJsonValue(QJsonValue::Null);
}

inline QJsonArray intArray(const std::vector<int>& values)
{
    QJsonArray array;
    for (int v : values)
        array.append(v);
    return array;
}

// Finite values only (times, for instance); a non-finite one is written as null.
inline QJsonArray doubleArray(const std::vector<double>& values)
{
    QJsonArray array;
    for (double v : values)
        array.append(numberOrNull(v));
    return array;
}

} // namespace facet
