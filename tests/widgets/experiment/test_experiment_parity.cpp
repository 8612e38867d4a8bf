// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 37, item 7: the experiment view offers what `facet-cli sweep` does. Its form takes the
// iteration limit (following the explorer's Controls), the algorithm and the method parameters;
// the table says how many trials stopped at the limit and shows table.md's Wilcoxon tests;
// Export creates a folder that does not exist yet; the methods' error bars do not overlap.

#include "controls/control_panel.h"
#include "data/dataset_source.h"
#include "experiment/experiment_chart.h"
#include "experiment/experiment_form.h"
#include "experiment/experiment_table_model.h"
#include "experiment/experiment_tests_model.h"
#include "experiment/experiment_view.h"
#include "experiment/sweep_json.h"
#include "experiment/sweep_table.h"
#include "main_window/main_window.h"
#include "screenshot.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <memory>

using namespace facet;
using namespace Qt::StringLiterals;

namespace {

constexpr int kTimeoutMs = 120000;
constexpr int kMaxIter = 4; // NMF on Gaussians does not converge in 4 iterations

template <class T> T* child(QWidget& parent, const char* name)
{
    return parent.findChild<T*>(QString::fromLatin1(name));
}

// k-means and NMF on builtin:gaussians, c = 2, 3, three trials, NMF stopped after kMaxIter
// iterations by the form's own field: 12 short cells.
std::unique_ptr<ExperimentView> runShortExperiment()
{
    auto view = std::make_unique<ExperimentView>();
    DatasetRequest request;
    request.spec = u"builtin:gaussians"_s;
    Result<Dataset> loaded = loadDataset(request);
    if (!loaded)
        return nullptr;
    view->setDataset(std::make_shared<const Dataset>(std::move(*loaded)), request);
    view->form()->setCheckedMethods({ u"kmeans"_s, u"nmf"_s });
    view->form()->setClusterCounts(u"2-3"_s);
    view->form()->setTrials(3);
    view->form()->setMaxIterations(kMaxIter);
    view->resize(1200, 760);
    view->show();
    QSignalSpy finished(view.get(), &ExperimentView::experimentFinished);
    view->start();
    if (!finished.wait(kTimeoutMs) && finished.isEmpty())
        return nullptr;
    return view;
}

} // namespace

class TestExperimentParity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void formTakesTheSweepsRunOptions();
    void formFollowsTheControlsIterationLimit();
    void tableCountsTrialsAtTheLimitAndShowsTheWilcoxonTests();
    void errorBarsOfNeighbouringMethodsAreOffset();
    void exportCreatesANewFolder();
};

// Max iterations, algorithm and method parameters reach the experiment's options, which the
// dialog did not offer (a run used 3000 iterations whatever was asked for).
void TestExperimentParity::formTakesTheSweepsRunOptions()
{
    ExperimentForm form;
    form.setClassCount(4);
    form.setCheckedMethods({ u"nmf"_s, u"gnmf"_s });
    auto* maxIter = child<QSpinBox>(form, "experimentMaxIterations");
    auto* algorithm = child<QComboBox>(form, "experimentAlgorithm");
    auto* parameters = child<QLineEdit>(form, "experimentMethodParameters");
    QVERIFY(maxIter && algorithm && parameters);
    QString error;
    std::optional<ExperimentOptions> o = form.options(&error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->base.driver.maxIter, kDefaultMaxIterations);
    QVERIFY(!o->base.params.algorithm); // each method's default
    QVERIFY(!o->base.params.lambda);

    maxIter->setValue(20);
    algorithm->setCurrentText(u"hals"_s);
    parameters->setText(u"lambda=10, p=3, weight=heat"_s);
    o = form.options(&error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->base.driver.maxIter, 20);
    QCOMPARE(o->base.driver.minIter, 20); // the driver would otherwise run 30
    QCOMPARE(o->base.params.algorithm, std::optional(Algorithm::Hals));
    QCOMPARE(o->base.params.lambda, std::optional(10.0));
    QCOMPARE(o->base.params.p, 3);
    QCOMPARE(o->base.params.weight, GraphWeight::Heat);

    // What no cell could run is refused before the first one: a wrong name, or an algorithm a
    // checked method has no route for.
    parameters->setText(u"lamda=10"_s);
    QVERIFY(!form.options(&error));
    QVERIFY2(error.contains(u"lamda"_s), qPrintable(error));
    parameters->clear();
    form.setCheckedMethods({ u"kmeans"_s, u"cf"_s });
    QVERIFY(!form.options(&error));
    QVERIFY2(error.contains(u"hals"_s), qPrintable(error));
    algorithm->setCurrentText(u"mu"_s);
    QVERIFY2(form.options(&error), qPrintable(error));
    // Shown first: a spin box fills its text when shown, and the seed's 0 was never set.
    form.show();
    QVERIFY(QTest::qWaitForWindowExposed(&form));
    facet::testing::saveScreenshot(form, u"experiment_form.png"_s);
}

