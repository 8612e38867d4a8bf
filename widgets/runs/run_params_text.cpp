// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/run_params_text.h"

#include "controls/method_parameters.h"
#include "util/choices.h"

#include <QStringList>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QString paramNumber(double v)
{
    return QString::number(v, 'g', 4);
}

} // namespace

QString runParamsText(const RunOptions& o)
{
    const QString method = QString::fromStdString(o.method);
    const Parameters reads = methodParameters(method);
    const MethodOptions& m = o.params;
    QStringList parts { u"k=%1"_s.arg(m.rank) };
    if (reads & Parameter::Lambda)
        parts << u"λ=%1"_s.arg(paramNumber(m.lambda.value_or(defaultLambda(method))));
    if (reads & Parameter::Beta)
        parts << u"β=%1"_s.arg(paramNumber(m.beta));
    if (reads & Parameter::Mu)
        parts << u"μ=%1"_s.arg(paramNumber(m.mu));
    if (reads & Parameter::Neighbours)
        parts << u"p=%1"_s.arg(m.p);
    if ((reads & Parameter::GraphWeight) && m.weight != GraphWeight::Binary)
        parts << choiceName(kGraphWeightChoices, m.weight)
                + (m.heatT ? u" t=%1"_s.arg(paramNumber(*m.heatT)) : QString());
    if ((reads & Parameter::Kernel) && m.kernel != KernelKind::Linear)
        parts << choiceName(kKernelChoices, m.kernel);
    if ((reads & Parameter::GeneralForm) && m.generalForm)
        parts << u"general"_s;
    if ((reads & Parameter::Ncw) && m.ncw)
        parts << u"NCW"_s;
    if ((reads & Parameter::Init) && m.initSet)
        parts << u"init %1"_s.arg(choiceName(kInitChoices, m.init));
    if ((reads & Parameter::Labels) && o.labeledFraction > 0)
        parts << u"%1 % labelled"_s.arg(paramNumber(100 * o.labeledFraction));
    if ((reads & Parameter::Labels) && o.labeledPerClass > 0)
        parts << u"%1 labelled/class"_s.arg(o.labeledPerClass);
    if ((reads & Parameter::Replicates) && o.driver.replicates > 1)
        parts << u"%1 starts"_s.arg(o.driver.replicates);
    if ((reads & Parameter::ClusterMode) && o.cluster.mode == ClusterMode::ArgMax)
        parts << u"argmax"_s;
    if ((reads & Parameter::Cosine) && o.cluster.cosine)
        parts << u"cosine"_s;
    return parts.join(u", "_s);
}

QString runParamsChange(const RunOptions& options, const RunOptions& before)
{
    const QStringList was = runParamsText(before).split(u", "_s);
    QStringList changed;
    for (const QString& part : runParamsText(options).split(u", "_s))
        if (!part.startsWith(u"k="_s) && !was.contains(part))
            changed << part;
    return changed.join(u", "_s);
}

} // namespace facet
