// SPDX-License-Identifier: GPL-3.0-or-later
// PaperRecord's look-ups, and the check of a record against itself (paperDisagreements).
#include "experiment/paper_record.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace facet {

using namespace Qt::StringLiterals;

const PaperCell* PaperTable::cell(const QString& method, int clusters) const
{
    for (const PaperCell& c : cells)
        if (c.method == method && c.clusters == clusters)
            return &c;
    return nullptr;
}

const PaperCell* PaperTable::averageOf(const QString& method) const
{
    for (const PaperCell& c : average)
        if (c.method == method)
            return &c;
    return nullptr;
}

std::vector<int> PaperTable::clusterCounts() const
{
    std::set<int> counts;
    for (const PaperCell& c : cells)
        counts.insert(c.clusters);
    return { counts.begin(), counts.end() };
}

QString PaperRecord::citation() const
{
    QStringList surnames;
    for (const QString& author : authors)
        surnames << author.section(u' ', -1);
    QString text = surnames.isEmpty() ? title : surnames.join(u", "_s) + u": "_s + title;
    if (!venue.isEmpty())
        text += u", "_s + venue;
    if (year > 0 && !venue.contains(QString::number(year)))
        text += u", %1"_s.arg(year);
    return text;
}

const PaperTable* PaperRecord::table(const QString& datasetKey) const
{
    for (const PaperTable& t : tables)
        if (t.dataset == datasetKey)
            return &t;
    return nullptr;
}

const PaperDataset* PaperRecord::dataset(const QString& datasetKey) const
{
    for (const PaperDataset& d : datasets)
        if (d.key == datasetKey)
            return &d;
    return nullptr;
}

const PaperMethod* PaperRecord::method(const QString& paperName) const
{
    for (const PaperMethod& m : methods)
        if (m.paper == paperName)
            return &m;
    return nullptr;
}

QString PaperRecord::paperNameOf(const QString& facetMethod) const
{
    for (const PaperMethod& m : methods)
        if (m.facet == facetMethod)
            return m.paper;
    return {};
}

namespace {

// Printed values are rounded to `decimals`: the mean of rounded cells is off by at most half a
// unit, the printed average by another half.
double roundingSlack(int decimals)
{
    return std::pow(10.0, -decimals) + 1e-9;
}

QString metricName(bool ac)
{
    return ac ? u"AC"_s : u"NMI"_s;
}

void checkAverages(const PaperTable& t, QStringList& out)
{
    const double slack = roundingSlack(t.decimals);
    const std::vector<int> counts = t.clusterCounts();
    for (const PaperCell& avg : t.average) {
        for (const bool ac : { true, false }) {
            double sum = 0, stdSum = 0;
            int n = 0, nStd = 0;
            for (int c : counts)
                if (const PaperCell* cell = t.cell(avg.method, c)) {
                    sum += ac ? cell->ac : cell->nmi;
                    ++n;
                    if (const auto s = ac ? cell->acStd : cell->nmiStd) {
                        stdSum += *s;
                        ++nStd;
                    }
                }
            if (n == 0)
                continue;
            const double printed = ac ? avg.ac : avg.nmi;
            if (std::abs(sum / n - printed) > slack)
                out << u"%1, %2 %3: the printed average %4 is not the mean of its column, %5"_s
                           .arg(t.table, avg.method, metricName(ac))
                           .arg(printed)
                           .arg(sum / n, 0, 'f', t.decimals + 2);
            const auto printedStd = ac ? avg.acStd : avg.nmiStd;
            if (printedStd && nStd == n && std::abs(stdSum / n - *printedStd) > slack)
                out << u"%1, %2 %3: the printed average std %4 is not the mean of the column's "
                       "stds, %5"_s.arg(t.table, avg.method, metricName(ac))
                           .arg(*printedStd)
                           .arg(stdSum / n, 0, 'f', t.decimals + 2);
        }
    }
}

void checkClaim(const PaperRecord& p, const PaperClaim& claim, QStringList& out)
{
    const PaperTable* t = p.table(claim.dataset);
    if (claim.kind != u"gain" || !t || t->average.empty() || claim.over.isEmpty())
        return;
    const bool ac = claim.metric == u"ac";
    const auto averageOf = [&](const QString& method) -> std::optional<double> {
        const PaperCell* a = t->averageOf(method);
        if (!a)
            return std::nullopt;
        return ac ? a->ac : a->nmi;
    };
    const QString against = claim.fits.isEmpty() ? claim.over : claim.fits;
    const auto mine = averageOf(claim.method), theirs = averageOf(against);
    if (!mine || !theirs)
        return;
    // The claim is printed with its own rounding (5.8 for 5.80): half a unit of its last digit.
    const double slack = roundingSlack(t->decimals) + 0.05;
    if (std::abs(*mine - *theirs - claim.points) > slack)
        out << u"%1: the stated gain of %2 over %3 in %4, %5, is not the difference of the "
               "printed averages, %6 - %7 = %8"_s
                   .arg(t->table, claim.method, against, metricName(ac))
                   .arg(claim.points)
                   .arg(*mine)
                   .arg(*theirs)
                   .arg(*mine - *theirs, 0, 'f', t->decimals);
    if (!claim.fits.isEmpty()) {
        // A recorded disagreement must still be one: the named method must not fit as well.
        const auto named = averageOf(claim.over);
        if (named && std::abs(*mine - *named - claim.points) <= slack)
            out << u"%1: the claim over %2 records that it fits %3 instead, but it fits %2"_s.arg(
                t->table, claim.over, claim.fits);
    }
}

} // namespace

QStringList paperDisagreements(const PaperRecord& record)
{
    QStringList out;
    for (const PaperTable& t : record.tables)
        checkAverages(t, out);
    for (const PaperClaim& c : record.claims)
        checkClaim(record, c, out);
    return out;
}

} // namespace facet
