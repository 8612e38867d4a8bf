// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_export.h"

#include "util/atomic_write.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <qcustomplot.h>
#ifdef FACET_HAVE_QT_SVG
#include <QSvgGenerator>
#endif

namespace facet::plots {

using namespace Qt::StringLiterals;

Result<bool> savePlot(QCustomPlot& plot, const QString& path, const QString& title)
{
    const int width = std::max(plot.width(), 1);
    const int height = std::max(plot.height(), 1);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"png"_s)
        return writeImageFile(path, plot.toPixmap(width, height, 2.0).toImage());
#ifdef FACET_HAVE_QT_SVG
    if (suffix == u"svg"_s) {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(QSize(width, height));
        svg.setViewBox(QRect(0, 0, width, height));
        svg.setTitle(title);
        QCPPainter painter;
        painter.begin(&svg);
        plot.toPainter(&painter, width, height);
        painter.end();
        return writeBytesFile(path, buffer.data());
    }
#endif
    if (suffix == u"pdf"_s) {
        // QCustomPlot's PDF export writes the file itself: write beside the target, then rename,
        // so a failure leaves an existing file intact.
        const QString partial = path + u".part"_s;
        if (!plot.savePdf(partial, width, height, QCP::epNoCosmetic, u"Facet"_s, title)) {
            QFile::remove(partial);
            return Error { u"cannot write %1"_s.arg(path) };
        }
        QFile::remove(path);
        if (!QFile::rename(partial, path))
            return Error { u"cannot move %1 to %2"_s.arg(partial, path) };
        return true;
    }
    return Error { u"%1: unknown plot format '%2'; use .png, %3.pdf"_s.arg(path, suffix,
#ifdef FACET_HAVE_QT_SVG
        u".svg or "_s
#else
        QString()
#endif
        ) };
}

QString plotFileFilter()
{
    QString filter = u"PNG image (*.png)"_s;
#ifdef FACET_HAVE_QT_SVG
    filter += u";;SVG drawing (*.svg)"_s;
#endif
    return filter + u";;PDF document (*.pdf)"_s;
}

} // namespace facet::plots
