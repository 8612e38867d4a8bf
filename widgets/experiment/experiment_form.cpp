// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment_form.h"

#include "core/driver.h"
#include "experiment/method_parameter_text.h"
#include "methods/registry.h"
#include "util/choices.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QWidget* row(QWidget* a, QWidget* b)
{
    auto* widget = new QWidget;
    // A plain QWidget may grow in height, and took the form's spare height: its fields then sat
    // below their label.
    widget->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    auto* layout = new QHBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(a);
    layout->addWidget(b, 1);
    return widget;
}

} // namespace

std::optional<std::vector<int>> parseClusterCounts(const QString& text)
{
    std::set<int> values;
    for (const QString& part : text.split(u',', Qt::SkipEmptyParts)) {
        const QStringList ends = part.trimmed().split(u'-');
        bool okA = false, okB = true;
        const int a = ends.value(0).trimmed().toInt(&okA);
        const int b = ends.size() == 2 ? ends[1].trimmed().toInt(&okB) : a;
        if (!okA || !okB || ends.size() > 2 || b < a || b - a > 10000)
            return std::nullopt;
        for (int c = a; c <= b; ++c)
            values.insert(c);
    }
    if (values.empty())
        return std::nullopt;
    return std::vector<int>(values.begin(), values.end());
}

