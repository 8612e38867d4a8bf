// SPDX-License-Identifier: GPL-3.0-or-later
// sensitivity.md, .csv and .json (sensitivity.h).
#include "experiment/sensitivity.h"

#include "util/json_values.h"

#include <QJsonArray>

#include <algorithm>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// 1-based rank of `name` in `order`; 0 when it is not ranked.
int rankIn(const std::vector<QString>& order, const QString& name)
{
    const auto it = std::find(order.begin(), order.end(), name);
    return it == order.end() ? 0 : int(it - order.begin()) + 1;
}

QString joined(const std::vector<QString>& names)
{
    return names.empty() ? u"-"_s : QStringList(names.begin(), names.end()).join(u" > "_s);
}

const MethodComparison* methodIn(const ReproducedDataset* d, const std::string& method)
{
    if (d)
        for (const MethodComparison& m : d->comparison.methods)
            if (m.method == method)
                return &m;
    return nullptr;
}

// The row's average of a method, and its change from the baseline's.
struct Moved {
    std::optional<double> value;
    std::optional<double> change;
};

Moved moved(const SensitivityReport& report, const SensitivityRow& row, const QString& dataset,
    const std::string& method, int mi)
{
    const MethodComparison* here = methodIn(row.dataset(dataset), method);
    const MethodComparison* base = methodIn(report.plan.rows.front().dataset(dataset), method);
    Moved m;
    if (here)
        m.value = here->average[std::size_t(mi)].facetMean;
    if (m.value && base && base->average[std::size_t(mi)].facetMean)
        m.change = *m.value - *base->average[std::size_t(mi)].facetMean;
    return m;
}

QString csvField(const QString& text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n'))
        return text;
    return u"\""_s + QString(text).replace(u"\""_s, u"\"\""_s) + u"\""_s;
}

QString numberText(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'g', 10) : QString();
}

// One metric's averages on one data set: a line per row, a column per method.
QString averagesByRow(const SensitivityReport& report, const ReproducedDataset& base, int mi)
{
    const DatasetComparison& c = base.comparison;
    QString text = u"| row |"_s;
    QString rule = u"|---|"_s;
    for (const MethodComparison& m : c.methods) {
        text += u" %1 |"_s.arg(m.paperName);
        rule += u"---|"_s;
    }
    text += u" Facet's ranking | as the paper's |\n"_s + rule + u"---|---|\n"_s;
    if (c.paperHasCells) {
        text += u"| paper |"_s;
        for (const MethodComparison& m : c.methods)
            text += u" %1 |"_s.arg(meanStdText(m.average[std::size_t(mi)].paperMean, {}, 2));
        text += u" %1 | |\n"_s.arg(joined(c.ranking[std::size_t(mi)].paper));
    }
    for (const SensitivityRow& row : report.plan.rows) {
        const ReproducedDataset* d = row.dataset(c.dataset);
        text += u"| %1 |"_s.arg(rowLabel(row));
        for (const MethodComparison& m : c.methods) {
            const Moved v = moved(report, row, c.dataset, m.method, mi);
            // The baseline's bracket is its difference to the paper; a row's, its change.
            const MethodComparison* here = methodIn(d, m.method);
            const std::optional<double> bracket = row.factor.isEmpty() && here
                ? here->average[std::size_t(mi)].difference()
                : v.change;
            text += u" %1%2 |"_s.arg(meanStdText(v.value, {}, 2),
                bracket ? u" (%1)"_s.arg(differenceText(bracket)) : QString());
        }
        const Ranking* r = d ? &d->comparison.ranking[std::size_t(mi)] : nullptr;
        text += u" %1 | %2 |\n"_s.arg(r ? joined(r->facet) : u"-"_s,
            !r || r->paper.empty() ? u"-"_s
                : r->same()        ? u"yes"_s
                                   : u"no"_s);
    }
    return text;
}

// The stated gains on one data set (papers whose tables are lost): Facet's gain per row.
QString claimsByRow(const SensitivityReport& report, const ReproducedDataset& base)
{
    QString text;
    for (const ClaimComparison& k : base.comparison.claims) {
        if (k.claim.kind != u"gain")
            continue;
        if (text.isEmpty())
            text = u"\nStated gains (percentage points; in brackets: Facet's gain minus the "
                   "stated one):\n\n| row | claim | stated | Facet |\n|---|---|---|---|\n"_s;
        for (const SensitivityRow& row : report.plan.rows) {
            const ReproducedDataset* d = row.dataset(base.comparison.dataset);
            const ClaimComparison* same = nullptr;
            if (d)
                for (const ClaimComparison& other : d->comparison.claims)
                    if (other.claim.quote == k.claim.quote && other.claim.metric == k.claim.metric)
                        same = &other;
            text += u"| %1 | %2 over %3, %4 | %5 | %6 (%7) |\n"_s.arg(rowLabel(row), k.claim.method,
                k.claim.over.isEmpty() ? u"the second best"_s : k.claim.over,
                k.claim.metric.toUpper(), differenceText(k.claim.points),
                differenceText(same ? same->facetGain : std::nullopt),
                differenceText(same ? same->difference : std::nullopt));
        }
    }
    return text;
}

} // namespace

