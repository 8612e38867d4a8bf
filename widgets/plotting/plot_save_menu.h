// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>

class QCustomPlot;

namespace facet {

// A right-click menu on `plot` with "Save plot as…": a file dialog, then plots::savePlot (PNG, SVG
// or PDF by the suffix); a failure is shown in a message box. `enabled` is asked each time
// so an empty plot offers nothing.
void installSavePlotMenu(QCustomPlot* plot, const QString& title, const QString& defaultFileName,
    std::function<bool()> enabled = {});

} // namespace facet
