// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel's values: defaults, storage per method, settings, and RunOptions.
#include "controls/parameter_panel.h"

#include "controls/log_slider.h"
#include "controls/log_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>

namespace facet {

namespace {

const QString kSettingsGroup = QStringLiteral("parameters");

void selectData(QComboBox* combo, const QVariant& data)
{
    const int index = combo->findData(data.toString());
    combo->setCurrentIndex(index >= 0 ? index : 0);
}

GraphWeight graphWeight(const QString& name)
{
    if (name == u"heat")
        return GraphWeight::Heat;
    if (name == u"cosine")
        return GraphWeight::Cosine;
    return GraphWeight::Binary;
}

KernelKind kernelKind(const QString& name)
{
    if (name == u"poly")
        return KernelKind::Polynomial;
    if (name == u"gauss")
        return KernelKind::Gaussian;
    return KernelKind::Linear;
}

InitKind initKind(const QString& name)
{
    if (name == u"nndsvd")
        return InitKind::Nndsvd;
    if (name == u"nmf")
        return InitKind::Nmf;
    if (name == u"kmeans")
        return InitKind::KMeans;
    return InitKind::Random;
}

} // namespace

QVariantMap ParameterPanel::defaults(const QString& method)
{
    // METHODS.md: 1.3 (p, weights, lambda), 1.7 (kernel d = 2, c0 = 0), section 3 (CF_OGL),
    // section 0 (one start), section 4 (k-means on V), section 6 (30% labelled, or 2 per class).
    const MethodOptions options;
    return {
        { QStringLiteral("lambda"), defaultLambda(method) },
        { QStringLiteral("beta"), options.beta },
        { QStringLiteral("mu"), options.mu },
        { QStringLiteral("innerSteps"), options.innerSteps },
        { QStringLiteral("paperVariant"), false },
        { QStringLiteral("p"), options.p },
        { QStringLiteral("weight"), QStringLiteral("binary") },
        { QStringLiteral("heatTAuto"), true },
        { QStringLiteral("heatT"), 1.0 },
        { QStringLiteral("kernel"), QStringLiteral("linear") },
        { QStringLiteral("degree"), options.degree },
        { QStringLiteral("offset"), options.offset },
        { QStringLiteral("sigmaAuto"), true },
        { QStringLiteral("sigma"), 1.0 },
        { QStringLiteral("generalForm"), false },
        { QStringLiteral("ncw"), false },
        { QStringLiteral("normalizeEach"), false },
        { QStringLiteral("init"), QStringLiteral("default") },
        { QStringLiteral("algorithm"), QStringLiteral("default") },
        { QStringLiteral("labelMode"), QStringLiteral("fraction") },
        { QStringLiteral("labeledFraction"), 0.3 },
        { QStringLiteral("labeledPerClass"), 2 },
        { QStringLiteral("replicates"), 1 },
        { QStringLiteral("clusterMode"), QStringLiteral("kmeans") },
        { QStringLiteral("cosine"), false },
    };
}

QVariantMap ParameterPanel::values() const
{
    return {
        { QStringLiteral("lambda"), m_lambda->value() },
        { QStringLiteral("beta"), m_beta->value() },
        { QStringLiteral("mu"), m_mu->value() },
        { QStringLiteral("innerSteps"), m_innerSteps->value() },
        { QStringLiteral("paperVariant"), m_paperVariant->isChecked() },
        { QStringLiteral("p"), m_p->value() },
        { QStringLiteral("weight"), m_weight->currentData() },
        { QStringLiteral("heatTAuto"), m_heatTAuto->isChecked() },
        { QStringLiteral("heatT"), m_heatT->value() },
        { QStringLiteral("kernel"), m_kernel->currentData() },
        { QStringLiteral("degree"), m_degree->value() },
        { QStringLiteral("offset"), m_offset->value() },
        { QStringLiteral("sigmaAuto"), m_sigmaAuto->isChecked() },
        { QStringLiteral("sigma"), m_sigma->value() },
        { QStringLiteral("generalForm"), m_generalForm->isChecked() },
        { QStringLiteral("ncw"), m_ncw->isChecked() },
        { QStringLiteral("normalizeEach"), m_normalizeEach->isChecked() },
        { QStringLiteral("init"), m_init->currentData() },
        { QStringLiteral("algorithm"), m_algorithm->currentData() },
        { QStringLiteral("labelMode"),
            m_perClassRadio->isChecked() ? QStringLiteral("perClass")
                                         : QStringLiteral("fraction") },
        { QStringLiteral("labeledFraction"), m_fraction->value() },
        { QStringLiteral("labeledPerClass"), m_perClass->value() },
        { QStringLiteral("replicates"), m_replicates->value() },
        { QStringLiteral("clusterMode"), m_clusterMode->currentData() },
        { QStringLiteral("cosine"), m_cosine->isChecked() },
    };
}

void ParameterPanel::setValues(const QVariantMap& stored)
{
    m_settingValues = true;
    QVariantMap v = defaults(m_method);
    for (auto it = stored.constBegin(); it != stored.constEnd(); ++it)
        if (v.contains(it.key()))
            v.insert(it.key(), it.value());
    const auto number = [&v](const char* key) { return v.value(QLatin1String(key)).toDouble(); };
    const auto integer = [&v](const char* key) { return v.value(QLatin1String(key)).toInt(); };
    const auto flag = [&v](const char* key) { return v.value(QLatin1String(key)).toBool(); };

    m_lambda->setValue(number("lambda"));
    m_beta->setValue(number("beta"));
    m_mu->setValue(number("mu"));
    m_innerSteps->setValue(integer("innerSteps"));
    m_paperVariant->setChecked(flag("paperVariant"));
    m_p->setValue(integer("p"));
    selectData(m_weight, v.value(QStringLiteral("weight")));
    m_heatTAuto->setChecked(flag("heatTAuto"));
    m_heatT->setValue(number("heatT"));
    selectData(m_kernel, v.value(QStringLiteral("kernel")));
    m_degree->setValue(number("degree"));
    m_offset->setValue(number("offset"));
    m_sigmaAuto->setChecked(flag("sigmaAuto"));
    m_sigma->setValue(number("sigma"));
    m_generalForm->setChecked(flag("generalForm"));
    m_ncw->setChecked(flag("ncw"));
    m_normalizeEach->setChecked(flag("normalizeEach"));
    selectData(m_init, v.value(QStringLiteral("init")));
    selectData(m_algorithm, v.value(QStringLiteral("algorithm")));
    (v.value(QStringLiteral("labelMode")).toString() == u"perClass" ? m_perClassRadio
                                                                    : m_fractionRadio)
        ->setChecked(true);
    m_fraction->setValue(number("labeledFraction"));
    m_perClass->setValue(integer("labeledPerClass"));
    m_replicates->setValue(integer("replicates"));
    selectData(m_clusterMode, v.value(QStringLiteral("clusterMode")));
    m_cosine->setChecked(flag("cosine"));
    updateVisibility();
    m_settingValues = false;
    Q_EMIT changed();
}

void ParameterPanel::restoreDefaults()
{
    setValues({});
}

void ParameterPanel::applyTo(RunOptions& options) const
{
    const auto has = [this](Parameter parameter) { return m_parameters.testFlag(parameter); };
    MethodOptions& o = options.params;
    if (has(Parameter::Lambda))
        o.lambda = m_lambda->value();
    if (has(Parameter::Beta))
        o.beta = m_beta->value();
    if (has(Parameter::Mu))
        o.mu = m_mu->value();
    if (has(Parameter::InnerSteps))
        o.innerSteps = m_innerSteps->value();
    if (has(Parameter::PaperVariant))
        o.paperVariant = m_paperVariant->isChecked();
    if (has(Parameter::Neighbours))
        o.p = m_p->value();
    if (has(Parameter::GraphWeight)) {
        o.weight = graphWeight(m_weight->currentData().toString());
        if (o.weight == GraphWeight::Heat && !m_heatTAuto->isChecked())
            o.heatT = m_heatT->value();
    }
    if (has(Parameter::Kernel)) {
        o.kernel = kernelKind(m_kernel->currentData().toString());
        if (o.kernel == KernelKind::Polynomial) {
            o.degree = m_degree->value();
            o.offset = m_offset->value();
        }
        if (o.kernel == KernelKind::Gaussian && !m_sigmaAuto->isChecked())
            o.sigma = m_sigma->value();
    }
    if (has(Parameter::GeneralForm))
        o.generalForm = m_generalForm->isChecked();
    if (has(Parameter::Ncw))
        o.ncw = m_ncw->isChecked();
    if (has(Parameter::NormalizeEach))
        o.normalizeEach = m_normalizeEach->isChecked();
    if (has(Parameter::Init) && m_init->currentData().toString() != u"default") {
        o.init = initKind(m_init->currentData().toString());
        o.initSet = true;
    }
    if (has(Parameter::Algorithm) && m_algorithm->currentData().toString() != u"default")
        o.algorithm = parseAlgorithm(m_algorithm->currentData().toString().toStdString());
    // Without labels the semi-supervised method gets none (a fraction would be refused).
    if (has(Parameter::Labels) && m_labelsAvailable) {
        if (m_perClassRadio->isChecked())
            options.labeledPerClass = m_perClass->value();
        else
            options.labeledFraction = m_fraction->value();
    }
    if (has(Parameter::Replicates))
        options.driver.replicates = m_replicates->value();
    if (has(Parameter::ClusterMode))
        options.cluster.mode = m_clusterMode->currentData().toString() == u"argmax"
            ? ClusterMode::ArgMax
            : ClusterMode::KMeans;
    if (has(Parameter::Cosine))
        options.cluster.cosine
            = m_cosine->isChecked() && options.cluster.mode == ClusterMode::KMeans;
}

void ParameterPanel::saveSettings(QSettings& settings) const
{
    QHash<QString, QVariantMap> all = m_stored;
    if (!m_method.isEmpty())
        all.insert(m_method, values());
    settings.beginGroup(kSettingsGroup);
    for (auto method = all.constBegin(); method != all.constEnd(); ++method) {
        settings.beginGroup(method.key());
        for (auto it = method->constBegin(); it != method->constEnd(); ++it)
            settings.setValue(it.key(), it.value());
        settings.endGroup();
    }
    settings.endGroup();
}

void ParameterPanel::restoreSettings(QSettings& settings)
{
    settings.beginGroup(kSettingsGroup);
    for (const QString& method : settings.childGroups()) {
        settings.beginGroup(method);
        QVariantMap stored;
        for (const QString& key : settings.childKeys())
            stored.insert(key, settings.value(key));
        m_stored.insert(method, stored);
        settings.endGroup();
    }
    settings.endGroup();
    setValues(m_stored.value(m_method));
}

void ParameterPanel::setLambda(double lambda)
{
    m_lambda->setValue(lambda);
}

void ParameterPanel::setBeta(double beta)
{
    m_beta->setValue(beta);
}

void ParameterPanel::setMu(double mu)
{
    m_mu->setValue(mu);
}

void ParameterPanel::setNeighbours(int p)
{
    m_p->setValue(p);
}

void ParameterPanel::setLabeledFraction(double fraction)
{
    m_fractionRadio->setChecked(true);
    m_fraction->setValue(fraction);
}

void ParameterPanel::setLabeledPerClass(int count)
{
    m_perClassRadio->setChecked(true);
    m_perClass->setValue(count);
}

} // namespace facet
