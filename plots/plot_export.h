// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QString>

class QCustomPlot;

namespace facet::plots {

// Saves a plot as it is drawn on screen (its current size) to `path`; the suffix chooses the
// format: .png (at twice the pixel density, for print), .svg (when built with Qt SVG) or .pdf.
// Any other suffix is an error naming the supported ones.
Result<bool> savePlot(QCustomPlot& plot, const QString& path, const QString& title = {});

// The file dialog filter for savePlot ("PNG image (*.png);;SVG drawing (*.svg);;...").
QString plotFileFilter();

} // namespace facet::plots
