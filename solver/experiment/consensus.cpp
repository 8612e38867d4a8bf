// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/consensus.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

namespace facet {

namespace {

std::string gib(std::int64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(std::int64_t(1) << 30));
    return text;
}

} // namespace

AverageLinkage averageLinkage(Eigen::MatrixXd d)
{
    const int n = int(d.rows());
    if (d.cols() != n)
        throw std::invalid_argument("averageLinkage: the distance matrix must be square");
    AverageLinkage result;
    result.copheneticCorrelation = std::numeric_limits<double>::quiet_NaN();
    if (n == 0)
        return result;
    const Eigen::MatrixXd original = d;

    // Nearest-neighbour chain (Murtagh 1983; valid for average linkage, which is reducible):
    // follow nearest neighbours until two clusters are each other's nearest, merge them, keep
    // the rest of the chain. A merged cluster lives on at the smaller of its two slots.
    std::vector<int> size(std::size_t(n), 1);
    std::vector<char> active(std::size_t(n), 1);
    std::vector<int> chain;
    chain.reserve(std::size_t(n));
    std::vector<AverageLinkage::Merge> merges;
    merges.reserve(std::size_t(n > 0 ? n - 1 : 0));
    int remaining = n;
    int firstActive = 0;
    while (remaining > 1) {
        if (chain.empty()) {
            while (!active[std::size_t(firstActive)])
                ++firstActive;
            chain.push_back(firstActive);
        }
        const int a = chain.back();
        const int previous = chain.size() >= 2 ? chain[chain.size() - 2] : -1;
        int nearest = previous;
        double best = previous >= 0 ? d(a, previous) : std::numeric_limits<double>::infinity();
        for (int c = 0; c < n; ++c)
            if (c != a && active[std::size_t(c)] && d(a, c) < best) {
                best = d(a, c);
                nearest = c;
            }
        if (nearest != previous) {
            chain.push_back(nearest);
            continue;
        }
        // a and previous are mutual nearest neighbours: merge.
        chain.pop_back();
        chain.pop_back();
        const int keep = std::min(a, previous), gone = std::max(a, previous);
        merges.push_back({ keep, gone, best });
        const double sa = size[std::size_t(keep)], sb = size[std::size_t(gone)];
        for (int c = 0; c < n; ++c)
            if (active[std::size_t(c)] && c != keep && c != gone) {
                const double merged = (sa * d(keep, c) + sb * d(gone, c)) / (sa + sb);
                d(keep, c) = merged;
                d(c, keep) = merged;
            }
        size[std::size_t(keep)] += size[std::size_t(gone)];
        active[std::size_t(gone)] = 0;
        --remaining;
    }

    // The chain finds merges out of height order; sorted (stably) they are the dendrogram's.
    // Union-find over the samples then gives each merge's two member lists: every pair across
    // them has the merge's height as its cophenetic distance, and concatenating the lists gives
    // the leaf order.
    std::stable_sort(merges.begin(), merges.end(),
        [](const AverageLinkage::Merge& x, const AverageLinkage::Merge& y) {
            return x.height < y.height;
        });
    const auto count = static_cast<std::size_t>(n);
    std::vector<int> parent(count), head(count), tail(count), next(count, -1);
    std::iota(parent.begin(), parent.end(), 0);
    std::iota(head.begin(), head.end(), 0);
    std::iota(tail.begin(), tail.end(), 0);
    const auto root = [&](int i) {
        while (parent[std::size_t(i)] != i) {
            parent[std::size_t(i)] = parent[std::size_t(parent[std::size_t(i)])];
            i = parent[std::size_t(i)];
        }
        return i;
    };
    double sumD = 0, sumDD = 0, sumC = 0, sumCC = 0, sumDC = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i) {
            sumD += original(i, j);
            sumDD += original(i, j) * original(i, j);
        }
    for (AverageLinkage::Merge& m : merges) {
        // The slots the chain used are samples of each cluster; report each cluster by its
        // smallest sample, found through the union-find roots (each root is its smallest).
        int ra = root(m.a), rb = root(m.b);
        if (rb < ra)
            std::swap(ra, rb);
        const double h = m.height;
        std::int64_t pairs = 0;
        for (int i = head[std::size_t(ra)]; i >= 0; i = next[std::size_t(i)])
            for (int j = head[std::size_t(rb)]; j >= 0; j = next[std::size_t(j)]) {
                sumDC += original(i, j) * h;
                ++pairs;
            }
        sumC += double(pairs) * h;
        sumCC += double(pairs) * h * h;
        next[std::size_t(tail[std::size_t(ra)])] = head[std::size_t(rb)];
        tail[std::size_t(ra)] = tail[std::size_t(rb)];
        parent[std::size_t(rb)] = ra;
        m.a = ra;
        m.b = rb;
    }
    for (int i = head[std::size_t(root(0))]; i >= 0; i = next[std::size_t(i)])
        result.order.push_back(i);

    const double pairs = double(n) * double(n - 1) / 2;
    if (n >= 3) {
        const double covariance = sumDC / pairs - (sumD / pairs) * (sumC / pairs);
        const double varD = sumDD / pairs - (sumD / pairs) * (sumD / pairs);
        const double varC = sumCC / pairs - (sumC / pairs) * (sumC / pairs);
        // Relative to the scale: below round-off the distances (or heights) are constant.
        const double scale = std::max(sumDD, sumCC) / pairs;
        if (varD > 1e-12 * scale && varC > 1e-12 * scale)
            result.copheneticCorrelation
                = std::clamp(covariance / std::sqrt(varD * varC), -1.0, 1.0);
    }
    result.merges = std::move(merges);
    return result;
}

