// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/demo_captions.h"

#include "metrics/cluster_alignment.h"

#include <QCoreApplication>

namespace facet {

namespace {

// The translation context of this file's texts (lupdate reads CaptionText::tr).
struct CaptionText {
    Q_DECLARE_TR_FUNCTIONS(facet::DemoCaptions)
};

QString shortStop(const Factorization& f)
{
    switch (f.stopReason) {
    case StopReason::Converged:
        return CaptionText::tr("converged after %1 iterations").arg(f.iterations);
    case StopReason::MaxIterations:
        return CaptionText::tr("%1 iterations (the limit)").arg(f.iterations);
    case StopReason::Cancelled:
        return CaptionText::tr("cancelled after %1 iterations").arg(f.iterations);
    case StopReason::NonFinite:
        return CaptionText::tr("non-finite after %1 iterations").arg(f.iterations);
    }
    return {};
}

} // namespace

QString demoTitle(const RunResult& result)
{
    const QString method = QString::fromStdString(result.factorization.method).toUpper();
    if (!result.ac || !result.nmi)
        return method;
    return CaptionText::tr("%1   AC %2   NMI %3")
        .arg(method)
        .arg(*result.ac, 0, 'f', 3)
        .arg(*result.nmi, 0, 'f', 3);
}

QString demoSubtitle(
    const RunResult& result, const RunOptions& options, const Eigen::MatrixXd& centres)
{
    const Factorization& f = result.factorization;
    QString text = CaptionText::tr("k = %1").arg(f.basis.cols());
    if (options.params.lambda)
        text += CaptionText::tr(", λ = %1").arg(*options.params.lambda);
    text += CaptionText::tr(" · %1").arg(shortStop(f));
    if (f.basis.rows() == 2 && centres.rows() == 2 && centres.cols() > 0) {
        const Eigen::VectorXd d = nearestCentreDistances(f.basis.cast<double>(), centres);
        text += CaptionText::tr("\nbasis vector to nearest centre: %1 on average")
                    .arg(d.mean(), 0, 'f', 2);
    } else {
        text += u'\n';
    }
    return text;
}

QString demoFrameSubtitle(int iteration, int lastIteration)
{
    return CaptionText::tr("animating the basis vectors\niteration %1 of %2")
        .arg(iteration)
        .arg(lastIteration);
}

QString demoRunningSubtitle(const QString& method)
{
    return CaptionText::tr("running %1 …\n").arg(method.toUpper());
}

} // namespace facet
