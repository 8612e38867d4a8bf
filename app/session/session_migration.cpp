// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/session_migration.h"

#include <QJsonArray>

namespace facet {

using namespace Qt::StringLiterals;

bool isVersionZeroSession(const QJsonObject& o)
{
    return !o.contains(u"format"_s) && o.contains(u"facet_version"_s)
        && o.contains(u"objective_history"_s) && o.contains(u"method"_s);
}

QJsonObject migrateSessionFromVersionZero(const QJsonObject& report)
{
    QJsonObject options = report.value(u"params"_s).toObject();
    options.insert(u"method"_s, report.value(u"method"_s));
    if (report.contains(u"seed"_s))
        options.insert(u"seed"_s, report.value(u"seed"_s));

    const QJsonArray history = report.value(u"objective_history"_s).toArray();
    const QJsonObject timings = report.value(u"timings"_s).toObject();
    const double seconds
        = timings.value(u"solve_s"_s).toDouble() + timings.value(u"cluster_s"_s).toDouble();
    QJsonObject summary {
        { u"iterations"_s, report.value(u"iterations"_s) },
        { u"stop_reason"_s, report.value(u"stop_reason"_s) },
        { u"objective"_s, history.isEmpty() ? QJsonValue() : history.last() },
        { u"seconds"_s, seconds >= 0 ? seconds : 0.0 },
    };
    for (const QString& key : { u"returned_objective"_s, u"ac"_s, u"nmi"_s, u"graph_ac"_s,
             u"graph_nmi"_s, u"reconstruction_error"_s, u"sparseness"_s })
        if (report.contains(key))
            summary.insert(key, report.value(key));

    const QJsonObject data = report.value(u"dataset"_s).toObject();
    QJsonObject run {
        { u"id"_s, 1 },
        { u"name"_s, u"%1 (facet-cli)"_s.arg(report.value(u"method"_s).toString()) },
        { u"options"_s, options },
        { u"summary"_s, summary },
        { u"objective_history"_s, history },
        { u"segment_starts"_s, report.value(u"segment_starts"_s) },
        { u"labels"_s, report.value(u"labels"_s) },
        { u"image"_s,
            QJsonObject { { u"height"_s, data.value(u"height"_s) },
                { u"width"_s, data.value(u"width"_s) } } },
    };
    QJsonObject session {
        { u"format"_s, u"facet-session"_s },
        { u"version"_s, 1 },
        { u"runs"_s, QJsonArray { run } },
    };
    if (data.contains(u"path"_s))
        session.insert(u"dataset"_s,
            QJsonObject { { u"path"_s, data.value(u"path"_s) },
                { u"preprocess"_s, data.value(u"preprocess"_s) } });
    return session;
}

} // namespace facet