// Opened from the explorer, the form starts from the Controls' iteration limit (the dialog ran
// 3000 iterations while Controls said 1,500); a limit set in the form itself stays.
void TestExperimentParity::formFollowsTheControlsIterationLimit()
{
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.controlPanel()->setMaxIterations(1500);
    window.showExperiment();
    auto* maxIter = child<QSpinBox>(*window.experimentView(), "experimentMaxIterations");
    QVERIFY(maxIter);
    QCOMPARE(maxIter->value(), 1500);
    window.controlPanel()->setMaxIterations(700);
    window.showExperiment();
    QCOMPARE(maxIter->value(), 700);
    maxIter->setValue(250);
    window.controlPanel()->setMaxIterations(900);
    window.showExperiment();
    QCOMPARE(maxIter->value(), 250);
}

void TestExperimentParity::tableCountsTrialsAtTheLimitAndShowsTheWilcoxonTests()
{
    std::unique_ptr<ExperimentView> view = runShortExperiment();
    QVERIFY(view);
    QCOMPARE(int(view->trials().size()), 2 * 2 * 3);
    QCOMPARE(view->options().base.driver.maxIter, kMaxIter);
    int stopped = 0;
    for (const TrialResult& t : view->trials()) {
        if (t.cell.method == "nmf")
            QVERIFY(t.iterations <= kMaxIter);
        stopped += t.stopReason == StopReason::MaxIterations ? 1 : 0;
    }
    QVERIFY(stopped > 0);

    // The limit count per cell: AC columns kmeans, nmf; rows c = 2, 3, Avg.
    const ExperimentTableModel* model = view->model();
    int shown = 0;
    for (int column = 0; column < 2; ++column) {
        for (int row = 0; row < 2; ++row) {
            const QModelIndex index = model->index(row, column);
            const int limited = index.data(ExperimentTableModel::LimitRole).toInt();
            int expected = 0;
            for (const TrialResult& t : view->trials())
                expected += t.cell.method == view->options().methods[std::size_t(column)]
                        && t.cell.clusters == row + 2 && t.stopReason == StopReason::MaxIterations
                    ? 1
                    : 0;
            QCOMPARE(limited, expected);
            shown += limited;
            QCOMPARE(index.data().toString().contains(u"at limit"_s), limited > 0);
            if (limited > 0)
                QVERIFY2(index.data(Qt::ToolTipRole).toString().contains(u"iteration limit"_s),
                    qPrintable(index.data(Qt::ToolTipRole).toString()));
        }
    }
    QCOMPARE(shown, stopped);
    QVERIFY(view->findChild<QLabel*>(u"experimentStatus"_s)
                ->text()
                .contains(u"stopped at the iteration limit"_s));

    // The Wilcoxon tests are table.md's: every cell reads as there.
    ExperimentTestsModel* tests = view->testsModel();
    QAbstractItemModelTester tester(tests, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(tests->rowCount(), 2 + 1); // c = 2, 3 and all
    QCOMPARE(tests->columnCount(), 2); // AC and NMI: the other method vs the best
    const SweepSummary summary = summarize(view->options(), view->trials());
    const QString table = markdownTable(summary, view->options(), view->trials(), TableContext {});
    for (int column = 0; column < 2; ++column) {
        const Metric metric = column == 0 ? Metric::Accuracy : Metric::Nmi;
        const SeriesComparison c
            = sweepComparisons(summary, view->options(), view->trials(), metric).at(0);
        QVERIFY(tests->headerData(column, Qt::Horizontal).toString().contains(u" vs "_s));
        for (int row = 0; row < 3; ++row) {
            const PairedTest& p = row < 2 ? c.perClusters[std::size_t(row)] : c.overall;
            const QString text = tests->index(row, column).data().toString();
            QCOMPARE(text, pairedTestText(p));
            QVERIFY2(text.contains(u"p "_s), qPrintable(text));
            QVERIFY2(table.contains(u" "_s + text + u" |"_s), qPrintable(text));
            QCOMPARE(tests->index(row, column).data(ExperimentTestsModel::PValueRole).toDouble(),
                p.test.pValue);
        }
    }
    facet::testing::saveScreenshot(*view, u"experiment_limit_table.png"_s);
    view->resultTabs()->setCurrentWidget(view->testsTable());
    facet::testing::saveScreenshot(*view, u"experiment_wilcoxon_table.png"_s);
}

// Each method's points sit a little beside the true c, symmetric around it, so the error bars
// of neighbouring methods do not cover each other; the ticks stay at the cluster counts.
void TestExperimentParity::errorBarsOfNeighbouringMethodsAreOffset()
{
    std::unique_ptr<ExperimentView> view = runShortExperiment();
    QVERIFY(view);
    for (Metric metric : { Metric::Accuracy, Metric::Nmi }) {
        QCustomPlot* plot = view->chart(metric)->plot();
        QCOMPARE(plot->graphCount(), 2);
        for (int i = 0; i < 2; ++i) {
            const double c = 2 + i;
            const double left = plot->graph(0)->data()->at(i)->key;
            const double right = plot->graph(1)->data()->at(i)->key;
            QVERIFY2(left < c && c < right, qPrintable(u"%1 %2"_s.arg(left).arg(right)));
            QVERIFY(std::abs(left + right - 2 * c) < 1e-12);
            QVERIFY(right - left < 0.5);
        }
        auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().keys(), QList<double>({ 2.0, 3.0 }));
    }
    // The bars follow their points.
    const auto bars = view->chart(Metric::Accuracy)->plot()->findChildren<QCPErrorBars*>();
    QCOMPARE(bars.size(), 2);
    facet::testing::saveScreenshot(*view->chart(Metric::Accuracy), u"experiment_error_bars.png"_s);
}

