// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/run_history_view.h"

#include "models/run_history_model.h"
#include "runs/run_comparison_view.h"
#include "runs/run_params_text.h"
#include "session/run_csv.h"

#include <QAction>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMessageBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QToolButton* buttonFor(QAction* action, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

RunHistoryView::RunHistoryView(RunHistoryModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_table(new QTableView(this))
{
    m_model->setParamsFormatter(&runParamsText);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
        | QAbstractItemView::SelectedClicked);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // The columns keep their contents' widths and the space after the last one stays empty:
    // stretched, the right-aligned Time sat at the far edge of a wide window, away from its row.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);

    m_delete = new QAction(tr("Delete"), this);
    m_delete->setToolTip(tr("Remove the selected runs from the history"));
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_rename = new QAction(tr("Rename"), this);
    m_rename->setToolTip(tr("Edit the name of the selected run (or double-click it)"));
    m_rename->setShortcut(Qt::Key_F2);
    m_rename->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_rerun = new QAction(tr("Re-run"), this);
    m_rerun->setToolTip(tr("Run the selected run again with exactly its options and seed"));
    m_show = new QAction(tr("Show"), this);
    m_show->setToolTip(tr("Show the selected run's basis, curve and clusters in the explorer (or "
                          "double-click it)"));
    m_overlay = new QAction(tr("Overlay curves"), this);
    m_overlay->setToolTip(
        tr("Draw the selected runs' objective curves in the Convergence plot, with a legend"));
    m_compare = new QAction(tr("Compare"), this);
    m_compare->setToolTip(tr("Show 2 to 4 selected runs side by side"));
    m_exportTable = new QAction(tr("Export CSV"), this);
    m_exportTable->setToolTip(tr("Write the run table as CSV"));
    m_exportFactors = new QAction(tr("Export factors of the selected run…"), this);
    m_exportFactors->setToolTip(
        tr("Write basis.csv (m x k), V.csv (n x k) and, for the CF family, W.csv "
           "(n x k) into a folder"));
    m_openDataset = new QAction(tr("Open Run's Dataset"), this);
    m_openDataset->setToolTip(tr("Open the dataset the selected run was made on (the session "
                                 "remembers its path and checks its SHA-256), then show the run"));
    addActions({ m_delete, m_rename });

    m_deleteButton = buttonFor(m_delete, this);
    m_renameButton = buttonFor(m_rename, this);
    m_showButton = buttonFor(m_show, this);
    m_overlayButton = buttonFor(m_overlay, this);
    m_rerunButton = buttonFor(m_rerun, this);
    m_compareButton = buttonFor(m_compare, this);
    m_exportButton = buttonFor(m_exportTable, this);
    auto* exportMenu = new QMenu(this);
    exportMenu->addAction(tr("Run table…"), this, &RunHistoryView::exportTable);
    exportMenu->addAction(m_exportFactors);
    m_exportButton->setMenu(exportMenu);
    m_exportButton->setPopupMode(QToolButton::MenuButtonPopup);

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    for (QToolButton* b : { m_showButton, m_overlayButton, m_compareButton, m_rerunButton,
             m_renameButton, m_deleteButton, m_exportButton })
        buttons->addWidget(b);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);

    connect(m_delete, &QAction::triggered, this, &RunHistoryView::deleteSelected);
    connect(m_rename, &QAction::triggered, this, &RunHistoryView::renameSelected);
    connect(m_rerun, &QAction::triggered, this, &RunHistoryView::rerunSelected);
    connect(m_compare, &QAction::triggered, this, &RunHistoryView::compareSelected);
    connect(m_show, &QAction::triggered, this, [this] {
        if (const QList<int> rows = selectedRows(); rows.size() == 1)
            Q_EMIT runActivated(m_model->run(rows.first()).id);
    });
    connect(m_overlay, &QAction::triggered, this, [this] {
        QList<int> ids;
        for (int row : selectedRows())
            ids << m_model->run(row).id;
        if (!ids.isEmpty())
            Q_EMIT overlayRequested(ids);
    });
    connect(m_openDataset, &QAction::triggered, this, [this] {
        if (const QList<int> rows = selectedRows(); rows.size() == 1)
            Q_EMIT openDatasetRequested(m_model->run(rows.first()).id);
    });
    connect(m_exportTable, &QAction::triggered, this, &RunHistoryView::exportTable);
    connect(m_exportFactors, &QAction::triggered, this, &RunHistoryView::exportSelectedFactors);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &RunHistoryView::updateActions);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &RunHistoryView::updateActions);
    // A session's runs arrive all at once (a reset): the columns fit them, as they fit each run
    // added (they stayed at the empty table's widths, "NM…").
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_table->resizeColumnsToContents();
        updateActions();
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
        [this](const QModelIndex&, int, int last) {
            m_table->resizeColumnsToContents();
            m_table->scrollTo(m_model->index(last, 0));
            updateActions();
        });
    connect(m_table, &QWidget::customContextMenuRequested, this, &RunHistoryView::showContextMenu);
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() != RunHistoryModel::NameColumn)
            Q_EMIT runActivated(index.data(RunHistoryModel::IdRole).toInt());
    });
    m_table->resizeColumnsToContents();
    updateActions();
}

