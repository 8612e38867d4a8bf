// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_export.h"

#include "util/atomic_write.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QXmlStreamReader>
#include <qcustomplot.h>
#ifdef FACET_HAVE_QT_SVG
#include <QSvgGenerator>
#endif

namespace facet::plots {

using namespace Qt::StringLiterals;

#ifdef FACET_HAVE_QT_SVG
namespace {

// Whether this Qt's QSvgGenerator escapes the title it writes (6.4 does not): found once, by
// writing an empty drawing titled "&".
bool svgGeneratorEscapesTitle()
{
    static const bool escapes = [] {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(QSize(1, 1));
        svg.setTitle(u"&"_s);
        QPainter painter;
        painter.begin(&svg);
        painter.end();
        return !buffer.data().contains("<title>&</title>");
    }();
    return escapes;
}

// Empty when `svg` is well-formed XML; otherwise the parser's complaint and where.
QString xmlProblem(const QByteArray& svg)
{
    QXmlStreamReader reader(svg);
    while (!reader.atEnd())
        reader.readNext();
    if (!reader.hasError())
        return {};
    return u"line %1, column %2: %3"_s.arg(reader.lineNumber())
        .arg(reader.columnNumber())
        .arg(reader.errorString());
}

} // namespace

Result<QByteArray> plotSvg(QCustomPlot& plot, int width, int height, const QString& title)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(svgGeneratorEscapesTitle() ? title : title.toHtmlEscaped());
    QCPPainter painter;
    painter.begin(&svg);
    plot.toPainter(&painter, width, height);
    painter.end();
    if (const QString problem = xmlProblem(buffer.data()); !problem.isEmpty())
        return Error { u"the SVG drawing is not valid XML (%1); export PNG or PDF instead"_s.arg(
            problem) };
    return buffer.data();
}
#endif

Result<bool> savePlot(QCustomPlot& plot, const QString& path, const QString& title)
{
    const int width = std::max(plot.width(), 1);
    const int height = std::max(plot.height(), 1);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"png"_s)
        return writeImageFile(path, plot.toPixmap(width, height, 2.0).toImage());
#ifdef FACET_HAVE_QT_SVG
    if (suffix == u"svg"_s) {
        const Result<QByteArray> bytes = plotSvg(plot, width, height, title);
        if (!bytes)
            return Error { u"%1: %2"_s.arg(path, bytes.error()) };
        return writeBytesFile(path, *bytes);
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