// Export's folder chooser refused a folder typed in that did not exist ("Directory not found");
// now the folder is created, as `facet-cli sweep --out` does, and a path that cannot be a folder
// gets a message naming what is in the way.
void TestExperimentParity::exportCreatesANewFolder()
{
    std::unique_ptr<ExperimentView> view = runShortExperiment();
    QVERIFY(view);
    QTemporaryDir root;
    QStringList warnings;
    bool typed = false;
    QTimer driver;
    connect(&driver, &QTimer::timeout, &driver, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            warnings << box->text();
            box->reject();
        } else if (auto* dialog = qobject_cast<QFileDialog*>(modal)) {
            if (typed) {
                dialog->reject(); // it did not take the new name
                return;
            }
            typed = true;
            dialog->setDirectory(root.path());
            auto* name = dialog->findChild<QLineEdit*>(u"fileNameEdit"_s);
            QVERIFY(name);
            name->setText(u"new/experiment"_s);
            // Queued, as the Choose button's click: a warning box it may open runs an event
            // loop of its own, in which this timer must fire again to close it.
            QTimer::singleShot(0, dialog, [dialog] { static_cast<QDialog*>(dialog)->accept(); });
        }
    });
    driver.start(50);
    QTest::mouseClick(child<QPushButton>(*view, "experimentExport"), Qt::LeftButton);
    driver.stop();
    QVERIFY(typed);
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u"; "_s)));
    const QString folder = QDir(root.path()).filePath(u"new/experiment"_s);
    QVERIFY(QFile::exists(QDir(folder).filePath(u"results.json"_s)));
    QVERIFY(QFile::exists(QDir(folder).filePath(u"table.md"_s)));
    // The recorded command line carries the form's iteration limit.
    const Result<SweepFile> written = readSweepFile(QDir(folder).filePath(u"results.json"_s));
    QVERIFY(written);
    QVERIFY2(written->arguments.join(u' ').contains(u"--max-iter %1"_s.arg(kMaxIter)),
        qPrintable(written->arguments.join(u' ')));

    QFile file(QDir(root.path()).filePath(u"plain"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    QString error;
    QVERIFY(!view->exportTo(QDir(file.fileName()).filePath(u"sub"_s), &error));
    QVERIFY2(error.contains(u"is a file"_s) && error.contains(u"plain"_s), qPrintable(error));
}

#include "facet_test.h"
FACET_TEST_MAIN(TestExperimentParity)
#include "test_experiment_parity.moc"
