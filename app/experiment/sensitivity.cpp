// SPDX-License-Identifier: GPL-3.0-or-later
// The rows of `reproduce --sensitivity` (one choice changed per row) and the gaps they explain.
// The report's text is in sensitivity_report.cpp.
#include "experiment/sensitivity.h"

#include "methods/registry.h"
#include "util/choices.h"

#include <algorithm>
#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QString textOf(const QJsonObject& preset, const QString& key, const QString& fallback)
{
    const QJsonValue v = preset.value(key);
    return v.isString() ? v.toString() : fallback;
}

bool flagOf(const QJsonObject& preset, const QString& key)
{
    return preset.value(key).toBool();
}

QString selectionText(int subruns, const QString& rule)
{
    if (subruns <= 1)
        return u"one run per trial"_s;
    return rule == u"accuracy" ? u"best AC of %1 sub-runs (oracle)"_s.arg(subruns)
                               : u"lowest objective of %1 sub-runs"_s.arg(subruns);
}

// The algorithm's value in a row: which rules, and when they stop.
QString algorithmText(const QJsonObject& preset)
{
    const QString algorithm = textOf(preset, u"algorithm"_s, u"each method's default"_s);
    const QString maxIter = textOf(preset, u"max-iter"_s, u"3000"_s);
    if (textOf(preset, u"min-iter"_s, QString()) == maxIter)
        return u"%1, %2 iterations"_s.arg(algorithm, maxIter);
    return u"%1, converged (relative decrease below %2, at most %3 iterations)"_s.arg(
        algorithm, textOf(preset, u"tol"_s, u"1e-5"_s), maxIter);
}

class Planner {
public:
    Planner(const QJsonObject& baseline, QJsonObject choices)
        : m_baseline(baseline)
        , m_choices(std::move(choices))
    {
        SensitivityRow row;
        row.id = u"baseline"_s;
        row.choices = m_choices;
        row.preset = baseline;
        m_plan.rows.push_back(std::move(row));
    }

    // A row that gives `factor` the value `level` through `preset`; none when that is the
    // baseline's value.
    void add(const QString& id, const QString& factor, const QString& level, QJsonObject preset)
    {
        if (m_choices.value(factor).toString() == level || preset == m_baseline)
            return;
        SensitivityRow row;
        row.id = id;
        row.factor = factor;
        row.level = level;
        row.choices = m_choices;
        row.choices.insert(factor, level);
        row.preset = std::move(preset);
        m_plan.rows.push_back(std::move(row));
    }
    // The baseline's options, to edit for one row.
    QJsonObject base() const { return m_baseline; }
    void notVaried(const QString& choice, const QString& why)
    {
        m_plan.notVaried.push_back({ choice, why });
    }
    SensitivityPlan take() { return std::move(m_plan); }

private:
    QJsonObject m_baseline;
    QJsonObject m_choices;
    SensitivityPlan m_plan;
};

} // namespace

