// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment view (issue 6): a run on builtin:gaussians fills the table and both plots with
// the job's numbers, Cancel keeps the finished cells, Export writes the CLI's files, and the
// table model passes QAbstractItemModelTester.

#include "data/dataset_source.h"
#include "experiment/experiment_chart.h"
#include "experiment/experiment_form.h"
#include "experiment/experiment_table_model.h"
#include "experiment/experiment_view.h"
#include "experiment/summary.h"
#include "experiment/sweep_json.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "screenshot.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <memory>

using namespace facet;
using namespace Qt::StringLiterals;

namespace {

constexpr int kExperimentTimeoutMs = 120000;

std::shared_ptr<const Dataset> gaussians(DatasetRequest& request)
{
    request.spec = u"builtin:gaussians"_s;
    Result<Dataset> loaded = loadDataset(request);
    if (!loaded)
        return nullptr;
    return std::make_shared<const Dataset>(std::move(*loaded));
}

std::unique_ptr<ExperimentView> makeView(int trials)
{
    auto view = std::make_unique<ExperimentView>();
    DatasetRequest request;
    view->setDataset(gaussians(request), request);
    view->form()->setCheckedMethods({ u"kmeans"_s, u"nmf"_s });
    view->form()->setClusterCounts(u"2-3"_s);
    view->form()->setTrials(trials);
    view->resize(1200, 760);
    view->show();
    return view;
}

QPushButton* button(ExperimentView& view, const char* name)
{
    return view.findChild<QPushButton*>(QString::fromLatin1(name));
}

} // namespace

class TestExperimentView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void runFillsTableAndPlots();
    void cancelKeepsFinishedCells();
    void unlabelledDatasetDisablesStart();
    void mainWindowHasExperimentAction();
    void clickingACellOpensATrialInTheExplorer();
    void formRemembersItsSettings();
    void formSetsTheRankOffsetAndTheScoredSamples();
    void presetFillsTheFormWithAPapersProtocol_data();
    void presetFillsTheFormWithAPapersProtocol();
};

void TestExperimentView::runFillsTableAndPlots()
{
    std::unique_ptr<ExperimentView> view = makeView(2);
    QAbstractItemModelTester tester(
        view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(button(*view, "experimentStart")->isEnabled());
    QSignalSpy finished(view.get(), &ExperimentView::experimentFinished);
    QTest::mouseClick(button(*view, "experimentStart"), Qt::LeftButton);
    QVERIFY(view->isRunning());
    QVERIFY(!button(*view, "experimentStart")->isEnabled());
    QVERIFY(finished.wait(kExperimentTimeoutMs) || finished.count() == 1);
    QCOMPARE(finished.at(0).at(1).toBool(), false);
    QCOMPARE(int(view->trials().size()), 2 * 2 * 2); // methods x c x trials
    QVERIFY(button(*view, "experimentStart")->isEnabled());
    QVERIFY(button(*view, "experimentExport")->isEnabled());

    // One row per c plus the average row; the means are the summary of the job's trials.
    const ExperimentTableModel* model = view->model();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->columnCount(), 4); // AC and NMI of kmeans and nmf
    const SweepSummary expected = summarize(view->options(), view->trials());
    for (int row = 0; row < 2; ++row) {
        QCOMPARE(model->headerData(row, Qt::Vertical).toString(), u"c = %1"_s.arg(row + 2));
        for (int column = 0; column < 4; ++column) {
            const MetricStats& stats = expected.cells[std::size_t(row)][std::size_t(column % 2)];
            const MeanStd& m = column < 2 ? stats.ac : stats.nmi;
            const QModelIndex index = model->index(row, column);
            QCOMPARE(index.data(ExperimentTableModel::MeanRole).toDouble(), m.mean);
            QCOMPARE(index.data(ExperimentTableModel::CountRole).toInt(), 2);
            QVERIFY(index.data().toString().contains(u"±"_s));
        }
        // Exactly the best of each metric is bold.
        for (Metric metric : { Metric::Accuracy, Metric::Nmi }) {
            const std::vector<int> best = expected.best(metric, row);
            for (int series = 0; series < 2; ++series) {
                const int column = (metric == Metric::Accuracy ? 0 : 2) + series;
                const QVariant font = model->index(row, column).data(Qt::FontRole);
                const bool bold = font.isValid() && font.value<QFont>().bold();
                QCOMPARE(bold, std::find(best.begin(), best.end(), series) != best.end());
            }
        }
    }
    QCOMPARE(model->headerData(2, Qt::Vertical).toString(), u"Avg."_s);

    // One graph per method, one point per c.
    for (Metric metric : { Metric::Accuracy, Metric::Nmi }) {
        QCustomPlot* plot = view->chart(metric)->plot();
        QCOMPARE(plot->graphCount(), 2);
        for (int g = 0; g < 2; ++g) {
            QCOMPARE(plot->graph(g)->dataCount(), 2);
            // At c = 2, moved a little aside (each method its own way) so error bars do not
            // overlap.
            QCOMPARE(qRound(plot->graph(g)->data()->at(0)->key), 2);
            const double mean = expected.cells[0][std::size_t(g)].of(metric).mean;
            QCOMPARE(plot->graph(g)->data()->at(0)->value, 100 * mean);
        }
        QCOMPARE(plot->graph(0)->name(), QString::fromStdString(view->options().methods[0]));
    }

    // Export writes the CLI's files.
    QTemporaryDir dir;
    QString error;
    QVERIFY2(view->exportTo(dir.path(), &error), qPrintable(error));
    for (const char* name : { "results.json", "results.csv", "table.md", "summary.csv",
             "summary.json", "ac.png", "nmi.pdf" })
        QVERIFY2(QFile::exists(QDir(dir.path()).filePath(QString::fromLatin1(name))), name);
    // The equivalent command line is recorded, so facet-cli can --resume a GUI experiment.
    const Result<SweepFile> written = readSweepFile(QDir(dir.path()).filePath(u"results.json"_s));
    QVERIFY2(written, qPrintable(written ? QString() : written.error()));
    QCOMPARE(written->arguments.value(0), u"sweep"_s);
    QStringList methods;
    for (const std::string& m : view->options().methods)
        methods << QString::fromStdString(m);
    QCOMPARE(methods.size(), 2);
    const QString line = written->arguments.join(u' ');
    QVERIFY2(line.contains(u"--methods "_s + methods.join(u',')), qPrintable(line));
    QVERIFY2(line.contains(u"--clusters 2,3 --trials 2"_s), qPrintable(line));

    QCoreApplication::processEvents();
    const QString png = QDir::current().filePath(u"experiment_view.png"_s);
    QVERIFY(view->grab().save(png, "PNG"));
}

