// SPDX-License-Identifier: GPL-3.0-or-later
// The run history view on runs made by real solves: the buttons follow the selection, Delete,
// Rename (inline editor), Re-run and Compare are clicked on the real buttons, the comparison
// shows the chosen runs' headers, basis images and overlaid curves, and Export CSV goes through
// the real file dialog.
#include "common/image_grid.h"
#include "models/run_history_model.h"
#include "run_record_fixtures.h"
#include "runs/run_comparison_view.h"
#include "runs/run_history_view.h"
#include "runs/run_params_text.h"
#include "screenshot.h"
#include "session/run_csv.h"
#include "session/session.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>
#include <qcustomplot.h>

#include <memory>

using namespace facet;
using facet::testing::saveScreenshot;
using namespace Qt::StringLiterals;

namespace {

void selectRows(RunHistoryView& view, const QList<int>& rows)
{
    QItemSelectionModel* selection = view.table()->selectionModel();
    selection->clearSelection();
    for (int row : rows)
        selection->select(
            view.model()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

QStringList names(const RunHistoryModel& model)
{
    QStringList list;
    for (const RunRecord& r : model.runs())
        list << r.name;
    return list;
}

// Fills in and accepts the next file dialog once it is open (it runs its own event loop).
void answerNextFileDialog(const QString& path)
{
    QTimer::singleShot(0, [path] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->selectFile(path);
        static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept is protected
    });
}

} // namespace

class TestRunHistory : public QObject {
    Q_OBJECT

    Dataset m_data;
    std::unique_ptr<RunHistoryModel> m_model;
    std::unique_ptr<RunHistoryView> m_view;

private Q_SLOTS:
    void init()
    {
        m_data = fixtures::labelledBars();
        m_model = std::make_unique<RunHistoryModel>();
        m_view = std::make_unique<RunHistoryView>(m_model.get());
        m_view->resize(820, 260);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        m_model->addRun(fixtures::solvedRecord(m_data, "nmf", 3, 1, u"NMF baseline"_s));
        m_model->addRun(fixtures::solvedRecord(m_data, "cf", 3, 2, u"CF"_s));
        RunRecord gnmf = fixtures::solvedRecord(m_data, "gnmf", 4, 3, {});
        m_model->addRun(gnmf);
    }

    void cleanup()
    {
        m_view.reset();
        m_model.reset();
    }

    void buttonsFollowTheSelection()
    {
        QCOMPARE(m_view->table()->model()->rowCount(), 3);
        QVERIFY(!m_view->deleteButton()->isEnabled());
        QVERIFY(!m_view->compareButton()->isEnabled());
        QVERIFY(m_view->exportButton()->isEnabled());
        selectRows(*m_view, { 1 });
        QVERIFY(m_view->deleteButton()->isEnabled());
        QVERIFY(m_view->renameButton()->isEnabled());
        QVERIFY(m_view->rerunButton()->isEnabled());
        QVERIFY(!m_view->compareButton()->isEnabled());
        selectRows(*m_view, { 0, 2 });
        QVERIFY(m_view->compareButton()->isEnabled());
        QVERIFY(!m_view->renameButton()->isEnabled());
        m_model->addRun(fixtures::solvedRecord(m_data, "nmf", 2, 4));
        m_model->addRun(fixtures::solvedRecord(m_data, "nmf", 2, 5));
        selectRows(*m_view, { 0, 1, 2, 3, 4 });
        QVERIFY(!m_view->compareButton()->isEnabled()); // five is more than fit side by side
        // The params column shows what the method reads: GNMF's lambda (default 100) and p.
        QCOMPARE(m_model->index(2, RunHistoryModel::ParamsColumn).data().toString(),
            u"k=4, λ=100, p=5"_s);
    }

    void columnsKeepTheirContentsWidths()
    {
        // In a window wider than the columns, the last one (Time, right-aligned) keeps its
        // contents' width next to the others instead of stretching to the far edge.
        m_view->resize(1600, 260);
        QCoreApplication::processEvents();
        QHeaderView* header = m_view->table()->horizontalHeader();
        const int last = header->count() - 1;
        QTRY_VERIFY(header->length() < m_view->table()->viewport()->width());
        const int width = header->sectionSize(last);
        m_view->table()->resizeColumnToContents(last);
        QCOMPARE(header->sectionSize(last), width);
    }

