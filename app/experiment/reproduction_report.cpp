// SPDX-License-Identifier: GPL-3.0-or-later
// reproduction.csv and reproduction.json (the Markdown is in reproduction_markdown.cpp).
#include "experiment/reproduction_report.h"

#include "util/json_values.h"

#include <QJsonArray>

#include <algorithm>

namespace facet {

using namespace Qt::StringLiterals;

QString meanStdText(
    const std::optional<double>& mean, const std::optional<double>& std, int decimals)
{
    if (!mean)
        return u"-"_s;
    QString text = QString::number(*mean, 'f', decimals);
    if (std)
        text += u" ± "_s + QString::number(*std, 'f', decimals);
    return text;
}

QString differenceText(const std::optional<double>& difference)
{
    if (!difference)
        return u"-"_s;
    return (*difference >= 0 ? u"+"_s : QString()) + QString::number(*difference, 'f', 2);
}

namespace {

QJsonValue optionalValue(const std::optional<double>& v)
{
    return optionalNumber(v);
}

QJsonObject comparedJson(const Compared& c)
{
    return QJsonObject {
        { u"paper_mean"_s, optionalValue(c.paperMean) },
        { u"paper_std"_s, optionalValue(c.paperStd) },
        { u"facet_mean"_s, optionalValue(c.facetMean) },
        { u"facet_std"_s, optionalValue(c.facetStd) },
        { u"facet_trials"_s, c.facetTrials },
        { u"difference"_s, optionalValue(c.difference()) },
    };
}

QString runValue(const ReproducedDataset& d, const QString& key)
{
    const QJsonValue v = d.sweepOptions.value(u"run"_s).toObject().value(key);
    return v.isString() ? v.toString() : v.isDouble() ? QString::number(v.toDouble()) : QString();
}

// 1-based rank of `name` in `order`; 0 when it is not ranked.
int rankOf(const std::vector<QString>& order, const QString& name)
{
    const auto it = std::find(order.begin(), order.end(), name);
    return it == order.end() ? 0 : int(it - order.begin()) + 1;
}

QJsonArray namesJson(const std::vector<QString>& names)
{
    QJsonArray array;
    for (const QString& n : names)
        array.append(n);
    return array;
}

QJsonObject claimJson(const ClaimComparison& c)
{
    QJsonObject json {
        { u"kind"_s, c.claim.kind },
        { u"method"_s, c.claim.method },
        { u"quote"_s, c.claim.quote },
        { u"paper_check"_s, c.claim.check },
        { u"facet_method"_s, c.facetMethod.isEmpty() ? QJsonValue() : QJsonValue(c.facetMethod) },
    };
    if (c.claim.kind == u"gain") {
        json.insert(u"metric"_s, c.claim.metric);
        json.insert(u"over"_s, c.claim.over.isEmpty() ? QJsonValue() : QJsonValue(c.claim.over));
        json.insert(u"paper_points"_s, c.claim.points);
        json.insert(u"facet_over"_s, c.facetOver);
        json.insert(u"facet_points"_s, optionalValue(c.facetGain));
        json.insert(u"difference"_s, optionalValue(c.difference));
        if (!c.overNote.isEmpty())
            json.insert(u"facet_over_note"_s, c.overNote);
    } else {
        json.insert(u"facet_best"_s, c.facetBest);
        json.insert(u"holds_in_facet"_s, c.holds ? QJsonValue(*c.holds) : QJsonValue());
    }
    return json;
}

QJsonObject datasetJson(const ReproductionReport& report, const ReproducedDataset& d)
{
    const DatasetComparison& c = d.comparison;
    const PaperTable* table = report.paper->table(c.dataset);
    QJsonArray methods;
    for (const MethodComparison& m : c.methods) {
        QJsonObject metrics;
        for (const auto& [metric, name] :
            { std::pair { Metric::Accuracy, u"ac"_s }, std::pair { Metric::Nmi, u"nmi"_s } }) {
            const int mi = metricIndex(metric);
            QJsonArray cells;
            for (std::size_t row = 0; row < c.clusters.size(); ++row) {
                QJsonObject cell = comparedJson(m.cells[std::size_t(mi)][row]);
                cell.insert(u"clusters"_s, c.clusters[row]);
                cells.append(cell);
            }
            QJsonObject average = comparedJson(m.average[std::size_t(mi)]);
            average.insert(u"paper_rank"_s, rankOf(c.ranking[std::size_t(mi)].paper, m.paperName));
            average.insert(u"facet_rank"_s, rankOf(c.ranking[std::size_t(mi)].facet, m.paperName));
            metrics.insert(name, QJsonObject { { u"cells"_s, cells }, { u"average"_s, average } });
        }
        QJsonObject method { { u"paper"_s, m.paperName },
            { u"facet"_s, QString::fromStdString(m.method) } };
        for (auto it = metrics.begin(); it != metrics.end(); ++it)
            method.insert(it.key(), it.value());
        methods.append(method);
    }
    QJsonArray claims;
    for (const ClaimComparison& claim : c.claims)
        claims.append(claimJson(claim));
    QJsonObject ranking;
    for (const auto& [mi, name] : { std::pair { 0, u"ac"_s }, std::pair { 1, u"nmi"_s } })
        ranking.insert(name,
            QJsonObject { { u"paper"_s, namesJson(c.ranking[std::size_t(mi)].paper) },
                { u"facet"_s, namesJson(c.ranking[std::size_t(mi)].facet) },
                { u"same"_s, c.ranking[std::size_t(mi)].same() } });
    QJsonObject json {
        { u"key"_s, c.dataset },
        { u"paper_name"_s, c.paperName },
        { u"table"_s, c.table },
        { u"paper_has_cells"_s, c.paperHasCells },
        { u"paper_average_recomputed"_s, c.paperAverageRecomputed },
        { u"clusters"_s, intArray(c.clusters) },
        { u"sweep_dir"_s, d.sweepDir },
        { u"file"_s, d.file },
        { u"file_sha256"_s, d.fileSha256 },
        { u"sweep_dataset"_s, d.sweepDataset },
        { u"sweep_options"_s, d.sweepOptions },
        { u"sweep_arguments"_s, QJsonArray::fromStringList(d.sweepArguments) },
        { u"cells_finished"_s, d.cellsFinished },
        { u"cells_planned"_s, d.cellsPlanned },
        { u"methods"_s, methods },
        { u"ranking"_s, ranking },
        { u"claims"_s, claims },
    };
    if (table && !table->missing.isEmpty())
        json.insert(u"paper_table_missing"_s, table->missing);
    return json;
}

} // namespace

QJsonObject reproductionJson(const ReproductionReport& report)
{
    const PaperRecord& p = *report.paper;
    QJsonArray datasets, notes, defaults;
    for (const ReproducedDataset& d : report.datasets)
        datasets.append(datasetJson(report, d));
    for (const PaperDefault& o : p.defaults)
        defaults.append(QJsonObject {
            { u"option"_s, o.option }, { u"value"_s, o.value }, { u"why"_s, o.why } });
    return QJsonObject {
        { u"format"_s, u"facet-reproduction-1"_s },
        { u"facet_version"_s, QStringLiteral(FACET_VERSION_STRING) },
        { u"paper"_s,
            QJsonObject { { u"key"_s, p.key }, { u"citation"_s, p.citation() },
                { u"source"_s, p.source }, { u"record"_s, p.origin }, { u"protocol"_s, p.protocol },
                { u"defaults"_s, defaults },
                { u"notes"_s, QJsonArray::fromStringList(p.notes) } } },
        { u"arguments"_s, QJsonArray::fromStringList(report.arguments) },
        { u"options"_s, report.options },
        { u"departures"_s, QJsonArray::fromStringList(report.departures) },
        { u"units"_s, u"percent; difference = Facet - paper in percentage points"_s },
        { u"average_rule"_s,
            u"mean over c of the per-c means, ± the mean of the per-c standard deviations (the "
            "papers' Avg. row)"_s },
        { u"datasets"_s, datasets },
    };
}

QString reproductionCsv(const ReproductionReport& report)
{
    const auto number = [](const std::optional<double>& v) {
        return v ? QString::number(*v, 'g', 10) : QString();
    };
    QStringList lines { u"paper,dataset,data_file,data_sha256,method_paper,method_facet,clusters,"
                        "metric,paper_mean,paper_std,facet_mean,facet_std,facet_trials,"
                        "difference,paper_rank,facet_rank,seed,trials,selection,algorithm,"
                        "max_iter"_s };
    const PaperRecord& p = *report.paper;
    for (const ReproducedDataset& d : report.datasets) {
        const DatasetComparison& c = d.comparison;
        const QString tail = u"%1,%2,%3,%4,%5"_s.arg(d.sweepOptions.value(u"seed"_s).toString(),
            QString::number(d.sweepOptions.value(u"trials"_s).toInt()),
            d.sweepOptions.value(u"select"_s).toString() == u"accuracy"
                    && d.sweepOptions.value(u"subruns"_s).toInt() > 1
                ? u"oracle-best-ac"_s
                : d.sweepOptions.value(u"subruns"_s).toInt() > 1 ? u"lowest-objective"_s
                                                                 : u"single"_s,
            runValue(d, u"algorithm"_s), runValue(d, u"max-iter"_s));
        const QString file = d.file.section(u'/', -1);
        for (const MethodComparison& m : c.methods)
            for (const auto& metricName :
                { std::pair { Metric::Accuracy, u"ac"_s }, std::pair { Metric::Nmi, u"nmi"_s } }) {
                // Not a structured binding: clang 14 (the sanitizer presets) cannot capture one.
                const Metric metric = metricName.first;
                const QString& name = metricName.second;
                const int mi = metricIndex(metric);
                const auto line
                    = [&](const QString& clusters, const Compared& v, const QString& ranks) {
                          lines << u"%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16"_s
                                       .arg(p.key, c.dataset, file, d.fileSha256, m.paperName,
                                           QString::fromStdString(m.method), clusters, name,
                                           number(v.paperMean), number(v.paperStd),
                                           number(v.facetMean), number(v.facetStd))
                                       .arg(v.facetTrials)
                                       .arg(number(v.difference()), ranks, tail);
                      };
                for (std::size_t row = 0; row < c.clusters.size(); ++row)
                    line(QString::number(c.clusters[row]), m.cells[std::size_t(mi)][row], u","_s);
                const Ranking& r = c.ranking[std::size_t(mi)];
                const int paperRank = rankOf(r.paper, m.paperName);
                const int facetRank = rankOf(r.facet, m.paperName);
                line(u"avg"_s, m.average[std::size_t(mi)],
                    u"%1,%2"_s.arg(paperRank ? QString::number(paperRank) : QString(),
                        facetRank ? QString::number(facetRank) : QString()));
            }
    }
    return lines.join(u'\n') + u'\n';
}

} // namespace facet
