// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/paper_record.h"
#include "experiment/protocol.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSettings;
class QSpinBox;
class QStackedWidget;

namespace facet {

// The settings of an experiment (METHODS.md section 6): methods, protocol, cluster counts,
// trials, sub-runs and their selection, the run options every cell starts from (max iterations,
// algorithm, method parameters: what `facet-cli sweep` takes as flags), seed and threads. Pure
// input: options() turns them into checked ExperimentOptions or an error a user can act on.
// "Preset" fills the fields with a paper's protocol (resources/papers, what `facet-cli reproduce`
// runs) and says whether the loaded dataset is one the paper ran on; it never loads data.
class ExperimentForm : public QWidget {
    Q_OBJECT

public:
    explicit ExperimentForm(QWidget* parent = nullptr);

    // The dataset's class count bounds c; the default range follows it.
    void setClassCount(int classes);
    // Checked options, or nullopt with the reason in `error`.
    std::optional<ExperimentOptions> options(QString* error) const;
    // Worker threads; 0 = one per core.
    int threads() const;

    void setCheckedMethods(const QStringList& methods);
    void setClusterCounts(const QString& text);
    void setTrials(int trials);
    // The iteration limit the explorer's Controls show: the form follows it until the user sets
    // the form's own (a value that still equals the last default follows the new one).
    void setDefaultMaxIterations(int iterations);
    void setMaxIterations(int iterations);
    // The loaded dataset's source (DatasetRequest::spec) and name, for the preset's note.
    void setDatasetSource(const QString& spec, const QString& name);
    // Chooses the preset of the paper `key` ("lcf"; empty: None); false for an unknown key.
    bool choosePreset(const QString& key);
    // The fields as the user left them (group "experiment"), restored at the next start; the
    // cluster counts follow the dataset instead (experiment_form_settings.cpp).
    void saveSettings(QSettings& settings) const;
    void restoreSettings(QSettings& settings);

Q_SIGNALS:
    void changed();

private:
    // m_protocol's items.
    enum Protocol { Unsupervised, SemiSupervised, ParameterSweep };

    void updateProtocolFields();
    // experiment_form_preset.cpp
    QWidget* makePresetRow();
    void applyPreset();
    void updatePresetNote();
    const PaperRecord* chosenPaper() const;

    int m_classes = 0;
    std::vector<PaperRecord> m_papers; // those with a protocol to run
    QComboBox* m_preset = nullptr; // None, then m_papers' keys as item data
    QLabel* m_presetNote = nullptr;
    QString m_datasetSpec;
    QString m_datasetName;
    QListWidget* m_methods;
    QComboBox* m_protocol;
    QStackedWidget* m_protocolFields;
    QComboBox* m_labeledMode;
    QDoubleSpinBox* m_labeledFraction;
    QSpinBox* m_labeledCount;
    QCheckBox* m_unlabeledOnly; // METHODS.md 6: evaluate on the unlabelled samples only
    QComboBox* m_parameter;
    QLineEdit* m_grid;
    QLineEdit* m_clusters;
    QSpinBox* m_trials;
    QComboBox* m_rankOffset; // k = c or c + 1
    QSpinBox* m_subruns;
    QComboBox* m_selection;
    QSpinBox* m_maxIter;
    int m_maxIterDefault;
    QComboBox* m_algorithm; // item 0: each method's default; else kAlgorithmChoices' names
    QLineEdit* m_methodParameters; // parseMethodParameters
    QSpinBox* m_seed;
    QSpinBox* m_threads;
};

// "2-10", "2,4,6" or "2-5, 8": ascending distinct values; nullopt when malformed.
std::optional<std::vector<int>> parseClusterCounts(const QString& text);

} // namespace facet
