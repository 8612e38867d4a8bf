// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/reproduction.h"

#include "methods/registry.h"

#include <algorithm>
#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

bool Ranking::same() const
{
    // Compared over the methods both sides rank.
    const auto common = [](const std::vector<QString>& a, const std::vector<QString>& b) {
        std::vector<QString> kept;
        for (const QString& name : a)
            if (std::find(b.begin(), b.end(), name) != b.end())
                kept.push_back(name);
        return kept;
    };
    return common(paper, facet) == common(facet, paper);
}

std::optional<double> Compared::difference() const
{
    if (!paperMean || !facetMean)
        return std::nullopt;
    return *facetMean - *paperMean;
}

namespace {

double paperValue(const PaperCell& cell, Metric metric)
{
    return metric == Metric::Accuracy ? cell.ac : cell.nmi;
}

std::optional<double> paperStd(const PaperCell& cell, Metric metric)
{
    return metric == Metric::Accuracy ? cell.acStd : cell.nmiStd;
}

// The papers' average row over `rows`: mean of the means, ± mean of the stds (when every row
// has one). Empty when some row has no value.
void averageOver(const std::vector<Compared>& rows, Compared& out)
{
    double paper = 0, paperStds = 0, facet = 0, facetStds = 0;
    int nPaper = 0, nPaperStd = 0, nFacet = 0, nFacetStd = 0;
    for (const Compared& r : rows) {
        if (r.paperMean) {
            paper += *r.paperMean;
            ++nPaper;
        }
        if (r.paperStd) {
            paperStds += *r.paperStd;
            ++nPaperStd;
        }
        if (r.facetMean) {
            facet += *r.facetMean;
            ++nFacet;
        }
        if (r.facetStd) {
            facetStds += *r.facetStd;
            ++nFacetStd;
        }
    }
    const int n = int(rows.size());
    if (n > 0 && nPaper == n)
        out.paperMean = paper / n;
    if (n > 0 && nPaperStd == n)
        out.paperStd = paperStds / n;
    if (nFacet > 0) {
        out.facetMean = facet / nFacet;
        out.facetTrials = nFacet;
    }
    if (nFacet > 0 && nFacetStd == nFacet)
        out.facetStd = facetStds / nFacetStd;
}

// Names of the methods with an average on one side, best first (ties keep the sweep's order).
std::vector<QString> rankBy(
    const std::vector<MethodComparison>& methods, int metric, bool paperSide)
{
    std::vector<std::pair<double, QString>> scored;
    for (const MethodComparison& m : methods) {
        const Compared& a = m.average[std::size_t(metric)];
        if (const auto v = paperSide ? a.paperMean : a.facetMean)
            scored.emplace_back(*v, m.paperName);
    }
    std::stable_sort(scored.begin(), scored.end(),
        [](const auto& x, const auto& y) { return x.first > y.first; });
    std::vector<QString> names;
    for (const auto& s : scored)
        names.push_back(s.second);
    return names;
}

std::optional<double> facetAverage(const DatasetComparison& d, const QString& method, int metric)
{
    for (const MethodComparison& m : d.methods)
        if (QString::fromStdString(m.method) == method)
            return m.average[std::size_t(metric)].facetMean;
    return std::nullopt;
}

ClaimComparison compareClaim(
    const PaperRecord& paper, const PaperClaim& claim, const DatasetComparison& d)
{
    ClaimComparison out;
    out.claim = claim;
    if (const PaperMethod* m = paper.method(claim.method))
        out.facetMethod = m->facet;
    if (claim.kind == u"best") {
        double best = -1;
        for (const MethodComparison& m : d.methods) {
            const auto ac = m.average[0].facetMean, nmi = m.average[1].facetMean;
            const double score = ac.value_or(-1) + 1e-6 * nmi.value_or(0);
            if (ac && score > best) {
                best = score;
                out.facetBest = QString::fromStdString(m.method);
            }
        }
        if (!out.facetMethod.isEmpty() && !out.facetBest.isEmpty())
            out.holds = out.facetBest == out.facetMethod;
        return out;
    }
    const int metric = claim.metric == u"ac" ? 0 : 1;
    const auto mine = facetAverage(d, out.facetMethod, metric);
    if (!mine)
        return out;
    // The method the gain is over: the one named, when Facet ran it; otherwise Facet's best
    // other method (the papers' "second best"), said so in overNote.
    const PaperMethod* named = claim.over.isEmpty() ? nullptr : paper.method(claim.over);
    if (named && !named->facet.isEmpty() && facetAverage(d, named->facet, metric)) {
        out.facetOver = named->facet;
    } else {
        double best = -1;
        for (const MethodComparison& m : d.methods) {
            const auto v = m.average[std::size_t(metric)].facetMean;
            if (QString::fromStdString(m.method) != out.facetMethod && v && *v > best) {
                best = *v;
                out.facetOver = QString::fromStdString(m.method);
            }
        }
        out.overNote = claim.over.isEmpty()
            ? u"the text names no method; over Facet's best other method"_s
            : u"%1 is not a Facet method; over Facet's best other method"_s.arg(claim.over);
    }
    if (const auto theirs = facetAverage(d, out.facetOver, metric)) {
        out.facetGain = *mine - *theirs;
        out.difference = *out.facetGain - claim.points;
    }
    // A gain whose numbers fit another method than the one named: Facet's gain over that one too.
    if (const PaperMethod* fits = claim.fits.isEmpty() ? nullptr : paper.method(claim.fits))
        if (const auto theirs = facetAverage(d, fits->facet, metric))
            out.overNote = u"over %1, which the paper's numbers fit: %2%3"_s.arg(fits->facet,
                *mine >= *theirs ? u"+"_s : QString(), QString::number(*mine - *theirs, 'f', 2));
    return out;
}

} // namespace

