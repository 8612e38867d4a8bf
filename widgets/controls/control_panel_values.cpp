// SPDX-License-Identifier: GPL-3.0-or-later
// The control panel's option values: method, rank, limits, seed and sample normalization, the
// RunOptions they make, the snapshots undo restores, and the "run" group of the settings.
#include "controls/control_panel.h"

#include "controls/method_parameters.h"
#include "controls/parameter_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <limits>

namespace facet {

QString ControlPanel::method() const
{
    return m_method->currentData().toString();
}

bool ControlPanel::setMethod(const QString& name)
{
    const int index = m_method->findData(name);
    if (index < 0)
        return false;
    m_method->setCurrentIndex(index);
    return true;
}

int ControlPanel::rank() const
{
    return m_rank->value();
}

void ControlPanel::setRank(int rank)
{
    m_rank->setValue(rank);
}

int ControlPanel::maxIterations() const
{
    return m_maxIter->value();
}

void ControlPanel::setMaxIterations(int iterations)
{
    m_maxIter->setValue(iterations);
}

double ControlPanel::tolerance() const
{
    return m_tolerance->currentData().toDouble();
}

namespace {

// The offered value nearest `value` on a log scale, with 0 as its own point.
void selectNearest(QComboBox* box, double value)
{
    int best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int i = 0; i < box->count(); ++i) {
        const double offered = box->itemData(i).toDouble();
        const double distance = (offered == 0 || value <= 0)
            ? (offered == value ? 0.0 : std::numeric_limits<double>::max())
            : std::abs(std::log10(offered) - std::log10(value));
        if (distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    box->setCurrentIndex(best);
}

} // namespace

void ControlPanel::setTolerance(double tolerance)
{
    selectNearest(m_tolerance, tolerance);
}

double ControlPanel::stationarityTolerance() const
{
    return m_stationarity->currentData().toDouble();
}

void ControlPanel::setStationarityTolerance(double tolerance)
{
    selectNearest(m_stationarity, tolerance);
}

int ControlPanel::seed() const
{
    return m_seed->value();
}

void ControlPanel::setSeed(int seed)
{
    m_seed->setValue(seed);
}

RunOptions ControlPanel::runOptions() const
{
    RunOptions options;
    options.method = method().toStdString();
    options.params.rank = rank();
    options.driver.maxIter = maxIterations();
    // CF_OGL: one driver iteration is one outer iteration (METHODS.md section 3).
    if (m_outerIterations)
        options.params.outerIterations = maxIterations();
    // The driver never stops before minIter; a short run asked for here should still be short.
    options.driver.minIter = std::min(options.driver.minIter, options.driver.maxIter);
    options.driver.tol = tolerance();
    options.driver.stationarityTol = stationarityTolerance();
    options.driver.seed = std::uint64_t(seed());
    m_params->applyTo(options);
    return options;
}

SampleNormalization ControlPanel::sampleNormalization() const
{
    return SampleNormalization(m_normalize->currentData().toInt());
}

void ControlPanel::setSampleNormalization(SampleNormalization normalization)
{
    m_normalize->setCurrentIndex(std::max(0, m_normalize->findData(int(normalization))));
}

bool ControlPanel::autoRerun() const
{
    return m_autoRerun->isChecked();
}

void ControlPanel::setAutoRerun(bool on)
{
    m_autoRerun->setChecked(on);
}

QVariantMap ControlPanel::snapshot() const
{
    return {
        { QStringLiteral("method"), method() },
        { QStringLiteral("rank"), rank() },
        { QStringLiteral("maxIter"), iterationsFor(false) },
        { QStringLiteral("outerIterations"), iterationsFor(true) },
        { QStringLiteral("tol"), tolerance() },
        { QStringLiteral("stationarityTol"), stationarityTolerance() },
        { QStringLiteral("seed"), seed() },
        { QStringLiteral("normalize"), int(sampleNormalization()) },
        { QStringLiteral("params"), m_params->currentValues() },
    };
}

void ControlPanel::restoreSnapshot(const QVariantMap& snapshot)
{
    m_restoring = true;
    setMethod(snapshot.value(QStringLiteral("method")).toString());
    setRank(snapshot.value(QStringLiteral("rank")).toInt());
    setIterationsFor(false, snapshot.value(QStringLiteral("maxIter")).toInt());
    setIterationsFor(true, snapshot.value(QStringLiteral("outerIterations")).toInt());
    setTolerance(snapshot.value(QStringLiteral("tol")).toDouble());
    setStationarityTolerance(
        snapshot.value(QStringLiteral("stationarityTol"), DriverOptions {}.stationarityTol)
            .toDouble());
    setSeed(snapshot.value(QStringLiteral("seed")).toInt());
    setSampleNormalization(
        SampleNormalization(snapshot.value(QStringLiteral("normalize")).toInt()));
    m_params->setCurrentValues(snapshot.value(QStringLiteral("params")).toMap());
    m_restoring = false;
    Q_EMIT optionsChanged();
}

int ControlPanel::iterationsFor(bool outer) const
{
    return outer == m_outerIterations ? m_maxIter->value() : m_otherIterations;
}

void ControlPanel::setIterationsFor(bool outer, int iterations)
{
    if (outer == m_outerIterations)
        m_maxIter->setValue(iterations);
    else
        m_otherIterations = iterations;
}

void ControlPanel::saveSettings(QSettings& settings) const
{
    settings.beginGroup(QStringLiteral("run"));
    settings.setValue(QStringLiteral("method"), method());
    settings.setValue(QStringLiteral("rank"), rank());
    settings.setValue(QStringLiteral("maxIter"), iterationsFor(false));
    settings.setValue(QStringLiteral("outerIterations"), iterationsFor(true));
    settings.setValue(QStringLiteral("tol"), tolerance());
    settings.setValue(QStringLiteral("stationarityTol"), stationarityTolerance());
    settings.setValue(QStringLiteral("seed"), seed());
    settings.setValue(QStringLiteral("autoRerun"), autoRerun());
    settings.setValue(QStringLiteral("normalize"), int(sampleNormalization()));
    m_params->saveSettings(settings);
    settings.endGroup();
}

void ControlPanel::restoreSettings(QSettings& settings)
{
    settings.beginGroup(QStringLiteral("run"));
    m_params->restoreSettings(settings);
    setMethod(settings.value(QStringLiteral("method"), QStringLiteral("nmf")).toString());
    setRank(settings.value(QStringLiteral("rank"), 10).toInt());
    setIterationsFor(
        false, settings.value(QStringLiteral("maxIter"), kDefaultMaxIterations).toInt());
    setIterationsFor(
        true, settings.value(QStringLiteral("outerIterations"), kDefaultOuterIterations).toInt());
    setTolerance(settings.value(QStringLiteral("tol"), 1e-5).toDouble());
    setStationarityTolerance(
        settings.value(QStringLiteral("stationarityTol"), DriverOptions {}.stationarityTol)
            .toDouble());
    setSeed(settings.value(QStringLiteral("seed"), 0).toInt());
    setAutoRerun(settings.value(QStringLiteral("autoRerun"), false).toBool());
    setSampleNormalization(SampleNormalization(
        settings.value(QStringLiteral("normalize"), int(SampleNormalization::Auto)).toInt()));
    settings.endGroup();
}

} // namespace facet