void TestExperimentView::cancelKeepsFinishedCells()
{
    // 40,000 cells of builtin:gaussians take seconds; cancelled at the first one shown.
    std::unique_ptr<ExperimentView> view = makeView(10000);
    QAbstractItemModelTester tester(
        view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy finished(view.get(), &ExperimentView::experimentFinished);
    QPushButton* cancel = button(*view, "experimentCancel");
    connect(view->model(), &QAbstractItemModel::dataChanged, cancel, [cancel] {
        if (cancel->isEnabled())
            QTest::mouseClick(cancel, Qt::LeftButton);
    });
    view->start();
    QVERIFY(finished.wait(kExperimentTimeoutMs) || finished.count() == 1);
    QCOMPARE(finished.at(0).at(1).toBool(), true);
    const int kept = int(view->trials().size());
    QVERIFY(kept >= 1);
    QVERIFY(kept < view->cellsPlanned());
    QVERIFY(button(*view, "experimentStart")->isEnabled());
    QVERIFY(!button(*view, "experimentCancel")->isEnabled());
    int counted = 0;
    for (int column = 0; column < view->model()->columnCount() / 2; ++column)
        for (int row = 0; row < view->model()->rowCount() - 1; ++row)
            counted
                += view->model()->index(row, column).data(ExperimentTableModel::CountRole).toInt();
    QCOMPARE(counted, kept);
    // Nothing arrives after the end.
    QTest::qWait(200);
    QCOMPARE(int(view->trials().size()), kept);
}

void TestExperimentView::unlabelledDatasetDisablesStart()
{
    ExperimentView view;
    QVERIFY(!button(view, "experimentStart")->isEnabled());
    DatasetRequest request;
    auto data = std::make_shared<Dataset>(*gaussians(request));
    data->labels.clear();
    data->classNames.clear();
    view.setDataset(data, request);
    QVERIFY(!button(view, "experimentStart")->isEnabled());
    QVERIFY(!view.form()->isEnabled());
    QVERIFY(view.findChild<QLabel*>(u"experimentNotice"_s)->text().contains(u"no labels"_s));
    view.start(); // ignored
    QVERIFY(!view.isRunning());
}

void TestExperimentView::mainWindowHasExperimentAction()
{
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    QAction* action = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == u"&Experiment..."_s)
            action = a;
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openDataset(u"builtin:gaussians"_s);
    QVERIFY(loaded.wait(30000) || loaded.count() == 1);
    action->trigger();
    QVERIFY(window.experimentView()->isVisible());
    QVERIFY(window.experimentView()->canStart());
}

