// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 37, item 8, "clipped and missing text", in the main window: long status messages are
// elided with the full text in the tooltip, Help > User guide explains every view, method and
// parameter the window has, and a folder load with face detection shows its progress and can be
// cancelled, keeping the dataset loaded before it.

#include "controls/control_panel.h"
#include "controls/parameter_panel.h"
#include "main_window_fixture.h"
#include "methods/registry.h"
#include "screenshot.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFormLayout>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace facet;
using namespace facet::testing;

namespace {

// "&Rank k:" -> "Rank k"; "2-D &overcomplete-basis demo" -> "2-D overcomplete-basis demo".
QString plain(QString text)
{
    text.remove(u'&');
    if (text.endsWith(u':'))
        text.chop(1);
    return text.trimmed();
}

// Two classes of grey gradients, 3 and 2 images, 30 x 40, with no face in them. (The app tests'
// folder_fixture.h does the same; its namespace clashes with this folder's in a unity batch.)
bool writeGradientFolder(const QString& root)
{
    for (int i = 0; i < 5; ++i) {
        QImage image(40, 30, QImage::Format_Grayscale8);
        for (int r = 0; r < image.height(); ++r)
            for (int c = 0; c < image.width(); ++c)
                image.scanLine(r)[c] = uchar((r * (i + 2) + c * 3) % 256);
        const QString folder
            = QDir(root).filePath(i < 3 ? QStringLiteral("a") : QStringLiteral("b"));
        if (!QDir().mkpath(folder)
            || !image.save(QDir(folder).filePath(QStringLiteral("%1.png").arg(i)), "PNG"))
            return false;
    }
    return true;
}

QMenu* menuTitled(const QMainWindow& window, const QString& title)
{
    for (QAction* action : window.menuBar()->actions())
        if (action->menu() && plain(action->text()) == title)
            return action->menu();
    return nullptr;
}

} // namespace

class TestMainWindowText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void longStatusMessagesElideWithTheFullTextInTheTooltip();
    void userGuideExplainsEveryViewMethodAndParameter();
    void faceDetectionShowsProgressAndCancelKeepsTheDataset();
};

void TestMainWindowText::initTestCase()
{
    useTestSettings(QStringLiteral("widgets_main_window_text"));
}

void TestMainWindowText::longStatusMessagesElideWithTheFullTextInTheTooltip()
{
    auto window = makeWindow({ 1000, 700 });
    QStatusBar* bar = window->statusBar();
    const QString message = QStringLiteral(
        "Could not open the dataset: /home/user/datasets/faces/extended_yale_b_cropped/"
        "yaleB39/yaleB39_P00A+020E-10.pgm: the file ends after 1,024 of its 32,256 pixel bytes; "
        "it was probably cut short while copying, so copy it again");
    bar->showMessage(message);
    QCOMPARE(bar->currentMessage(), message);
    QCOMPARE(bar->toolTip(), message);
    const QString shown = bar->property("displayedMessage").toString();
    QVERIFY2(shown.contains(QChar(0x2026)), // elided, and says so
        qPrintable(QStringLiteral("%1 | bar %2 | text %3")
                       .arg(shown)
                       .arg(bar->width())
                       .arg(bar->fontMetrics().horizontalAdvance(message))));
    QVERIFY(shown.startsWith(QStringLiteral("Could not open")));
    QVERIFY(shown.endsWith(QStringLiteral("copy it again")));
    QVERIFY(bar->fontMetrics().horizontalAdvance(shown) < bar->width());
    saveScreenshot(*bar, QStringLiteral("status_bar_long_message.png"));

    bar->showMessage(QStringLiteral("Loaded ORL."));
    QCOMPARE(bar->property("displayedMessage").toString(), QStringLiteral("Loaded ORL."));
    QVERIFY(bar->toolTip().isEmpty());
}

