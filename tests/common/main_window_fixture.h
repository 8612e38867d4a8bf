// SPDX-License-Identifier: GPL-3.0-or-later
// What the main-window tests share: settings kept apart from a user's, a shown window with
// error dialogs off, and loading a dataset the way the GUI does (on its worker, then waiting).
#pragma once

#include "main_window/main_window.h"
#include "test_settings.h"

#include <QSignalSpy>
#include <QSize>

#include <memory>

namespace facet::testing {

inline constexpr int kLoadTimeoutMs = 60000;
inline constexpr int kRunTimeoutMs = 300000;

inline std::unique_ptr<MainWindow> makeWindow(QSize size = { 1400, 900 })
{
    auto window = std::make_unique<MainWindow>();
    window->setErrorDialogsEnabled(false);
    window->resize(size);
    window->show();
    return window;
}

inline bool load(MainWindow& window, const DatasetRequest& request, int timeoutMs = kLoadTimeoutMs)
{
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openDataset(request);
    return loaded.wait(timeoutMs) || loaded.count() == 1;
}

inline bool load(MainWindow& window, const QString& spec, int timeoutMs = kLoadTimeoutMs)
{
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openDataset(spec);
    return loaded.wait(timeoutMs) || loaded.count() == 1;
}

} // namespace facet::testing
