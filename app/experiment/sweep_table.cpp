// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/sweep_table.h"

#include "experiment/sweep_json.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QString tablePercent(double v)
{
    return std::isfinite(v) ? QString::number(100 * v, 'f', 1) : u"-"_s;
}

QString pValue(double p)
{
    if (p < 0.001)
        return u"p < 0.001"_s;
    return u"p = "_s + QString::number(p, 'f', 3);
}

QString metricTitle(Metric metric)
{
    return metric == Metric::Accuracy ? u"AC"_s : u"NMI"_s;
}

QString clustersText(const std::vector<int>& counts)
{
    QStringList parts;
    for (int c : counts)
        parts << QString::number(c);
    bool contiguous = counts.size() > 2;
    for (std::size_t i = 1; contiguous && i < counts.size(); ++i)
        contiguous = counts[i] == counts[i - 1] + 1;
    return contiguous ? u"%1..%2"_s.arg(counts.front()).arg(counts.back()) : parts.join(u", "_s);
}

QString headerRow(const QString& first, const QStringList& columns)
{
    QString row = u"| "_s + first + u" |"_s;
    QString rule = u"|---:|"_s;
    for (const QString& c : columns) {
        row += u" "_s + c + u" |"_s;
        rule += u"---:|"_s;
    }
    return row + u'\n' + rule + u'\n';
}

QString metricSection(const SweepSummary& s, const ExperimentOptions& o, Metric metric)
{
    QStringList labels;
    for (const SeriesKey& key : s.series)
        labels << seriesLabel(key, o);
    QString text = u"## %1 (%)\n\n"_s.arg(metricTitle(metric)) + headerRow(u"c"_s, labels);
    // row -1 is the average row.
    const auto line = [&](int row) {
        const std::vector<MetricStats>& stats = row < 0 ? s.average : s.cells[std::size_t(row)];
        const std::vector<int> best = s.best(metric, row);
        QString out = row < 0 ? u"| Avg. |"_s : u"| %1 |"_s.arg(s.clusters[std::size_t(row)]);
        for (std::size_t k = 0; k < stats.size(); ++k) {
            const MeanStd& m = stats[k].of(metric);
            QString cell = tablePercent(m.mean);
            if (row >= 0 && m.count > 1)
                cell += u" ± "_s + tablePercent(m.std);
            if (std::find(best.begin(), best.end(), int(k)) != best.end())
                cell = u"**"_s + cell + u"**"_s;
            if (row >= 0 && m.count > 0 && m.count < o.trials)
                cell += u" (%1 of %2)"_s.arg(m.count).arg(o.trials);
            out += u" "_s + cell + u" |"_s;
        }
        return out + u'\n';
    };
    for (std::size_t row = 0; row < s.clusters.size(); ++row)
        text += line(int(row));
    return text + line(-1) + u'\n';
}

QString comparisonSection(const SweepSummary& s, const ExperimentOptions& o,
    const std::vector<TrialResult>& trials, Metric metric, const QStringList& compare)
{
    const std::vector<SeriesComparison> comparisons
        = sweepComparisons(s, o, trials, metric, compare);
    if (comparisons.empty())
        return {};
    QStringList labels;
    for (const SeriesComparison& c : comparisons)
        labels << seriesLabel(c.a, o) + u" vs "_s + seriesLabel(c.b, o);
    QString text = u"### %1\n\n"_s.arg(metricTitle(metric)) + headerRow(u"c"_s, labels);
    for (std::size_t row = 0; row < s.clusters.size(); ++row) {
        text += u"| %1 |"_s.arg(s.clusters[row]);
        for (const SeriesComparison& c : comparisons)
            text += u" "_s + pairedTestText(c.perClusters[row]) + u" |"_s;
        text += u'\n';
    }
    text += u"| all |"_s;
    for (const SeriesComparison& c : comparisons)
        text += u" "_s + pairedTestText(c.overall) + u" |"_s;
    return text + u"\n\n"_s;
}

