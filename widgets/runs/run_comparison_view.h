// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/session.h"

#include <QColor>
#include <QList>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QLabel;

namespace facet {

class ImageGrid;

// Two to four runs side by side: a column per run with its name, method, parameters and scores
// above its basis images, and below them one convergence plot with every run's objective history
// overlaid in the colour of its column. Read-only: it shows copies of the records it was given.
class RunComparisonView : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMinRuns = 2;
    static constexpr int kMaxRuns = 4;

    explicit RunComparisonView(QWidget* parent = nullptr);

    // Shows runs[0 .. kMaxRuns - 1]; fewer than kMinRuns clears the view.
    void setRuns(std::vector<RunRecord> runs);
    void clear();

    int runCount() const { return int(m_runs.size()); }
    const RunRecord& run(int column) const { return m_runs.at(std::size_t(column)); }
    QLabel* header(int column) const { return m_headers.at(column); }
    ImageGrid* gallery(int column) const { return m_galleries.at(column); }
    QCustomPlot* plot() const { return m_plot; }
    // The colour of column `column` and of its curve.
    static QColor runColor(int column);

private:
    void rebuildColumns();
    void rebuildPlot();
    QString headerHtml(const RunRecord& run, int column) const;

    std::vector<RunRecord> m_runs;
    QWidget* m_columns = nullptr;
    QList<QLabel*> m_headers;
    QList<ImageGrid*> m_galleries;
    QCustomPlot* m_plot = nullptr;
};

} // namespace facet
