// SPDX-License-Identifier: GPL-3.0-or-later
// What the main-window tests share: settings kept apart from a user's, a shown window with
// error dialogs off, and loading a dataset the way the GUI does (on its worker, then waiting).
#pragma once

#include "main_window.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>

#include <memory>

namespace facet::testing {

inline constexpr int kLoadTimeoutMs = 60000;
inline constexpr int kRunTimeoutMs = 300000;

// QStandardPaths' test mode and an application name of the test's own, with its settings
// cleared: a test never reads or changes a user's Facet settings, nor another test's.
inline void useTestSettings(const QString& application)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FacetTest"));
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
}

inline std::unique_ptr<MainWindow> makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setErrorDialogsEnabled(false);
    window->resize(1400, 900);
    window->show();
    return window;
}

inline bool load(MainWindow& window, const DatasetRequest& request)
{
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openDataset(request);
    return loaded.wait(kLoadTimeoutMs) || loaded.count() == 1;
}

inline bool load(MainWindow& window, const QString& spec)
{
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openDataset(spec);
    return loaded.wait(kLoadTimeoutMs) || loaded.count() == 1;
}

} // namespace facet::testing
