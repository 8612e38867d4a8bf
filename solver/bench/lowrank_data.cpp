// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/lowrank_data.h"

#include "core/huge_pages.h"
#include "core/random.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace facet {
namespace {

// Stream indices of the shared draws, apart from the per-column streams 0..n-1.
constexpr std::uint64_t kBasisStream = std::uint64_t(1) << 40;
constexpr std::uint64_t kLabelStream = kBasisStream + 1;
// Columns generated per block: the double scratch stays m x 1024 whatever n is.
constexpr Eigen::Index kGenerateBlock = 1024;

std::optional<Eigen::Index> parseCount(const std::string& text)
{
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 1)
        return std::nullopt;
    return Eigen::Index(value);
}

} // namespace

std::string lowRankName(const LowRankSpec& spec)
{
    return "gen:" + std::to_string(spec.samples) + "x" + std::to_string(spec.features);
}

std::optional<LowRankSpec> parseLowRankName(const std::string& name)
{
    const std::string prefix = "gen:";
    if (name.rfind(prefix, 0) != 0)
        return std::nullopt;
    const std::string size = name.substr(prefix.size());
    const std::size_t x = size.find('x');
    if (x == std::string::npos)
        return std::nullopt;
    const auto n = parseCount(size.substr(0, x));
    const auto m = parseCount(size.substr(x + 1));
    if (!n || !m)
        return std::nullopt;
    LowRankSpec spec;
    spec.samples = *n;
    spec.features = *m;
    return spec;
}

LowRankData makeLowRankData(const LowRankSpec& spec)
{
    return makeLowRankData(spec, 0, spec.samples);
}

LowRankData makeLowRankData(const LowRankSpec& spec, Eigen::Index first, Eigen::Index count)
{
    const Eigen::Index n = spec.samples, m = spec.features;
    if (n < 1 || m < 1 || spec.rank < 1 || !(spec.noise >= 0) || !(spec.spread >= 0))
        throw std::invalid_argument("a generated set needs n, m, rank >= 1 and noise, spread >= 0");
    if (first < 0 || count < 0 || first > n - count)
        throw std::invalid_argument("columns " + std::to_string(first) + ".."
            + std::to_string(first + count - 1) + " are outside the generated set of "
            + std::to_string(n));
    Rng basisRng(deriveSeed(spec.seed, kBasisStream));
    Eigen::MatrixXd W(m, spec.rank);
    for (Eigen::Index i = 0; i < W.size(); ++i)
        W.data()[i] = basisRng.uniform();
    LowRankData data;
    data.labels.resize(std::size_t(n));
    Rng labelRng(deriveSeed(spec.seed, kLabelStream));
    for (int& label : data.labels)
        label = int(labelRng.below(std::uint64_t(spec.rank)));

    // The largest possible value, max over rows of W (1 + spread * 1) + noise, bounds X, so the
    // scaling needs no second pass over an n-column matrix.
    const double bound = W.rowwise().sum().maxCoeff() * (1 + spec.spread) + spec.noise;
    const double scale = bound > 0 ? 1.0 / bound : 1.0;
    data.X.resize(m, count);
    adviseHugePages(data.X);
    // Whole blocks at the whole set's boundaries, so that each column comes out of the same
    // product as when the whole set is generated; the range keeps its columns of them.
    for (Eigen::Index j0 = first / kGenerateBlock * kGenerateBlock; j0 < first + count;
         j0 += kGenerateBlock) {
        const Eigen::Index width = std::min(kGenerateBlock, n - j0);
        Eigen::MatrixXd H(spec.rank, width);
        Eigen::MatrixXd noise(m, width);
#pragma omp parallel for schedule(static)
        for (Eigen::Index b = 0; b < width; ++b) {
            Rng rng(deriveSeed(spec.seed, std::uint64_t(j0 + b)));
            for (int r = 0; r < spec.rank; ++r)
                H(r, b) = spec.spread * rng.uniform();
            H(data.labels[std::size_t(j0 + b)], b) += 1.0;
            for (Eigen::Index i = 0; i < m; ++i)
                noise(i, b) = spec.noise * rng.uniform();
        }
        noise.noalias() += W * H;
        const Eigen::Index from = std::max(first, j0), to = std::min(first + count, j0 + width);
        data.X.middleCols(from - first, to - from)
            = (noise.middleCols(from - j0, to - from) * scale).cast<Scalar>();
    }
    return data;
}

} // namespace facet
