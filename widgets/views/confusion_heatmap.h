// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"
#include "metrics/confusion.h"
#include "util/result.h"

#include <QWidget>

class QCPColorMap;
class QCPColorScale;
class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace facet {

// The confusion matrix of a run as a heatmap: rows are the true classes, columns the clusters in
// the order of AC's Hungarian matching (confusionMatrix), so a good clustering is a bright
// diagonal. Matched cells are outlined (n * AC samples in all), counts are written in the cells
// when they fit, and a colour scale gives the count of a colour. Unlabelled data shows a note.
class ConfusionHeatmap : public QWidget {
    Q_OBJECT

public:
    explicit ConfusionHeatmap(QWidget* parent = nullptr);

    void setResult(const Dataset& dataset, const RunResult& result);
    void clear();

    bool hasMatrix() const { return m_matrix.counts.size() > 0; }
    const ConfusionMatrix& matrix() const { return m_matrix; }
    // Cells with their count written in them at the current size.
    int writtenCountCells() const;
    QCustomPlot* plot() const { return m_plot; }
    // PNG, SVG or PDF by the suffix (plots::savePlot).
    Result<bool> exportPlot(const QString& path);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateCellTexts();
    // Chooses how many row and column names fit; true when that changed.
    bool updateTickers();
    void showToolTip(QMouseEvent* event);

    QCustomPlot* m_plot = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    QLabel* m_note = nullptr;
    ConfusionMatrix m_matrix;
    QStringList m_rowNames;
    QStringList m_columnNames;
    int m_rowStep = 0;
    int m_columnStep = 0;
};

} // namespace facet
