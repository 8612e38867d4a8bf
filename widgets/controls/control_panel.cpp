// SPDX-License-Identifier: GPL-3.0-or-later
// The control panel's widgets and their state: the layout, what a run locks, the progress bar and
// what the chosen method's limits mean. The option values, undo snapshots and settings are in
// control_panel_values.cpp.
#include "controls/control_panel.h"

#include "controls/method_combo_box.h"
#include "controls/method_parameters.h"
#include "controls/parameter_panel.h"
#include "methods/registry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace facet {

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent)
    , m_dataset(new QLabel(tr("No dataset loaded.")))
    , m_method(new MethodComboBox)
    , m_objective(new QLabel)
    , m_params(new ParameterPanel)
    , m_rank(new QSpinBox)
    , m_maxIter(new QSpinBox)
    , m_maxIterLabel(new QLabel)
    , m_tolerance(new QComboBox)
    , m_stationarity(new QComboBox)
    , m_seed(new QSpinBox)
    , m_normalize(new QComboBox)
    , m_run(new QPushButton(tr("Run")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_progress(new QProgressBar)
    , m_autoRerun(new QCheckBox(tr("&Auto re-run on every change")))
    , m_result(new QLabel)
{
    m_dataset->setObjectName(QStringLiteral("datasetSummary"));
    m_dataset->setWordWrap(true);
    m_dataset->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_method->setObjectName(QStringLiteral("methodCombo"));
    // From the catalog, so a method added to the solver appears here without a GUI change.
    for (const MethodInfo& info : methodCatalog()) {
        const QString name = QString::fromStdString(info.name);
        // The label first where the title does not begin with it ("CF-OGL — CF with Optimal
        // Graph Learning"), so a combo narrower than the title still shows which method it is.
        const QString title = QString::fromStdString(info.title);
        const QString label = QString::fromStdString(methodLabel(info.name));
        m_method->addMethod(
            title.startsWith(label, Qt::CaseInsensitive) ? title : tr("%1 — %2").arg(label, title),
            label, name);
        m_method->setItemData(
            m_method->count() - 1, QString::fromStdString(info.objective), Qt::ToolTipRole);
    }
    // The objective in one line under the combo, as its tooltip says too.
    m_objective->setObjectName(QStringLiteral("methodObjective"));
    m_objective->setWordWrap(true);
    m_objective->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_objective->setForegroundRole(QPalette::PlaceholderText);
    QFont small = m_objective->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_objective->setFont(small);
    m_params->setObjectName(QStringLiteral("parameterPanel"));

    m_rank->setObjectName(QStringLiteral("rankSpin"));
    // Not bounded by the dataset: the solver states the rule when a rank does not fit.
    m_rank->setRange(1, 100000);
    m_rank->setValue(10);
    m_maxIter->setObjectName(QStringLiteral("maxIterSpin"));
    m_maxIter->setRange(1, 10000000);
    m_maxIter->setValue(kDefaultMaxIterations);
    m_maxIter->setGroupSeparatorShown(true);
    m_maxIterLabel->setBuddy(m_maxIter);
    m_tolerance->setObjectName(QStringLiteral("toleranceCombo"));
    for (double tol : { 1e-3, 1e-4, 1e-5, 1e-6, 1e-7 })
        m_tolerance->addItem(QString::number(tol, 'g', 1), tol);
    m_tolerance->addItem(tr("0 (run to the limit)"), 0.0);
    setTolerance(1e-5);
    m_stationarity->setObjectName(QStringLiteral("stationarityCombo"));
    for (double tol : { 1e-3, 1e-4, 1e-5, 1e-6 })
        m_stationarity->addItem(QString::number(tol, 'g', 1), tol);
    m_stationarity->addItem(tr("0 (off)"), 0.0);
    setStationarityTolerance(DriverOptions {}.stationarityTol);
    m_seed->setObjectName(QStringLiteral("seedSpin"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setToolTip(tr("The same seed gives the same factors"));

    m_normalize->setObjectName(QStringLiteral("normalizeCombo"));
    m_normalize->addItem(tr("auto (L2 for the CF family)"), int(SampleNormalization::Auto));
    m_normalize->addItem(tr("as loaded"), int(SampleNormalization::None));
    m_normalize->addItem(tr("L2, every method"), int(SampleNormalization::L2));
    m_normalize->setToolTip(tr("Scale every sample to unit L2 norm before the factorization "
                               "(METHODS.md 8; facet-cli run --normalize)"));

    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setToolTip(tr("Start the factorization (Ctrl+R)"));
    m_run->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setToolTip(tr("Stop after the current iteration and keep its factors (Esc)"));
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_result->setObjectName(QStringLiteral("resultSummary"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setText(tr("No run yet."));

    auto* datasetBox = new QGroupBox(tr("Dataset"));
    (new QVBoxLayout(datasetBox))->addWidget(m_dataset);

    auto* methodBox = new QGroupBox(tr("Factorization"));
    auto* form = new QFormLayout(methodBox);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setVerticalSpacing(4);
    form->addRow(tr("&Method:"), m_method);
    form->addRow(m_objective);
    m_rankField = new QStackedWidget;
    m_rankField->addWidget(m_rank);
    m_classK = new QLabel;
    m_classK->setObjectName(QStringLiteral("classKLabel"));
    m_rankField->addWidget(m_classK);
    m_rankField->setFocusProxy(m_rank);
    m_rankField->setSizePolicy(m_rank->sizePolicy());
    form->addRow(tr("&Rank k:"), m_rankField);
    form->addRow(m_maxIterLabel, m_maxIter);
    form->addRow(tr("&Tolerance:"), m_tolerance);
    form->addRow(tr("Stationarit&y:"), m_stationarity);
    form->addRow(tr("&Seed:"), m_seed);
    form->addRow(tr("Sa&mples:"), m_normalize);

    auto* parameterBox = new QGroupBox(tr("Parameters"));
    (new QVBoxLayout(parameterBox))->addWidget(m_params);

    // Run, Cancel and the progress in one row, with Auto re-run under them: the run bar, which
    // the main window keeps in view under the scrolling panel (takeRunBar).
    m_runBar = new QWidget;
    m_runBar->setObjectName(QStringLiteral("runBar"));
    auto* runBarLayout = new QVBoxLayout(m_runBar);
    runBarLayout->setContentsMargins(0, 0, 0, 0);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    runBarLayout->addLayout(buttons);
    runBarLayout->addWidget(m_autoRerun);
    m_autoRerun->setObjectName(QStringLiteral("autoRerunCheck"));
    m_autoRerun->setToolTip(tr("Cancel the running job and start a new one shortly after any "
                               "option changes, so the views follow the sliders"));

    auto* resultBox = new QGroupBox(tr("Last run"));
    (new QVBoxLayout(resultBox))->addWidget(m_result);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(datasetBox);
    layout->addWidget(methodBox);
    layout->addWidget(parameterBox);
    layout->addWidget(m_runBar);
    layout->addWidget(resultBox);
    layout->addStretch(1);

    connect(m_run, &QPushButton::clicked, this, &ControlPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ControlPanel::cancelRequested);
    connect(m_method, &QComboBox::currentIndexChanged, this, &ControlPanel::onMethodChanged);
    const auto note = [this] {
        if (!m_restoring)
            Q_EMIT optionsChanged();
    };
    connect(m_method, &QComboBox::currentIndexChanged, this, note);
    connect(m_rank, &QSpinBox::valueChanged, this, note);
    connect(m_maxIter, &QSpinBox::valueChanged, this, note);
    connect(m_tolerance, &QComboBox::currentIndexChanged, this, note);
    connect(m_stationarity, &QComboBox::currentIndexChanged, this, note);
    connect(m_seed, &QSpinBox::valueChanged, this, note);
    connect(m_normalize, &QComboBox::currentIndexChanged, this, note);
    connect(m_params, &ParameterPanel::changed, this, note);
    connect(m_autoRerun, &QCheckBox::toggled, this, [this](bool on) {
        setState(m_running, m_canRun);
        Q_EMIT autoRerunToggled(on);
    });
    m_otherIterations = kDefaultOuterIterations;
    onMethodChanged();
    resetProgress();
    setState(false, false);
}

QWidget* ControlPanel::takeRunBar()
{
    layout()->removeWidget(m_runBar);
    return m_runBar;
}

void ControlPanel::setDatasetSummary(const QString& text, const QString& toolTip)
{
    m_dataset->setText(text);
    m_dataset->setToolTip(toolTip);
}

void ControlPanel::setResultSummary(const QString& html)
{
    m_result->setText(html);
}

void ControlPanel::setState(bool running, bool canRun)
{
    m_running = running;
    m_canRun = canRun;
    m_run->setEnabled(!running && canRun);
    m_cancel->setEnabled(running);
    updateEnabled();
}

void ControlPanel::updateEnabled()
{
    const bool locked = m_running && !m_autoRerun->isChecked();
    for (QWidget* option : { static_cast<QWidget*>(m_method), static_cast<QWidget*>(m_seed),
             static_cast<QWidget*>(m_normalize), static_cast<QWidget*>(m_params) })
        option->setEnabled(!locked);
    for (QWidget* limit : { static_cast<QWidget*>(m_maxIter), static_cast<QWidget*>(m_tolerance),
             static_cast<QWidget*>(m_stationarity) })
        limit->setEnabled(!locked && m_iterationLimit);
    // k-means on a labelled set finds one cluster per class (runClusters), not k.
    const bool classesSetK = m_labels && method() == u"kmeans";
    m_rank->setEnabled(!locked && !classesSetK);
    m_rank->setToolTip(classesSetK
            ? tr("k-means finds one cluster per class of the loaded dataset, as the evaluation "
                 "protocol and facet-cli run do; k applies to sets without labels")
            : tr("k, the number of basis images"));
    // The field shows the k the run will use; the spin box keeps the rank of the other methods.
    m_classK->setText(tr("%1, one per class").arg(m_classes));
    m_classK->setToolTip(m_rank->toolTip());
    m_rankField->setCurrentWidget(classesSetK ? static_cast<QWidget*>(m_classK) : m_rank);
}

void ControlPanel::setProgress(int iteration, int maxIterations)
{
    m_progress->setRange(0, std::max(1, maxIterations));
    m_progress->setValue(std::min(iteration, std::max(1, maxIterations)));
    m_progress->setFormat(tr("%1 / %2 iterations").arg(iteration).arg(maxIterations));
}

void ControlPanel::setBusy()
{
    m_progress->setRange(0, 0);
    m_progress->setFormat(tr("running"));
}

void ControlPanel::setStageProgress(const QString& text, double fraction)
{
    constexpr int kSteps = 1000;
    const int value = int(std::clamp(fraction, 0.0, 1.0) * kSteps);
    m_progress->setRange(0, kSteps);
    m_progress->setValue(value);
    m_progress->setFormat(tr("%1 %2 %").arg(text).arg(value / 10));
}

void ControlPanel::setDone(const QString& text)
{
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    m_progress->setFormat(text);
}

void ControlPanel::setMessage(const QString& text)
{
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(text);
}

void ControlPanel::resetProgress()
{
    setMessage(tr("idle"));
}

void ControlPanel::setLabelsAvailable(bool available, const QString& datasetName, int classes)
{
    m_labels = available;
    m_classes = classes;
    m_params->setLabelsAvailable(available, datasetName);
    updateEnabled();
}

void ControlPanel::onMethodChanged()
{
    const QString objective = m_method->currentData(Qt::ToolTipRole).toString();
    // The closed box may show only the short label: the tooltip names the method in full.
    m_method->setToolTip(tr("%1\n%2").arg(m_method->currentText(), objective));
    m_objective->setText(objective);
    m_objective->setToolTip(objective);
    m_params->setMethod(method());

    const bool outer = iterationsAreOuterIterations(method());
    if (outer != m_outerIterations) {
        const int shown = m_maxIter->value();
        m_outerIterations = outer;
        m_maxIter->setValue(m_otherIterations);
        m_otherIterations = shown;
    }
    m_maxIterLabel->setText(outer ? tr("Outer &iterations:") : tr("Max &iterations:"));
    const QString stopsAlone = method() == u"pca"
        ? tr("PCA is one solve: there are no iterations to limit")
        : tr("k-means stops when no sample changes cluster (at most 100 rounds per start)");
    m_iterationLimit = stopsByIterationLimit(method());
    m_maxIter->setToolTip(!m_iterationLimit ? stopsAlone
            : outer
            ? tr("CF_OGL runs this many outer iterations, each of them inner LCCF steps, the "
                 "eigenvectors of L_Q, the Q step and the beta rule (default 30)")
            : tr("Stop after this many iterations even when not converged"));
    m_tolerance->setToolTip(!m_iterationLimit
            ? stopsAlone
            : tr("Stop when the objective fell by less than this fraction over the last 10 "
                 "iterations"));
    m_stationarity->setToolTip(!m_iterationLimit
            ? stopsAlone
            : tr("The NMF family's hals algorithms also stop once their optimality violation "
                 "(each entry's step times its curvature) fell to this fraction of its value "
                 "after the first iteration; the other algorithms do not measure it. 0 turns "
                 "the rule off."));
    updateEnabled();
}

} // namespace facet
