// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment form's remembered settings (QSettings group "experiment"): what a user set up last
// time, restored when the explorer starts. The cluster counts follow the loaded dataset's classes
// and are not kept; the iteration limit is kept only when it is the user's own, not the Controls'
// default it follows.
#include "experiment/experiment_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QSpinBox>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// The item whose text was saved, if the combo still has it (a renamed item keeps the default).
void restoreText(QComboBox* combo, const QSettings& settings, const QString& key)
{
    if (const int i = combo->findText(settings.value(key).toString()); i >= 0)
        combo->setCurrentIndex(i);
}

void restoreInt(QSpinBox* box, const QSettings& settings, const QString& key)
{
    bool ok = false;
    const int value = settings.value(key).toInt(&ok);
    if (ok && value >= box->minimum() && value <= box->maximum())
        box->setValue(value);
}

} // namespace

void ExperimentForm::saveSettings(QSettings& settings) const
{
    settings.beginGroup(u"experiment"_s);
    settings.remove(QString()); // this group only: a key from an older form does not linger
    settings.setValue(u"preset"_s, m_preset->currentData().toString());
    QStringList methods;
    for (int i = 0; i < m_methods->count(); ++i)
        if (m_methods->item(i)->checkState() == Qt::Checked)
            methods << m_methods->item(i)->text();
    settings.setValue(u"methods"_s, methods);
    settings.setValue(u"protocol"_s, m_protocol->currentText());
    settings.setValue(u"labeledMode"_s, m_labeledMode->currentText());
    settings.setValue(u"labeledFraction"_s, m_labeledFraction->value());
    settings.setValue(u"labeledCount"_s, m_labeledCount->value());
    settings.setValue(u"unlabeledOnly"_s, m_unlabeledOnly->isChecked());
    settings.setValue(u"parameter"_s, m_parameter->currentText());
    settings.setValue(u"grid"_s, m_grid->text());
    settings.setValue(u"trials"_s, m_trials->value());
    settings.setValue(u"rank"_s, m_rankOffset->currentText());
    settings.setValue(u"subruns"_s, m_subruns->value());
    settings.setValue(u"selection"_s, m_selection->currentText());
    if (m_maxIter->value() != m_maxIterDefault)
        settings.setValue(u"maxIterations"_s, m_maxIter->value());
    settings.setValue(u"algorithm"_s, m_algorithm->currentText());
    settings.setValue(u"parameters"_s, m_methodParameters->text());
    settings.setValue(u"seed"_s, m_seed->value());
    settings.setValue(u"threads"_s, m_threads->value());
    settings.endGroup();
}

void ExperimentForm::restoreSettings(QSettings& settings)
{
    settings.beginGroup(u"experiment"_s);
    if (!settings.contains(u"methods"_s)) { // nothing saved yet: the defaults stay
        settings.endGroup();
        return;
    }
    // The preset first (it fills the fields), then the fields as they were left.
    choosePreset(settings.value(u"preset"_s).toString());
    const QStringList methods = settings.value(u"methods"_s).toStringList();
    setCheckedMethods(methods);
    restoreText(m_protocol, settings, u"protocol"_s);
    restoreText(m_labeledMode, settings, u"labeledMode"_s);
    if (const double f = settings.value(u"labeledFraction"_s).toDouble();
        f >= m_labeledFraction->minimum() && f <= m_labeledFraction->maximum())
        m_labeledFraction->setValue(f);
    restoreInt(m_labeledCount, settings, u"labeledCount"_s);
    m_unlabeledOnly->setChecked(settings.value(u"unlabeledOnly"_s).toBool());
    restoreText(m_parameter, settings, u"parameter"_s);
    m_grid->setText(settings.value(u"grid"_s, m_grid->text()).toString());
    restoreInt(m_trials, settings, u"trials"_s);
    restoreText(m_rankOffset, settings, u"rank"_s);
    restoreInt(m_subruns, settings, u"subruns"_s);
    restoreText(m_selection, settings, u"selection"_s);
    if (settings.contains(u"maxIterations"_s))
        restoreInt(m_maxIter, settings, u"maxIterations"_s);
    restoreText(m_algorithm, settings, u"algorithm"_s);
    m_methodParameters->setText(
        settings.value(u"parameters"_s, m_methodParameters->text()).toString());
    restoreInt(m_seed, settings, u"seed"_s);
    restoreInt(m_threads, settings, u"threads"_s);
    settings.endGroup();
    updateProtocolFields();
}

} // namespace facet