DatasetComparison compareWithPaper(
    const PaperRecord& paper, const QString& dataset, const SweepSummary& summary)
{
    DatasetComparison d;
    d.dataset = dataset;
    if (const PaperDataset* info = paper.dataset(dataset))
        d.paperName = info->paperName;
    const PaperTable* table = paper.table(dataset);
    if (table) {
        d.table = table->table;
        d.paperHasCells = table->hasCells();
    }
    d.clusters = summary.clusters;
    const std::vector<int> paperCounts = table ? table->clusterCounts() : std::vector<int> {};
    d.paperAverageRecomputed = d.paperHasCells && paperCounts != d.clusters;

    for (std::size_t k = 0; k < summary.series.size(); ++k) {
        MethodComparison m;
        m.method = summary.series[k].method;
        m.paperName = paper.paperNameOf(QString::fromStdString(m.method));
        const bool inPaper = !m.paperName.isEmpty();
        if (!inPaper)
            m.paperName = QString::fromStdString(methodLabel(m.method));
        for (const Metric metric : { Metric::Accuracy, Metric::Nmi }) {
            const int mi = metricIndex(metric);
            std::vector<Compared>& rows = m.cells[std::size_t(mi)];
            for (std::size_t row = 0; row < summary.clusters.size(); ++row) {
                Compared c;
                const MeanStd& s = summary.cells[row][k].of(metric);
                if (s.count > 0) {
                    c.facetMean = 100 * s.mean;
                    c.facetTrials = s.count;
                    if (s.count > 1)
                        c.facetStd = 100 * s.std;
                }
                if (const PaperCell* p = inPaper && table
                        ? table->cell(m.paperName, summary.clusters[row])
                        : nullptr) {
                    c.paperMean = paperValue(*p, metric);
                    c.paperStd = paperStd(*p, metric);
                }
                rows.push_back(c);
            }
            Compared& avg = m.average[std::size_t(mi)];
            averageOver(rows, avg);
            // The printed average, when the sweep ran exactly the paper's c (the recomputed one
            // agrees with it to rounding: paperDisagreements checks every record).
            if (const PaperCell* p = inPaper && table && !d.paperAverageRecomputed
                    ? table->averageOf(m.paperName)
                    : nullptr) {
                avg.paperMean = paperValue(*p, metric);
                avg.paperStd = paperStd(*p, metric);
            }
        }
        d.methods.push_back(std::move(m));
    }
    for (const int mi : { 0, 1 })
        d.ranking[std::size_t(mi)] = { rankBy(d.methods, mi, true), rankBy(d.methods, mi, false) };
    for (const PaperClaim& claim : paper.claims)
        if (claim.dataset == dataset)
            d.claims.push_back(compareClaim(paper, claim, d));
    return d;
}

} // namespace facet
