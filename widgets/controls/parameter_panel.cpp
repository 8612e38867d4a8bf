// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel's widgets, their rows and the signal of a user's edit. Which of them the
// chosen method shows is in parameter_panel_method.cpp; the values, their defaults, settings and
// RunOptions are in parameter_panel_values.cpp.
#include "controls/parameter_panel.h"

#include "controls/log_slider.h"
#include "controls/log_spin_box.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace facet {

namespace {

// A field of two widgets side by side (an "auto" check box and its value, a combo and a check
// box), as one widget so a form row can be shown and hidden as a whole.
QWidget* pair(QWidget* first, QWidget* second, bool secondGrows = true)
{
    auto* field = new QWidget;
    auto* layout = new QHBoxLayout(field);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(first, secondGrows ? 0 : 1);
    layout->addWidget(second, secondGrows ? 1 : 0);
    return field;
}

} // namespace

ParameterPanel::ParameterPanel(QWidget* parent)
    : QWidget(parent)
{
    createWidgets();
    createLayout();
    connectChanges();
    setLabelsAvailable(false);
}

void ParameterPanel::createWidgets()
{
    // METHODS.md 1.3: lambda on a log scale from 1e-2 to 1e4; beta and mu over six decades
    // around their defaults (0.1, 1).
    m_lambda = new LogSlider(1e-2, 1e4);
    m_lambda->setObjectName(QStringLiteral("lambdaSlider"));
    m_beta = new LogSlider(1e-3, 1e3);
    m_beta->setObjectName(QStringLiteral("betaSlider"));
    m_beta->setToolTips(tr("β, the starting weight of the spectral term β Tr(F^T L_Q F); it is "
                           "self-tuned during the run (doubled or halved until Q has c "
                           "components). Log scale 0.001 to 1000, default 0.1"));
    m_mu = new LogSlider(1e-3, 1e3);
    m_mu->setObjectName(QStringLiteral("muSlider"));
    m_mu->setToolTips(tr("μ, the weight of the reconstruction term μ ||X - X W V^T||^2. Log "
                         "scale 0.001 to 1000, default 1"));
    m_innerSteps = new QSpinBox;
    m_innerSteps->setObjectName(QStringLiteral("innerStepsSpin"));
    m_innerSteps->setRange(1, 1000);
    m_innerSteps->setToolTip(
        tr("Multiplicative LCCF steps on W and V in every outer iteration (default 10)"));
    m_paperVariant = new QCheckBox(tr("paper variant"));
    m_paperVariant->setObjectName(QStringLiteral("paperVariantCheck"));
    m_paperVariant->setToolTip(
        tr("Update Q without the λ |v_i - v_j|^2 term, as the paper prints it. This breaks "
           "monotonicity: the objective may rise from one iteration to the next."));

    m_p = new QSpinBox;
    m_p->setObjectName(QStringLiteral("neighboursSpin"));
    m_p->setRange(1, 50);
    m_weight = new QComboBox;
    m_weight->setObjectName(QStringLiteral("weightCombo"));
    m_weight->addItem(tr("binary weights"), QStringLiteral("binary"));
    m_weight->addItem(tr("heat weights"), QStringLiteral("heat"));
    m_weight->addItem(tr("cosine weights"), QStringLiteral("cosine"));
    m_weight->setToolTip(tr("Edge weights of the kNN graph: binary 1 (the usual choice for "
                            "L2-normalized images), heat exp(-|x_i - x_j|^2 / (2 t^2)) or cosine "
                            "x_i^T x_j / (|x_i| |x_j|)"));
    m_heatTAuto = new QCheckBox(tr("auto"));
    m_heatTAuto->setObjectName(QStringLiteral("heatTAutoCheck"));
    m_heatTAuto->setToolTip(
        tr("t = the mean pairwise distance (over at most 3000 sampled points)"));
    m_heatT = new LogSpinBox;
    m_heatT->setObjectName(QStringLiteral("heatTSpin"));
    m_heatT->setRange(1e-4, 1e6);
    m_heatT->setToolTip(tr("t, the width of the heat kernel"));

    m_kernel = new QComboBox;
    m_kernel->setObjectName(QStringLiteral("kernelCombo"));
    m_kernel->addItem(tr("linear"), QStringLiteral("linear"));
    m_kernel->addItem(tr("polynomial"), QStringLiteral("poly"));
    m_kernel->addItem(tr("Gaussian"), QStringLiteral("gauss"));
    m_kernel->setToolTip(tr("The kernel K of the concept factorization: linear X^T X, "
                            "polynomial (x_i^T x_j + c0)^d or Gaussian "
                            "exp(-|x_i - x_j|^2 / (2 σ^2))"));
    m_degree = new QDoubleSpinBox;
    m_degree->setObjectName(QStringLiteral("degreeSpin"));
    m_degree->setRange(1, 10);
    m_degree->setDecimals(1);
    m_degree->setToolTip(tr("d, the degree of the polynomial kernel (paper: 2)"));
    m_offset = new QDoubleSpinBox;
    m_offset->setObjectName(QStringLiteral("offsetSpin"));
    m_offset->setRange(-1000, 1000);
    m_offset->setDecimals(3);
    m_offset->setToolTip(tr("c0, the offset of the polynomial kernel (paper: 0)"));
    m_sigmaAuto = new QCheckBox(tr("auto"));
    m_sigmaAuto->setObjectName(QStringLiteral("sigmaAutoCheck"));
    m_sigmaAuto->setToolTip(tr("σ = the mean pairwise distance"));
    m_sigma = new LogSpinBox;
    m_sigma->setObjectName(QStringLiteral("sigmaSpin"));
    m_sigma->setRange(1e-4, 1e6);
    m_sigma->setToolTip(tr("σ, the width of the Gaussian kernel"));
    m_generalForm = new QCheckBox(tr("General form"));
    m_generalForm->setObjectName(QStringLiteral("generalFormCheck"));
    m_generalForm->setToolTip(tr("The general form (K = K+ - K-): use the updates for kernels with "
                                 "negative entries even when "
                                 "K >= 0 (they give the same result then). They are chosen "
                                 "automatically when min(K) < 0."));
    m_ncw = new QCheckBox(tr("NCW"));
    m_ncw->setObjectName(QStringLiteral("ncwCheck"));
    m_ncw->setToolTip(tr("Normalized-cut weighting: factorize Γ^(1/2) K Γ^(1/2) with Γ = diag(K "
                         "1)^(-1) and map the factors "
                         "back (METHODS.md 1.7)"));
    m_normalizeEach = new QCheckBox(tr("Normalize each iteration (not monotone)"));
    m_normalizeEach->setObjectName(QStringLiteral("normalizeEachCheck"));
    m_normalizeEach->setToolTip(
        tr("Scale each column of V to unit length after every iteration, as the authors' MATLAB "
           "code does. This changes the objective, so the curve is no longer monotone."));

    m_init = new QComboBox;
    m_init->setObjectName(QStringLiteral("initCombo"));
    m_init->addItem(tr("default"), QStringLiteral("default"));
    m_init->addItem(tr("random"), QStringLiteral("random"));
    m_init->addItem(tr("NNDSVD"), QStringLiteral("nndsvd"));
    m_init->addItem(tr("short NMF run"), QStringLiteral("nmf"));
    m_init->addItem(tr("k-means"), QStringLiteral("kmeans"));
    m_init->setToolTip(tr("How the factors start: uniform random in [0, 1) from the seed, NNDSVD, "
                          "the factors of a short NMF run, or one k-means run (each basis "
                          "vector starts at a centroid)"));

    m_algorithm = new QComboBox;
    m_algorithm->setObjectName(QStringLiteral("algorithmCombo"));
    m_algorithm->addItem(tr("default"), QStringLiteral("default"));
    m_algorithm->addItem(tr("multiplicative rules (mu)"), QStringLiteral("mu"));
    m_algorithm->addItem(tr("coordinate descent (hals)"), QStringLiteral("hals"));
    m_algorithm->addItem(tr("mu with extrapolation (mu-ex)"), QStringLiteral("mu-ex"));
    m_algorithm->addItem(tr("hals with extrapolation (hals-ex)"), QStringLiteral("hals-ex"));
    m_algorithm->setToolTip(
        tr("How the objective is minimized. mu: the paper's multiplicative rules, exactly as "
           "published. hals: accelerated coordinate descent (NMF, GNMF, SemiGNMF). -ex: each "
           "step starts from an extrapolation of the last two, kept only when it lowers the "
           "objective. All reach the same objective's solution; the fast ones in far fewer "
           "iterations."));

    m_labelMode = new QButtonGroup(this);
    m_fractionRadio = new QRadioButton(tr("Fraction"));
    m_fractionRadio->setObjectName(QStringLiteral("labeledFractionRadio"));
    m_fractionRadio->setToolTip(tr("Give the method the labels of this fraction of each class"));
    m_perClassRadio = new QRadioButton(tr("Per class"));
    m_perClassRadio->setObjectName(QStringLiteral("labeledPerClassRadio"));
    m_perClassRadio->setToolTip(tr("Give the method the labels of this many samples per class"));
    m_labelMode->addButton(m_fractionRadio);
    m_labelMode->addButton(m_perClassRadio);
    m_fraction = new QDoubleSpinBox;
    m_fraction->setObjectName(QStringLiteral("labeledFractionSpin"));
    m_fraction->setRange(0.01, 0.99);
    m_fraction->setSingleStep(0.05);
    m_fraction->setToolTip(tr("Fraction of each class whose labels are known (0.01 to 0.99); "
                              "the samples are drawn with the seed"));
    m_perClass = new QSpinBox;
    m_perClass->setObjectName(QStringLiteral("labeledPerClassSpin"));
    m_perClass->setRange(1, 10000);
    m_perClass->setToolTip(tr("Known labels per class (all of a smaller class); the samples are "
                              "drawn with the seed"));
    m_labelsNote = new QLabel;
    m_labelsNote->setObjectName(QStringLiteral("labelsNote"));
    m_labelsNote->setWordWrap(true);

    m_replicates = new QSpinBox;
    m_replicates->setObjectName(QStringLiteral("replicatesSpin"));
    m_replicates->setRange(1, 100);
    m_replicates->setToolTip(tr("Restarts: run this many seeded starts for the minimum number of "
                                "iterations and continue the one with the lowest objective"));
    m_clusterMode = new QComboBox;
    m_clusterMode->setObjectName(QStringLiteral("clusterModeCombo"));
    m_clusterMode->addItem(tr("k-means"), QStringLiteral("kmeans"));
    m_clusterMode->addItem(tr("argmax"), QStringLiteral("argmax"));
    m_clusterMode->setToolTip(tr("How samples become clusters: k-means on the rows of V (20 "
                                 "replicates), or the largest entry of each row (argmax)"));
    m_cosine = new QCheckBox(tr("cosine"));
    m_cosine->setObjectName(QStringLiteral("cosineCheck"));

    m_defaults = new QPushButton(tr("Defaults"));
    m_defaults->setObjectName(QStringLiteral("defaultsButton"));
    m_defaults->setToolTip(tr("Reset this method's parameters to their defaults"));
}

