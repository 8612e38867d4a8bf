// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QString>

class QCustomPlot;

namespace facet::plots {

// Saves a plot as it is drawn on screen (its current size) to `path`; the suffix chooses the
// format: .png (at twice the pixel density, for print), .svg (when built with Qt SVG) or .pdf.
// Any other suffix is an error naming the supported ones.
Result<bool> savePlot(QCustomPlot& plot, const QString& path, const QString& title = {});

#ifdef FACET_HAVE_QT_SVG
// The plot drawn at width x height as an SVG document whose <title> is `title`. Qt 6.4's
// generator writes the title as it is (an "&" in "NMF (Lee & Seung)" made the file invalid XML);
// the title is escaped here exactly when this Qt does not escape it itself, and the document is
// parsed before it is returned: an error, never a file no viewer can open.
Result<QByteArray> plotSvg(QCustomPlot& plot, int width, int height, const QString& title);
#endif

// The file dialog filter for savePlot ("PNG image (*.png);;SVG drawing (*.svg);;...").
QString plotFileFilter();

} // namespace facet::plots