QString sensitivityMarkdown(const SensitivityReport& report)
{
    const PaperRecord& p = *report.paper;
    const SensitivityRow& baseline = report.plan.rows.front();
    QString text = u"# Where the gaps to %1 come from\n\n"_s.arg(p.citation());
    text += u"Command: `facet-cli %1`\n\n"_s.arg(report.arguments.join(u' '));
    text += u"One choice at a time: the baseline runs the protocol of `facet-cli reproduce %1` "
            "(the paper's as its record reads it, with the options given); every other row "
            "changes one choice the paper leaves open and runs the same sweeps again with the "
            "same seed, so the same classes and starts. Its change from the baseline is that "
            "choice's effect alone; how choices interact is not measured. Averages are the "
            "papers' (mean over c of the per-c means), in percent.\n\n"_s.arg(p.key);
    text += u"Seed %1; trials per c: %2; sub-runs per trial: %3; iterations: at most %4.\n"_s.arg(
        report.options.value(u"seed"_s).toString(),
        QString::number(report.options.value(u"trials"_s).toInt()),
        QString::number(report.options.value(u"subruns"_s).toInt()),
        QString::number(report.options.value(u"max-iter"_s).toInt()));
    for (const ReproducedDataset& d : baseline.datasets)
        text += u"Data %1: `%2`, SHA-256 %3.\n"_s.arg(
            d.comparison.paperName, d.file.section(u'/', -1), d.fileSha256);
    if (!report.departures.isEmpty())
        text += u"\nThe baseline departs from the paper's protocol: "_s
            + report.departures.join(u"; "_s) + u".\n"_s;

    text += u"\n## Rows\n\n| row | choice | value | the baseline's | folder |\n"
            "|---|---|---|---|---|\n"_s;
    for (const SensitivityRow& row : report.plan.rows)
        text += u"| %1 | %2 | %3 | %4 | `%5/` |\n"_s.arg(rowLabel(row),
            row.factor.isEmpty() ? u"-"_s : row.factor, row.factor.isEmpty() ? u"-"_s : row.level,
            row.factor.isEmpty() ? u"-"_s : baseline.choices.value(row.factor).toString(), row.id);
    text += u"\nThe baseline's choices: "_s;
    QStringList choices;
    for (auto it = baseline.choices.begin(); it != baseline.choices.end(); ++it)
        choices << u"%1 = %2"_s.arg(it.key(), it.value().toString());
    text += choices.join(u"; "_s) + u".\n"_s;

    for (const ReproducedDataset& d : baseline.datasets) {
        const DatasetComparison& c = d.comparison;
        for (const int mi : { 0, 1 }) {
            text += u"\n## %1%2: average %3 (%)\n\n"_s.arg(c.paperName,
                c.table.isEmpty() ? QString() : u" (%1)"_s.arg(c.table),
                mi == 0 ? u"AC"_s : u"NMI"_s);
            text += u"In brackets: the baseline's difference to the paper; a row's change from "
                    "the baseline.\n\n"_s;
            text += averagesByRow(report, d, mi);
        }
        text += claimsByRow(report, d);
    }

    text += u"\n## Gaps over %1 points\n\n"_s.arg(kGapPoints);
    if (report.gaps.empty())
        text += u"No average of the baseline (and no stated gain) is more than %1 points from "
                "the paper's.\n"_s.arg(kGapPoints);
    for (const SensitivityGap& gap : report.gaps)
        text += u"- "_s + gapStatement(gap, report.plan.rows) + u'\n';
    text += u"\n## Choices not varied\n\n"_s;
    for (const NotVaried& n : report.plan.notVaried)
        text += u"- %1: %2\n"_s.arg(n.choice, n.why);
    return text;
}

QString sensitivityCsv(const SensitivityReport& report)
{
    QStringList lines { u"paper,row,factor,level,dataset,data_file,data_sha256,method_paper,"
                        "method_facet,metric,facet_mean,change,paper_mean,difference,facet_rank,"
                        "ranking_as_paper,seed,trials"_s };
    for (const SensitivityRow& row : report.plan.rows)
        for (const ReproducedDataset& d : row.datasets) {
            const DatasetComparison& c = d.comparison;
            for (const MethodComparison& m : c.methods)
                for (const int mi : { 0, 1 }) {
                    const Moved v = moved(report, row, c.dataset, m.method, mi);
                    const Ranking& r = c.ranking[std::size_t(mi)];
                    const int rank = rankIn(r.facet, m.paperName);
                    QStringList fields { report.paper->key, row.id, row.factor, csvField(row.level),
                        c.dataset, d.file.section(u'/', -1), d.fileSha256, m.paperName,
                        QString::fromStdString(m.method), mi == 0 ? u"ac"_s : u"nmi"_s,
                        numberText(v.value), numberText(v.change),
                        numberText(m.average[std::size_t(mi)].paperMean),
                        numberText(m.average[std::size_t(mi)].difference()),
                        rank ? QString::number(rank) : QString(),
                        r.paper.empty() ? QString()
                            : r.same()  ? u"yes"_s
                                        : u"no"_s,
                        d.sweepOptions.value(u"seed"_s).toString(),
                        QString::number(d.sweepOptions.value(u"trials"_s).toInt()) };
                    lines << fields.join(u',');
                }
        }
    return lines.join(u'\n') + u'\n';
}