std::int64_t consensusBytes(std::int64_t n)
{
    return 3 * n * n * std::int64_t(sizeof(double));
}

std::string consensusSizeProblem(std::int64_t n, std::int64_t maxBytes)
{
    if (consensusBytes(n) <= maxBytes)
        return {};
    return "the consensus matrix of " + std::to_string(n) + " samples needs "
        + gib(consensusBytes(n)) + " (three n x n matrices of doubles), over this run's bound of "
        + gib(maxBytes) + "; survey a random subsample of the samples instead";
}

Consensus consensusOf(const std::vector<std::vector<int>>& clusterings, std::int64_t maxBytes)
{
    if (clusterings.empty())
        throw std::invalid_argument("consensus: no clusterings");
    const std::size_t n = clusterings.front().size();
    for (const std::vector<int>& labels : clusterings)
        if (labels.size() != n)
            throw std::invalid_argument("consensus: the clusterings label different numbers of "
                                        "samples");
    if (n == 0)
        throw std::invalid_argument("consensus: no samples");
    if (const std::string problem = consensusSizeProblem(std::int64_t(n), maxBytes);
        !problem.empty())
        throw std::invalid_argument(problem);

    Consensus out;
    out.runs = int(clusterings.size());
    out.matrix = Eigen::MatrixXd::Zero(Eigen::Index(n), Eigen::Index(n));
    std::map<int, std::vector<int>> members;
    for (const std::vector<int>& labels : clusterings) {
        members.clear();
        for (std::size_t i = 0; i < n; ++i)
            members[labels[i]].push_back(int(i));
        for (const auto& [label, samples] : members)
            for (int j : samples)
                for (int i : samples)
                    out.matrix(i, j) += 1;
    }
    out.matrix /= double(clusterings.size());
    double dispersion = 0;
    for (Eigen::Index j = 0; j < out.matrix.cols(); ++j)
        for (Eigen::Index i = 0; i < out.matrix.rows(); ++i) {
            const double c = out.matrix(i, j) - 0.5;
            dispersion += 4 * c * c;
        }
    out.dispersion = dispersion / (double(n) * double(n));
    Eigen::MatrixXd distances = Eigen::MatrixXd::Ones(out.matrix.rows(), out.matrix.cols());
    distances -= out.matrix;
    distances.diagonal().setZero();
    AverageLinkage tree = averageLinkage(std::move(distances));
    out.order = std::move(tree.order);
    out.cophenetic = tree.copheneticCorrelation;
    return out;
}

} // namespace facet
