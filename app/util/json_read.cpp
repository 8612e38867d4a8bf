// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/json_read.h"

#include <QJsonValue>

#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QString describeValue(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return v.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', 17);
    case QJsonValue::String:
        return u"the text \"%1\""_s.arg(v.toString().left(40));
    case QJsonValue::Array:
        return u"an array"_s;
    case QJsonValue::Object:
        return u"an object"_s;
    case QJsonValue::Undefined:
        break;
    }
    return u"nothing"_s;
}

} // namespace

JsonReader::JsonReader(const QJsonObject& object, QString context)
    : m_object(object)
    , m_context(std::move(context))
{
}

void JsonReader::fail(const QString& message)
{
    if (m_error.isEmpty())
        m_error = message;
}

QString JsonReader::where(const QString& key) const
{
    return m_context.isEmpty() ? u"\"%1\""_s.arg(key) : u"%1: \"%2\""_s.arg(m_context, key);
}

bool JsonReader::present(const QString& key, bool required)
{
    if (!m_error.isEmpty())
        return false;
    if (m_object.contains(key))
        return true;
    if (required)
        fail(u"%1 is missing"_s.arg(where(key)));
    return false;
}

void JsonReader::readInt64(
    const QString& key, qint64& target, qint64 minimum, qint64 maximum, bool required)
{
    if (!present(key, required))
        return;
    const QJsonValue v = m_object.value(key);
    const double d = v.toDouble();
    // Compared as doubles before converting: a huge value must not reach the cast.
    if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d) || d < double(minimum)
        || d > double(maximum)) {
        fail(u"%1 must be a whole number from %2 to %3, found %4"_s.arg(where(key))
                 .arg(minimum)
                 .arg(maximum)
                 .arg(describeValue(v)));
        return;
    }
    target = qint64(d);
}

void JsonReader::readInt(
    const QString& key, int& target, qint64 minimum, qint64 maximum, bool required)
{
    qint64 value = target;
    readInt64(key, value, minimum, maximum, required);
    if (ok())
        target = int(value);
}

void JsonReader::readDouble(
    const QString& key, double& target, double minimum, double maximum, bool required)
{
    if (!present(key, required))
        return;
    const QJsonValue v = m_object.value(key);
    const double d = v.toDouble();
    if (!v.isDouble() || !std::isfinite(d) || d < minimum || d > maximum) {
        fail(u"%1 must be a number from %2 to %3, found %4"_s.arg(where(key))
                 .arg(minimum)
                 .arg(maximum)
                 .arg(describeValue(v)));
        return;
    }
    target = d;
}

void JsonReader::readNumberOrNull(const QString& key, double& target, bool required)
{
    if (!present(key, required))
        return;
    const QJsonValue v = m_object.value(key);
    if (v.isNull()) {
        target = std::nan("");
        return;
    }
    if (!v.isDouble() || !std::isfinite(v.toDouble())) {
        fail(u"%1 must be a number or null, found %2"_s.arg(where(key), describeValue(v)));
        return;
    }
    target = v.toDouble();
}

void JsonReader::readOptionalDouble(
    const QString& key, std::optional<double>& target, double minimum, double maximum)
{
    if (!present(key, false))
        return;
    if (m_object.value(key).isNull()) {
        target.reset();
        return;
    }
    double value = 0;
    readDouble(key, value, minimum, maximum);
    if (ok())
        target = value;
}

void JsonReader::readBool(const QString& key, bool& target, bool required)
{
    if (!present(key, required))
        return;
    const QJsonValue v = m_object.value(key);
    if (!v.isBool()) {
        fail(u"%1 must be true or false, found %2"_s.arg(where(key), describeValue(v)));
        return;
    }
    target = v.toBool();
}

void JsonReader::readString(const QString& key, QString& target, bool required)
{
    if (!present(key, required))
        return;
    const QJsonValue v = m_object.value(key);
    if (!v.isString()) {
        fail(u"%1 must be a string, found %2"_s.arg(where(key), describeValue(v)));
        return;
    }
    target = v.toString();
}

void JsonReader::readUInt64(const QString& key, std::uint64_t& target, bool required)
{
    if (!present(key, required))
        return;
    const QJsonValue v = m_object.value(key);
    if (v.isString()) {
        bool parsed = false;
        const QString text = v.toString();
        const qulonglong value = text.toULongLong(&parsed);
        // toULongLong accepts a leading '+' and spaces are refused: only plain digits pass.
        if (parsed && !text.isEmpty() && text.front().isDigit()) {
            target = value;
            return;
        }
    } else if (v.isDouble()) {
        const double d = v.toDouble();
        if (std::isfinite(d) && d >= 0 && d == std::floor(d) && d <= 9007199254740992.0) {
            target = std::uint64_t(d);
            return;
        }
    }
    fail(u"%1 must be a decimal string of an unsigned 64-bit number, found %2"_s.arg(
        where(key), describeValue(v)));
}

QJsonObject JsonReader::object(const QString& key, bool required)
{
    if (!present(key, required))
        return {};
    const QJsonValue v = m_object.value(key);
    if (!v.isObject()) {
        fail(u"%1 must be an object, found %2"_s.arg(where(key), describeValue(v)));
        return {};
    }
    return v.toObject();
}

} // namespace facet