    void tableFollowsTheNewestRun()
    {
        // A dock a few rows high: each new run scrolls into view, as a tuning gesture adds them.
        m_view->resize(820, 140);
        QTableView* table = m_view->table();
        for (int i = 0; i < 12; ++i) {
            m_model->addRun(fixtures::solvedRecord(m_data, "nmf", 2, 10 + std::uint64_t(i)));
            QCoreApplication::processEvents();
            const QRect newest = table->visualRect(m_model->index(m_model->rowCount() - 1, 0));
            QVERIFY2(table->viewport()->rect().contains(newest),
                qPrintable(u"row %1 is outside the view"_s.arg(m_model->rowCount())));
        }
        QVERIFY(table->visualRect(m_model->index(0, 0)).bottom() < 0); // it did scroll
    }

    void columnsFitRunsOpenedAllAtOnce()
    {
        // A session's runs replace the model at once: the columns fit them (issue 37: they
        // came back at the empty table's widths, "NM…").
        RunHistoryModel model;
        RunHistoryView view(&model);
        view.resize(820, 260);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        std::vector<RunRecord> runs;
        runs.push_back(fixtures::solvedRecord(
            m_data, "gnmf", 3, 1, u"GNMF k=3 λ=31.6, p=7, warm start from the session"_s));
        runs.push_back(fixtures::solvedRecord(m_data, "nmf", 2, 2));
        model.setRuns(std::move(runs));
        QCoreApplication::processEvents();
        QHeaderView* header = view.table()->horizontalHeader();
        const QAbstractItemView* table = view.table(); // sizeHintForColumn is public here
        for (int column = 0; column < header->count(); ++column)
            QVERIFY2(header->sectionSize(column) >= table->sizeHintForColumn(column),
                qPrintable(u"column %1: %2 < %3"_s.arg(column)
                               .arg(header->sectionSize(column))
                               .arg(table->sizeHintForColumn(column))));
    }

    void changedParametersNameTheRun()
    {
        RunOptions before;
        before.method = "gnmf";
        before.params.rank = 40;
        RunOptions after = before;
        QCOMPARE(runParamsChange(after, before), QString());
        after.params.lambda = 31.6;
        after.params.rank = 30; // the rank is in the name already
        QCOMPARE(runParamsChange(after, before), u"λ=31.6"_s);
        after.params.p = 7;
        QCOMPARE(runParamsChange(after, before), u"λ=31.6, p=7"_s);
        QCOMPARE(defaultRunName(after, runParamsChange(after, before)), u"GNMF k=30 λ=31.6, p=7"_s);
    }

    void deleteRemovesTheSelectedRuns()
    {
        selectRows(*m_view, { 0, 2 });
        QTest::mouseClick(m_view->deleteButton(), Qt::LeftButton);
        QCOMPARE(names(*m_model), QStringList { u"CF"_s });
        QVERIFY(!m_view->deleteButton()->isEnabled());
    }

    void renameEditsTheNameInPlace()
    {
        selectRows(*m_view, { 1 });
        QTest::mouseClick(m_view->renameButton(), Qt::LeftButton);
        auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(editor);
        QCOMPARE(editor->text(), u"CF"_s);
        editor->selectAll();
        QTest::keyClicks(editor, u"CF, seed 2"_s);
        QTest::keyClick(editor, Qt::Key_Return);
        // The delegate commits on Return through a queued call.
        QTRY_COMPARE(m_model->run(1).name, u"CF, seed 2"_s);
        QCOMPARE(m_model->index(1, 0).data().toString(), u"CF, seed 2"_s);
    }

    void rerunEmitsTheRunsOptions()
    {
        QSignalSpy rerun(m_view.get(), &RunHistoryView::rerunRequested);
        selectRows(*m_view, { 2 });
        QTest::mouseClick(m_view->rerunButton(), Qt::LeftButton);
        QCOMPARE(rerun.count(), 1);
        const auto options = rerun.at(0).at(0).value<RunOptions>();
        QCOMPARE(options.method, std::string("gnmf"));
        QCOMPARE(options.params.rank, 4);
        QCOMPARE(options.driver.seed, std::uint64_t(3));
    }