ExperimentForm::ExperimentForm(QWidget* parent)
    : QWidget(parent)
    , m_methods(new QListWidget)
    , m_protocol(new QComboBox)
    , m_protocolFields(new QStackedWidget)
    , m_labeledMode(new QComboBox)
    , m_labeledFraction(new QDoubleSpinBox)
    , m_labeledCount(new QSpinBox)
    , m_unlabeledOnly(new QCheckBox)
    , m_parameter(new QComboBox)
    , m_grid(new QLineEdit)
    , m_clusters(new QLineEdit(u"2-10"_s))
    , m_trials(new QSpinBox)
    , m_rankOffset(new QComboBox)
    , m_subruns(new QSpinBox)
    , m_selection(new QComboBox)
    , m_maxIter(new QSpinBox)
    , m_maxIterDefault(kDefaultMaxIterations)
    , m_algorithm(new QComboBox)
    , m_methodParameters(new QLineEdit)
    , m_seed(new QSpinBox)
    , m_threads(new QSpinBox)
{
    m_methods->setObjectName(u"experimentMethods"_s);
    for (const MethodInfo& info : methodCatalog()) {
        auto* item = new QListWidgetItem(QString::fromStdString(info.name), m_methods);
        item->setToolTip(QString::fromStdString(info.title));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(
            info.name == "kmeans" || info.name == "nmf" ? Qt::Checked : Qt::Unchecked);
    }
    m_methods->setMaximumHeight(m_methods->sizeHintForRow(0) * 6 + 2 * m_methods->frameWidth());

    m_protocol->setObjectName(u"experimentProtocol"_s);
    m_protocol->addItems({ tr("Unsupervised"), tr("Semi-supervised"), tr("Parameter sweep") });
    m_labeledMode->addItems({ tr("Fraction per class"), tr("Count per class") });
    m_labeledFraction->setRange(0.01, 0.99);
    m_labeledFraction->setSingleStep(0.05);
    m_labeledFraction->setValue(0.3); // METHODS.md 6's example, and the explorer's default
    m_labeledCount->setRange(1, 100000);
    m_labeledCount->setValue(3);
    m_labeledCount->setVisible(false);
    m_unlabeledOnly->setObjectName(u"experimentUnlabeledOnly"_s);
    m_unlabeledOnly->setText(tr("Score the unlabelled samples only"));
    m_unlabeledOnly->setToolTip(tr("AC and NMI on the samples whose labels the method did not "
                                   "see (facet-cli sweep --evaluate unlabeled); else on all"));
    auto* labeled = new QWidget;
    auto* labeledColumn = new QVBoxLayout(labeled);
    labeledColumn->setContentsMargins(0, 0, 0, 0);
    auto* labeledLayout = new QHBoxLayout;
    labeledLayout->addWidget(m_labeledMode);
    labeledLayout->addWidget(m_labeledFraction, 1);
    labeledLayout->addWidget(m_labeledCount, 1);
    labeledColumn->addLayout(labeledLayout);
    labeledColumn->addWidget(m_unlabeledOnly);
    m_parameter->setObjectName(u"experimentParameter"_s);
    m_parameter->addItems({ u"lambda"_s, u"p"_s, u"beta"_s, u"rank"_s });
    m_grid->setObjectName(u"experimentGrid"_s);
    m_grid->setPlaceholderText(tr("grid, e.g. 0.01, 0.1, 1, 10"));
    m_grid->setText(u"0.01, 0.1, 1, 10"_s);
    m_protocolFields->addWidget(new QWidget);
    m_protocolFields->addWidget(labeled);
    m_protocolFields->addWidget(row(m_parameter, m_grid));

    m_clusters->setObjectName(u"experimentClusters"_s);
    m_clusters->setToolTip(tr("Cluster counts c: a range \"2-10\" or a list \"2, 4, 8\""));
    m_trials->setObjectName(u"experimentTrials"_s);
    m_trials->setRange(1, 10000);
    m_trials->setValue(10);
    m_rankOffset->setObjectName(u"experimentRankOffset"_s);
    m_rankOffset->addItems({ tr("k = c"), tr("k = c + 1") });
    m_rankOffset->setToolTip(tr("The rank each cell factorizes with, from its cluster count c "
                                "(facet-cli sweep --rank-offset); a sweep over the rank sets "
                                "it itself"));
    m_subruns->setRange(1, 1000);
    m_subruns->setToolTip(tr("Full random restarts per trial; one of them is kept"));
    m_selection->addItems({ tr("Lowest objective"), tr("Best accuracy (oracle selection)") });
    m_selection->setToolTip(tr("How a trial keeps one of its sub-runs: by the objective of the "
                               "factors it returned, or by accuracy, which looks at the true "
                               "labels: the papers' optimistic oracle selection."));
    m_maxIter->setObjectName(u"experimentMaxIterations"_s);
    m_maxIter->setRange(1, 10000000);
    m_maxIter->setGroupSeparatorShown(true);
    m_maxIter->setValue(kDefaultMaxIterations);
    m_maxIter->setToolTip(tr("Every cell stops after this many iterations even when not "
                             "converged (facet-cli sweep --max-iter); the table counts the "
                             "trials that did"));
    m_algorithm->setObjectName(u"experimentAlgorithm"_s);
    m_algorithm->addItem(tr("Each method's default"));
    for (const Choice<Algorithm>& choice : kAlgorithmChoices)
        m_algorithm->addItem(choice.name.toString());
    m_algorithm->setToolTip(tr("How every method minimizes its objective (facet-cli sweep "
                               "--algorithm): mu, the papers' multiplicative rules; hals; and "
                               "both with extrapolation (-ex)"));
    m_methodParameters->setObjectName(u"experimentMethodParameters"_s);
    m_methodParameters->setPlaceholderText(tr("each method's defaults, e.g. lambda=100, p=5"));
    m_methodParameters->setToolTip(
        tr("Parameters every cell runs with, as facet-cli sweep's flags: NAME=VALUE, separated "
           "by commas; a switch alone turns it on. Names: %1")
            .arg(methodParameterNames().join(u", "_s)));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_threads->setObjectName(u"experimentThreads"_s);
    m_threads->setRange(0, 256);
    m_threads->setSpecialValueText(tr("one per core"));

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Preset"), makePresetRow());
    form->addRow(tr("Methods"), m_methods);
    form->addRow(tr("Protocol"), m_protocol);
    form->addRow(QString(), m_protocolFields);
    form->addRow(tr("Clusters c"), m_clusters);
    form->addRow(tr("Trials"), m_trials);
    form->addRow(tr("Rank"), m_rankOffset);
    form->addRow(tr("Sub-runs"), row(m_subruns, m_selection));
    form->addRow(tr("Max iterations"), m_maxIter);
    form->addRow(tr("Algorithm"), m_algorithm);
    form->addRow(tr("Parameters"), m_methodParameters);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Threads"), m_threads);

    connect(
        m_protocol, &QComboBox::currentIndexChanged, this, &ExperimentForm::updateProtocolFields);
    connect(m_labeledMode, &QComboBox::currentIndexChanged, this,
        &ExperimentForm::updateProtocolFields);
    connect(m_subruns, &QSpinBox::valueChanged, this, &ExperimentForm::updateProtocolFields);
    connect(
        m_parameter, &QComboBox::currentIndexChanged, this, &ExperimentForm::updateProtocolFields);
    connect(m_methods, &QListWidget::itemChanged, this, &ExperimentForm::changed);
    connect(m_clusters, &QLineEdit::textChanged, this, &ExperimentForm::changed);
    updateProtocolFields();
}

