// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotting/plot_save_menu.h"

#include "plot_export.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <qcustomplot.h>

namespace facet {

void installSavePlotMenu(QCustomPlot* plot, const QString& title, const QString& defaultFileName,
    std::function<bool()> enabled)
{
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot,
        [plot, title, defaultFileName, enabled](const QPoint& pos) {
            if (enabled && !enabled())
                return;
            QMenu menu(plot);
            const QAction* save = menu.addAction(QObject::tr("Save plot as…"));
            if (menu.exec(plot->mapToGlobal(pos)) != save)
                return;
            const QString path = QFileDialog::getSaveFileName(
                plot, QObject::tr("Save %1").arg(title), defaultFileName, plots::plotFileFilter());
            if (path.isEmpty())
                return;
            if (const Result<bool> ok = plots::savePlot(*plot, path, title); !ok)
                QMessageBox::warning(plot, QObject::tr("Save %1").arg(title), ok.error());
        });
}

} // namespace facet
