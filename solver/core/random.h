// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <cstdint>
#include <random>

namespace facet {

// SplitMix64: turns (seed, stream index) into independent, well-mixed seeds, so replicate r
// of a run, or trial t of an experiment, can be re-created alone from the run's seed.
constexpr std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream)
{
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Seeded generator with platform-independent draws (the standard distributions are not
// specified bit-for-bit, so the conversions are done here).
class Rng {
public:
    explicit Rng(std::uint64_t seed)
        : m_engine(seed)
    {
    }

    std::uint64_t next() { return m_engine(); }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return double(m_engine() >> 11) * 0x1.0p-53; }
    // Uniform integer in [0, n), n > 0, without modulo bias.
    std::uint64_t below(std::uint64_t n)
    {
        const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max()
            - std::numeric_limits<std::uint64_t>::max() % n;
        std::uint64_t draw = 0;
        do {
            draw = m_engine();
        } while (draw >= limit);
        return draw % n;
    }
    // Uniform [0, 1) matrix, filled in column-major order.
    Matrix uniformMatrix(Eigen::Index rows, Eigen::Index cols)
    {
        Matrix M(rows, cols);
        for (Eigen::Index i = 0; i < M.size(); ++i)
            M.data()[i] = Scalar(uniform());
        return M;
    }

private:
    std::mt19937_64 m_engine;
};

} // namespace facet
