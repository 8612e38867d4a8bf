// SPDX-License-Identifier: GPL-3.0-or-later
// Out-of-sample projection from the GUI: an image dropped on the main window after a run is
// prepared like the dataset, projected onto the basis and shown with its nearest cluster.

#include "common/image_grid.h"
#include "controls/control_panel.h"
#include "data/image_render.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "views/projection_view.h"

#include <QDropEvent>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <memory>

using namespace facet;
using namespace facet::testing;

namespace {

void dropFile(QWidget& target, const QString& path)
{
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(path) });
    const QPointF centre(target.width() / 2.0, target.height() / 2.0);
    QDragEnterEvent enter(centre.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&target, &enter);
    QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&target, &drop);
}

} // namespace

class TestProjectionView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void droppedImageIsProjected();
    void imagesArePreparedLikeAnL2LoadedSet();
};

void TestProjectionView::initTestCase()
{
    useTestSettings(QStringLiteral("widgets_projection_view"));
}

void TestProjectionView::droppedImageIsProjected()
{
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openDataset(QStringLiteral("builtin:swimmer"));
    QVERIFY(loaded.wait(kRunTimeoutMs) || loaded.count() == 1);
    ProjectionView* view = window.projectionView();
    QVERIFY(!view->hasContext());
    QVERIFY(!view->findChild<QPushButton*>(QStringLiteral("projectionOpen"))->isEnabled());

    ControlPanel* controls = window.controlPanel();
    QVERIFY(controls->setMethod(QStringLiteral("nmf")));
    controls->setRank(17);
    controls->setMaxIterations(400);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(kRunTimeoutMs) || finished.count() == 1);
    QVERIFY(view->hasContext());

    // Sample 37 of the set saved as an 8-bit PNG (0/1 pixels -> 0/255), as a user would have it.
    const auto data = window.dataset();
    const int sample = 37;
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("swimmer_37.png"));
    QVERIFY(columnToImage(data->X.col(sample), data->height, data->width).save(png));

    QSignalSpy projected(view, &ProjectionView::projected);
    dropFile(window, png);
    QVERIFY(projected.wait(kRunTimeoutMs) || projected.count() == 1);
    QVERIFY(view->isVisible());
    const Projection& p = *view->projection();
    const RunResult& result = *window.lastResult();
    QCOMPARE(p.v.size(), 17);
    // The same image as a training sample: the exact NNLS fit is no worse than its own row of V,
    // and it lands in that sample's cluster.
    const Factorization& f = result.factorization;
    const double own = (data->X.col(sample) - f.basis * f.V.row(sample).transpose()).norm()
        / data->X.col(sample).norm();
    QVERIFY2(p.relativeError <= own + 1e-9,
        qPrintable(QStringLiteral("%1 > %2").arg(p.relativeError).arg(own)));
    QCOMPARE(p.cluster, result.predicted[sample]);
    // What is shown: the image, reconstruction, residual; the largest coefficients; the cluster.
    const QList<ImageSection>& sections = view->grid()->sections();
    QCOMPARE(sections.size(), 3);
    QCOMPARE(sections[0].tiles.size(), 3);
    QVERIFY(!sections[1].tiles.isEmpty());
    QVERIFY(sections[2].title.contains(QString::number(p.cluster + 1)));
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("swimmer_37.png")));
    QVERIFY(view->grab().save(QStringLiteral("projection_view.png")));

    // A file that is not an image: a clear error, and the last projection stays.
    const QString bogus = dir.filePath(QStringLiteral("not_an_image.png"));
    {
        QFile file(bogus);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is text, not a PNG");
    }
    QSignalSpy failed(view, &ProjectionView::failed);
    view->projectFile(bogus);
    QVERIFY(failed.wait(kRunTimeoutMs) || failed.count() == 1);
    QVERIFY(view->projection().has_value());
    QVERIFY(view->summaryLabel()->text().contains(QStringLiteral("not_an_image.png")));
}

// A set loaded with "scale each sample to unit L2 norm" (the preprocessing dialog's option) and
// factorized by NMF, which takes the data as loaded: a new image must be scaled the same way, or
// its coefficients come out on another scale than the training rows of V.
void TestProjectionView::imagesArePreparedLikeAnL2LoadedSet()
{
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    DatasetRequest request = window.requestFor(QStringLiteral("builtin:swimmer"));
    request.prepare.l2Normalize = true;
    window.openDataset(request);
    QVERIFY(loaded.wait(kRunTimeoutMs) || loaded.count() == 1);
    const auto data = window.dataset();
    QVERIFY(std::abs(data->X.col(5).norm() - 1.0) < 1e-12);

    ControlPanel* controls = window.controlPanel();
    QVERIFY(controls->setMethod(QStringLiteral("nmf")));
    controls->setRank(17);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(kRunTimeoutMs) || finished.count() == 1);

    const int sample = 37;
    QImage image(data->width, data->height, QImage::Format_Grayscale8);
    for (int r = 0; r < data->height; ++r)
        for (int c = 0; c < data->width; ++c)
            image.setPixel(c, r,
                data->X(r * data->width + c, sample) > 0 ? qRgb(255, 255, 255) : qRgb(0, 0, 0));
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("swimmer_37.png"));
    QVERIFY(image.save(png));
    ProjectionView* view = window.projectionView();
    QSignalSpy projected(view, &ProjectionView::projected);
    view->projectFile(png);
    QVERIFY(projected.wait(kRunTimeoutMs) || projected.count() == 1);
    // x has unit norm, so its reconstruction's norm is within the relative error of 1 (a 0/1
    // image of this set has a norm of about 5).
    const Projection& p = *view->projection();
    QVERIFY2(std::abs(p.reconstruction.norm() - 1.0) <= p.relativeError + 1e-9,
        qPrintable(QStringLiteral("|U v| = %1, relative error %2")
                       .arg(p.reconstruction.norm())
                       .arg(p.relativeError)));
}

#include "facet_test.h"
FACET_TEST_MAIN(TestProjectionView)
#include "test_projection_view.moc"
