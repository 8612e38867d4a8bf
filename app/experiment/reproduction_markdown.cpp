// SPDX-License-Identifier: GPL-3.0-or-later
// reproduction.md (reproduction_report.h).
#include "experiment/reproduction_report.h"

#include <QJsonArray>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QString metricTitle(Metric metric)
{
    return metric == Metric::Accuracy ? u"AC"_s : u"NMI"_s;
}

QString joinedRanking(const std::vector<QString>& names)
{
    return names.empty() ? u"-"_s : QStringList(names.begin(), names.end()).join(u" > "_s);
}

QString protocolLines(const PaperRecord& p)
{
    QString text;
    for (const QString& key : { u"clusters"_s, u"trials"_s, u"subruns"_s, u"selection"_s, u"rank"_s,
             u"labeled"_s, u"evaluate"_s, u"clustering"_s, u"normalization"_s, u"iterations"_s,
             u"parameters"_s }) {
        const QJsonValue v = p.protocol.value(key);
        if (!v.isUndefined())
            text += u"- %1: %2\n"_s.arg(
                key, v.isDouble() ? QString::number(v.toDouble()) : v.toString());
    }
    return text;
}

// The per-c table of one metric: three columns per method (paper, Facet, difference).
QString cellTable(const ReproducedDataset& d, Metric metric, int decimals)
{
    const DatasetComparison& c = d.comparison;
    const int mi = metricIndex(metric);
    QString header = u"| c |"_s, rule = u"|---|"_s;
    for (const MethodComparison& m : c.methods) {
        header += u" %1 paper | %1 Facet | Δ |"_s.arg(m.paperName);
        rule += u"---|---|---|"_s;
    }
    QString text = header + u'\n' + rule + u'\n';
    const auto row = [&](const QString& label, const auto& pick) {
        text += u"| "_s + label + u" |"_s;
        for (const MethodComparison& m : c.methods) {
            const Compared& v = pick(m);
            text += u" %1 | %2 | %3 |"_s.arg(meanStdText(v.paperMean, v.paperStd, decimals),
                meanStdText(v.facetMean, v.facetStd, 2), differenceText(v.difference()));
        }
        text += u'\n';
    };
    for (std::size_t r = 0; r < c.clusters.size(); ++r)
        row(QString::number(c.clusters[r]), [&](const MethodComparison& m) -> const Compared& {
            return m.cells[std::size_t(mi)][r];
        });
    row(u"**Avg.**"_s,
        [&](const MethodComparison& m) -> const Compared& { return m.average[std::size_t(mi)]; });
    return text;
}

// Facet's averages alone, for a paper whose table is lost.
QString averagesTable(const ReproducedDataset& d)
{
    QString text = u"| method | AC Facet | NMI Facet |\n|---|---|---|\n"_s;
    for (const MethodComparison& m : d.comparison.methods)
        text += u"| %1 | %2 | %3 |\n"_s.arg(m.paperName,
            meanStdText(m.average[0].facetMean, m.average[0].facetStd, 2),
            meanStdText(m.average[1].facetMean, m.average[1].facetStd, 2));
    return text;
}

QString claimsTable(const DatasetComparison& c)
{
    if (c.claims.empty())
        return {};
    QString text = u"\nWhat the text states, beside the same quantity in Facet's sweep (gains in "
                   "percentage points of the average over the c this run covers):\n\n| claim | "
                   "paper | Facet | Δ | paper's own "
                   "check |\n|---|---|---|---|---|\n"_s;
    for (const ClaimComparison& k : c.claims) {
        const QString facetMethod = k.facetMethod.isEmpty() ? u"(not in Facet)"_s : k.facetMethod;
        if (k.claim.kind == u"gain") {
            const QString over
                = k.claim.over.isEmpty() ? u"the second best (not named)"_s : k.claim.over;
            text += u"| %1 over %2, %3 | %4 | %5 over %6: %7%8 | %9 | %10 |\n"_s.arg(k.claim.method,
                over, k.claim.metric.toUpper(), differenceText(k.claim.points), facetMethod,
                k.facetOver.isEmpty() ? u"-"_s : k.facetOver, differenceText(k.facetGain),
                k.overNote.isEmpty() ? QString() : u" (%1)"_s.arg(k.overNote),
                differenceText(k.difference), k.claim.check);
        } else {
            text
                += u"| %1 is the best method | stated | best by average AC: %2 | %3 | %4 |\n"_s.arg(
                    k.claim.method, k.facetBest.isEmpty() ? u"-"_s : k.facetBest,
                    !k.holds       ? u"-"_s
                        : *k.holds ? u"holds"_s
                                   : u"does not hold"_s,
                    k.claim.check);
        }
    }
    return text;
}

