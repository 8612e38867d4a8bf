// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace facet::plots {

struct Curve {
    QString name;
    std::vector<double> x;
    std::vector<double> y; // NaN leaves a gap
    int style = -1; // colour and marker: the curve's index when negative
    bool dashed = false; // a reference curve (a paper's numbers) beside a solid one
    bool filled = false; // filled markers, to tell a curve from its dashed reference in grey
};

// A line chart with one curve per series, a legend beside the axes and a title.
struct LineChart {
    QString title;
    QString xLabel;
    QString yLabel;
    std::vector<Curve> curves;
    // Non-empty: x values are indices into these tick labels (a parameter grid); otherwise
    // integer x values get one tick each (cluster counts).
    QStringList xCategories;
    double yMin = 0; // the y range is [yMin, yMax] widened to the data
    double yMax = 100;
    QString footnote {}; // a small line under the axes: what the curves were made from
};

// Renders `chart` to basePath + ".png" (2x pixel density), ".svg" (when built with Qt SVG) and
// ".pdf", `width` x `height` logical pixels. Needs a QApplication (see
// makeOffscreenApplication). Returns the files written.
Result<QStringList> saveLineChart(
    const LineChart& chart, const QString& basePath, int width = 760, int height = 460);

// A QApplication for rendering widgets without showing them: unless the user chose a platform
// (QT_QPA_PLATFORM), the offscreen platform is forced, so a batch run never needs (or touches)
// a display, over ssh or in CI alike.
std::unique_ptr<QCoreApplication> makeOffscreenApplication(int& argc, char** argv);

} // namespace facet::plots
