// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_identity.h"
#include "experiment/rank_survey.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <optional>
#include <stop_token>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace facet {

// The rank survey (issue 38) on the explorer's dataset: for a method and a list of ranks, the
// consensus of R runs per rank (cophenetic correlation, dispersion), the held-out error of masked
// folds and the scores, as curves against k; the consensus matrix of a chosen rank in
// average-linkage order; the ranks the two measures suggest and why. It runs on the thread pool
// with progress and Cancel; Export writes what `facet-cli rank-survey` writes.
class RankSurveyView : public QWidget {
    Q_OBJECT

public:
    explicit RankSurveyView(QWidget* parent = nullptr);
    ~RankSurveyView() override;

    // The explorer's dataset and its identity (null: none). A survey of the previous data is
    // cancelled and its result cleared.
    void setDataset(std::shared_ptr<const Dataset> dataset, const DatasetIdentity& identity);
    // The Controls' run options: method, algorithm, limits, weights and seed of the survey.
    void setRunOptions(const RunOptions& options);

    void start();
    void cancel();
    bool isRunning() const { return m_running; }
    // Writes survey.json/csv/md, the plots and the consensus picture into `dir` (made if missing).
    bool exportTo(const QString& dir, QString* error = nullptr);

    const std::optional<RankSurveyResult>& result() const { return m_result; }
    // The rank whose consensus the heatmap shows.
    int shownRank() const { return m_shownRank; }
    void showRank(int rank);

    QLineEdit* ranksEdit() const { return m_ranks; }
    QSpinBox* runsSpin() const { return m_runs; }
    QSpinBox* foldsSpin() const { return m_folds; }
    QPushButton* runButton() const { return m_run; }
    QLabel* suggestionLabel() const { return m_suggestion; }
    QLabel* heatmapLabel() const { return m_heatmap; }
    QCustomPlot* plot() const { return m_plot; }

Q_SIGNALS:
    void finished();
    void statusMessage(const QString& message);

private:
    void onProgress(int done, int total);
    void onFinished();
    void showCurves();
    void exportDialog();
    void updateEnabled();

    std::shared_ptr<const Dataset> m_data;
    DatasetIdentity m_identity;
    RunOptions m_runOptions;
    RankSurveyOptions m_surveyOptions; // of the running or last survey
    std::optional<RankSurveyResult> m_result;
    std::shared_ptr<std::stop_source> m_stop;
    QFutureWatcher<std::optional<RankSurveyResult>>* m_watcher = nullptr;
    QString m_error;
    bool m_running = false;
    int m_shownRank = 0;

    QLabel* m_method = nullptr;
    QLineEdit* m_ranks = nullptr;
    QSpinBox* m_runs = nullptr;
    QSpinBox* m_folds = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_export = nullptr;
    QProgressBar* m_progress = nullptr;
    QCustomPlot* m_plot = nullptr;
    QComboBox* m_rankChoice = nullptr;
    QLabel* m_heatmap = nullptr;
    QLabel* m_suggestion = nullptr;
};

} // namespace facet