QList<int> RunHistoryView::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

void RunHistoryView::updateActions()
{
    const qsizetype selected = selectedRows().size();
    m_delete->setEnabled(selected > 0);
    m_rename->setEnabled(selected == 1);
    m_rerun->setEnabled(selected == 1);
    m_show->setEnabled(selected == 1);
    m_openDataset->setEnabled(
        selected == 1 && m_model->run(selectedRows().first()).dataset.known());
    m_overlay->setEnabled(selected > 0);
    m_compare->setEnabled(
        selected >= RunComparisonView::kMinRuns && selected <= RunComparisonView::kMaxRuns);
    m_exportTable->setEnabled(m_model->runCount() > 0);
    m_exportFactors->setEnabled(selected == 1 && m_model->run(selectedRows().first()).hasFactors());
}

void RunHistoryView::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    menu.addActions({ m_show, m_openDataset, m_overlay, m_compare, m_rerun, m_rename });
    menu.addSeparator();
    menu.addActions({ m_exportTable, m_exportFactors });
    menu.addSeparator();
    menu.addAction(m_delete);
    menu.exec(m_table->viewport()->mapToGlobal(position));
}

void RunHistoryView::deleteSelected()
{
    m_model->removeRunRows(selectedRows());
}

void RunHistoryView::renameSelected()
{
    const QList<int> rows = selectedRows();
    if (rows.size() != 1)
        return;
    const QModelIndex name = m_model->index(rows.first(), RunHistoryModel::NameColumn);
    m_table->setCurrentIndex(name);
    m_table->edit(name);
}

void RunHistoryView::rerunSelected()
{
    const QList<int> rows = selectedRows();
    if (rows.size() == 1)
        Q_EMIT rerunRequested(m_model->run(rows.first()).options);
}

void RunHistoryView::compareSelected()
{
    const QList<int> rows = selectedRows();
    if (rows.size() < RunComparisonView::kMinRuns || rows.size() > RunComparisonView::kMaxRuns)
        return;
    std::vector<RunRecord> runs;
    QList<int> ids;
    for (int row : rows) {
        runs.push_back(m_model->run(row));
        ids << m_model->run(row).id;
    }
    if (!m_comparison) {
        m_comparison = new RunComparisonView(this);
        m_comparison->setWindowFlag(Qt::Window);
        m_comparison->resize(300 * int(runs.size()) + 40, 620);
    }
    m_comparison->setRuns(std::move(runs));
    m_comparison->show();
    m_comparison->raise();
    m_comparison->activateWindow();
    Q_EMIT compareRequested(ids);
}

QString RunHistoryView::askPath(const QString& title, const QString& defaultName, bool directory)
{
    // The widget-based dialog: the same on every platform, and tests can drive it.
    QFileDialog dialog(this, title);
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    if (directory) {
        dialog.setFileMode(QFileDialog::Directory);
        dialog.setOption(QFileDialog::ShowDirsOnly);
        dialog.setAcceptMode(QFileDialog::AcceptOpen);
    } else {
        dialog.setAcceptMode(QFileDialog::AcceptSave);
        dialog.setNameFilter(tr("CSV files (*.csv)"));
        dialog.setDefaultSuffix(u"csv"_s);
        dialog.selectFile(defaultName);
    }
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().first();
}

void RunHistoryView::exportTable()
{
    const QString path = askPath(tr("Export run table"), u"runs.csv"_s, false);
    if (path.isEmpty())
        return;
    const Result<bool> written = writeRunTableCsv(m_model->runs(), path);
    if (!written) {
        QMessageBox::warning(this, tr("Export run table"), written.error());
        return;
    }
    Q_EMIT statusMessage(tr("Wrote %1 runs to %2").arg(m_model->runCount()).arg(path));
}

void RunHistoryView::exportSelectedFactors()
{
    const QList<int> rows = selectedRows();
    if (rows.size() != 1)
        return;
    const RunRecord& run = m_model->run(rows.first());
    const QString dir = askPath(tr("Export factors of %1").arg(run.name), {}, true);
    if (dir.isEmpty())
        return;
    const Result<bool> written = writeRunFactorsCsv(run, dir);
    if (!written) {
        QMessageBox::warning(this, tr("Export factors"), written.error());
        return;
    }
    Q_EMIT statusMessage(run.W.size() > 0
            ? tr("Wrote basis.csv, V.csv and W.csv of %1 to %2").arg(run.name, dir)
            : tr("Wrote basis.csv and V.csv of %1 to %2").arg(run.name, dir));
}

} // namespace facet
