// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"
#include "util/result.h"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPTextElement;
class QCustomPlot;

namespace facet {

// The representation V (n x k) as a heatmap: one row per sample, sorted by true class (by
// predicted cluster when the data has no labels), one column per basis vector, with lines
// between the groups. Zero is white, so a sparse V is mostly white and a local one (each group
// using its own few columns) shows as blocks.
class RepresentationHeatmap : public QWidget {
    Q_OBJECT

public:
    explicit RepresentationHeatmap(QWidget* parent = nullptr);

    void setResult(const Dataset& dataset, const RunResult& result);
    void clear();

    int rowCount() const { return int(m_order.size()); } // n when a result is shown
    int columnCount() const { return m_columns; } // k
    int boundaryCount() const { return m_boundaries; } // lines between groups
    bool groupedByClass() const { return m_byClass; }
    // The sample drawn in heatmap row `row` (0 = top), or -1.
    int sampleAtRow(int row) const;
    QCustomPlot* plot() const { return m_plot; }
    Result<bool> exportPlot(const QString& path);
    // The title in full (the plot shows it elided when it is narrower than the text).
    QString title() const { return m_titleText; }

Q_SIGNALS:
    // A left click on a sample's row.
    void sampleActivated(int sample);

private:
    // Chooses how many row and column names fit; true when that changed.
    bool updateTickers();
    void setTitle(const QString& title);
    // The title elided to the plot's width where it does not fit; true when that changed.
    bool fitTitle();

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QString m_titleText; // in full; m_title may show it elided
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    std::vector<int> m_order;
    QList<double> m_rowTicks; // the middle row of each group's block
    QStringList m_rowNames;
    QList<double> m_columnTicks;
    QStringList m_columnNames;
    int m_rowStep = 0;
    int m_columnStep = 0;
    int m_columns = 0;
    int m_boundaries = 0;
    bool m_byClass = false;
};

} // namespace facet
