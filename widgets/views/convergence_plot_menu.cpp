// SPDX-License-Identifier: GPL-3.0-or-later
// ConvergencePlot's context menu: the relative change on the right axis, fit to the data, remove
// the compared runs, and save the plot as PNG, SVG or PDF.
#include "views/convergence_plot.h"

#include "plot_export.h"
#include "plotting/plot_hover_readout.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <qcustomplot.h>

namespace facet {

void ConvergencePlot::buildContextMenu()
{
    m_menu = new QMenu(this);
    m_changeAction = m_menu->addAction(tr("Show &relative change (right axis)"));
    m_changeAction->setCheckable(true);
    m_changeAction->setChecked(m_changeVisible);
    connect(m_changeAction, &QAction::toggled, this, &ConvergencePlot::setRelativeChangeVisible);
    m_timeAction = m_menu->addAction(tr("Plot against &time (seconds)"));
    m_timeAction->setCheckable(true);
    m_timeAction->setToolTip(tr("The horizontal axis counts seconds from the start of each "
                                "run's solve instead of iterations, to compare algorithms"));
    connect(m_timeAction, &QAction::toggled, this, [this](bool seconds) {
        if ((m_xAxis == XAxis::Seconds) != seconds)
            setXAxis(seconds ? XAxis::Seconds : XAxis::Iterations);
    });
    m_menu->addAction(tr("&Fit to the data"), this, &ConvergencePlot::rescale);
    m_clearOverlaysAction
        = m_menu->addAction(tr("Remove the &compared runs"), this, &ConvergencePlot::clearOverlays);
    m_menu->addSeparator();
    m_menu->addAction(tr("&Save plot as…"), this, &ConvergencePlot::exportDialog);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        m_clearOverlaysAction->setEnabled(!m_overlays.isEmpty());
        m_menu->popup(m_plot->mapToGlobal(at));
    });
}

void ConvergencePlot::setRelativeChangeVisible(bool visible)
{
    m_changeVisible = visible;
    m_changeAction->setChecked(visible);
    rescale();
}

QString ConvergencePlot::exportTo(const QString& path)
{
    m_readout->hide();
    const Result<bool> saved = plots::savePlot(*m_plot, path, m_title->text());
    return saved ? QString() : saved.error();
}

void ConvergencePlot::exportDialog()
{
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export the convergence plot"), tr("convergence.png"), plots::plotFileFilter());
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    if (const QString error = exportTo(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace facet