// CF_OGL's learned graph, when it has exactly c components, is a clustering of its own
// (METHODS.md 3.4): per series and c, in how many trials it had c components and the mean ±
// std of its AC and NMI over those trials. Empty when no series is CF_OGL.
QString graphComponentSection(
    const SweepSummary& s, const ExperimentOptions& o, const std::vector<TrialResult>& trials)
{
    QString text;
    for (const SeriesKey& key : s.series) {
        if (key.method != "cf-ogl")
            continue;
        text += u"### %1\n\n"_s.arg(seriesLabel(key, o))
            + headerRow(u"c"_s, { u"trials with c components"_s, u"AC (%)"_s, u"NMI (%)"_s });
        for (int c : s.clusters) {
            std::vector<double> ac, nmi;
            int trialCount = 0, unscored = 0;
            for (const TrialResult& t : trials) {
                if (t.cell.method != key.method || t.cell.parameterIndex != key.parameterIndex
                    || t.cell.clusters != c)
                    continue;
                if (!t.graphScored) {
                    ++unscored;
                    continue;
                }
                ++trialCount;
                if (t.graphAc && t.graphNmi) {
                    ac.push_back(*t.graphAc);
                    nmi.push_back(*t.graphNmi);
                }
            }
            const auto cell = [](const std::vector<double>& values) {
                if (values.empty())
                    return u"-"_s;
                const MeanStd m = meanStd(values);
                return values.size() > 1 ? tablePercent(m.mean) + u" ± "_s + tablePercent(m.std)
                                         : tablePercent(m.mean);
            };
            const QString notScored = unscored > 0
                ? u" (%1 more from an older results.json, not scored)"_s.arg(unscored)
                : QString();
            text += u"| %1 | %2 of %3%4 | %5 | %6 |\n"_s.arg(c)
                        .arg(ac.size())
                        .arg(trialCount)
                        .arg(notScored, cell(ac), cell(nmi));
        }
        text += u'\n';
    }
    if (text.isEmpty())
        return {};
    return u"## CF_OGL's graph components as clusters\n\n"
           "When the learned graph has exactly c connected components they are a clustering of "
           "their own (the tables above score k-means on V); the kept sub-run of each trial, on "
           "the same samples.\n\n"_s
        + text;
}

} // namespace

QString pairedTestText(const PairedTest& p)
{
    if (p.test.n + p.test.zeros == 0)
        return u"-"_s;
    QString sign = p.meanDifference >= 0 ? u"+"_s : QString();
    return u"%1%2, %3%4"_s.arg(sign, QString::number(100 * p.meanDifference, 'f', 1),
        pValue(p.test.pValue), p.test.pValue < 0.05 ? u" *"_s : QString());
}

QString seriesLabel(const SeriesKey& key, const ExperimentOptions& options)
{
    QString label = QString::fromStdString(key.method);
    if (options.parameterSweep())
        label += u" %1=%2"_s.arg(QString::fromStdString(sweepParameterName(options.parameter)),
            QString::number(options.parameterValues.at(std::size_t(key.parameterIndex)), 'g', 6));
    return label;
}

std::vector<SeriesComparison> sweepComparisons(const SweepSummary& summary,
    const ExperimentOptions& options, const std::vector<TrialResult>& trials, Metric metric,
    const QStringList& compare)
{
    std::vector<SeriesComparison> out;
    if (compare.size() == 2) {
        for (int v = 0; v < options.parameterCount(); ++v)
            out.push_back(compareSeries(options, trials, { compare[0].toStdString(), v },
                { compare[1].toStdString(), v }, metric));
        return out;
    }
    const std::vector<int> best = summary.best(metric, -1);
    if (best.empty() || summary.series.size() < 2)
        return out;
    const SeriesKey& reference = summary.series[std::size_t(best.front())];
    for (const SeriesKey& key : summary.series)
        if (!(key == reference))
            out.push_back(compareSeries(options, trials, key, reference, metric));
    return out;
}

