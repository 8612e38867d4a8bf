// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/session.h"

#include <QJsonObject>

namespace facet {

// One run record of a session file (format version 1):
// { "id", "name", "created" (ISO 8601), "options": runOptionsToJson, "summary": {...},
//   "objective_history": [number|null], "segment_starts", "labels", "image": {"height", "width"},
//   "basis": matrixToJson | null, "V": matrixToJson | null }
QJsonObject runRecordToJson(const RunRecord& record);

// The inverse for untrusted input; `context` ("run 3") prefixes messages and the factors count
// against `budgetBytes` (see matrixFromJson). Shapes must agree: basis m x k and V n x k share
// k, labels has n entries, height * width = m.
Result<RunRecord> runRecordFromJson(
    const QJsonObject& object, const QString& context, qint64& budgetBytes);

} // namespace facet
