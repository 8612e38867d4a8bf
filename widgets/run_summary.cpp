// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_summary.h"

#include <QCoreApplication>

#include <cmath>

namespace facet {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("facet::RunSummary", text);
}

// Plural forms come from a translation file; without one, "%n iteration(s)" would show as is.
QString iterations(int n)
{
    return n == 1 ? tr("1 iteration") : tr("%1 iterations").arg(n);
}

double totalSeconds(const RunResult& result)
{
    return result.setupSeconds + result.factorization.initSeconds
        + result.factorization.solveSeconds + result.clusterSeconds;
}

} // namespace

QString formatReconstructionError(double error)
{
    // PCA's bases describe the centred data, so its error is NaN on purpose: not comparable.
    return std::isfinite(error) ? QString::number(error, 'f', 4) : tr("n/a");
}

QString methodTitle(const std::string& method)
{
    const MethodInfo* info = findMethod(method);
    return QString::fromStdString(info ? info->title : method);
}

QString stopDescription(const Factorization& f, int maxIterations)
{
    switch (f.stopReason) {
    case StopReason::Converged:
        return tr("converged after %1").arg(iterations(f.iterations));
    case StopReason::MaxIterations:
        // METHODS.md 0: say when the limit, not convergence, ended a still-falling objective.
        if (f.stillDecreasing)
            return tr("stopped at the iteration limit (%1) while the objective was still "
                      "decreasing; raise Max iterations to converge")
                .arg(maxIterations);
        return tr("reached the iteration limit (%1)").arg(maxIterations);
    case StopReason::Cancelled:
        return tr("cancelled after %1").arg(iterations(f.iterations));
    case StopReason::NonFinite:
        return tr("stopped after %1: the objective became non-finite; the last finite factors are "
                  "kept")
            .arg(iterations(f.iterations));
    }
    return {};
}

QString stopDescription(const Factorization& f, const RunOptions& options)
{
    if (suggestsKMeansStart(f, options))
        return tr("stopped at the iteration limit (%1) while the objective was still "
                  "decreasing; raise Max iterations or choose Start: k-means")
            .arg(options.driver.maxIter);
    return stopDescription(f, options.driver.maxIter);
}

QString runStatusLine(const RunResult& result, const RunOptions& options)
{
    QString line = tr("%1, k = %2: %3 in %4 s")
                       .arg(methodTitle(options.method))
                       .arg(options.params.rank)
                       .arg(stopDescription(result.factorization, options))
                       .arg(totalSeconds(result), 0, 'f', 2);
    if (result.ac && result.nmi)
        line += tr(" · AC %1 · NMI %2").arg(*result.ac, 0, 'f', 3).arg(*result.nmi, 0, 'f', 3);
    else
        line += tr(" · no labels: AC/NMI not available");
    return line;
}

QString runSummaryHtml(const RunResult& result, const RunOptions& options)
{
    const Factorization& f = result.factorization;
    const auto row = [](const QString& name, const QString& value) {
        return QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td></tr>").arg(name, value);
    };
    QString html = QStringLiteral("<table>");
    html += row(tr("Method"), methodTitle(options.method).toHtmlEscaped());
    html += row(tr("Rank k"), QString::number(options.params.rank));
    html += row(tr("Stop"), stopDescription(f, options).toHtmlEscaped());
    if (suggestsKMeansStart(f, options))
        html += row(tr("Start"),
            tr("random: every basis vector begins near the data mean, which the CF family "
               "leaves slowly; the k-means start begins at cluster centroids")
                .toHtmlEscaped());
    if (!f.history.empty())
        html += row(tr("Objective"), QString::number(f.history.back(), 'g', 6));
    html += row(tr("Time"), tr("%1 s").arg(totalSeconds(result), 0, 'f', 2));
    html += row(tr("Rel. error"), formatReconstructionError(result.reconstructionError));
    html += row(tr("Sparseness V"), QString::number(result.sparseness, 'f', 3));
    html += row(tr("Clusters"), QString::number(result.clusters));
    if (result.ac && result.nmi) {
        html += row(
            tr("AC / NMI"), tr("%1 / %2").arg(*result.ac, 0, 'f', 3).arg(*result.nmi, 0, 'f', 3));
    } else {
        html += row(tr("AC / NMI"), tr("no labels"));
    }
    return html + QStringLiteral("</table>");
}

} // namespace facet
