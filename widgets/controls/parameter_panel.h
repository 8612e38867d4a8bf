// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "controls/method_parameters.h"
#include "experiment/run.h"

#include <QHash>
#include <QString>
#include <QVariantMap>
#include <QWidget>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QRadioButton;
class QSettings;
class QSpinBox;

namespace facet {

class LogSlider;
class LogSpinBox;

// The parameters of one method (METHODS.md): only the rows the chosen method reads are shown.
// Each method keeps its own values: switching away and back restores them, and
// saveSettings() / restoreSettings() keep them across sessions. applyTo() writes the shown
// values into RunOptions; options the method does not read keep their defaults.
class ParameterPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(QWidget* parent = nullptr);

    QString method() const { return m_method; }
    // Keeps the current method's values and shows (and loads) those of `method`.
    void setMethod(const QString& method);
    Parameters parameters() const { return m_parameters; }

    // Without class labels the semi-supervised controls are disabled with an explanation.
    // datasetName empty: no dataset is loaded.
    void setLabelsAvailable(bool available, const QString& datasetName = {});
    bool labelsAvailable() const { return m_labelsAvailable; }

    void applyTo(RunOptions& options) const;
    // Resets the current method's parameters to the method's defaults.
    void restoreDefaults();

    void saveSettings(QSettings& settings) const;
    void restoreSettings(QSettings& settings);

    // The keys of the rows shown now ("lambda", "p", "weight", "heatT", ...), in display order.
    QStringList visibleParameters() const;

    // The current method's values as key -> value (for undo snapshots), and setting them back;
    // setCurrentValues() emits changed() once, not once per control.
    QVariantMap currentValues() const { return values(); }
    void setCurrentValues(const QVariantMap& values);

    // For the command line and tests.
    void setLambda(double lambda);
    void setBeta(double beta);
    void setMu(double mu);
    void setNeighbours(int p);
    void setLabeledFraction(double fraction);
    void setLabeledPerClass(int count);

    LogSlider* lambdaSlider() const { return m_lambda; }
    LogSlider* betaSlider() const { return m_beta; }
    LogSlider* muSlider() const { return m_mu; }
    QSpinBox* neighboursSpin() const { return m_p; }
    QRadioButton* labeledFractionRadio() const { return m_fractionRadio; }
    QRadioButton* labeledPerClassRadio() const { return m_perClassRadio; }
    QDoubleSpinBox* labeledFractionSpin() const { return m_fraction; }
    QSpinBox* labeledPerClassSpin() const { return m_perClass; }
    QLabel* labelsNote() const { return m_labelsNote; }
    QPushButton* defaultsButton() const { return m_defaults; }

Q_SIGNALS:
    void changed();

private:
    void createWidgets();
    void createLayout();
    void connectChanges();
    // A form row; field holds the controls (itself, or a container of several), each with its key.
    void addRow(
        const QString& label, QWidget* field, const QList<QPair<QString, QWidget*>>& controls);
    void updateVisibility();
    void updateEnabled();
    void updateAlgorithmChoices();

    // parameter_panel_values.cpp: the values as key -> value, for storage and defaults.
    QVariantMap values() const;
    void setValues(const QVariantMap& values); // missing keys: the method's defaults
    static QVariantMap defaults(const QString& method);

    QString m_method;
    Parameters m_parameters;
    bool m_labelsAvailable = false;
    bool m_settingValues = false; // inside setValues(): one changed() at its end
    QHash<QString, QVariantMap> m_stored; // method -> values, of the methods not shown now

    QFormLayout* m_form = nullptr;
    QList<QPair<QString, QWidget*>> m_controls; // key -> its control, in display order
    QList<QPair<QWidget*, QList<QWidget*>>> m_rows; // field -> the controls in it

    LogSlider* m_lambda = nullptr;
    LogSlider* m_beta = nullptr;
    LogSlider* m_mu = nullptr;
    QSpinBox* m_innerSteps = nullptr;
    QCheckBox* m_paperVariant = nullptr;
    QSpinBox* m_p = nullptr;
    QComboBox* m_weight = nullptr;
    QCheckBox* m_heatTAuto = nullptr;
    LogSpinBox* m_heatT = nullptr;
    QComboBox* m_kernel = nullptr;
    QDoubleSpinBox* m_degree = nullptr;
    QDoubleSpinBox* m_offset = nullptr;
    QCheckBox* m_sigmaAuto = nullptr;
    LogSpinBox* m_sigma = nullptr;
    QCheckBox* m_generalForm = nullptr;
    QCheckBox* m_ncw = nullptr;
    QCheckBox* m_normalizeEach = nullptr;
    QComboBox* m_init = nullptr;
    QComboBox* m_algorithm = nullptr;
    QButtonGroup* m_labelMode = nullptr;
    QRadioButton* m_fractionRadio = nullptr;
    QRadioButton* m_perClassRadio = nullptr;
    QDoubleSpinBox* m_fraction = nullptr;
    QSpinBox* m_perClass = nullptr;
    QLabel* m_labelsNote = nullptr;
    QSpinBox* m_replicates = nullptr;
    QComboBox* m_clusterMode = nullptr;
    QCheckBox* m_cosine = nullptr;
    QPushButton* m_defaults = nullptr;
};

} // namespace facet
