// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"
#include "util/result.h"

#include <QList>
#include <QWidget>

class QCPGraph;
class QCPItemPixmap;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace facet {

// The samples on the first two principal axes of V (principalPlane): colour = true class (with
// a legend), marker shape = predicted cluster, and behind them the cells of the projected
// cluster centres (nearest centre in this plane), tinted with the colour of the class each
// cluster is matched to (AC's matching), so a point on a background of another colour is a
// sample its cluster took from another class. Without labels colour and shape both follow the
// cluster. The cells are of the projection: clusters that overlap here may be apart in k
// dimensions, which the caption says.
class PrincipalScatter : public QWidget {
    Q_OBJECT

public:
    // More classes than this and the legend would cover the plot; the hover text names them.
    static constexpr int kMaxLegendEntries = 20;

    explicit PrincipalScatter(QWidget* parent = nullptr);

    void setResult(const Dataset& dataset, const RunResult& result);
    void clear();

    int pointCount() const; // samples drawn
    int legendEntryCount() const;
    int centreCount() const; // projected cluster centres drawn
    bool hasRegions() const;
    // The sample nearest `pixel` (plot coordinates) within a few pixels, or -1.
    int sampleAt(const QPointF& pixel) const;
    // Where sample i is drawn (plot widget coordinates), for tests and tooltips.
    QPointF samplePixel(int sample) const;
    QString caption() const;
    QCustomPlot* plot() const { return m_plot; }
    Result<bool> exportPlot(const QString& path);

Q_SIGNALS:
    void sampleActivated(int sample);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateRegions();
    void updateLegendWrap();
    void showToolTip(QMouseEvent* event);

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QLabel* m_caption = nullptr;
    QCPItemPixmap* m_regions = nullptr;
    QCPGraph* m_centres = nullptr;
    QList<QCPGraph*> m_pointGraphs;
    Matrix m_points; // n x 2, the samples in the plane
    Matrix m_centrePoints; // c x 2, NaN rows for empty clusters
    std::vector<QColor> m_regionColors; // per cluster
    std::vector<QString> m_describe; // per sample, the hover text
    bool m_regionsQueued = false;
};

} // namespace facet