QString datasetSection(const ReproductionReport& report, const ReproducedDataset& d)
{
    const PaperRecord& p = *report.paper;
    const DatasetComparison& c = d.comparison;
    const PaperTable* table = p.table(c.dataset);
    QString text = u"\n## %1%2\n\n"_s.arg(
        c.paperName, c.table.isEmpty() ? QString() : u" (%1)"_s.arg(c.table));
    text += u"Data: `%1`, sha256 `%2`; %3 samples. Facet's sweep: `%4/` (%5 of %6 cells; "
            "results.json, table.md, ac/nmi plots). Seed %7, trials per c: %8, %9, algorithm "
            "%10.\n"_s.arg(d.file.section(u'/', -1), d.fileSha256)
                .arg(d.sweepDataset.value(u"samples"_s).toInteger())
                .arg(d.sweepDir)
                .arg(d.cellsFinished)
                .arg(d.cellsPlanned)
                .arg(d.sweepOptions.value(u"seed"_s).toString())
                .arg(d.sweepOptions.value(u"trials"_s).toInt())
                .arg(d.sweepOptions.value(u"selection"_s).toString(),
                    d.sweepOptions.value(u"run"_s).toObject().value(u"algorithm"_s).toString());
    if (const PaperDataset* info = p.dataset(c.dataset); info && !info->note.isEmpty())
        text += u"\nThe data: %1.\n"_s.arg(info->note);
    if (c.paperHasCells) {
        if (c.paperAverageRecomputed) {
            QStringList counts;
            for (int k : c.clusters)
                counts << QString::number(k);
            text += u"\nThis run covers c = %1 only: the paper's Avg. below is recomputed from its "
                    "cells at those c, not the printed one.\n"_s.arg(counts.join(u", "_s));
        }
        for (const Metric metric : { Metric::Accuracy, Metric::Nmi })
            text += u"\n### %1 (%)\n\n"_s.arg(metricTitle(metric))
                + cellTable(d, metric, table ? table->decimals : 2);
        if (table && !table->averagePlacement.isEmpty())
            text += u"\nThe paper's Avg. row: %1.\n"_s.arg(table->averagePlacement);
    } else {
        text += u"\nThe paper's %1 is lost: %2. Facet's averages over c (mean ± mean of the per-c "
                "stds):\n\n"_s.arg(c.table.isEmpty() ? u"table"_s : c.table,
                    table ? table->missing : u"the paper has no table for it"_s)
            + averagesTable(d);
    }
    text
        += u"\n### Ranking by average\n\n| metric | paper | Facet | same order |\n|---|---|---|---|\n"_s;
    for (const Metric metric : { Metric::Accuracy, Metric::Nmi }) {
        const Ranking& r = c.ranking[std::size_t(metricIndex(metric))];
        text += u"| %1 | %2 | %3 | %4 |\n"_s.arg(metricTitle(metric), joinedRanking(r.paper),
            joinedRanking(r.facet),
            r.paper.empty() ? u"-"_s
                : r.same()  ? u"yes"_s
                            : u"no"_s);
    }
    return text + claimsTable(c);
}

} // namespace

QString reproductionMarkdown(const ReproductionReport& report)
{
    const PaperRecord& p = *report.paper;
    QString text = u"# Reproduction of %1\n\n"_s.arg(p.citation());
    text += u"Paper record: `%1` (from `%2`). Facet %3.\n\n"_s.arg(
        p.origin, p.source, QStringLiteral(FACET_VERSION_STRING));
    text += u"Command: `facet-cli %1`\n\n"_s.arg(report.arguments.join(u' '));
    text += u"Values are percent, mean ± standard deviation over the trials; Δ = Facet − paper in "
            "percentage points. Avg. is the papers' rule: the mean over c of the per-c means, ± "
            "the mean of the per-c standard deviations.\n"_s;
    text += u"\n## Protocol\n\nAs the paper states it:\n\n> %1\n\n%2"_s.arg(
        p.protocol.value(u"stated"_s).toString(), protocolLines(p));
    text += u"\nChoices the paper leaves open, and the value this run takes:\n\n| option | value "
            "| why |\n|---|---|---|\n"_s;
    for (const PaperDefault& o : p.defaults)
        text += u"| %1 | %2 | %3 |\n"_s.arg(o.option, o.value, o.why);
    text += report.departures.isEmpty()
        ? u"\nDepartures from the paper's protocol in this run: none.\n"_s
        : u"\nDepartures from the paper's protocol in this run:\n\n"_s;
    for (const QString& d : report.departures)
        text += u"- %1\n"_s.arg(d);
    QStringList missing;
    for (const PaperMethod& m : p.methods)
        if (m.facet.isEmpty())
            missing << u"%1 (%2)"_s.arg(m.paper, m.why);
    for (const PaperDataset& d : p.datasets)
        if (!d.available)
            missing << u"the %1 data (%2)"_s.arg(d.paperName, d.why);
    if (!missing.isEmpty())
        text += u"\nNot reproduced: %1.\n"_s.arg(missing.join(u"; "_s));
    for (const ReproducedDataset& d : report.datasets)
        text += datasetSection(report, d);
    if (!p.notes.isEmpty()) {
        text += u"\n## Notes on the paper\n\n"_s;
        for (const QString& note : p.notes)
            text += u"- %1\n"_s.arg(note);
    }
    return text;
}

} // namespace facet
