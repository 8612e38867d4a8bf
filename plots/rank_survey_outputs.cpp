// SPDX-License-Identifier: GPL-3.0-or-later
#include "rank_survey_outputs.h"

#include "line_chart.h"
#include "util/atomic_write.h"
#include "util/json_values.h"
#include "util/params_json.h"

#include <QDir>
#include <QImage>
#include <QJsonArray>

#include <cmath>
#include <functional>

namespace facet::plots {

using namespace Qt::StringLiterals;

namespace {

QJsonObject spread(const MeanStd& s)
{
    return s.count == 0 ? QJsonObject {}
                        : QJsonObject { { u"mean"_s, numberOrNull(s.mean) },
                              { u"std"_s, numberOrNull(s.std) }, { u"count"_s, s.count } };
}

QString number(double v, int digits = 4)
{
    return std::isfinite(v) ? QString::number(v, 'f', digits) : u"–"_s;
}

QString cell(const MeanStd& s, int digits = 4)
{
    return s.count == 0 ? u"–"_s : u"%1 ± %2"_s.arg(number(s.mean, digits), number(s.std, digits));
}

QByteArray csvNumber(double v)
{
    return std::isfinite(v) ? QByteArray::number(v, 'g', 17) : QByteArray();
}

// One measure against k, for a chart.
Curve curve(const RankSurveyReport& report, const QString& name,
    const std::function<double(const RankSurveyRow&)>& value)
{
    Curve c { name, {}, {} };
    for (const RankSurveyRow& row : report.result.rows) {
        c.x.push_back(row.rank);
        c.y.push_back(value(row));
    }
    return c;
}

} // namespace

QImage consensusImage(const Consensus& consensus)
{
    const int n = int(consensus.order.size());
    QImage image(n, n, QImage::Format_Grayscale8);
    for (int i = 0; i < n; ++i) {
        uchar* line = image.scanLine(i);
        for (int j = 0; j < n; ++j)
            line[j] = uchar(std::lround(255
                * (1
                    - consensus.matrix(
                        consensus.order[std::size_t(i)], consensus.order[std::size_t(j)]))));
    }
    return image;
}

QJsonObject rankSurveyJson(const RankSurveyReport& report)
{
    QJsonArray rows;
    for (const RankSurveyRow& row : report.result.rows)
        rows.append(QJsonObject {
            { u"rank"_s, row.rank },
            { u"cophenetic"_s, numberOrNull(row.consensus.cophenetic) },
            { u"dispersion"_s, numberOrNull(row.consensus.dispersion) },
            { u"ac"_s, spread(row.ac) },
            { u"nmi"_s, spread(row.nmi) },
            { u"reconstruction_error"_s, spread(row.reconstruction) },
            { u"held_out_error"_s, spread(row.heldOut) },
            { u"sparseness_v"_s, spread(row.sparsenessV) },
            { u"sparseness_basis"_s, spread(row.sparsenessBasis) },
            { u"seconds"_s, spread(row.seconds) },
            { u"converged_runs"_s, row.converged },
        });
    QJsonObject dataset = identityToJson(report.dataset);
    dataset.insert(u"path"_s, report.dataset.source);
    return QJsonObject {
        { u"format"_s, u"facet-rank-survey-1"_s },
        { u"facet_version"_s, QStringLiteral(FACET_VERSION_STRING) },
        { u"arguments"_s, QJsonArray::fromStringList(report.arguments) },
        { u"dataset"_s, dataset },
        { u"method"_s, QString::fromStdString(report.options.run.method) },
        { u"options"_s, runOptionsToJson(report.options.run) },
        { u"runs_per_rank"_s, report.options.runs },
        { u"held_out"_s,
            QJsonObject { { u"folds"_s, report.options.folds },
                { u"fraction"_s, report.options.holdout },
                { u"note"_s, report.result.heldOutNote } } },
        { u"first_seed"_s, QString::number(report.options.run.driver.seed) },
        { u"ranks"_s, rows },
        { u"suggestion"_s,
            QJsonObject { { u"cophenetic"_s,
                              QJsonObject { { u"rank"_s, report.result.byCophenetic.rank },
                                  { u"why"_s, report.result.byCophenetic.why } } },
                { u"held_out"_s,
                    QJsonObject { { u"rank"_s, report.result.byHeldOut.rank },
                        { u"why"_s, report.result.byHeldOut.why } } } } },
    };
}

QByteArray rankSurveyCsv(const RankSurveyReport& report)
{
    QByteArray csv = "rank,cophenetic,dispersion,ac_mean,ac_std,nmi_mean,nmi_std,"
                     "reconstruction_error_mean,reconstruction_error_std,held_out_error_mean,"
                     "held_out_error_std,sparseness_v_mean,"
                     "sparseness_basis_mean,seconds_mean,converged_runs,runs\r\n";
    const auto pair = [](const MeanStd& s) {
        return s.count == 0 ? QByteArray(",") : csvNumber(s.mean) + ',' + csvNumber(s.std);
    };
    for (const RankSurveyRow& row : report.result.rows)
        csv += QByteArray::number(row.rank) + ',' + csvNumber(row.consensus.cophenetic) + ','
            + csvNumber(row.consensus.dispersion) + ',' + pair(row.ac) + ',' + pair(row.nmi) + ','
            + pair(row.reconstruction) + ',' + pair(row.heldOut) + ','
            + csvNumber(row.sparsenessV.mean) + ',' + csvNumber(row.sparsenessBasis.mean) + ','
            + csvNumber(row.seconds.mean) + ',' + QByteArray::number(row.converged) + ','
            + QByteArray::number(report.options.runs) + "\r\n";
    return csv;
}

QString rankSurveyMarkdown(const RankSurveyReport& report)
{
    QString md = u"# Rank survey: %1 on %2\n\n"_s.arg(
        QString::fromStdString(report.options.run.method).toUpper(), report.dataset.name);
    md += u"%1 runs per rank from seed %2; data %3.\n\n"_s.arg(report.options.runs)
              .arg(report.options.run.driver.seed)
              .arg(describeIdentity(report.dataset));
    md += u"Repeat with: `facet-cli %1 --out DIR`\n\n"_s.arg(report.arguments.join(u' '));
    md += u"| k | cophenetic | dispersion |"_s;
    if (report.labelled)
        md += u" AC | NMI |"_s;
    md += u" reconstruction error | held-out error | sparseness V | sparseness basis | seconds | "
          "converged |\n"_s;
    md += u"|---|---|---|"_s + (report.labelled ? u"---|---|"_s : QString())
        + u"---|---|---|---|---|---|\n"_s;
    for (const RankSurveyRow& row : report.result.rows) {
        md += u"| %1 | %2 | %3 |"_s.arg(row.rank)
                  .arg(number(row.consensus.cophenetic))
                  .arg(number(row.consensus.dispersion));
        if (report.labelled)
            md += u" %1 | %2 |"_s.arg(cell(row.ac), cell(row.nmi));
        md += u" %1 | %2 | %3 | %4 | %5 | %6 of %7 |\n"_s.arg(cell(row.reconstruction))
                  .arg(cell(row.heldOut))
                  .arg(number(row.sparsenessV.mean))
                  .arg(number(row.sparsenessBasis.mean))
                  .arg(number(row.seconds.mean, 3))
                  .arg(row.converged)
                  .arg(report.options.runs);
    }
    md += u"\n"_s;
    if (report.result.byCophenetic.rank > 0)
        md += u"**Suggested k = %1**: %2.\n"_s.arg(report.result.byCophenetic.rank)
                  .arg(report.result.byCophenetic.why);
    else
        md += u"No rank suggested: %1.\n"_s.arg(report.result.byCophenetic.why);
    if (report.result.byHeldOut.rank > 0)
        md += u"\n**Held-out error, %1 folds of %2 % of the entries: k = %3**: %4.\n"_s
                  .arg(report.options.folds)
                  .arg(100 * report.options.holdout)
                  .arg(report.result.byHeldOut.rank)
                  .arg(report.result.byHeldOut.why);
    else if (!report.result.heldOutNote.isEmpty())
        md += u"\nNo held-out error: %1.\n"_s.arg(report.result.heldOutNote);
    return md;
}

Result<QStringList> writeRankSurveyOutputs(const QString& dir, const RankSurveyReport& report)
{
    const QDir target(dir);
    QStringList written;
    const auto text = [&](const QString& name, const QByteArray& bytes) -> Result<bool> {
        const QString path = target.filePath(name);
        if (Result<bool> ok = writeBytesFile(path, bytes); !ok)
            return ok;
        written << path;
        return true;
    };
    if (Result<bool> ok = writeJsonFile(target.filePath(u"survey.json"_s), rankSurveyJson(report));
        !ok)
        return Error { ok.error() };
    written << target.filePath(u"survey.json"_s);
    if (Result<bool> ok = text(u"survey.csv"_s, rankSurveyCsv(report)); !ok)
        return Error { ok.error() };
    if (Result<bool> ok = text(u"survey.md"_s, rankSurveyMarkdown(report).toUtf8()); !ok)
        return Error { ok.error() };

    const QString on = u"%1 on %2"_s.arg(
        QString::fromStdString(report.options.run.method).toUpper(), report.dataset.name);
    std::vector<std::pair<QString, LineChart>> charts;
    charts.push_back({ u"consensus"_s,
        { u"Consensus over %1 runs: %2"_s.arg(report.options.runs).arg(on), u"rank k"_s, u"value"_s,
            { curve(report, u"cophenetic correlation"_s,
                  [](const RankSurveyRow& r) { return r.consensus.cophenetic; }),
                curve(report, u"dispersion"_s,
                    [](const RankSurveyRow& r) { return r.consensus.dispersion; }) },
            {}, 0, 1 } });
    if (report.labelled)
        charts.push_back({ u"ac_nmi"_s,
            { u"AC and NMI (mean over the runs): %1"_s.arg(on), u"rank k"_s, u"score"_s,
                { curve(report, u"AC"_s, [](const RankSurveyRow& r) { return r.ac.mean; }),
                    curve(report, u"NMI"_s, [](const RankSurveyRow& r) { return r.nmi.mean; }) },
                {}, 0, 1 } });
    charts.push_back({ u"reconstruction"_s,
        { u"Reconstruction error: %1"_s.arg(on), u"rank k"_s, u"||X - basis Vᵀ|| / ||X||"_s,
            { curve(report, u"mean over the runs"_s,
                [](const RankSurveyRow& r) { return r.reconstruction.mean; }) },
            {}, 0, 0.01 } });
    if (report.result.byHeldOut.rank > 0)
        charts.push_back({ u"heldout"_s,
            { u"Held-out error (%1 folds, %2 % of the entries): %3"_s.arg(report.options.folds)
                    .arg(100 * report.options.holdout)
                    .arg(on),
                u"rank k"_s, u"error on the held-out entries"_s,
                { curve(report, u"mean over the folds"_s,
                      [](const RankSurveyRow& r) { return r.heldOut.mean; }),
                    curve(report, u"reconstruction error of the full fits"_s,
                        [](const RankSurveyRow& r) { return r.reconstruction.mean; }) },
                {}, 0, 0.01 } });
    charts.push_back({ u"sparseness"_s,
        { u"Hoyer sparseness: %1"_s.arg(on), u"rank k"_s, u"sparseness"_s,
            { curve(report, u"V"_s, [](const RankSurveyRow& r) { return r.sparsenessV.mean; }),
                curve(report, u"basis"_s,
                    [](const RankSurveyRow& r) { return r.sparsenessBasis.mean; }) },
            {}, 0, 1 } });
    charts.push_back({ u"time"_s,
        { u"Time per run: %1"_s.arg(on), u"rank k"_s, u"seconds"_s,
            { curve(report, u"mean over the runs"_s,
                [](const RankSurveyRow& r) { return r.seconds.mean; }) },
            {}, 0, 0.01 } });
    for (const auto& [name, chart] : charts) {
        const Result<QStringList> files = saveLineChart(chart, target.filePath(name));
        if (!files)
            return Error { files.error() };
        written << *files;
    }

    // The suggested rank's consensus, ordered: blocks on the diagonal are clusters the runs agree
    // on.
    const int suggested = report.result.byCophenetic.rank;
    for (const RankSurveyRow& row : report.result.rows) {
        if (row.rank != suggested || row.consensus.matrix.size() == 0)
            continue;
        const QImage image = consensusImage(row.consensus);
        const int n = image.width();
        const QString path = target.filePath(u"consensus_k%1.png"_s.arg(row.rank));
        if (Result<bool> ok
            = writeImageFile(path, n < 300 ? image.scaled(n * (600 / n), n * (600 / n)) : image);
            !ok)
            return Error { ok.error() };
        written << path;
    }
    return written;
}

} // namespace facet::plots
