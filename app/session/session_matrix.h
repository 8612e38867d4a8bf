// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "util/result.h"

#include <QJsonObject>

namespace facet {

// A matrix as {"rows", "cols", "dtype": "float64-le", "order": "column-major", "data": base64}:
// 8 bytes per value, so a 1024 x 40 basis costs 437 kB of text instead of ~1 MB of decimals, and
// the values come back bit for bit (JSON numbers would round-trip too, but slowly and larger).
QJsonObject matrixToJson(const Matrix& matrix);

// The inverse for untrusted input. The shape is checked against the payload before decoding
// (overflow-checked rows * cols * 8), the decoded size must equal it, the bytes count against
// `budgetBytes` (decremented), and every value must be finite. `what` names the matrix in
// messages ("run 2: basis").
Result<Matrix> matrixFromJson(const QJsonObject& object, const QString& what, qint64& budgetBytes);

} // namespace facet
