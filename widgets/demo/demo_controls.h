// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QWidget>

#include <array>
#include <cstdint>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace facet {

class LogSlider;

// The settings of the 2-D overcomplete-basis demo (METHODS.md section 7): a method and its
// lambda for each side, the rank k, each Gaussian's spread, the point count, the seed, and
// "Animate". The Gaussians' centres are not here: the user drags them in the plots.
class DemoControls : public QWidget {
    Q_OBJECT

public:
    static constexpr int kSides = 2;
    static constexpr int kComponents = 3; // the demo's mixture (section 7)

    explicit DemoControls(QWidget* parent = nullptr);

    // The factorization methods with a basis to draw: the catalog without the baselines (no
    // factors to iterate) and the semi-supervised methods (their labelled subset has no control
    // here). Names as the CLI spells them.
    static QStringList demoMethods();

    QString method(int side) const;
    // Unknown names are ignored.
    void setMethod(int side, const QString& name);
    // Unset when the side's method has no lambda.
    std::optional<double> lambda(int side) const;
    int rank() const;
    double spread(int component) const;
    int pointCount() const;
    std::uint64_t seed() const;
    bool animate() const;

    QComboBox* methodCombo(int side) const { return m_methods[std::size_t(side)]; }
    LogSlider* lambdaSlider(int side) const { return m_lambdas[std::size_t(side)]; }
    QSpinBox* rankSpin() const { return m_rank; }
    QDoubleSpinBox* spreadSpin(int component) const { return m_spreads[std::size_t(component)]; }
    QSpinBox* countSpin() const { return m_count; }
    QSpinBox* seedSpin() const { return m_seed; }
    QCheckBox* animateBox() const { return m_animate; }

Q_SIGNALS:
    void sideChanged(int side); // its method or lambda
    void dataChanged(); // a spread, the count or the seed
    void rankChanged();
    void animateToggled(bool on);

private:
    QWidget* makeSide(int side);
    void onMethodChanged(int side);

    std::array<QComboBox*, kSides> m_methods {};
    std::array<LogSlider*, kSides> m_lambdas {};
    std::array<QDoubleSpinBox*, kComponents> m_spreads {};
    QSpinBox* m_rank = nullptr;
    QSpinBox* m_count = nullptr;
    QSpinBox* m_seed = nullptr;
    QCheckBox* m_animate = nullptr;
};

} // namespace facet
