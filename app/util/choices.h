// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "methods/registry.h"

#include <QString>
#include <QStringView>

#include <array>
#include <optional>

namespace facet {

// One table per option with named values: the CLI parses with it, the JSON writers name with
// it, so a value's spelling lives in one place.
template <class T> struct Choice {
    QStringView name;
    T value;
};

template <class T, std::size_t N>
std::optional<T> parseChoice(const std::array<Choice<T>, N>& table, QStringView text)
{
    for (const Choice<T>& c : table)
        if (c.name == text)
            return c.value;
    return std::nullopt;
}

template <class T, std::size_t N> QString choiceName(const std::array<Choice<T>, N>& table, T value)
{
    for (const Choice<T>& c : table)
        if (c.value == value)
            return c.name.toString();
    return table.front().name.toString();
}

// "a, b or c", for error messages.
template <class T, std::size_t N> QString choiceList(const std::array<Choice<T>, N>& table)
{
    QString list;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0)
            list += i + 1 == N ? QStringLiteral(" or ") : QStringLiteral(", ");
        list += table[i].name;
    }
    return list;
}

inline constexpr std::array<Choice<GraphWeight>, 3> kGraphWeightChoices { {
    { u"binary", GraphWeight::Binary },
    { u"heat", GraphWeight::Heat },
    { u"cosine", GraphWeight::Cosine },
} };

inline constexpr std::array<Choice<KernelKind>, 3> kKernelChoices { {
    { u"linear", KernelKind::Linear },
    { u"poly", KernelKind::Polynomial },
    { u"gauss", KernelKind::Gaussian },
} };

inline constexpr std::array<Choice<InitKind>, 4> kInitChoices { {
    { u"random", InitKind::Random },
    { u"nndsvd", InitKind::Nndsvd },
    { u"nmf", InitKind::Nmf },
    { u"kmeans", InitKind::KMeans },
} };

// The --algorithm flag of run and sweep, and the "algorithm" key of run JSON and sessions
// (core/algorithm.h).
inline constexpr std::array<Choice<Algorithm>, 4> kAlgorithmChoices { {
    { u"mu", Algorithm::Mu },
    { u"hals", Algorithm::Hals },
    { u"mu-ex", Algorithm::MuEx },
    { u"hals-ex", Algorithm::HalsEx },
} };

// The --knn flag of run, sweep and bench, and the "knn" key of sessions.
inline constexpr std::array<Choice<KnnSearch>, 3> kKnnSearchChoices { {
    { u"auto", KnnSearch::Auto },
    { u"exact", KnnSearch::Exact },
    { u"approx", KnnSearch::Approximate },
} };

} // namespace facet
