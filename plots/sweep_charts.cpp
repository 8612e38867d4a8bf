// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_charts.h"

#include <limits>

namespace facet::plots {

using namespace Qt::StringLiterals;

LineChart sweepChart(const SweepSummary& summary, const ExperimentOptions& options, Metric metric,
    const QString& datasetName)
{
    const QString name = metric == Metric::Accuracy ? u"AC"_s : u"NMI"_s;
    LineChart chart;
    chart.yLabel = name + u" (%)"_s;
    // Percent from 0 keeps curves of different sweeps comparable at a glance.
    chart.yMin = 0;
    chart.yMax = 100;
    const auto percent = [](double v) { return 100 * v; };

    if (options.parameterSweep()) {
        const QString parameter = QString::fromStdString(sweepParameterName(options.parameter));
        chart.title = u"%1: %2 vs %3"_s.arg(datasetName, name, parameter);
        chart.xLabel = parameter;
        for (double v : options.parameterValues)
            chart.xCategories << QString::number(v, 'g', 6);
        for (const std::string& method : options.methods) {
            Curve curve { QString::fromStdString(method), {}, {} };
            for (std::size_t k = 0; k < summary.series.size(); ++k) {
                if (summary.series[k].method != method)
                    continue;
                curve.x.push_back(summary.series[k].parameterIndex);
                curve.y.push_back(percent(summary.average[k].of(metric).mean));
            }
            chart.curves.push_back(std::move(curve));
        }
    } else {
        chart.title = u"%1: %2 vs number of clusters"_s.arg(datasetName, name);
        chart.xLabel = u"number of clusters c"_s;
        for (std::size_t k = 0; k < summary.series.size(); ++k) {
            Curve curve { QString::fromStdString(summary.series[k].method), {}, {} };
            for (std::size_t row = 0; row < summary.clusters.size(); ++row) {
                curve.x.push_back(summary.clusters[row]);
                const MeanStd& m = summary.cells[row][k].of(metric);
                curve.y.push_back(
                    m.count > 0 ? percent(m.mean) : std::numeric_limits<double>::quiet_NaN());
            }
            chart.curves.push_back(std::move(curve));
        }
    }
    if (options.subruns > 1 && options.selection == SubrunSelection::Accuracy)
        chart.title += u" (oracle selection)"_s;
    return chart;
}

} // namespace facet::plots
