// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QList>
#include <QPointF>
#include <QRectF>
#include <QWidget>

#include <vector>

class QCPGraph;
class QCPItemLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;
class QToolButton;

namespace facet {

// One side of the 2-D overcomplete-basis demo (METHODS.md section 7): the points coloured by
// cluster, the basis vectors as black diamonds (with a faint line from the origin, since they are
// vectors), and the Gaussians' centres as large hollow circles the user drags. The axes keep one
// scale for x and y, so distances and angles look as they are. The panel only draws and reports
// drags; OvercompleteDemo decides what they mean.
class DemoPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kHandlePixels = 26; // diameter of a centre's circle
    static constexpr int kBasisPixels = 14;

    explicit DemoPanel(QWidget* parent = nullptr);

    // X is 2 x n; colours[i] is the colour index of sample i (the cluster aligned to its class,
    // METHODS.md 5), -1 for "not clustered".
    void setPoints(const Matrix& X, const std::vector<int>& colours);
    // basis is 2 x k; an empty matrix hides the diamonds.
    void setBasis(const Matrix& basis);
    void setCentres(const QList<QPointF>& centres);
    // The data rectangle to show; the axes extend it on the right or the top so x and y keep
    // the same scale in the plot's current size.
    void setViewRect(const QRectF& rect);
    void setTitle(const QString& title, const QString& subtitle);

    QString title() const;
    QString subtitle() const;
    // Where centre `index` is drawn, in pixels of plot() (valid after a replot).
    QPointF centreHandlePosition(int index) const;
    // The centre whose circle contains the plot pixel, or -1.
    int handleAt(const QPointF& pixel) const;
    QPointF pixelToData(const QPointF& pixel) const;
    // The basis vectors drawn now (columns), for tests and tooltips.
    const Matrix& basis() const { return m_basis; }
    int pointGraphCount() const { return int(m_pointGraphs.size()); }
    bool isDragging() const { return m_dragIndex >= 0; }

    // PDF when the path ends in .pdf, else PNG; false when the file could not be written.
    bool exportTo(const QString& path);
    QCustomPlot* plot() const { return m_plot; }
    QToolButton* exportButton() const { return m_exportButton; }

Q_SIGNALS:
    void centrePressed(int index);
    // The data position the user drags centre `index` to.
    void centreDragged(int index, QPointF position);
    void centreReleased(int index);

private:
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void fitAxes();
    void exportWithDialog(const QString& suffix);
    void replot();

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPTextElement* m_subtitle = nullptr;
    QToolButton* m_exportButton = nullptr;
    QList<QCPGraph*> m_pointGraphs;
    QList<QCPItemLine*> m_basisLines;
    QCPGraph* m_basisGraph = nullptr;
    QCPGraph* m_handleGraph = nullptr;
    QList<QCPItemText*> m_centreLabels;
    Matrix m_basis;
    QList<QPointF> m_centres;
    QRectF m_viewRect { 0, 0, 10, 10 };
    int m_dragIndex = -1;
    QPointF m_grabOffset; // pixel offset of the press from the circle's centre
};

} // namespace facet
