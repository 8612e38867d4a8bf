// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel for the chosen method: a switch keeps each method's values apart, the
// tooltips name the method's defaults, and only the rows the method reads are shown, enabled as
// its choices (automatic values, labels) allow.
#include "controls/parameter_panel.h"

#include "controls/log_slider.h"
#include "controls/log_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardItemModel>

#include <algorithm>

namespace facet {

void ParameterPanel::setMethod(const QString& method)
{
    if (method == m_method)
        return;
    if (!m_method.isEmpty())
        m_stored.insert(m_method, values());
    m_method = method;
    m_parameters = methodParameters(method);

    m_init->setItemText(
        0, tr("default (%1)").arg(m_init->itemText(m_init->findData(defaultInit(method)))));
    m_lambda->setToolTips(
        tr("λ, the weight of the %1 term. Log scale from 0.01 to 10000; default %2")
            .arg(method == u"lcf" ? tr("locality") : tr("graph"))
            .arg(defaultLambda(method)));
    m_p->setToolTip(method == u"cf-ogl"
            ? tr("p, the neighbours of each sample in the initial adaptive-neighbour graph G "
                 "(default 5)")
            : tr("p, the number of nearest neighbours of each sample in the graph (default 5)"));
    m_cosine->setToolTip(method == u"kmeans"
            ? tr("k-means on the L2-normalized samples (cosine similarity)")
            : tr("k-means on the L2-normalized rows of V (cosine similarity)"));

    setValues(m_stored.value(method));
    updateAlgorithmChoices();
}

// The algorithms this method has a route for (methods/registry.h: supportsAlgorithm), and its
// default: LCF with "Normalize each iteration" runs mu only (its objective may rise between
// steps, and the extrapolation compares objectives).
void ParameterPanel::updateAlgorithmChoices()
{
    const std::string method = m_method.toStdString();
    MethodOptions options;
    options.normalizeEach = method == "lcf" && m_normalizeEach->isChecked();
    m_algorithm->setItemText(0,
        tr("default (%1)")
            .arg(QString::fromLatin1(algorithmName(defaultAlgorithm(method, options)))));
    const auto* items = qobject_cast<const QStandardItemModel*>(m_algorithm->model());
    if (!items)
        return;
    for (int i = 1; i < m_algorithm->count(); ++i) {
        const std::optional<Algorithm> a
            = parseAlgorithm(m_algorithm->itemData(i).toString().toStdString());
        if (a)
            items->item(i)->setEnabled(
                supportsAlgorithm(method, *a) && !(options.normalizeEach && extrapolates(*a)));
    }
    if (!items->item(m_algorithm->currentIndex())->isEnabled())
        m_algorithm->setCurrentIndex(0);
}

void ParameterPanel::setLabelsAvailable(bool available, const QString& datasetName)
{
    m_labelsAvailable = available;
    if (datasetName.isEmpty())
        m_labelsNote->setText(tr("Load a labelled dataset to give the method known labels."));
    else
        m_labelsNote->setText(tr("%1 has no class labels, so the method gets none and runs "
                                 "without label constraints.")
                                  .arg(datasetName));
    updateEnabled();
}

QStringList ParameterPanel::visibleParameters() const
{
    QStringList keys;
    for (const auto& [key, control] : m_controls)
        if (control->isVisibleTo(this))
            keys << key;
    return keys;
}

void ParameterPanel::updateVisibility()
{
    const auto has = [this](Parameter parameter) { return m_parameters.testFlag(parameter); };
    const bool heat = m_weight->currentData().toString() == u"heat";
    const QString kernel = m_kernel->currentData().toString();
    const QHash<QString, bool> shown {
        { QStringLiteral("lambda"), has(Parameter::Lambda) },
        { QStringLiteral("beta"), has(Parameter::Beta) },
        { QStringLiteral("mu"), has(Parameter::Mu) },
        { QStringLiteral("innerSteps"), has(Parameter::InnerSteps) },
        { QStringLiteral("paperVariant"), has(Parameter::PaperVariant) },
        { QStringLiteral("p"), has(Parameter::Neighbours) },
        { QStringLiteral("weight"), has(Parameter::GraphWeight) },
        { QStringLiteral("heatT"), has(Parameter::GraphWeight) && heat },
        { QStringLiteral("kernel"), has(Parameter::Kernel) },
        { QStringLiteral("degree"), has(Parameter::Kernel) && kernel == u"poly" },
        { QStringLiteral("offset"), has(Parameter::Kernel) && kernel == u"poly" },
        { QStringLiteral("sigma"), has(Parameter::Kernel) && kernel == u"gauss" },
        { QStringLiteral("generalForm"), has(Parameter::GeneralForm) },
        { QStringLiteral("ncw"), has(Parameter::Ncw) },
        { QStringLiteral("normalizeEach"), has(Parameter::NormalizeEach) },
        { QStringLiteral("init"), has(Parameter::Init) },
        { QStringLiteral("algorithm"), has(Parameter::Algorithm) },
        { QStringLiteral("labels"), has(Parameter::Labels) },
        { QStringLiteral("replicates"), has(Parameter::Replicates) },
        { QStringLiteral("clusterMode"), has(Parameter::ClusterMode) },
        { QStringLiteral("cosine"), has(Parameter::Cosine) },
    };
    for (const auto& [key, control] : std::as_const(m_controls))
        control->setVisible(shown.value(key));
    // A row shows when one of its controls does; setRowVisible() leaves hidden controls hidden.
    for (const auto& [field, controls] : std::as_const(m_rows)) {
        m_form->setRowVisible(field,
            std::any_of(controls.begin(), controls.end(),
                [](const QWidget* control) { return !control->isHidden(); }));
    }
    updateEnabled();
}

void ParameterPanel::updateEnabled()
{
    m_heatT->setEnabled(!m_heatTAuto->isChecked());
    m_sigma->setEnabled(!m_sigmaAuto->isChecked());
    m_fractionRadio->setEnabled(m_labelsAvailable);
    m_perClassRadio->setEnabled(m_labelsAvailable);
    m_fraction->setEnabled(m_labelsAvailable && m_fractionRadio->isChecked());
    m_perClass->setEnabled(m_labelsAvailable && m_perClassRadio->isChecked());
    m_labelsNote->setVisible(m_parameters.testFlag(Parameter::Labels) && !m_labelsAvailable);
    // Argmax takes no k-means, so no cosine either (the k-means baseline has no mode to choose).
    m_cosine->setEnabled(!m_parameters.testFlag(Parameter::ClusterMode)
        || m_clusterMode->currentData().toString() == u"kmeans");
}

} // namespace facet
