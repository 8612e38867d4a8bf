// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/session_paths.h"

#include <QDir>
#include <QFileInfo>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

bool isBuiltin(const QString& spec)
{
    return spec.startsWith(u"builtin:");
}

bool climbsOut(const QString& cleanRelative)
{
    return cleanRelative == u".." || cleanRelative.startsWith(u"../");
}

} // namespace

QString storedDatasetPath(const QString& spec, const QString& sessionDir)
{
    if (spec.isEmpty() || isBuiltin(spec))
        return spec;
    const QString absolute = QDir::cleanPath(QFileInfo(spec).absoluteFilePath());
    const QString relative = QDir::cleanPath(
        QDir(QFileInfo(sessionDir).absoluteFilePath()).relativeFilePath(absolute));
    if (relative.isEmpty() || QDir::isAbsolutePath(relative) || climbsOut(relative))
        return absolute;
    return relative;
}

ResolvedDatasetPath resolveDatasetPath(const QString& stored, const QString& sessionDir)
{
    if (stored.isEmpty() || isBuiltin(stored))
        return { stored, {} };
    if (QDir::isAbsolutePath(stored))
        return { QDir::cleanPath(stored), {} };
    const QString relative = QDir::cleanPath(stored);
    if (climbsOut(relative))
        return { {},
            u"the dataset path \"%1\" leads outside the session's folder; it was not followed. "
            "Open the dataset yourself if you trust it."_s.arg(stored.left(200)) };
    return { QDir::cleanPath(QFileInfo(sessionDir).absoluteFilePath() + u'/' + relative), {} };
}

} // namespace facet