QString markdownTable(const SweepSummary& s, const ExperimentOptions& o,
    const std::vector<TrialResult>& trials, const TableContext& context, const QStringList& compare)
{
    QStringList methods;
    for (const std::string& m : o.methods)
        methods << QString::fromStdString(m);
    QString rank = o.rankOffset > 0 ? u"k = c + %1"_s.arg(o.rankOffset) : u"k = c"_s;
    if (o.parameterSweep() && o.parameter == SweepParameter::Rank)
        rank = u"k swept"_s;
    QString text = u"# Sweep: %1 (%2)\n\n"_s.arg(context.datasetName,
        experimentOptionsToJson(o, SampleNormalization::Auto).value(u"protocol"_s).toString());
    text += u"%1 samples in %2 classes; methods %3; c = %4; %5 trials per c; %6; %7; seed %8.\n"_s
                .arg(context.samples)
                .arg(context.classes)
                .arg(methods.join(u", "_s), clustersText(o.clusterCounts))
                .arg(o.trials)
                .arg(rank, context.selection, QString::number(o.seed));
    if (o.semiSupervised())
        text += u"Labelled per trial: %1 of each class; scored on %2 samples.\n"_s.arg(
            o.labeledPerClass > 0 ? QString::number(o.labeledPerClass)
                                  : u"%1%"_s.arg(100 * o.labeledFraction),
            o.evaluate == EvaluateOn::Unlabeled ? u"the unlabelled"_s : u"all"_s);
    text += u"Mean ± standard deviation (n - 1) over the trials, in tablePercent; the best mean of "
            u"each "
            "row in bold; Avg. is the mean of the rows' means.\n"_s;
    if (context.cellsFinished < context.cellsPlanned)
        text += u"\n**Incomplete:** %1 of %2 cells finished (continue with --resume).\n"_s
                    .arg(context.cellsFinished)
                    .arg(context.cellsPlanned);
    text += u'\n' + metricSection(s, o, Metric::Accuracy) + metricSection(s, o, Metric::Nmi);
    text += graphComponentSection(s, o, trials);

    const QString acComparisons = comparisonSection(s, o, trials, Metric::Accuracy, compare);
    const QString nmiComparisons = comparisonSection(s, o, trials, Metric::Nmi, compare);
    if (acComparisons.isEmpty() && nmiComparisons.isEmpty())
        return text;
    text += u"## Paired comparisons (Wilcoxon signed-rank test)\n\n"_s;
    text += compare.size() == 2
        ? u"%1 against %2 over the same trials (same classes and starts).\n"_s.arg(
            compare[0], compare[1])
        : u"Each series against the best by average (per metric), over the same trials (same "
          "classes and starts).\n"_s;
    text += u"Cells: mean difference in percentage points (first minus second), and the "
            "two-sided p-value; * marks p < 0.05. Per c the test pairs the trials of that c; "
            "\"all\" pairs every (c, trial). Zero differences are dropped (Wilcoxon's rule, not "
            "Pratt's), ties get average ranks; the p-value is exact for at most %1 non-zero "
            "differences, otherwise the normal approximation with tie and continuity "
            "correction.\n\n"_s.arg(kWilcoxonExactLimit);
    return text + acComparisons + nmiComparisons;
}

namespace {

// A CSV number at full precision (a reader gets the double back); empty when not finite.
QString full(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 17) : QString();
}

// One CSV line; fields holding commas or quotes (class names may) are quoted the CSV way.
QString csvLine(QStringList fields)
{
    for (QString& f : fields)
        if (f.contains(u',') || f.contains(u'"'))
            f = u'"' + QString(f).replace(u"\""_s, u"\"\""_s) + u'"';
    return fields.join(u',') + u'\n';
}

} // namespace

QString resultsCsv(
    const std::vector<TrialResult>& trials, const ExperimentOptions& o, const QStringList& names)
{
    // `selection` on every row: with --select accuracy the kept sub-run was chosen by looking at
    // the truth labels, which METHODS.md 6 asks every output to say. graph_ac and graph_nmi:
    // CF_OGL's learned graph components as a clustering (METHODS.md 3.4), empty when the graph
    // does not have exactly c components and for the other methods.
    QString csv = u"method,param,param_value,clusters,trial,seed,classes,rank,samples,labeled,"
                  "evaluated,ac,nmi,objective,iterations,stop_reason,subrun,seconds,selection,"
                  "graph_ac,graph_nmi\n"_s;
    const QString selection = selectionKey(o);
    const QString param
        = o.parameterSweep() ? QString::fromStdString(sweepParameterName(o.parameter)) : QString();
    for (const TrialResult& t : trials) {
        QStringList classes;
        for (int c : t.classes)
            classes << (c < names.size() ? names.at(c) : QString::number(c + 1));
        QStringList fields { QString::fromStdString(t.cell.method), param,
            o.parameterSweep() ? full(t.parameterValue) : QString(),
            QString::number(t.cell.clusters), QString::number(t.cell.trial + 1),
            QString::number(t.seed), classes.join(u' '), QString::number(t.rank),
            QString::number(t.samples), QString::number(t.labeled), QString::number(t.evaluated),
            full(t.ac), full(t.nmi), full(t.objective), QString::number(t.iterations),
            QString::fromLatin1(stopReasonName(t.stopReason)), QString::number(t.subrun + 1),
            QString::number(t.seconds, 'f', 4), selection, t.graphAc ? full(*t.graphAc) : QString(),
            t.graphNmi ? full(*t.graphNmi) : QString() };
        csv += csvLine(fields);
    }
    return csv;
}