    void compareShowsTheRunsSideBySide()
    {
        QSignalSpy compare(m_view.get(), &RunHistoryView::compareRequested);
        selectRows(*m_view, { 0, 2 });
        QTest::mouseClick(m_view->compareButton(), Qt::LeftButton);
        QCOMPARE(compare.count(), 1);
        QCOMPARE(compare.at(0).at(0).value<QList<int>>(), (QList<int> { 1, 3 }));
        RunComparisonView* comparison = m_view->comparisonView();
        QVERIFY(comparison);
        QVERIFY(QTest::qWaitForWindowExposed(comparison));
        QCOMPARE(comparison->runCount(), 2);
        QVERIFY(comparison->header(0)->text().contains(u"NMF baseline"_s));
        QVERIFY(comparison->header(1)->text().contains(u"GNMF k=4"_s));
        QVERIFY(comparison->header(1)->text().contains(u"λ=100"_s));
        const QString ac = QString::number(100 * *m_model->run(0).summary.ac, 'f', 1);
        QVERIFY(comparison->header(0)->text().contains(ac));
        // GNMF's final normalization rescales V and its graph term: the header gives the
        // returned factors' objective; NMF's is the last iteration's.
        const RunSummary& gnmf = m_model->run(2).summary;
        QVERIFY(returnedObjectiveDiffers(gnmf.objective, gnmf.returnedObjective));
        QVERIFY2(comparison->header(1)->text().contains(
                     u"objective %1 at the returned, normalized factors"_s.arg(
                         QString::number(gnmf.returnedObjective, 'g', 5))),
            qPrintable(comparison->header(1)->text()));
        QVERIFY(!comparison->header(0)->text().contains(u"returned"_s));
        QCOMPARE(comparison->gallery(0)->tileCount(), 3);
        QCOMPARE(comparison->gallery(1)->tileCount(), 4);
        QVERIFY(comparison->gallery(0)->isVisible());
        QVERIFY(!comparison->header(2)->isVisible());
        // The basis images are the run's columns, upright: bars 0/1 or 2/3 or 4/5 are rows.
        const QImage tile = comparison->gallery(0)->sections().first().tiles.first().image;
        QCOMPARE(tile.size(), QSize(8, 8));

        QCustomPlot* plot = comparison->plot();
        QCOMPARE(plot->graphCount(), 2);
        QCOMPARE(plot->graph(0)->name(), u"NMF baseline"_s);
        QCOMPARE(plot->graph(1)->name(), u"GNMF k=4"_s);
        QCOMPARE(plot->graph(0)->dataCount(), int(m_model->run(0).history.size()));
        QCOMPARE(plot->graph(1)->pen().color(), RunComparisonView::runColor(1));
        saveScreenshot(*comparison, u"run_comparison.png"_s);

        // Three runs: a third column appears, the plot gets a third curve.
        selectRows(*m_view, { 0, 1, 2 });
        QTest::mouseClick(m_view->compareButton(), Qt::LeftButton);
        QCOMPARE(comparison->runCount(), 3);
        QVERIFY(comparison->header(2)->isVisible());
        QCOMPARE(comparison->plot()->graphCount(), 3);
        comparison->resize(960, 620);
        saveScreenshot(*comparison, u"run_comparison_3.png"_s);

        // It closes by its own button (issue 37: the window had none).
        auto* box = comparison->findChild<QDialogButtonBox*>();
        QVERIFY(box);
        QPushButton* close = box->button(QDialogButtonBox::Close);
        QVERIFY(close && close->isVisible());
        QTest::mouseClick(close, Qt::LeftButton);
        QTRY_VERIFY(!comparison->isVisible());
    }

    void exportCsvThroughTheDialog()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"runs.csv"_s);
        QSignalSpy status(m_view.get(), &RunHistoryView::statusMessage);
        answerNextFileDialog(path);
        QTest::mouseClick(m_view->exportButton(), Qt::LeftButton);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), runTableCsv(m_model->runs()));
        QCOMPARE(status.count(), 1);

        selectRows(*m_view, { 1 });
        QVERIFY(m_view->exportFactorsAction()->isEnabled());
        answerNextFileDialog(dir.path());
        m_view->exportFactorsAction()->trigger();
        QVERIFY(QFile::exists(dir.filePath(u"basis.csv"_s)));
        QVERIFY(QFile::exists(dir.filePath(u"V.csv"_s)));
    }

    void screenshots()
    {
        selectRows(*m_view, { 0, 2 });
        saveScreenshot(*m_view, u"run_history.png"_s);
    }
};

#include "facet_test.h"
FACET_TEST_MAIN(TestRunHistory)
#include "test_run_history.moc"