void ParameterPanel::addRow(
    const QString& label, QWidget* field, const QList<QPair<QString, QWidget*>>& controls)
{
    if (label.isEmpty())
        m_form->addRow(field);
    else
        m_form->addRow(label, field);
    QList<QWidget*> rowControls;
    for (const auto& control : controls) {
        m_controls.append(control);
        rowControls.append(control.second);
    }
    m_rows.append({ field, rowControls });
}

void ParameterPanel::createLayout()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    m_form = new QFormLayout;
    layout->addLayout(m_form);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_form->setVerticalSpacing(4); // a method like LCCF shows many rows

    const auto key = [](const char* name) { return QString::fromLatin1(name); };
    addRow(tr("&Lambda λ:"), m_lambda, { { key("lambda"), m_lambda } });
    addRow(tr("&Beta β:"), m_beta, { { key("beta"), m_beta } });
    addRow(tr("M&u μ:"), m_mu, { { key("mu"), m_mu } });
    addRow(tr("Inner steps:"), pair(m_innerSteps, m_paperVariant, false),
        { { key("innerSteps"), m_innerSteps }, { key("paperVariant"), m_paperVariant } });
    addRow(tr("Neighbours &p:"), pair(m_p, m_weight),
        { { key("p"), m_p }, { key("weight"), m_weight } });
    QWidget* heatT = pair(m_heatTAuto, m_heatT);
    addRow(tr("Heat t:"), heatT, { { key("heatT"), heatT } });
    addRow(tr("&Kernel:"), m_kernel, { { key("kernel"), m_kernel } });
    addRow(tr("Degree d:"), m_degree, { { key("degree"), m_degree } });
    addRow(tr("Offset c0:"), m_offset, { { key("offset"), m_offset } });
    QWidget* sigma = pair(m_sigmaAuto, m_sigma);
    addRow(tr("Width σ:"), sigma, { { key("sigma"), sigma } });

    // At most two of these apply to one method (CF: general form and NCW), so they share a row.
    auto* variants = new QWidget;
    auto* variantLayout = new QHBoxLayout(variants);
    variantLayout->setContentsMargins(0, 0, 0, 0);
    variantLayout->addWidget(m_generalForm);
    variantLayout->addWidget(m_ncw);
    variantLayout->addWidget(m_normalizeEach);
    variantLayout->addStretch(1);
    addRow({}, variants,
        { { key("generalForm"), m_generalForm }, { key("ncw"), m_ncw },
            { key("normalizeEach"), m_normalizeEach } });
    addRow(tr("S&tart:"), m_init, { { key("init"), m_init } });
    addRow(tr("Al&gorithm:"), m_algorithm, { { key("algorithm"), m_algorithm } });

    addRow(tr("R&estarts:"), m_replicates, { { key("replicates"), m_replicates } });
    addRow(tr("&Clusters:"), pair(m_clusterMode, m_cosine, false),
        { { key("clusterMode"), m_clusterMode }, { key("cosine"), m_cosine } });

    // Last, so its explanation (below the form) sits right under it. The explanation wraps and
    // lives outside the form: a word-wrapped label makes the form height-for-width, and Qt 6.4's
    // form then keeps zero heights for rows shown before the panel first appears.
    auto* labels = new QWidget;
    auto* grid = new QGridLayout(labels);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_fractionRadio, 0, 0);
    grid->addWidget(m_fraction, 0, 1);
    grid->addWidget(m_perClassRadio, 1, 0);
    grid->addWidget(m_perClass, 1, 1);
    grid->setColumnStretch(1, 1);
    addRow(tr("Labels:"), labels, { { key("labels"), labels } });

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_defaults);
    layout->addWidget(m_labelsNote);
    layout->addLayout(buttons);
}