QJsonObject sensitivityJson(const SensitivityReport& report)
{
    const PaperRecord& p = *report.paper;
    QJsonArray rows;
    for (const SensitivityRow& row : report.plan.rows) {
        QJsonArray datasets;
        for (const ReproducedDataset& d : row.datasets) {
            const DatasetComparison& c = d.comparison;
            QJsonArray methods;
            for (const MethodComparison& m : c.methods) {
                QJsonObject method { { u"paper"_s, m.paperName },
                    { u"facet"_s, QString::fromStdString(m.method) } };
                for (const int mi : { 0, 1 }) {
                    const Moved v = moved(report, row, c.dataset, m.method, mi);
                    const Compared& a = m.average[std::size_t(mi)];
                    method.insert(mi == 0 ? u"ac"_s : u"nmi"_s,
                        QJsonObject { { u"facet_mean"_s, optionalNumber(v.value) },
                            { u"change"_s, optionalNumber(v.change) },
                            { u"paper_mean"_s, optionalNumber(a.paperMean) },
                            { u"difference"_s, optionalNumber(a.difference()) },
                            { u"facet_rank"_s,
                                rankIn(c.ranking[std::size_t(mi)].facet, m.paperName) } });
                }
                methods.append(method);
            }
            QJsonObject ranking;
            for (const int mi : { 0, 1 }) {
                const Ranking& r = c.ranking[std::size_t(mi)];
                QJsonArray facet, paper;
                for (const QString& name : r.facet)
                    facet.append(name);
                for (const QString& name : r.paper)
                    paper.append(name);
                ranking.insert(mi == 0 ? u"ac"_s : u"nmi"_s,
                    QJsonObject { { u"facet"_s, facet }, { u"paper"_s, paper },
                        { u"same"_s, r.paper.empty() ? QJsonValue() : QJsonValue(r.same()) } });
            }
            datasets.append(QJsonObject { { u"key"_s, c.dataset }, { u"sweep_dir"_s, d.sweepDir },
                { u"file"_s, d.file }, { u"file_sha256"_s, d.fileSha256 },
                { u"sweep_options"_s, d.sweepOptions },
                { u"sweep_arguments"_s, QJsonArray::fromStringList(d.sweepArguments) },
                { u"cells_finished"_s, d.cellsFinished }, { u"cells_planned"_s, d.cellsPlanned },
                { u"methods"_s, methods }, { u"ranking"_s, ranking } });
        }
        rows.append(QJsonObject { { u"id"_s, row.id },
            { u"factor"_s, row.factor.isEmpty() ? QJsonValue() : QJsonValue(row.factor) },
            { u"level"_s, row.factor.isEmpty() ? QJsonValue() : QJsonValue(row.level) },
            { u"choices"_s, row.choices }, { u"preset"_s, row.preset },
            { u"datasets"_s, datasets } });
    }
    QJsonArray gaps, notVaried;
    for (const SensitivityGap& gap : report.gaps) {
        QJsonArray differences;
        for (const std::optional<double>& d : gap.differences)
            differences.append(optionalNumber(d));
        gaps.append(QJsonObject { { u"dataset"_s, gap.dataset }, { u"subject"_s, gap.subject },
            { u"stated_gain"_s, gap.claim }, { u"metric"_s, gap.metric }, { u"paper"_s, gap.paper },
            { u"differences"_s, differences },
            { u"nearest_row"_s,
                gap.nearest < 0 ? QJsonValue()
                                : QJsonValue(report.plan.rows.at(std::size_t(gap.nearest)).id) },
            { u"closed"_s, gap.closed() },
            { u"statement"_s, gapStatement(gap, report.plan.rows) } });
    }
    for (const NotVaried& n : report.plan.notVaried)
        notVaried.append(QJsonObject { { u"choice"_s, n.choice }, { u"why"_s, n.why } });
    return QJsonObject {
        { u"format"_s, u"facet-sensitivity-1"_s },
        { u"facet_version"_s, QStringLiteral(FACET_VERSION_STRING) },
        { u"paper"_s,
            QJsonObject {
                { u"key"_s, p.key }, { u"citation"_s, p.citation() }, { u"record"_s, p.origin } } },
        { u"arguments"_s, QJsonArray::fromStringList(report.arguments) },
        { u"options"_s, report.options },
        { u"departures"_s, QJsonArray::fromStringList(report.departures) },
        { u"units"_s,
            u"percent; change = row - baseline, difference = Facet - paper, in percentage "
            "points"_s },
        { u"gap_points"_s, kGapPoints },
        { u"rows"_s, rows },
        { u"gaps"_s, gaps },
        { u"not_varied"_s, notVaried },
    };
}

} // namespace facet