void TestExperimentView::clickingACellOpensATrialInTheExplorer()
{
    auto window = facet::testing::makeWindow();
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    window->openDataset(u"builtin:gaussians"_s);
    QVERIFY(loaded.wait(30000) || loaded.count() == 1);
    ExperimentView* view = window->experimentView();
    window->showExperiment();
    view->form()->setCheckedMethods({ u"nmf"_s, u"lcf"_s });
    view->form()->setClusterCounts(u"2-3"_s);
    view->form()->setTrials(3);
    QSignalSpy finished(view, &ExperimentView::experimentFinished);
    QTest::mouseClick(button(*view, "experimentStart"), Qt::LeftButton);
    QVERIFY(finished.wait(kExperimentTimeoutMs) || finished.count() == 1);
    // The explorer moves on to another set; the experiment's trials still come from its own.
    window->openDataset(u"builtin:bars"_s);
    QVERIFY(loaded.wait(30000) || loaded.count() == 2);
    QCOMPARE(window->datasetRequest().spec, u"builtin:bars"_s);

    // The lcf column of c = 3 (AC columns: nmf, lcf): a click pops up its three trials.
    const QModelIndex cell = view->model()->index(1, 1);
    const std::vector<TrialResult> trials = view->trialsAt(cell);
    QCOMPARE(int(trials.size()), 3);
    QCOMPARE(trials[1].cell.method, std::string("lcf"));
    QCOMPARE(trials[1].cell.clusters, 3);
    QTableView* table = view->table();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QMenu* menu = view->trialMenu();
    QVERIFY(menu);
    QTRY_VERIFY(menu->isVisible());
    QList<QAction*> actions = menu->actions();
    QCOMPARE(actions.size(), 1 + 3); // a title, then one entry per trial
    QVERIFY(actions[2]->text().startsWith(u"Trial 2: AC"_s));
    QCoreApplication::processEvents(); // the charts' queued replot of the last cells
    QVERIFY(view->grab().save(QDir::current().filePath(u"experiment_trial_menu.png"_s)));

    QSignalSpy ran(window.get(), &MainWindow::runFinished);
    actions[2]->trigger();
    QVERIFY(ran.wait(kExperimentTimeoutMs) || ran.count() == 1);
    // The explorer now shows that trial: its classes' samples, and the cell's exact numbers.
    const RunResult& result = *window->lastResult();
    QCOMPARE(int(window->dataset()->samples()), trials[1].samples);
    QCOMPARE(window->dataset()->classCount(), 3);
    QCOMPARE(window->datasetRequest().spec, u"builtin:gaussians"_s); // what a report records
    QCOMPARE(window->lastSubmittedOptions().driver.seed,
        cellRunOptions(view->options(), trials[1].cell, trials[1].subrun).driver.seed);
    QCOMPARE(result.factorization.history.back(), trials[1].objective);
    QCOMPARE(*result.ac, trials[1].ac);
    QCOMPARE(*result.nmi, trials[1].nmi);
    // The experiment kept its results. (It cannot start again: a new one would run on the
    // explorer's set when it was started, unlabelled Bars.)
    QCOMPARE(int(view->trials().size()), 2 * 2 * 3);
    QVERIFY(!view->canStart());
}

