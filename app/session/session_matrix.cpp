// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/session_matrix.h"

#include "util/json_read.h"

#include <QByteArray>
#include <QtEndian>

#include <cmath>
#include <cstring>
#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kValueBytes = sizeof(double);

} // namespace

QJsonObject matrixToJson(const Matrix& matrix)
{
    QByteArray bytes(qsizetype(matrix.size() * kValueBytes), Qt::Uninitialized);
    char* out = bytes.data();
    // Eigen's default storage is column-major: data()[i] is entry (i % rows, i / rows).
    for (Eigen::Index i = 0; i < matrix.size(); ++i) {
        const double value = double(matrix.data()[i]);
        quint64 bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        qToLittleEndian(bits, out + i * kValueBytes);
    }
    return QJsonObject {
        { u"rows"_s, qint64(matrix.rows()) },
        { u"cols"_s, qint64(matrix.cols()) },
        { u"dtype"_s, u"float64-le"_s },
        { u"order"_s, u"column-major"_s },
        { u"data"_s, QString::fromLatin1(bytes.toBase64()) },
    };
}

Result<Matrix> matrixFromJson(const QJsonObject& object, const QString& what, qint64& budgetBytes)
{
    JsonReader in(object, what);
    qint64 rows = 0;
    qint64 cols = 0;
    QString dtype;
    QString order;
    QString data;
    const qint64 indexMax = std::numeric_limits<int>::max();
    in.readInt64(u"rows"_s, rows, 0, indexMax, true);
    in.readInt64(u"cols"_s, cols, 0, indexMax, true);
    in.readString(u"dtype"_s, dtype, true);
    in.readString(u"order"_s, order, true);
    in.readString(u"data"_s, data, true);
    if (!in.ok())
        return in.failure();
    if (dtype != u"float64-le")
        return Error { u"%1: dtype must be \"float64-le\", found \"%2\""_s.arg(
            what, dtype.left(40)) };
    if (order != u"column-major")
        return Error { u"%1: order must be \"column-major\", found \"%2\""_s.arg(
            what, order.left(40)) };
    // rows, cols < 2^31, so rows * cols < 2^62 fits; the byte count is checked by division
    // against the budget before it is formed.
    const qint64 values = rows * cols;
    if (values > budgetBytes / kValueBytes)
        return Error { u"%1: %2 x %3 values exceed the session's memory budget (%4 MiB left)"_s
                           .arg(what)
                           .arg(rows)
                           .arg(cols)
                           .arg(budgetBytes >> 20) };
    const qint64 bytes = values * kValueBytes;
    // Base64 of `bytes` bytes, padded: 4 characters per started group of 3.
    const qint64 expectedChars = (bytes + 2) / 3 * 4;
    if (data.size() != expectedChars)
        return Error { u"%1: a %2 x %3 matrix needs %4 base64 characters, found %5"_s.arg(what)
                           .arg(rows)
                           .arg(cols)
                           .arg(expectedChars)
                           .arg(data.size()) };
    const QByteArray::FromBase64Result decoded = QByteArray::fromBase64Encoding(
        data.toLatin1(), QByteArray::Base64Encoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() != bytes)
        return Error { u"%1: the data is not valid base64 of %2 bytes"_s.arg(what).arg(bytes) };
    budgetBytes -= bytes;

    Matrix matrix(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
    const char* in8 = decoded.decoded.constData();
    for (qint64 i = 0; i < values; ++i) {
        const quint64 bits = qFromLittleEndian<quint64>(in8 + i * kValueBytes);
        double value = 0;
        std::memcpy(&value, &bits, sizeof value);
        if (!std::isfinite(value))
            return Error { u"%1: entry (%2, %3) is %4; factors must be finite"_s.arg(what)
                               .arg(i % rows + 1)
                               .arg(i / rows + 1)
                               .arg(value) };
        matrix.data()[i] = Scalar(value);
    }
    return matrix;
}

} // namespace facet
