// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>

namespace facet {

// Session format versions and how older ones become the current one.
//   0: no "format" key; the JSON report of `facet-cli run --json` (run_report.cpp), the only
//      run file Facet wrote before sessions existed. It becomes a one-run session whose run has
//      no factors (the report never held them).
//   1: {"format": "facet-session", "version": 1, "dataset", "runs"} (session.h).

// True when `object` looks like a version-0 file: a run report has these keys and no "format".
bool isVersionZeroSession(const QJsonObject& object);

// Rewrites a version-0 object as version 1 without judging the values: parseSession checks the
// result exactly as it checks a version-1 file, so a damaged report gets the same messages.
QJsonObject migrateSessionFromVersionZero(const QJsonObject& report);

} // namespace facet
