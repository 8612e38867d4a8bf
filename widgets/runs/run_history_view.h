// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <QList>
#include <QWidget>

class QAction;
class QTableView;
class QToolButton;

namespace facet {

class RunComparisonView;
class RunHistoryModel;

// The table of finished runs with what a user does to them: Delete, Rename (inline edit of the
// name), Re-run (the run's exact options, emitted for the main window to submit), Compare (2 to
// 4 selected runs side by side in a RunComparisonView window) and Export CSV (the table, or one
// run's basis.csv and V.csv). The same actions are on the table's context menu.
class RunHistoryView : public QWidget {
    Q_OBJECT

public:
    // `model` is not owned and must outlive the view. The view installs runParamsText as the
    // model's params formatter.
    explicit RunHistoryView(RunHistoryModel* model, QWidget* parent = nullptr);

    RunHistoryModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // Created on the first Compare; a separate window owned by this view.
    RunComparisonView* comparisonView() const { return m_comparison; }
    // Selected rows in ascending order.
    QList<int> selectedRows() const;

    QToolButton* showButton() const { return m_showButton; }
    QToolButton* overlayButton() const { return m_overlayButton; }
    QToolButton* deleteButton() const { return m_deleteButton; }
    QToolButton* renameButton() const { return m_renameButton; }
    QToolButton* rerunButton() const { return m_rerunButton; }
    QToolButton* compareButton() const { return m_compareButton; }
    QToolButton* exportButton() const { return m_exportButton; }
    QAction* exportFactorsAction() const { return m_exportFactors; }
    // Context menu: open the dataset the selected run was made on (openDatasetRequested).
    QAction* openDatasetAction() const { return m_openDataset; }

    // The actions behind the buttons, callable directly (the main window's menus may reuse them).
    void deleteSelected();
    void renameSelected();
    void rerunSelected();
    void compareSelected();
    // Ask for a path with a file dialog, then write; errors go to a message box.
    void exportTable();
    void exportSelectedFactors();

Q_SIGNALS:
    // Re-run: the exact options of the selected run.
    void rerunRequested(const facet::RunOptions& options);
    // Compare: the ids of the runs now shown in comparisonView().
    void compareRequested(const QList<int>& ids);
    // Double-click outside the name: the main window may show that run's results.
    void runActivated(int id);
    // Overlay curves: the ids of the selected runs, whose curves go into the Convergence plot.
    void overlayRequested(const QList<int>& ids);
    // Open Run's Dataset: the main window opens the data the run `id` was made on and shows it.
    void openDatasetRequested(int id);
    // What an export wrote, for the status bar.
    void statusMessage(const QString& message);

private:
    void updateActions();
    void showContextMenu(const QPoint& position);
    QString askPath(const QString& title, const QString& defaultName, bool directory);

    RunHistoryModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    RunComparisonView* m_comparison = nullptr;
    QAction* m_delete = nullptr;
    QAction* m_rename = nullptr;
    QAction* m_rerun = nullptr;
    QAction* m_compare = nullptr;
    QAction* m_show = nullptr;
    QAction* m_overlay = nullptr;
    QAction* m_exportTable = nullptr;
    QAction* m_exportFactors = nullptr;
    QAction* m_openDataset = nullptr;
    QToolButton* m_showButton = nullptr;
    QToolButton* m_overlayButton = nullptr;
    QToolButton* m_deleteButton = nullptr;
    QToolButton* m_renameButton = nullptr;
    QToolButton* m_rerunButton = nullptr;
    QToolButton* m_compareButton = nullptr;
    QToolButton* m_exportButton = nullptr;
};

} // namespace facet
