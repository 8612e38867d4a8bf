// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

namespace facet {

// Ticks for a logarithmic axis that always labels a few values. QCPAxisTickerLog labels only
// powers of ten, and under 1.6 decades it falls back to evenly spaced ticks, which on a log axis
// crowd the top and leave the bottom unlabelled. Here a range of at least kMinDecades holding
// two powers of ten or more gets the powers of ten; a narrower one gets 1-2-5 (or 1-2-3-5-7,
// or 1..9) multiples of powers of ten, spaced evenly in log space; a very narrow one (where log and
// linear agree) gets the plain linear ticks.
class LogAxisTicker : public QCPAxisTickerLog {
public:
    static constexpr double kMinDecades = 1.6;

    // True when a range gets the powers-of-ten labels (then "eb" with precision 0 reads best).
    static bool usesDecades(const QCPRange& range);

protected:
    int getSubTickCount(double tickStep) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

private:
    bool m_decades = true;
};

} // namespace facet
