// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace facet {

// How a session file names its dataset: relative to the session's folder when the data lives
// inside it (the folder can then move or be shared as a whole), absolute otherwise; builtin:NAME
// and an empty spec unchanged.
QString storedDatasetPath(const QString& spec, const QString& sessionDir);

struct ResolvedDatasetPath {
    QString path; // empty when refused
    QString problem; // why it was refused, for the user
};

// The inverse on load. A relative path is resolved against `sessionDir` with QDir::cleanPath; one
// that climbs out of it ("../x.mat", "a/../../x.mat") is refused with a message rather than
// followed, because a session from someone else must not make Facet read files next to it that
// the sender chose. Absolute paths and builtin:NAME pass through (cleaned).
ResolvedDatasetPath resolveDatasetPath(const QString& stored, const QString& sessionDir);

} // namespace facet
