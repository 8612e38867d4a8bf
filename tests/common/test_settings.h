// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Settings kept apart from a user's: every GUI test that reads or writes QSettings starts here.

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

namespace facet::testing {

// QStandardPaths' test mode and an application name of the test's own, with its settings
// cleared: a test never reads or changes a user's Facet settings, nor another test's.
inline void useTestSettings(const QString& application)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FacetTest"));
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
}

} // namespace facet::testing