// METHODS.md 6, semi-supervised: "rank k = c or c + 1; evaluate on all samples or on unlabeled
// samples only" (facet-cli sweep --rank-offset, --evaluate), which the form did not offer.
// The form as the user left it comes back at the next start (QSettings group "experiment"), the
// preset with it; the cluster counts follow the dataset, and an iteration limit that is the
// Controls' default keeps following it.
void TestExperimentView::formRemembersItsSettings()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSettings settings(dir.filePath(u"facet.ini"_s), QSettings::IniFormat);
    ExperimentForm fresh;
    fresh.restoreSettings(settings); // nothing saved: the defaults stay
    fresh.setClassCount(15);
    QString error;
    const std::optional<ExperimentOptions> defaults = fresh.options(&error);
    QVERIFY2(defaults, qPrintable(error));

    ExperimentForm first;
    first.setClassCount(15);
    QVERIFY(first.choosePreset(u"cnmf"_s));
    first.setTrials(7);
    first.setMaxIterations(1234);
    first.findChild<QComboBox*>(u"experimentAlgorithm"_s)->setCurrentText(u"mu-ex"_s);
    first.findChild<QLineEdit*>(u"experimentMethodParameters"_s)->setText(u"lambda=10"_s);
    first.findChild<QCheckBox*>(u"experimentUnlabeledOnly"_s)->setChecked(true);
    const std::optional<ExperimentOptions> left = first.options(&error);
    QVERIFY2(left, qPrintable(error));
    first.saveSettings(settings);

    ExperimentForm second;
    second.restoreSettings(settings);
    second.setClassCount(15);
    const std::optional<ExperimentOptions> back = second.options(&error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(
        second.findChild<QComboBox*>(u"experimentPreset"_s)->currentData().toString(), u"cnmf"_s);
    QCOMPARE(back->methods, left->methods);
    QCOMPARE(back->trials, 7);
    QCOMPARE(back->labeledPerClass, left->labeledPerClass);
    QVERIFY(back->labeledPerClass > 0); // the CNMF paper's 2 per class
    QCOMPARE(back->evaluate, EvaluateOn::Unlabeled);
    QCOMPARE(back->base.driver.maxIter, 1234);
    QCOMPARE(back->base.params.algorithm, left->base.params.algorithm);
    QCOMPARE(back->base.params.lambda, std::optional<double>(10));
    QCOMPARE(back->clusterCounts, defaults->clusterCounts);
    QVERIFY(back->trials != defaults->trials && back->methods != defaults->methods);

    // The iteration limit left at the Controls' default is not pinned: it follows a new default.
    ExperimentForm third;
    third.setDefaultMaxIterations(500);
    third.saveSettings(settings);
    ExperimentForm fourth;
    fourth.restoreSettings(settings);
    fourth.setDefaultMaxIterations(800);
    fourth.setClassCount(15);
    const std::optional<ExperimentOptions> followed = fourth.options(&error);
    QVERIFY2(followed, qPrintable(error));
    QCOMPARE(followed->base.driver.maxIter, 800);
}

void TestExperimentView::formSetsTheRankOffsetAndTheScoredSamples()
{
    ExperimentForm form;
    form.setClassCount(4);
    form.setCheckedMethods({ u"cnmf"_s });
    auto* protocol = form.findChild<QComboBox*>(u"experimentProtocol"_s);
    auto* offset = form.findChild<QComboBox*>(u"experimentRankOffset"_s);
    auto* unlabeled = form.findChild<QCheckBox*>(u"experimentUnlabeledOnly"_s);
    QVERIFY(protocol && offset && unlabeled);
    QString error;
    std::optional<ExperimentOptions> o = form.options(&error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->rankOffset, 0);
    QCOMPARE(o->evaluate, EvaluateOn::All);
    offset->setCurrentIndex(1);
    protocol->setCurrentIndex(1); // semi-supervised
    unlabeled->setChecked(true);
    o = form.options(&error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->rankOffset, 1);
    QCOMPARE(o->evaluate, EvaluateOn::Unlabeled);
    QCOMPARE(o->labeledFraction, 0.3);
    // A sweep over the rank sets k itself: the offset is off and not applied.
    protocol->setCurrentIndex(2);
    auto* parameter = form.findChild<QComboBox*>(u"experimentParameter"_s);
    auto* grid = form.findChild<QLineEdit*>(u"experimentGrid"_s);
    QVERIFY(parameter && grid);
    parameter->setCurrentText(u"rank"_s);
    QVERIFY(!offset->isEnabled());
    form.setCheckedMethods({ u"nmf"_s });
    grid->setText(u"2, 3"_s);
    o = form.options(&error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->rankOffset, 0);
    QCOMPARE(o->evaluate, EvaluateOn::All);
}

// Issue 39: "Preset" puts a paper's protocol (resources/papers/<paper>.json, the sweep that
// facet-cli reproduce runs) into the fields, and the note says whether the loaded data is the
// paper's; the data itself stays.
void TestExperimentView::presetFillsTheFormWithAPapersProtocol_data()
{
    QTest::addColumn<QString>("paper");
    QTest::addColumn<QStringList>("methods");
    QTest::addColumn<QString>("parameters");
    QTest::addColumn<int>("subruns");
    QTest::addColumn<int>("rankOffset");
    QTest::addColumn<double>("labeledFraction");
    QTest::addColumn<int>("labeledPerClass");
    QTest::addColumn<bool>("unlabeledOnly");
    QTest::newRow("lcf") << u"lcf"_s << QStringList { u"kmeans"_s, u"nmf"_s, u"cf"_s, u"lcf"_s }
                         << u"lambda=0.3"_s << 10 << 0 << 0.0 << 0 << false;
    QTest::newRow("cnmf") << u"cnmf"_s
                          << QStringList { u"nmf"_s, u"gnmf"_s, u"semignmf"_s, u"cnmf"_s }
                          << u"ncw"_s << 1 << 0 << 0.0 << 2 << false;
    QTest::newRow("ccf") << u"ccf"_s
                         << QStringList { u"kmeans"_s, u"nmf"_s, u"cf"_s, u"semignmf"_s, u"ccf"_s }
                         << u"cosine"_s << 1 << 1 << 0.3 << 0 << true;
}