void ParameterPanel::connectChanges()
{
    connect(m_weight, &QComboBox::currentIndexChanged, this, &ParameterPanel::updateVisibility);
    connect(m_kernel, &QComboBox::currentIndexChanged, this, &ParameterPanel::updateVisibility);
    connect(m_heatTAuto, &QCheckBox::toggled, this, &ParameterPanel::updateEnabled);
    connect(m_sigmaAuto, &QCheckBox::toggled, this, &ParameterPanel::updateEnabled);
    connect(m_fractionRadio, &QRadioButton::toggled, this, &ParameterPanel::updateEnabled);
    connect(m_clusterMode, &QComboBox::currentIndexChanged, this, &ParameterPanel::updateEnabled);
    connect(m_defaults, &QPushButton::clicked, this, &ParameterPanel::restoreDefaults);
    connect(m_normalizeEach, &QCheckBox::toggled, this, &ParameterPanel::updateAlgorithmChoices);

    // changed() for any edit by the user; setValues() (a method switch, defaults, undo) sets many
    // controls at once and announces the result once.
    const auto note = [this] {
        if (!m_settingValues)
            Q_EMIT changed();
    };
    for (LogSlider* slider : { m_lambda, m_beta, m_mu })
        connect(slider, &LogSlider::valueChanged, this, note);
    for (const auto& [key, control] : std::as_const(m_controls)) {
        if (auto* spin = qobject_cast<QSpinBox*>(control))
            connect(spin, &QSpinBox::valueChanged, this, note);
        else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(control))
            connect(dspin, &QDoubleSpinBox::valueChanged, this, note);
        else if (auto* combo = qobject_cast<QComboBox*>(control))
            connect(combo, &QComboBox::currentIndexChanged, this, note);
        else if (auto* button = qobject_cast<QAbstractButton*>(control))
            connect(button, &QAbstractButton::toggled, this, note);
    }
}

void ParameterPanel::setCurrentValues(const QVariantMap& values)
{
    setValues(values);
}

} // namespace facet
