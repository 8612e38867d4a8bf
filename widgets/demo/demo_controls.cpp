// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/demo_controls.h"

#include "controls/log_slider.h"
#include "controls/method_parameters.h"
#include "data/synthetic.h"
#include "methods/registry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace facet {

namespace {

// METHODS.md 1.3: lambda on a log scale from 1e-2 to 1e4.
constexpr double kLambdaMinimum = 1e-2;
constexpr double kLambdaMaximum = 1e4;
// Section 7's pair: NMF on the left, LCF on the right.
QString defaultMethod(int side)
{
    return side == 0 ? QStringLiteral("nmf") : QStringLiteral("lcf");
}

} // namespace

QStringList DemoControls::demoMethods()
{
    QStringList names;
    for (const MethodInfo& info : methodCatalog())
        if (!info.baseline && !info.semiSupervised)
            names << QString::fromStdString(info.name);
    return names;
}

DemoControls::DemoControls(QWidget* parent)
    : QWidget(parent)
    , m_rank(new QSpinBox)
    , m_count(new QSpinBox)
    , m_seed(new QSpinBox)
    , m_animate(new QCheckBox(tr("Animate")))
{
    const GaussiansOptions defaults;

    auto* dataBox = new QGroupBox(tr("Data: 3 Gaussians (drag their centres in the plots)"));
    auto* spreads = new QHBoxLayout;
    for (int c = 0; c < kComponents; ++c) {
        auto* spin = new QDoubleSpinBox;
        spin->setObjectName(QStringLiteral("demoSpread%1").arg(c + 1));
        spin->setRange(0.05, 4.0);
        spin->setSingleStep(0.1);
        spin->setDecimals(2);
        spin->setValue(
            c < int(defaults.components.size()) ? defaults.components[std::size_t(c)].spread : 0.8);
        spin->setToolTip(tr("Standard deviation of Gaussian %1 (isotropic)").arg(c + 1));
        spin->setPrefix(QStringLiteral("%1: ").arg(c + 1));
        m_spreads[std::size_t(c)] = spin;
        spreads->addWidget(spin);
        connect(spin, &QDoubleSpinBox::valueChanged, this, &DemoControls::dataChanged);
    }
    m_count->setObjectName(QStringLiteral("demoCount"));
    m_count->setRange(kComponents * 10, 1000);
    m_count->setSingleStep(10);
    m_count->setValue(defaults.count);
    m_count->setToolTip(tr("Points in all, split evenly over the Gaussians"));
    m_seed->setObjectName(QStringLiteral("demoSeed"));
    m_seed->setRange(0, 1000000);
    m_seed->setValue(int(defaults.seed));
    m_seed->setToolTip(tr("Seeds both the points and the factorizations' random starts"));
    auto* dataForm = new QFormLayout(dataBox);
    dataForm->addRow(tr("Spreads"), spreads);
    auto* countSeed = new QHBoxLayout;
    countSeed->addWidget(m_count);
    countSeed->addWidget(new QLabel(tr("Seed")));
    countSeed->addWidget(m_seed);
    dataForm->addRow(tr("Points"), countSeed);
    connect(m_count, &QSpinBox::valueChanged, this, &DemoControls::dataChanged);
    connect(m_seed, &QSpinBox::valueChanged, this, &DemoControls::dataChanged);

    auto* run = new QGroupBox(tr("Both sides"));
    m_rank->setObjectName(QStringLiteral("demoRank"));
    m_rank->setRange(1, 10);
    m_rank->setValue(3);
    m_rank->setToolTip(tr("k, the number of basis vectors; k > 2 is overcomplete in the plane"));
    m_animate->setObjectName(QStringLiteral("demoAnimate"));
    m_animate->setToolTip(tr("After each run, replay how the basis vectors moved, iteration by "
                             "iteration"));
    auto* runForm = new QFormLayout(run);
    runForm->addRow(tr("Rank k"), m_rank);
    runForm->addRow(m_animate);
    connect(m_rank, &QSpinBox::valueChanged, this, &DemoControls::rankChanged);
    connect(m_animate, &QCheckBox::toggled, this, &DemoControls::animateToggled);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 4, 4, 4);
    row->addWidget(makeSide(0), 2);
    row->addWidget(dataBox, 2);
    row->addWidget(run, 1);
    row->addWidget(makeSide(1), 2);
}

QWidget* DemoControls::makeSide(int side)
{
    auto* box = new QGroupBox(side == 0 ? tr("Left panel") : tr("Right panel"));
    auto* combo = new QComboBox;
    combo->setObjectName(QStringLiteral("demoMethod%1").arg(side));
    for (const QString& name : demoMethods()) {
        combo->addItem(name.toUpper(), name);
        if (const MethodInfo* info = findMethod(name.toStdString()))
            combo->setItemData(combo->count() - 1,
                QString::fromStdString(info->title + "\n" + info->objective), Qt::ToolTipRole);
    }
    auto* lambda = new LogSlider(kLambdaMinimum, kLambdaMaximum);
    lambda->setObjectName(QStringLiteral("demoLambda%1").arg(side));
    m_methods[std::size_t(side)] = combo;
    m_lambdas[std::size_t(side)] = lambda;

    auto* form = new QFormLayout(box);
    form->addRow(tr("Method"), combo);
    form->addRow(tr("λ"), lambda);
    setMethod(side, defaultMethod(side));
    onMethodChanged(side);
    connect(combo, &QComboBox::currentIndexChanged, this, [this, side] {
        onMethodChanged(side);
        Q_EMIT sideChanged(side);
    });
    connect(lambda, &LogSlider::valueChanged, this, [this, side] { Q_EMIT sideChanged(side); });
    return box;
}

void DemoControls::onMethodChanged(int side)
{
    const QString name = method(side);
    LogSlider* lambda = m_lambdas[std::size_t(side)];
    const bool hasLambda = methodParameters(name).testFlag(Parameter::Lambda);
    {
        // The method's own default (METHODS.md: LCF 0.3, LCCF/GNMF 100, CF_OGL 1); one
        // sideChanged() for the change of method, not a second one for its lambda.
        const QSignalBlocker blocker(lambda);
        lambda->setValue(defaultLambda(name));
    }
    lambda->setEnabled(hasLambda);
    lambda->setToolTips(hasLambda ? tr("Regularization weight λ of %1").arg(name.toUpper())
                                  : tr("%1 has no λ").arg(name.toUpper()));
}

QString DemoControls::method(int side) const
{
    return m_methods[std::size_t(side)]->currentData().toString();
}

void DemoControls::setMethod(int side, const QString& name)
{
    const int index = m_methods[std::size_t(side)]->findData(name);
    if (index >= 0)
        m_methods[std::size_t(side)]->setCurrentIndex(index);
}

std::optional<double> DemoControls::lambda(int side) const
{
    if (!methodParameters(method(side)).testFlag(Parameter::Lambda))
        return std::nullopt;
    return m_lambdas[std::size_t(side)]->value();
}

int DemoControls::rank() const
{
    return m_rank->value();
}

double DemoControls::spread(int component) const
{
    return m_spreads[std::size_t(component)]->value();
}

int DemoControls::pointCount() const
{
    return m_count->value();
}

std::uint64_t DemoControls::seed() const
{
    return std::uint64_t(m_seed->value());
}

bool DemoControls::animate() const
{
    return m_animate->isChecked();
}

} // namespace facet
