// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/summary.h"

#include <cmath>
#include <limits>
#include <map>

namespace facet {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double metricOf(const TrialResult& t, Metric metric)
{
    return metric == Metric::Accuracy ? t.ac : t.nmi;
}

SeriesKey keyOf(const TrialResult& t)
{
    return { t.cell.method, t.cell.parameterIndex };
}

// The value of `metric` of series `key` at every finished (c, trial), by (c, trial).
std::map<std::pair<int, int>, double> valuesOf(
    const std::vector<TrialResult>& trials, const SeriesKey& key, Metric metric)
{
    std::map<std::pair<int, int>, double> values;
    for (const TrialResult& t : trials)
        if (keyOf(t) == key)
            values[{ t.cell.clusters, t.cell.trial }] = metricOf(t, metric);
    return values;
}

PairedTest pairedTest(int clusters, const std::vector<double>& a, const std::vector<double>& b)
{
    PairedTest p;
    p.clusters = clusters;
    p.test = wilcoxonSignedRank(a, b);
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        sum += a[i] - b[i];
    p.meanDifference = a.empty() ? kNaN : sum / double(a.size());
    return p;
}

} // namespace

std::vector<int> SweepSummary::best(Metric metric, int row) const
{
    const std::vector<MetricStats>& stats = row < 0 ? average : cells.at(std::size_t(row));
    double top = -std::numeric_limits<double>::infinity();
    for (const MetricStats& s : stats)
        if (std::isfinite(s.of(metric).mean))
            top = std::max(top, s.of(metric).mean);
    std::vector<int> winners;
    for (std::size_t i = 0; i < stats.size(); ++i)
        if (std::isfinite(top) && stats[i].of(metric).mean == top)
            winners.push_back(int(i));
    return winners;
}

SweepSummary summarize(const ExperimentOptions& options, const std::vector<TrialResult>& trials)
{
    SweepSummary s;
    for (const std::string& method : options.methods)
        for (int v = 0; v < options.parameterCount(); ++v)
            s.series.push_back({ method, v });
    s.clusters = options.clusterCounts;
    std::map<int, std::size_t> rowOf;
    for (std::size_t r = 0; r < s.clusters.size(); ++r)
        rowOf[s.clusters[r]] = r;

    // values[row][series] per metric
    std::vector<std::vector<std::vector<double>>> ac(
        s.clusters.size(), std::vector<std::vector<double>>(s.series.size())),
        nmi = ac;
    for (const TrialResult& t : trials) {
        const auto row = rowOf.find(t.cell.clusters);
        if (row == rowOf.end())
            continue;
        for (std::size_t k = 0; k < s.series.size(); ++k)
            if (s.series[k] == keyOf(t)) {
                ac[row->second][k].push_back(t.ac);
                nmi[row->second][k].push_back(t.nmi);
            }
    }
    s.cells.assign(s.clusters.size(), std::vector<MetricStats>(s.series.size()));
    s.average.assign(s.series.size(), {});
    for (std::size_t k = 0; k < s.series.size(); ++k) {
        std::vector<double> acMeans, nmiMeans;
        for (std::size_t r = 0; r < s.clusters.size(); ++r) {
            MetricStats& cell = s.cells[r][k];
            cell.ac = meanStd(ac[r][k]);
            cell.nmi = meanStd(nmi[r][k]);
            if (cell.ac.count > 0) {
                acMeans.push_back(cell.ac.mean);
                nmiMeans.push_back(cell.nmi.mean);
            }
        }
        MetricStats& avg = s.average[k];
        avg.ac = meanStd(acMeans);
        avg.nmi = meanStd(nmiMeans);
        avg.ac.std = avg.nmi.std = kNaN;
    }
    return s;
}

SeriesComparison compareSeries(const ExperimentOptions& options,
    const std::vector<TrialResult>& trials, const SeriesKey& a, const SeriesKey& b, Metric metric)
{
    SeriesComparison comparison { a, b, metric, {}, {} };
    const auto valuesA = valuesOf(trials, a, metric);
    const auto valuesB = valuesOf(trials, b, metric);
    std::vector<double> allA, allB;
    for (int c : options.clusterCounts) {
        std::vector<double> rowA, rowB;
        for (const auto& [key, value] : valuesA) {
            if (key.first != c)
                continue;
            const auto other = valuesB.find(key);
            if (other == valuesB.end())
                continue;
            rowA.push_back(value);
            rowB.push_back(other->second);
        }
        allA.insert(allA.end(), rowA.begin(), rowA.end());
        allB.insert(allB.end(), rowB.begin(), rowB.end());
        comparison.perClusters.push_back(pairedTest(c, rowA, rowB));
    }
    comparison.overall = pairedTest(0, allA, allB);
    return comparison;
}

} // namespace facet