void TestExperimentView::presetFillsTheFormWithAPapersProtocol()
{
    QFETCH(QString, paper);
    QFETCH(QStringList, methods);
    QFETCH(QString, parameters);
    QFETCH(int, subruns);
    QFETCH(int, rankOffset);
    QFETCH(double, labeledFraction);
    QFETCH(int, labeledPerClass);
    QFETCH(bool, unlabeledOnly);
    ExperimentForm form;
    form.setClassCount(15);
    form.setDatasetSource(u"builtin:gaussians"_s, u"Gaussians"_s);
    auto* preset = form.findChild<QComboBox*>(u"experimentPreset"_s);
    auto* note = form.findChild<QLabel*>(u"experimentPresetNote"_s);
    auto* list = form.findChild<QListWidget*>(u"experimentMethods"_s);
    auto* params = form.findChild<QLineEdit*>(u"experimentMethodParameters"_s);
    QVERIFY(preset && note && list && params);
    QCOMPARE(preset->itemText(0), u"None"_s);
    QVERIFY(preset->findData(paper) > 0);
    preset->setCurrentIndex(preset->findData(paper)); // as a user's choice in the list
    QStringList checked;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            checked << list->item(i)->text();
    checked.sort();
    methods.sort();
    QCOMPARE(checked, methods);
    QCOMPARE(params->text(), parameters);
    QString error;
    const std::optional<ExperimentOptions> o = form.options(&error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->clusterCounts, (std::vector<int> { 2, 3, 4, 5, 6, 7, 8, 9, 10 }));
    QCOMPARE(o->trials, 10);
    QCOMPARE(o->subruns, subruns);
    QCOMPARE(
        o->selection, paper == u"lcf" ? SubrunSelection::Accuracy : SubrunSelection::Objective);
    QCOMPARE(o->rankOffset, rankOffset);
    QCOMPARE(o->labeledFraction, labeledFraction);
    QCOMPARE(o->labeledPerClass, labeledPerClass);
    QCOMPARE(o->evaluate == EvaluateOn::Unlabeled, unlabeledOnly);
    QVERIFY(o->base.params.algorithm == Algorithm::Mu);
    QCOMPARE(o->base.cluster.cosine, paper == u"ccf");
    QCOMPARE(o->base.params.ncw, paper == u"cnmf");
    // Not the paper's data: the note says so, and names the files it ran on.
    QVERIFY(note->isVisibleTo(&form));
    QVERIFY2(note->text().contains(u"The loaded dataset, Gaussians, is not the paper's"_s),
        qPrintable(note->text()));
    QVERIFY2(note->text().contains(u"Yale_32x32.mat"_s), qPrintable(note->text()));
    // The paper's data file: the note names it as such.
    form.setDatasetSource(u"/data/Yale_32x32.mat"_s, u"Yale_32x32"_s);
    QVERIFY2(note->text().contains(u"The loaded Yale_32x32.mat is its Yale data"_s),
        qPrintable(note->text()));
    if (paper == u"lcf") {
        form.setDatasetSource(u"builtin:gaussians"_s, u"Gaussians"_s);
        // The height the wrapped note needs at this width (sizeHint's is for another width, and
        // the spare height spread between the rows).
        form.resize(
            460, form.hasHeightForWidth() ? form.heightForWidth(460) : form.sizeHint().height());
        form.show();
        facet::testing::saveScreenshot(form, u"experiment_form_preset.png"_s);
    }
    // None keeps the fields and hides the note.
    QVERIFY(form.choosePreset(QString()));
    QVERIFY(!note->isVisibleTo(&form));
    QCOMPARE(params->text(), parameters);
    QVERIFY(!form.choosePreset(u"lccf"_s)); // its protocol cannot run: no preset
}

#include "facet_test.h"
FACET_TEST_MAIN(TestExperimentView)
#include "test_experiment_view.moc"