void ExperimentForm::updateProtocolFields()
{
    m_protocolFields->setCurrentIndex(m_protocol->currentIndex());
    m_protocolFields->setVisible(m_protocol->currentIndex() != Unsupervised);
    const bool fraction = m_labeledMode->currentIndex() == 0;
    m_labeledFraction->setVisible(fraction);
    m_labeledCount->setVisible(!fraction);
    m_selection->setEnabled(m_subruns->value() > 1);
    m_rankOffset->setEnabled(
        m_protocol->currentIndex() != ParameterSweep || m_parameter->currentText() != u"rank"_s);
    Q_EMIT changed();
}

void ExperimentForm::setClassCount(int classes)
{
    m_classes = classes;
    if (classes >= 2)
        m_clusters->setText(u"2-%1"_s.arg(std::min(classes, 10)));
}

void ExperimentForm::setCheckedMethods(const QStringList& methods)
{
    for (int i = 0; i < m_methods->count(); ++i) {
        QListWidgetItem* item = m_methods->item(i);
        item->setCheckState(methods.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
    }
}

void ExperimentForm::setClusterCounts(const QString& text)
{
    m_clusters->setText(text);
}

void ExperimentForm::setTrials(int trials)
{
    m_trials->setValue(trials);
}

void ExperimentForm::setDefaultMaxIterations(int iterations)
{
    if (m_maxIter->value() == m_maxIterDefault)
        m_maxIter->setValue(iterations);
    m_maxIterDefault = iterations;
}

void ExperimentForm::setMaxIterations(int iterations)
{
    m_maxIter->setValue(iterations);
}

int ExperimentForm::threads() const
{
    return m_threads->value();
}

std::optional<ExperimentOptions> ExperimentForm::options(QString* error) const
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    ExperimentOptions o;
    const Result<RunOptions> base = parseMethodParameters(m_methodParameters->text());
    if (!base)
        return fail(base.error());
    o.base = *base;
    o.base.driver.maxIter = m_maxIter->value();
    // The driver never stops before minIter; a short limit asked for here should hold.
    o.base.driver.minIter = std::min(o.base.driver.minIter, o.base.driver.maxIter);
    if (m_algorithm->currentIndex() > 0)
        o.base.params.algorithm
            = kAlgorithmChoices[std::size_t(m_algorithm->currentIndex() - 1)].value;
    for (int i = 0; i < m_methods->count(); ++i)
        if (m_methods->item(i)->checkState() == Qt::Checked)
            o.methods.push_back(m_methods->item(i)->text().toStdString());
    if (o.methods.empty())
        return fail(tr("Check at least one method."));
    if (o.base.params.algorithm)
        for (const std::string& method : o.methods)
            if (const MethodInfo* info = findMethod(method);
                info && !info->baseline && !supportsAlgorithm(method, *o.base.params.algorithm))
                return fail(
                    QString::fromStdString(algorithmRefusal(method, *o.base.params.algorithm)));
    const std::optional<std::vector<int>> clusters = parseClusterCounts(m_clusters->text());
    if (!clusters)
        return fail(tr("Cluster counts: write a range such as 2-10 or a list such as 2, 4, 8."));
    o.clusterCounts = *clusters;
    o.trials = m_trials->value();
    o.subruns = m_subruns->value();
    o.selection
        = m_selection->currentIndex() == 1 ? SubrunSelection::Accuracy : SubrunSelection::Objective;
    o.seed = std::uint64_t(m_seed->value());
    if (m_rankOffset->isEnabled())
        o.rankOffset = m_rankOffset->currentIndex();
    if (m_protocol->currentIndex() == SemiSupervised) {
        if (m_labeledMode->currentIndex() == 0)
            o.labeledFraction = m_labeledFraction->value();
        else
            o.labeledPerClass = m_labeledCount->value();
        if (m_unlabeledOnly->isChecked())
            o.evaluate = EvaluateOn::Unlabeled;
    } else if (m_protocol->currentIndex() == ParameterSweep) {
        o.parameter = sweepParameterFromName(m_parameter->currentText().toStdString());
        for (const QString& part : m_grid->text().split(u',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const double value = part.trimmed().toDouble(&ok);
            if (!ok)
                return fail(tr("Grid: '%1' is not a number.").arg(part.trimmed()));
            o.parameterValues.push_back(value);
        }
        if (o.parameterValues.empty())
            return fail(tr("Give the grid of the parameter sweep, e.g. 0.01, 0.1, 1."));
    }
    try {
        validateExperiment(o, m_classes);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    return o;
}

} // namespace facet