SensitivityPlan planSensitivity(
    const QJsonObject& baseline, const std::vector<int>& fixedIterations)
{
    const QStringList methods
        = textOf(baseline, u"methods"_s, QString()).split(u',', Qt::SkipEmptyParts);
    const bool semiSupervised
        = baseline.contains(u"labeled-fraction"_s) || baseline.contains(u"labeled-per-class"_s);
    const int subruns = std::max(1, textOf(baseline, u"subruns"_s, u"1"_s).toInt());
    const QString rule = textOf(baseline, u"select"_s, u"objective"_s);
    const bool offset = textOf(baseline, u"rank-offset"_s, u"0"_s) == u"1";
    const auto onOff = [](bool on) { return on ? u"on"_s : u"off"_s; };

    QJsonObject choices {
        { u"normalize"_s, textOf(baseline, u"normalize"_s, u"auto"_s) },
        { u"algorithm"_s, algorithmText(baseline) },
        { u"init"_s, textOf(baseline, u"init"_s, u"each method's default"_s) },
        { u"kmeans-replicates"_s, textOf(baseline, u"kmeans-replicates"_s, u"20"_s) },
        { u"cosine"_s, onOff(flagOf(baseline, u"cosine"_s)) },
        { u"selection"_s, selectionText(subruns, rule) },
        { u"rank"_s, offset ? u"k = c + 1"_s : u"k = c"_s },
    };
    if (semiSupervised)
        choices.insert(u"evaluate"_s, textOf(baseline, u"evaluate"_s, u"all"_s));
    if (methods.contains(u"lcf"_s))
        choices.insert(u"lcf-normalize-each"_s, onOff(flagOf(baseline, u"normalize-each"_s)));
    if (methods.contains(u"cf-ogl"_s))
        choices.insert(u"cf-ogl-paper-variant"_s, onOff(flagOf(baseline, u"paper-variant"_s)));
    if (methods.contains(u"nmf"_s) && flagOf(baseline, u"ncw"_s))
        choices.insert(u"ncw"_s, u"on"_s);
    Planner planner(baseline, choices);
    const auto edited = [&](const QString& key, const QJsonValue& value) {
        QJsonObject preset = planner.base();
        if (value.isNull() || value == false)
            preset.remove(key);
        else
            preset.insert(key, value);
        return preset;
    };

    // METHODS.md section 8: auto is L2 per sample for the CF family, [0, 1] pixels for the rest.
    for (const QString& mode : { u"auto"_s, u"none"_s, u"l2"_s })
        planner.add(u"normalize-"_s + mode, u"normalize"_s, mode, edited(u"normalize"_s, mode));

    // The papers' rules stopped at a fixed count, as code with a fixed loop does, against the
    // driver's convergence test; and HALS, which reaches the same objective's minima by another
    // route, where a method has one (the others keep mu in that row).
    for (const int n : fixedIterations) {
        QJsonObject preset = edited(u"max-iter"_s, QString::number(n));
        preset.insert(u"min-iter"_s, QString::number(n));
        planner.add(
            u"algorithm-%1-iterations"_s.arg(n), u"algorithm"_s, algorithmText(preset), preset);
    }
    QStringList hals;
    for (const QString& m : methods)
        if (const MethodInfo* info = findMethod(m.toStdString());
            info && !info->baseline && supportsAlgorithm(info->name, Algorithm::Hals))
            hals << m;
    if (hals.isEmpty()) {
        planner.notVaried(u"algorithm hals"_s,
            u"no method of this protocol has a HALS route (METHODS.md section 9)"_s);
    } else if (hals.size() < methods.size()) {
        const QJsonObject preset = edited(u"algorithm"_s, u"hals"_s);
        planner.add(u"algorithm-hals"_s, u"algorithm"_s,
            algorithmText(preset) + u" (for %1; the others keep mu)"_s.arg(hals.join(u", "_s)),
            preset);
    } else {
        const QJsonObject preset = edited(u"algorithm"_s, u"hals"_s);
        planner.add(u"algorithm-hals"_s, u"algorithm"_s, algorithmText(preset), preset);
    }
    if (methods.contains(u"cf-ogl"_s))
        planner.notVaried(u"CF_OGL's iterations"_s,
            u"every row runs its 30 outer iterations of 10 steps (METHODS.md section 3); the "
            "fixed-count rows change the other methods"_s);

    // The start: an explicit --init replaces each method's own default (CCF's NMF start too).
    for (const auto& choice : kInitChoices) {
        const QString name = choice.name.toString();
        // With no CCF, every method's default start is the random one already.
        if (name == u"random" && !methods.contains(u"ccf"_s) && !baseline.contains(u"init"_s))
            continue;
        planner.add(u"init-"_s + name, u"init"_s, name, edited(u"init"_s, name));
    }
    if (methods.contains(u"cf-ogl"_s))
        planner.notVaried(u"CF_OGL's start"_s,
            u"it starts from its own scaled random factors (METHODS.md section 3); --init does "
            "not reach it"_s);

    // k-means on the rows of V (METHODS.md section 4): one run instead of the restarts, and
    // cosine distance toggled.
    planner.add(u"kmeans-replicates-1"_s, u"kmeans-replicates"_s, u"1"_s,
        edited(u"kmeans-replicates"_s, u"1"_s));
    const bool cosine = flagOf(baseline, u"cosine"_s);
    planner.add(
        u"cosine-"_s + onOff(!cosine), u"cosine"_s, onOff(!cosine), edited(u"cosine"_s, !cosine));
    planner.notVaried(u"k-means seeding"_s,
        u"Facet's k-means seeds with k-means++; random initial centres (the CCF paper's \"k "
        "different initial centers are randomly selected\") have no option"_s);

    // Sub-run selection: the other rule, and one run; a paper of one run per trial gets LCF's
    // ten sub-runs under each rule.
    const auto selection = [&](int r, const QString& select) {
        QJsonObject preset = planner.base();
        preset.remove(u"subruns"_s);
        preset.remove(u"select"_s);
        if (r > 1) {
            preset.insert(u"subruns"_s, QString::number(r));
            if (select == u"accuracy")
                preset.insert(u"select"_s, select);
        }
        planner.add(r > 1 ? u"selection-%1-%2"_s.arg(select).arg(r) : u"selection-one-run"_s,
            u"selection"_s, selectionText(r, select), preset);
    };
    if (subruns > 1) {
        selection(subruns, rule == u"accuracy" ? u"objective"_s : u"accuracy"_s);
        selection(1, QString());
    } else {
        selection(kSelectionSubruns, u"accuracy"_s);
        selection(kSelectionSubruns, u"objective"_s);
    }

    planner.add(offset ? u"rank-c"_s : u"rank-c-plus-1"_s, u"rank"_s,
        offset ? u"k = c"_s : u"k = c + 1"_s,
        edited(u"rank-offset"_s, offset ? QJsonValue() : QJsonValue(u"1"_s)));

    if (semiSupervised) {
        const QString other
            = textOf(baseline, u"evaluate"_s, u"all"_s) == u"all" ? u"unlabeled"_s : u"all"_s;
        planner.add(u"evaluate-"_s + other, u"evaluate"_s, other, edited(u"evaluate"_s, other));
    } else {
        planner.notVaried(u"scored samples"_s,
            u"the protocol labels no sample, so all of them are the unlabelled ones"_s);
    }

    // Each method's own variant: LCF as the authors' public code runs it, CF_OGL's Q step as the
    // paper prints it, and the CNMF paper's NMF without its normalized-cut weighting.
    if (methods.contains(u"lcf"_s)) {
        const bool on = flagOf(baseline, u"normalize-each"_s);
        planner.add(u"lcf-normalize-each-"_s + onOff(!on), u"lcf-normalize-each"_s, onOff(!on),
            edited(u"normalize-each"_s, !on));
    }
    if (methods.contains(u"cf-ogl"_s)) {
        const bool on = flagOf(baseline, u"paper-variant"_s);
        planner.add(u"cf-ogl-paper-variant-"_s + onOff(!on), u"cf-ogl-paper-variant"_s, onOff(!on),
            edited(u"paper-variant"_s, !on));
    }
    if (choices.contains(u"ncw"_s))
        planner.add(u"ncw-off"_s, u"ncw"_s, u"off"_s, edited(u"ncw"_s, false));

    planner.notVaried(u"parameters the paper does not give"_s,
        u"a weight or graph size is a value on a range, not a reading of the text; the record's "
        "defaults hold in every row (facet-cli sweep --param lambda=... measures one)"_s);
    return planner.take();
}

