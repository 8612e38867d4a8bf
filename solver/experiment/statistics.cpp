// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace facet {

MeanStd meanStd(const std::vector<double>& values)
{
    MeanStd s;
    s.count = int(values.size());
    if (values.empty()) {
        s.mean = s.std = std::numeric_limits<double>::quiet_NaN();
        return s;
    }
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    if (values.size() < 2)
        return s;
    double squares = 0;
    for (double v : values)
        squares += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(squares / double(values.size() - 1));
    return s;
}

namespace {

constexpr double kZeroDifference = 1e-12;

// P(W+ <= w) and P(W+ >= w) under H0 for the given ranks. Every rank is a multiple of 1/2, so
// doubled ranks are integers and the distribution of 2 W+ over the 2^n equally likely sign
// patterns is a subset-sum count.
std::pair<double, double> exactTails(const std::vector<double>& ranks, double wPlus)
{
    std::vector<int> doubled;
    int total = 0;
    for (double r : ranks) {
        doubled.push_back(int(std::lround(2 * r)));
        total += doubled.back();
    }
    // counts[s] / 2^n = P(2 W+ = s); doubles hold the counts exactly up to 2^53 (n <= 25 here).
    std::vector<double> counts(std::size_t(total) + 1, 0.0);
    counts[0] = 1;
    int reach = 0;
    for (int r : doubled) {
        for (int s = reach; s >= 0; --s)
            counts[std::size_t(s + r)] += counts[std::size_t(s)];
        reach += r;
    }
    const double all = std::ldexp(1.0, int(ranks.size()));
    const long w2 = std::lround(2 * wPlus);
    double below = 0, above = 0;
    for (long s = 0; s <= total; ++s) {
        if (s <= w2)
            below += counts[std::size_t(s)];
        if (s >= w2)
            above += counts[std::size_t(s)];
    }
    return { below / all, above / all };
}

} // namespace

WilcoxonResult wilcoxonSignedRank(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
        throw std::invalid_argument("a paired test needs samples of the same length ("
            + std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")");
    WilcoxonResult result;
    std::vector<double> d;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double diff = a[i] - b[i];
        if (std::abs(diff) < kZeroDifference)
            ++result.zeros;
        else
            d.push_back(diff);
    }
    result.n = int(d.size());
    if (d.empty())
        return result;

    // Average ranks of |d|; |d| within kZeroDifference of each other tie.
    std::vector<std::size_t> order(d.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
        [&](std::size_t i, std::size_t j) { return std::abs(d[i]) < std::abs(d[j]); });
    std::vector<double> ranks(d.size());
    double tieTerm = 0; // sum over tie groups of t^3 - t
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i + 1;
        while (j < order.size() && std::abs(d[order[j]]) - std::abs(d[order[i]]) < kZeroDifference)
            ++j;
        const double average = double(i + 1 + j) / 2; // mean of ranks i+1 .. j
        for (std::size_t k = i; k < j; ++k)
            ranks[order[k]] = average;
        const double t = double(j - i);
        tieTerm += t * t * t - t;
        i = j;
    }
    for (std::size_t i = 0; i < d.size(); ++i)
        (d[i] > 0 ? result.wPlus : result.wMinus) += ranks[i];

    const double n = double(result.n);
    if (result.n <= kWilcoxonExactLimit) {
        const auto [below, above] = exactTails(ranks, result.wPlus);
        result.pValue = std::min(1.0, 2 * std::min(below, above));
        return result;
    }
    result.exact = false;
    const double mean = n * (n + 1) / 4;
    const double variance = n * (n + 1) * (2 * n + 1) / 24 - tieTerm / 48;
    if (!(variance > 0))
        return result;
    const double deviation = std::max(0.0, std::abs(result.wPlus - mean) - 0.5);
    result.z = std::copysign(deviation / std::sqrt(variance), result.wPlus - mean);
    result.pValue = std::min(1.0, std::erfc(std::abs(result.z) / std::sqrt(2.0)));
    return result;
}

} // namespace facet
