// SPDX-License-Identifier: GPL-3.0-or-later
#include "reproduction_charts.h"

#include <limits>

namespace facet::plots {

using namespace Qt::StringLiterals;

LineChart reproductionChart(const DatasetComparison& comparison, Metric metric,
    const QString& context, const QString& footnote)
{
    const QString name = metric == Metric::Accuracy ? u"AC"_s : u"NMI"_s;
    const std::size_t mi = std::size_t(metricIndex(metric));
    LineChart chart;
    chart.title
        = u"%1: %2 vs number of clusters, paper (dashed) and Facet (solid)"_s.arg(context, name);
    chart.xLabel = u"number of clusters c"_s;
    chart.yLabel = name + u" (%)"_s;
    chart.yMin = 0;
    chart.yMax = 100;
    chart.footnote = footnote;
    const double gap = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t k = 0; k < comparison.methods.size(); ++k) {
        const MethodComparison& m = comparison.methods[k];
        Curve facet { m.paperName + u" · Facet"_s, {}, {}, int(k), false, true };
        Curve paper { m.paperName + u" · paper"_s, {}, {}, int(k), true, false };
        bool paperHasAny = false;
        for (std::size_t row = 0; row < comparison.clusters.size(); ++row) {
            const Compared& v = m.cells[mi][row];
            const double c = comparison.clusters[row];
            facet.x.push_back(c);
            facet.y.push_back(v.facetMean.value_or(gap));
            paper.x.push_back(c);
            paper.y.push_back(v.paperMean.value_or(gap));
            paperHasAny = paperHasAny || v.paperMean.has_value();
        }
        chart.curves.push_back(std::move(facet));
        if (paperHasAny)
            chart.curves.push_back(std::move(paper));
    }
    return chart;
}

} // namespace facet::plots
