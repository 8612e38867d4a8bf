// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>

namespace facet {

// Typed reads of one JSON object from an untrusted file. Every read checks the type and the
// range and names the key and what was found, under a context such as "run 3": a file from a
// stranger gets a message a user can act on, never a silently defaulted value.
// A missing key keeps the target's value unless the read is marked required.
class JsonReader {
public:
    JsonReader(const QJsonObject& object, QString context);

    bool has(const QString& key) const { return m_object.contains(key); }
    // The first error, or empty.
    const QString& error() const { return m_error; }
    bool ok() const { return m_error.isEmpty(); }
    Error failure() const { return Error { m_error }; }
    // Records an error of the caller (the first one wins).
    void fail(const QString& message);

    // A whole number in [minimum, maximum] (JSON numbers are doubles: 2.5 is refused).
    void readInt(
        const QString& key, int& target, qint64 minimum, qint64 maximum, bool required = false);
    void readInt64(
        const QString& key, qint64& target, qint64 minimum, qint64 maximum, bool required = false);
    // A finite number in [minimum, maximum].
    void readDouble(
        const QString& key, double& target, double minimum, double maximum, bool required = false);
    // A finite number, or null for "not a number" (histories with a NonFinite step).
    void readNumberOrNull(const QString& key, double& target, bool required = false);
    // null or absent: std::nullopt; else a finite number in [minimum, maximum].
    void readOptionalDouble(
        const QString& key, std::optional<double>& target, double minimum, double maximum);
    void readBool(const QString& key, bool& target, bool required = false);
    void readString(const QString& key, QString& target, bool required = false);
    // An unsigned 64-bit value written as a decimal string (seeds past 2^53 stay exact), or as a
    // whole JSON number up to 2^53.
    void readUInt64(const QString& key, std::uint64_t& target, bool required = false);
    // A JSON object; absent gives an empty object unless required.
    QJsonObject object(const QString& key, bool required = false);

private:
    QString where(const QString& key) const;
    bool present(const QString& key, bool required);

    QJsonObject m_object;
    QString m_context;
    QString m_error;
};

} // namespace facet