QString rowLabel(const SensitivityRow& row)
{
    return row.factor.isEmpty() ? u"baseline"_s : u"%1: %2"_s.arg(row.factor, row.level);
}

const ReproducedDataset* SensitivityRow::dataset(const QString& key) const
{
    for (const ReproducedDataset& d : datasets)
        if (d.comparison.dataset == key)
            return &d;
    return nullptr;
}

bool SensitivityGap::closed() const
{
    return nearest >= 0 && differences.at(std::size_t(nearest))
        && std::abs(*differences.at(std::size_t(nearest))) <= threshold;
}

namespace {

const MethodComparison* methodNamed(const DatasetComparison& c, const std::string& method)
{
    for (const MethodComparison& m : c.methods)
        if (m.method == method)
            return &m;
    return nullptr;
}

const ClaimComparison* claimLike(const DatasetComparison& c, const PaperClaim& claim)
{
    for (const ClaimComparison& k : c.claims)
        if (k.claim.quote == claim.quote && k.claim.metric == claim.metric
            && k.claim.method == claim.method)
            return &k;
    return nullptr;
}

void findNearest(SensitivityGap& gap)
{
    for (std::size_t r = 1; r < gap.differences.size(); ++r) {
        const std::optional<double>& d = gap.differences[r];
        if (d
            && (gap.nearest < 0
                || std::abs(*d) < std::abs(*gap.differences[std::size_t(gap.nearest)])))
            gap.nearest = int(r);
    }
}

} // namespace

