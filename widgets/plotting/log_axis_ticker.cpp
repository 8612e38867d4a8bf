// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotting/log_axis_ticker.h"

#include <cmath>
#include <initializer_list>

namespace facet {

namespace {

// Multiples of powers of ten inside [lower, upper], in increasing order.
QVector<double> multiplesInRange(const QCPRange& range, std::initializer_list<double> mantissas)
{
    QVector<double> ticks;
    const int first = int(std::floor(std::log10(range.lower)));
    const int last = int(std::ceil(std::log10(range.upper)));
    for (int exponent = first; exponent <= last; ++exponent) {
        const double power = std::pow(10.0, exponent);
        for (double mantissa : mantissas) {
            const double tick = mantissa * power;
            if (tick >= range.lower && tick <= range.upper)
                ticks.append(tick);
        }
    }
    return ticks;
}

} // namespace

bool LogAxisTicker::usesDecades(const QCPRange& range)
{
    if (!(range.lower > 0 && range.upper > 0)
        || std::log10(range.upper / range.lower) < kMinDecades)
        return false;
    // At least two powers of ten inside, or the axis has a single label (150 .. 6000: 1000).
    return std::floor(std::log10(range.upper)) - std::ceil(std::log10(range.lower)) >= 1;
}

int LogAxisTicker::getSubTickCount(double tickStep)
{
    // Sub-ticks between unevenly spaced 1-2-5 ticks would mislead; decades keep theirs.
    return m_decades ? QCPAxisTickerLog::getSubTickCount(tickStep) : 0;
}

QVector<double> LogAxisTicker::createTickVector(double tickStep, const QCPRange& range)
{
    m_decades = usesDecades(range);
    if (m_decades || range.lower <= 0 || range.upper <= 0)
        return QCPAxisTickerLog::createTickVector(tickStep, range);
    // The sparsest set with three labels: 1-2-3-5-7 sits between 1-2-5 and 1..9, which alone
    // crowds a short axis (0.006 .. 0.03 would get seven labels).
    for (const auto& mantissas : { std::initializer_list<double> { 1, 2, 5 },
             std::initializer_list<double> { 1, 2, 3, 5, 7 },
             std::initializer_list<double> { 1, 2, 3, 4, 5, 6, 7, 8, 9 } }) {
        const QVector<double> ticks = multiplesInRange(range, mantissas);
        if (ticks.size() >= 3)
            return ticks;
    }
    return QCPAxisTicker::createTickVector(QCPAxisTicker::getTickStep(range), range);
}

} // namespace facet