QString selectionKey(const ExperimentOptions& o)
{
    if (o.subruns <= 1)
        return u"single"_s;
    return o.selection == SubrunSelection::Accuracy ? u"oracle-best-ac"_s : u"lowest-objective"_s;
}

namespace {

// One summary line per (series, row): the row's c, or "avg" for the average row.
template <class Visit>
void forEachSummaryCell(const SweepSummary& summary, const ExperimentOptions& o, Visit visit)
{
    for (std::size_t k = 0; k < summary.series.size(); ++k) {
        const QString series = seriesLabel(summary.series[k], o);
        for (std::size_t r = 0; r < summary.clusters.size(); ++r)
            if (summary.cells[r][k].ac.count > 0)
                visit(summary.series[k], series, QString::number(summary.clusters[r]),
                    summary.cells[r][k]);
        if (summary.average[k].ac.count > 0)
            visit(summary.series[k], series, u"avg"_s, summary.average[k]);
    }
}

} // namespace

QString summaryCsv(const SweepSummary& summary, const ExperimentOptions& o)
{
    QString csv = u"series,method,param,param_value,clusters,trials,ac_mean,ac_std,nmi_mean,"
                  "nmi_std,selection\n"_s;
    const QString param
        = o.parameterSweep() ? QString::fromStdString(sweepParameterName(o.parameter)) : QString();
    const QString selection = selectionKey(o);
    forEachSummaryCell(summary, o,
        [&](const SeriesKey& key, const QString& series, const QString& row,
            const MetricStats& stats) {
            QStringList fields { series, QString::fromStdString(key.method), param,
                o.parameterSweep() ? full(o.parameterValues.at(std::size_t(key.parameterIndex)))
                                   : QString(),
                row, QString::number(stats.ac.count), full(stats.ac.mean), full(stats.ac.std),
                full(stats.nmi.mean), full(stats.nmi.std), selection };
            csv += csvLine(fields);
        });
    return csv;
}

QJsonObject summaryJson(
    const SweepSummary& summary, const ExperimentOptions& o, const TableContext& context)
{
    QJsonArray rows;
    const auto number = [](double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(); };
    forEachSummaryCell(summary, o,
        [&](const SeriesKey& key, const QString& series, const QString& row,
            const MetricStats& stats) {
            QJsonObject line { { u"series"_s, series },
                { u"method"_s, QString::fromStdString(key.method) },
                { u"clusters"_s, row == u"avg"_s ? QJsonValue(row) : QJsonValue(row.toInt()) },
                { u"trials"_s, stats.ac.count }, { u"ac_mean"_s, number(stats.ac.mean) },
                { u"ac_std"_s, number(stats.ac.std) }, { u"nmi_mean"_s, number(stats.nmi.mean) },
                { u"nmi_std"_s, number(stats.nmi.std) } };
            if (o.parameterSweep()) {
                line[u"param"_s] = QString::fromStdString(sweepParameterName(o.parameter));
                line[u"param_value"_s] = o.parameterValues.at(std::size_t(key.parameterIndex));
            }
            rows.append(line);
        });
    return { { u"format"_s, u"facet-sweep-summary-1"_s }, { u"dataset"_s, context.datasetName },
        { u"samples"_s, context.samples }, { u"classes"_s, context.classes },
        { u"cells_planned"_s, context.cellsPlanned },
        { u"cells_finished"_s, context.cellsFinished }, { u"selection"_s, selectionKey(o) },
        { u"selection_note"_s, context.selection },
        { u"note"_s,
            u"mean and sample standard deviation over the trials of each c (\"trials\"); "
            "the \"avg\" rows are the mean of the per-c means over the rows with trials, "
            "their std null (the papers' Avg. row); AC and NMI as fractions"_s },
        { u"rows"_s, rows } };
}

} // namespace facet