std::vector<SensitivityGap> sensitivityGaps(
    const std::vector<SensitivityRow>& rows, double threshold)
{
    std::vector<SensitivityGap> gaps;
    if (rows.empty())
        return gaps;
    for (const ReproducedDataset& base : rows.front().datasets) {
        const DatasetComparison& c = base.comparison;
        for (const MethodComparison& m : c.methods)
            for (const int mi : { 0, 1 }) {
                const std::optional<double> at = m.average[std::size_t(mi)].difference();
                if (!at || std::abs(*at) <= threshold)
                    continue;
                SensitivityGap gap { c.dataset, c.paperName, m.paperName, false,
                    mi == 0 ? u"ac"_s : u"nmi"_s, *m.average[std::size_t(mi)].paperMean, {}, -1 };
                for (const SensitivityRow& row : rows) {
                    const ReproducedDataset* d = row.dataset(c.dataset);
                    const MethodComparison* same
                        = d ? methodNamed(d->comparison, m.method) : nullptr;
                    gap.differences.push_back(
                        same ? same->average[std::size_t(mi)].difference() : std::nullopt);
                }
                gap.threshold = threshold;
                findNearest(gap);
                gaps.push_back(std::move(gap));
            }
        for (const ClaimComparison& k : c.claims) {
            if (k.claim.kind != u"gain" || !k.difference || std::abs(*k.difference) <= threshold)
                continue;
            SensitivityGap gap { c.dataset, c.paperName,
                u"%1 over %2"_s.arg(
                    k.claim.method, k.claim.over.isEmpty() ? u"the second best"_s : k.claim.over),
                true, k.claim.metric, k.claim.points, {}, -1 };
            for (const SensitivityRow& row : rows) {
                const ReproducedDataset* d = row.dataset(c.dataset);
                const ClaimComparison* same = d ? claimLike(d->comparison, k.claim) : nullptr;
                gap.differences.push_back(same ? same->difference : std::nullopt);
            }
            gap.threshold = threshold;
            findNearest(gap);
            gaps.push_back(std::move(gap));
        }
    }
    return gaps;
}

QString gapStatement(const SensitivityGap& gap, const std::vector<SensitivityRow>& rows)
{
    const auto signedText
        = [](double v) { return (v >= 0 ? u"+"_s : QString()) + QString::number(v, 'f', 2); };
    QString text = u"%1, %2 %3: the baseline is %4 from the paper's %5%6; "_s.arg(gap.datasetName,
        gap.subject, gap.metric.toUpper(), signedText(gap.baseline()),
        QString::number(gap.paper, 'f', 2), gap.claim ? u" (a stated gain)"_s : QString());
    if (gap.nearest < 0)
        return text + u"no other row has the number"_s;
    const SensitivityRow& row = rows.at(std::size_t(gap.nearest));
    const double after = gap.differences.at(std::size_t(gap.nearest)).value_or(0);
    if (gap.closed())
        return text + u"%1 closes it (%2)"_s.arg(rowLabel(row), signedText(after));
    return text
        + u"no listed choice closes it (nearest: %1, %2)"_s.arg(rowLabel(row), signedText(after));
}

} // namespace facet
