// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "controls/method_combo_box.h"
#include "experiment/experiment_data.h"
#include "experiment/run.h"

#include <QString>
#include <QVariantMap>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSettings;
class QSpinBox;
class QStackedWidget;

namespace facet {

class ParameterPanel;

// The left panel: what is loaded, the method and its parameters, Run / Cancel and the progress of
// the run. It builds no requests itself; the main window reads runOptions() when Run is pressed.
class ControlPanel : public QWidget {
    Q_OBJECT

public:
    explicit ControlPanel(QWidget* parent = nullptr);

    void setDatasetSummary(const QString& text, const QString& toolTip = {});
    void setResultSummary(const QString& html);

    QString method() const;
    bool setMethod(const QString& name); // false for a name the catalog does not know
    int rank() const;
    void setRank(int rank);
    // The iteration limit of the current method; for CF_OGL the number of outer iterations.
    int maxIterations() const;
    void setMaxIterations(int iterations);
    double tolerance() const;
    void setTolerance(double tolerance); // the nearest offered value
    // METHODS.md 9's stationarity rule (DriverOptions::stationarityTol): the NMF family's hals
    // algorithms also stop once their optimality violation fell to this fraction of its first
    // value; 0 turns the rule off, so only Tolerance and Max iterations end the run.
    double stationarityTolerance() const;
    void setStationarityTolerance(double tolerance); // the nearest offered value
    int seed() const;
    void setSeed(int seed);
    RunOptions runOptions() const;
    // METHODS.md section 8: per-sample L2 normalization, by default for the CF family only (as
    // facet-cli run --normalize auto).
    SampleNormalization sampleNormalization() const;
    void setSampleNormalization(SampleNormalization normalization);

    // Every option the panel shows (method, rank, limits, seed, the method's parameters), for
    // undo; restoreSnapshot() emits optionsChanged() once.
    QVariantMap snapshot() const;
    void restoreSnapshot(const QVariantMap& snapshot);

    // Auto re-run: options stay editable during a run, and the window re-runs on every change.
    bool autoRerun() const;
    void setAutoRerun(bool on);
    QCheckBox* autoRerunCheck() const { return m_autoRerun; }

    // Whether the dataset has class labels (the semi-supervised methods need them); datasetName
    // empty: nothing is loaded.
    // `classes`: how many distinct labels there are (k-means' k on this set).
    void setLabelsAvailable(bool available, const QString& datasetName, int classes = 0);

    // The "run" group: method, rank, limits, tolerance, seed, and every method's parameters.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(QSettings& settings);

    // running: Run off, Cancel on, options locked (unless auto re-run is on, where editing an
    // option is how the user steers the run). canRun: a dataset is loaded.
    void setState(bool running, bool canRun);
    void setProgress(int iteration, int maxIterations);
    // A run with no iteration count to show (the baselines): a busy bar, then `text` on a full one.
    void setBusy();
    void setDone(const QString& text);
    // A set-up step's progress: `text` with the percentage done.
    void setStageProgress(const QString& text, double fraction);
    // An empty bar reading `text`: a set-up step before anything can be counted, or a run that
    // ended before it had anything to count. (A busy bar draws no text in Qt's Fusion style.)
    void setMessage(const QString& text);
    void resetProgress();

    // Run, Cancel, the progress bar and Auto re-run, taken out of the panel's layout for the
    // caller's (the main window keeps them in view under the panel's scroll area, so a short
    // window does not hide them); the caller's layout takes ownership.
    QWidget* takeRunBar();
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    MethodComboBox* methodCombo() const { return m_method; }
    QLabel* objectiveLabel() const { return m_objective; }
    ParameterPanel* parameterPanel() const { return m_params; }

Q_SIGNALS:
    void runRequested();
    void cancelRequested();
    // Any option changed by the user (or by restoreSnapshot()).
    void optionsChanged();
    void autoRerunToggled(bool on);

private:
    void onMethodChanged();
    // Enables the options for the run state and the method (setState, onMethodChanged).
    void updateEnabled();
    int iterationsFor(bool outer) const;
    void setIterationsFor(bool outer, int iterations);

    QLabel* m_dataset = nullptr;
    MethodComboBox* m_method = nullptr;
    QLabel* m_objective = nullptr;
    ParameterPanel* m_params = nullptr;
    QSpinBox* m_rank = nullptr;
    // Rank k's field: the spin box, or for k-means on a labelled set the class count it uses.
    QStackedWidget* m_rankField = nullptr;
    QLabel* m_classK = nullptr;
    QSpinBox* m_maxIter = nullptr;
    QLabel* m_maxIterLabel = nullptr; // "Max iterations", or "Outer iterations" for CF_OGL
    QComboBox* m_tolerance = nullptr;
    QComboBox* m_stationarity = nullptr;
    QSpinBox* m_seed = nullptr;
    QComboBox* m_normalize = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QWidget* m_runBar = nullptr;
    QProgressBar* m_progress = nullptr;
    QCheckBox* m_autoRerun = nullptr;
    QLabel* m_result = nullptr;
    bool m_running = false;
    bool m_canRun = false;
    bool m_restoring = false; // inside restoreSnapshot(): one optionsChanged() at its end
    // CF_OGL's limit counts outer iterations (30 by default), the others' plain ones
    // (kDefaultMaxIterations): the spin box shows the current kind, this holds the other.
    bool m_outerIterations = false;
    int m_otherIterations = 0;
    bool m_iterationLimit = true; // the method stops by Max iterations and Tolerance
    bool m_labels = false; // the loaded dataset has class labels
    int m_classes = 0; // its distinct labels
};

} // namespace facet
