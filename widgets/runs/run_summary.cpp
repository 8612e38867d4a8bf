// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/run_summary.h"

#include "data/mat_writer.h" // warmStartContinues

#include <QCoreApplication>

#include <cmath>

namespace facet {

namespace {

// The translation context of this file's texts (lupdate reads SummaryText::tr).
struct SummaryText {
    Q_DECLARE_TR_FUNCTIONS(facet::RunSummary)
};

// Plural forms come from a translation file; without one, "%n iteration(s)" would show as is.
QString iterations(int n)
{
    return n == 1 ? SummaryText::tr("1 iteration") : SummaryText::tr("%1 iterations").arg(n);
}

double totalSeconds(const RunResult& result)
{
    return result.setupSeconds + result.factorization.initSeconds
        + result.factorization.solveSeconds + result.clusterSeconds;
}

// The objective, and for the baselines what it measures.
QString objectiveText(const Factorization& f)
{
    const QString value = QString::number(f.history.back(), 'g', 6);
    if (f.method == "pca") {
        // history = ||Xc||^2 - ||V||^2 (methods/baselines.h), so the total is their sum.
        const double total = f.history.back() + double(f.V.squaredNorm());
        if (total > 0)
            return SummaryText::tr("%1 (left out: %2 % of the variance)")
                .arg(value)
                .arg(100.0 * f.history.back() / total, 0, 'f', 1);
    }
    if (f.method == "kmeans")
        return SummaryText::tr("%1 (within-cluster sum of squares)").arg(value);
    return value;
}

} // namespace

QString formatReconstructionError(double error)
{
    // PCA's bases describe the centred data, so its error is NaN on purpose: not comparable.
    return std::isfinite(error) ? QString::number(error, 'f', 4) : SummaryText::tr("n/a");
}

QString methodTitle(const std::string& method)
{
    const MethodInfo* info = findMethod(method);
    return QString::fromStdString(info ? info->title : method);
}

QString stopDescription(const Factorization& f, int maxIterations)
{
    // The baselines run outside the driver (METHODS.md 4): PCA is one solve, k-means counts the
    // Lloyd rounds of its kept start, up to its own limit of 100.
    if (f.method == "pca")
        return SummaryText::tr("one eigendecomposition (no iterations)");
    if (f.method == "kmeans") {
        const QString rounds = f.iterations == 1
            ? SummaryText::tr("1 Lloyd round")
            : SummaryText::tr("%1 Lloyd rounds").arg(f.iterations);
        if (f.stopReason == StopReason::Cancelled)
            return SummaryText::tr("cancelled after %1").arg(rounds);
        if (f.stopReason == StopReason::MaxIterations)
            return SummaryText::tr("stopped at k-means' limit of %1 without converging")
                .arg(rounds);
        return SummaryText::tr("converged after %1").arg(rounds);
    }
    switch (f.stopReason) {
    case StopReason::Converged:
        return SummaryText::tr("converged after %1").arg(iterations(f.iterations));
    case StopReason::MaxIterations:
        // METHODS.md 0: say when the limit, not convergence, ended a still-falling objective.
        if (f.stillDecreasing)
            return SummaryText::tr(
                "stopped at the iteration limit (%1) while the objective was still "
                "decreasing; raise Max iterations to converge")
                .arg(maxIterations);
        return SummaryText::tr("reached the iteration limit (%1)").arg(maxIterations);
    case StopReason::Cancelled:
        return SummaryText::tr("cancelled after %1").arg(iterations(f.iterations));
    case StopReason::NonFinite:
        return SummaryText::tr(
            "stopped after %1: the objective became non-finite; the last finite factors are "
            "kept")
            .arg(iterations(f.iterations));
    }
    return {};
}

QString stopDescription(const Factorization& f, const RunOptions& options)
{
    // Run > Continue the shown run takes these methods on from their factors.
    const bool canContinue = f.stopReason == StopReason::MaxIterations && f.stillDecreasing
        && warmStartContinues(options.method);
    // The limit is the iteration a run stopped at: for a continued run (a session's included,
    // which keeps no earlier history) Max iterations after the iterations it continued.
    const int limit
        = f.stopReason == StopReason::MaxIterations ? f.iterations : options.driver.maxIter;
    if (suggestsKMeansStart(f, options))
        return (canContinue
                ? SummaryText::tr("stopped at the iteration limit (%1) while the objective was "
                                  "still decreasing; continue it (Ctrl+Shift+C), raise Max "
                                  "iterations or choose Start: k-means")
                : SummaryText::tr("stopped at the iteration limit (%1) while the objective was "
                                  "still decreasing; raise Max iterations or choose Start: "
                                  "k-means"))
            .arg(limit);
    if (canContinue)
        return SummaryText::tr("stopped at the iteration limit (%1) while the objective was still "
                               "decreasing; continue it (Ctrl+Shift+C) or raise Max iterations")
            .arg(limit);
    return stopDescription(f, limit);
}

QString runStatusLine(const RunResult& result, const RunOptions& options)
{
    QString line = SummaryText::tr("%1, k = %2: %3 in %4 s")
                       .arg(methodTitle(options.method))
                       .arg(options.params.rank)
                       .arg(stopDescription(result.factorization, options))
                       .arg(totalSeconds(result), 0, 'f', 2);
    if (result.ac && result.nmi)
        line += SummaryText::tr(" · AC %1 · NMI %2")
                    .arg(*result.ac, 0, 'f', 3)
                    .arg(*result.nmi, 0, 'f', 3);
    else
        line += SummaryText::tr(" · no labels: AC/NMI not available");
    return line;
}

QString runSummaryHtml(const RunResult& result, const RunOptions& options)
{
    const Factorization& f = result.factorization;
    const auto row = [](const QString& name, const QString& value) {
        return QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td></tr>").arg(name, value);
    };
    QString html = QStringLiteral("<table>");
    html += row(SummaryText::tr("Method"), methodTitle(options.method).toHtmlEscaped());
    html += row(SummaryText::tr("Rank k"), QString::number(options.params.rank));
    html += row(SummaryText::tr("Stop"), stopDescription(f, options).toHtmlEscaped());
    if (suggestsKMeansStart(f, options))
        html += row(SummaryText::tr("Start"),
            SummaryText::tr(
                "random: every basis vector begins near the data mean, which the CF family "
                "leaves slowly; the k-means start begins at cluster centroids")
                .toHtmlEscaped());
    if (!f.history.empty())
        html += row(SummaryText::tr("Objective"), objectiveText(f).toHtmlEscaped());
    if (returnedObjectiveDiffers(f))
        html += row(SummaryText::tr("Returned factors"),
            SummaryText::tr(
                "objective %1: the final normalization rescales V, and the graph term with it")
                .arg(QString::number(f.returnedObjective, 'g', 6))
                .toHtmlEscaped());
    html += row(
        SummaryText::tr("Time"), SummaryText::tr("%1 s").arg(totalSeconds(result), 0, 'f', 2));
    html += row(
        SummaryText::tr("Rel. error"), formatReconstructionError(result.reconstructionError));
    html += row(SummaryText::tr("Sparseness V"), QString::number(result.sparseness, 'f', 3));
    html += row(SummaryText::tr("Clusters"), QString::number(result.clusters));
    if (result.ac && result.nmi) {
        html += row(SummaryText::tr("AC / NMI"),
            SummaryText::tr("%1 / %2").arg(*result.ac, 0, 'f', 3).arg(*result.nmi, 0, 'f', 3));
    } else {
        html += row(SummaryText::tr("AC / NMI"), SummaryText::tr("no labels"));
    }
    if (everySampleLabelled(result))
        html += row(SummaryText::tr("Labels"),
            QStringLiteral("<b>%1</b>")
                .arg(SummaryText::tr(
                    "every sample's label was given to the method: AC and NMI score the "
                    "given labels, not a clustering; lower the labelled fraction")
                         .toHtmlEscaped()));
    // METHODS.md 3: when CF_OGL's learned graph has exactly c components, they are a clustering
    // of their own, reported alongside k-means on V.
    if (result.graphAc && result.graphNmi)
        html += row(SummaryText::tr("Graph components"),
            SummaryText::tr("AC %1 / NMI %2 (the learned graph's %3 components as clusters)")
                .arg(*result.graphAc, 0, 'f', 3)
                .arg(*result.graphNmi, 0, 'f', 3)
                .arg(result.clusters));
    return html + QStringLiteral("</table>");
}

} // namespace facet