void TestMainWindowText::userGuideExplainsEveryViewMethodAndParameter()
{
    auto window = makeWindow();
    QMenu* help = menuTitled(*window, QStringLiteral("Help"));
    QVERIFY(help);
    auto* guide = window->findChild<QAction*>(QStringLiteral("userGuideAction"));
    QVERIFY(guide);
    QVERIFY(help->actions().contains(guide));
    guide->trigger();
    auto* dialog = window->findChild<QDialog*>(QStringLiteral("userGuideDialog"));
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QVERIFY(!dialog->isModal()); // it stays open beside the window it explains
    auto* browser = dialog->findChild<QTextBrowser*>(QStringLiteral("userGuideText"));
    QVERIFY(browser);
    const QString text = browser->toPlainText();
    QStringList missing;
    // Every method the Controls offer, by its short label.
    const QComboBox* methods = window->controlPanel()->methodCombo();
    QVERIFY(methods->count() >= 11);
    for (int i = 0; i < methods->count(); ++i) {
        const QString label
            = QString::fromStdString(methodLabel(methods->itemData(i).toString().toStdString()));
        if (!text.contains(label))
            missing << label;
    }
    // Every view the View menu shows or hides.
    QMenu* view = menuTitled(*window, QStringLiteral("View"));
    QVERIFY(view);
    int views = 0;
    for (QAction* action : view->actions()) {
        if (action->isSeparator())
            continue;
        ++views;
        if (!text.contains(plain(action->text())))
            missing << plain(action->text());
    }
    QVERIFY(views >= 10);
    // Every labelled row of the Controls (the run's options and each method's parameters).
    int rows = 0;
    for (const QFormLayout* form : window->controlPanel()->findChildren<QFormLayout*>()) {
        for (int row = 0; row < form->rowCount(); ++row) {
            const QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
            const auto* label = item ? qobject_cast<const QLabel*>(item->widget()) : nullptr;
            if (!label || plain(label->text()).isEmpty())
                continue;
            ++rows;
            if (!text.contains(plain(label->text())))
                missing << plain(label->text());
        }
    }
    QVERIFY(rows >= 15);
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral(", "))));
    for (const QString& rule : { QStringLiteral("Tolerance"), QStringLiteral("stationarity"),
             QStringLiteral("Max iterations"), QStringLiteral("‖X − X W Vᵀ‖²") })
        QVERIFY2(text.contains(rule), qPrintable(rule));
    saveScreenshot(*dialog, QStringLiteral("user_guide.png"));
    guide->trigger(); // the same window comes forward
    QCOMPARE(window->findChildren<QDialog*>(QStringLiteral("userGuideDialog")).size(), 1);
}

void TestMainWindowText::faceDetectionShowsProgressAndCancelKeepsTheDataset()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeGradientFolder(dir.path()));
    auto window = makeWindow();
    DatasetRequest plainLoad;
    plainLoad.spec = dir.path();
    QVERIFY(load(*window, plainLoad));
    const std::shared_ptr<const Dataset> before = window->dataset();
    QCOMPARE(before->samples(), 5);

    auto* progress = window->findChild<QProgressBar*>(QStringLiteral("loadProgress"));
    auto* cancel = window->findChild<QAbstractButton*>(QStringLiteral("cancelLoadButton"));
    QVERIFY(progress && cancel);
    QVERIFY(progress->isHidden() && cancel->isHidden());
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    QSignalSpy failed(window.get(), &MainWindow::datasetLoadFailed);
    DatasetRequest faces = plainLoad;
    faces.preprocess.detectFaces = true;
    window->openDataset(faces);
    QVERIFY(progress->isVisible() && cancel->isVisible());
    QVERIFY(progress->format().contains(QStringLiteral("faces")));
    saveScreenshot(*window->statusBar(), QStringLiteral("status_bar_loading.png"));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!window->isLoading(), kLoadTimeoutMs);
    QTest::qWait(0);
    QCOMPARE(loaded.count(), 0);
    QCOMPARE(failed.count(), 0);
    QVERIFY(window->dataset() == before);
    QVERIFY2(window->statusBar()->currentMessage().contains(QStringLiteral("cancelled")),
        qPrintable(window->statusBar()->currentMessage()));
    QVERIFY(progress->isHidden() && cancel->isHidden());

    // Not cancelled, the same load ends with the images counted.
    QVERIFY(load(*window, faces));
    QVERIFY(progress->isHidden());
    QCOMPARE(window->dataset()->samples(), 5);
}

#include "facet_test.h"
FACET_TEST_MAIN(TestMainWindowText)
#include "test_main_window_text.moc"
