// SPDX-License-Identifier: GPL-3.0-or-later
// The preprocessing dialog: its live preview follows the settings, Load opens the folder with
// them, and images without a face are kept (centre crop) or left out as the user chooses.

#include "controls/control_panel.h"
#include "dataset/dataset_inspector.h"
#include "dataset/missing_pixels_group.h"
#include "dataset/preprocess_dialog.h"
#include "dataset/preprocess_form.h"
#include "dataset/preprocess_preview.h"
#include "experiment/experiment_view.h"
#include "folder_fixture.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "screenshot.h"
#include "test_data.h"
#include "views/reconstruction_view.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace facet;

namespace {

constexpr int kPreprocessTimeoutMs = 60000;

DatasetRequest folderRequest(const QString& folder)
{
    DatasetRequest request;
    request.spec = folder;
    request.preprocess.height = request.preprocess.width = 32;
    return request;
}

// Waits until the preview shows the current settings (no preview running or queued).
bool previewSettles(PreprocessPreview* preview)
{
    QTest::qWait(0);
    for (int waited = 0; waited < kPreprocessTimeoutMs; waited += 20) {
        if (!preview->isBusy() && !preview->afterImage().isNull())
            return true;
        QTest::qWait(20);
    }
    return false;
}

} // namespace

class TestPreprocessDialog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void previewFollowsTheSettings();
    void theSampleSpinChoosesTheImage();
    void loadOpensTheFolderAndRemembersTheSettings();
    void noFaceImagesAreKeptOrSkipped();
    void missingPixelsFromTheDataMenu();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestPreprocessDialog::initTestCase()
{
    facet::testing::useTestSettings(QStringLiteral("widgets_preprocess_dialog"));
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QVERIFY(fixtures::writeClassFolder(m_dir->path()));
}

void TestPreprocessDialog::init()
{
    QSettings().clear();
}

void TestPreprocessDialog::previewFollowsTheSettings()
{
    PreprocessDialog dialog(folderRequest(m_dir->path()));
    dialog.show();
    PreprocessPreview* preview = dialog.preview();
    QVERIFY(previewSettles(preview));
    QCOMPARE(preview->sampleCount(), 5);
    QCOMPARE(preview->beforeImage().size(),
        QSize(fixtures::kFolderImageWidth, fixtures::kFolderImageHeight));
    QCOMPARE(preview->afterImage().size(), QSize(32, 32));

    QSignalSpy ready(preview, &PreprocessPreview::previewReady);
    dialog.form()->heightSpin()->setValue(16);
    dialog.form()->widthSpin()->setValue(16);
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && !preview->isBusy(), kPreprocessTimeoutMs);
    QCOMPARE(preview->afterImage().size(), QSize(16, 16));
    QCOMPARE(dialog.request().preprocess.height, 16);

    // Resizing off keeps the files' size.
    QTest::mouseClick(dialog.form()->resizeBox(), Qt::LeftButton);
    QVERIFY(!dialog.form()->resizeBox()->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(
        !preview->isBusy() && preview->afterImage().size() == QSize(40, 30), kPreprocessTimeoutMs);
    QVERIFY(!dialog.request().preprocess.hasSize());

    // Faces on: nothing here is a face, so the centre crop is what the preview shows.
    dialog.form()->resizeBox()->setChecked(true);
    QTest::mouseClick(dialog.form()->facesBox(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        !preview->isBusy() && preview->outcome().contains(QStringLiteral("no face")),
        kPreprocessTimeoutMs);
    QVERIFY2(
        preview->outcome().contains(QStringLiteral("centre crop")), qPrintable(preview->outcome()));
    QCOMPARE(preview->afterImage().size(), QSize(16, 16));
    QCoreApplication::processEvents();
    QVERIFY(dialog.grab().save(QDir::current().filePath(QStringLiteral("preprocess_dialog.png"))));
}

void TestPreprocessDialog::theSampleSpinChoosesTheImage()
{
    PreprocessDialog dialog(folderRequest(m_dir->path()));
    dialog.show();
    PreprocessPreview* preview = dialog.preview();
    QVERIFY(previewSettles(preview));
    QVERIFY(preview->sampleSpin()->isEnabled());
    preview->sampleSpin()->setValue(4); // the first image of class b
    QTRY_VERIFY_WITH_TIMEOUT(!preview->isBusy() && preview->sample() == 3, kPreprocessTimeoutMs);
    QCOMPARE(preview->beforeImage().convertToFormat(QImage::Format_Grayscale8),
        fixtures::folderImage(3));
}

void TestPreprocessDialog::loadOpensTheFolderAndRemembersTheSettings()
{
    auto window = facet::testing::makeWindow();
    PreprocessDialog* dialog = window->showPreprocessing(folderRequest(m_dir->path()));
    QVERIFY(dialog->isVisible());
    QVERIFY(previewSettles(dialog->preview()));
    dialog->form()->heightSpin()->setValue(16);
    dialog->form()->widthSpin()->setValue(20);
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    QTest::mouseClick(dialog->loadButton(), Qt::LeftButton);
    QVERIFY(loaded.wait(kPreprocessTimeoutMs));
    QCOMPARE(window->dataset()->samples(), 5);
    QCOMPARE(window->dataset()->height, 16);
    QCOMPARE(window->dataset()->width, 20);
    QCOMPARE(window->dataset()->classCount(), 2);
    QCOMPARE(window->datasetRequest().preprocess.width, 20);

    const DatasetRequest remembered = PreprocessDialog::lastUsedRequest(QStringLiteral("x"));
    QCOMPARE(remembered.preprocess.height, 16);
    QCOMPARE(remembered.preprocess.width, 20);
    // A folder opened by name starts from the remembered settings.
    QCOMPARE(window->requestFor(m_dir->path()).preprocess.width, 20);
}

void TestPreprocessDialog::noFaceImagesAreKeptOrSkipped()
{
    auto window = facet::testing::makeWindow();
    DatasetRequest request = folderRequest(m_dir->path());
    request.preprocess.detectFaces = true;
    request.preprocess.noFace = NoFacePolicy::CenterCrop;
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    QSignalSpy failed(window.get(), &MainWindow::datasetLoadFailed);
    window->openDataset(request);
    QVERIFY(loaded.wait(kPreprocessTimeoutMs));
    QCOMPARE(window->dataset()->samples(), 5); // every image kept, centre-cropped

    DatasetInspector* inspector = window->datasetInspector();
    QVERIFY(inspector->noFaceGroup()->isVisible());
    QCOMPARE(inspector->noFaceList()->count(), 5);
    QVERIFY(window->statusBar()->currentMessage().contains(QStringLiteral("no face")));
    QCoreApplication::processEvents();
    QVERIFY(window->grab().save(
        QDir::current().filePath(QStringLiteral("dataset_inspector_no_face.png"))));

    // Skipping them leaves nothing: the load is refused and the centre-cropped set stays.
    QComboBox* policy = inspector->noFaceBox();
    policy->setFocus();
    QTest::keyClick(policy, Qt::Key_End);
    QVERIFY(failed.wait(kPreprocessTimeoutMs));
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("no face")),
        qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(window->dataset()->samples(), 5);
    QCOMPARE(window->datasetRequest().preprocess.noFace, NoFacePolicy::CenterCrop);
    QCOMPARE(NoFacePolicy(policy->currentData().toInt()), NoFacePolicy::CenterCrop);
    QVERIFY(window->statusBar()->currentMessage().contains(failed.at(0).at(0).toString()));
}

void TestPreprocessDialog::missingPixelsFromTheDataMenu()
{
    // Data > Missing pixels: the dialog's group hides a quarter of ORL's pixels; NMF runs
    // on the observed ones (its log says so) and the Reconstruction view scores the fill-in; CF
    // and the experiment refuse with the reason; the settings do not carry the mask to the next
    // folder; Clear missing pixels loads the data whole again.
    FACET_REQUIRE_DATA(facetDataFile(QStringLiteral("ORL_32x32.mat")));
    auto window = facet::testing::makeWindow();
    QVERIFY(facet::testing::load(*window, facetDataFile(QStringLiteral("ORL_32x32.mat"))));
    auto* missingAction = window->findChild<QAction*>(QStringLiteral("missingPixelsAction"));
    auto* clearAction = window->findChild<QAction*>(QStringLiteral("clearMissingPixelsAction"));
    QVERIFY(missingAction && clearAction);
    QVERIFY(missingAction->isEnabled());
    QVERIFY(!clearAction->isEnabled());
    missingAction->trigger();
    auto* dialog = window->findChild<PreprocessDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    MissingPixelsGroup* group = dialog->form()->missingGroup();
    group->kindBox()->setCurrentIndex(group->kindBox()->findData(int(MissingKind::Pixels)));
    QVERIFY(group->percentSpin()->isVisible());
    QVERIFY(!group->fileEdit()->isVisible());
    group->percentSpin()->setValue(25);
    group->seedSpin()->setValue(2);
    facet::testing::saveScreenshot(*dialog, QStringLiteral("preprocess_missing_pixels.png"));
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    QTest::mouseClick(dialog->loadButton(), Qt::LeftButton);
    QVERIFY(loaded.wait(kPreprocessTimeoutMs));
    QVERIFY(window->dataset()->hasMask());
    QCOMPARE(window->datasetRequest().preprocess.missing.kind, MissingKind::Pixels);
    QCOMPARE(window->datasetRequest().preprocess.missing.amount, 0.25);
    QVERIFY(clearAction->isEnabled());
    QCOMPARE(PreprocessDialog::lastUsedRequest(QStringLiteral("x")).preprocess.missing.kind,
        MissingKind::None);

    ControlPanel* controls = window->controlPanel();
    controls->setMethod(QStringLiteral("nmf"));
    controls->setRank(8);
    controls->setMaxIterations(20);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QSignalSpy failed(window.get(), &MainWindow::runFailed);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, facet::testing::kRunTimeoutMs);
    const std::vector<std::string>& log = window->lastResult()->factorization.log;
    QVERIFY(std::any_of(
        log.begin(), log.end(), [](const std::string& line) { return line.starts_with("mask:"); }));
    QVERIFY(!window->lastSubmittedOptions().params.weights); // the Runs table keeps no copy
    QVERIFY(std::isfinite(window->reconstructionView()->hiddenError()));

    controls->setMethod(QStringLiteral("cf"));
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, facet::testing::kRunTimeoutMs);
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("takes no mask")),
        qPrintable(failed.at(0).at(0).toString()));

    window->experimentView()->start();
    QVERIFY(!window->experimentView()->isRunning());
    const QList<QLabel*> labels = window->experimentView()->findChildren<QLabel*>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel* label) {
        return label->text().contains(QStringLiteral("dataset has missing pixels"));
    }));
    window->showExperiment();
    facet::testing::saveScreenshot(*window, QStringLiteral("main_window_missing_pixels.png"));

    clearAction->trigger();
    QVERIFY(loaded.wait(kPreprocessTimeoutMs));
    QVERIFY(!window->dataset()->hasMask());
    QVERIFY(!clearAction->isEnabled());
}

#include "facet_test.h"
FACET_TEST_MAIN(TestPreprocessDialog)
#include "test_preprocess_dialog.moc"
