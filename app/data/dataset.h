// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace facet {

// An image set as the solver sees it. Shapes: X is m x n, one sample per column, m = height *
// width; inside a column the pixels are in ROW-major order (pixel (r, c) at r * width + c,
// r = 0 the top row) whatever the file's order was, so every view draws columns the same way.
struct Dataset {
    QString name; // "ORL_32x32", "Swimmer"
    QString source; // the path or "builtin:swimmer"
    Matrix X;
    std::vector<int> labels; // n entries, 0-based class index; empty when unlabelled
    QStringList classNames; // one per class index ("1".."40", "s1", "subject01")
    int height = 0;
    int width = 0;
    QStringList notes; // what loading did: conversions, scalings, warnings
    // Entry weights, X's shape, 0 = missing (solver/methods/mask.h); empty = every entry observed.
    // Set by --missing nan (the NaN entries), the occlusion noise with `missing`, or facet-cli's
    // --mask; the entries of X under weight 0 hold 0 and are never read by a masked method.
    Matrix weights;
    QStringList maskSources; // where the weights came from ("nan", "occlusion:8", a file)
    // The values a mask hid that were observed before it (the explorer's missing pixels,
    // data/missing_entries.h), to score how a reconstruction fills them: linear indices into X
    // (column-major), ascending, and the values. Empty for NaN entries and facet-cli's masks.
    struct HiddenEntries {
        std::vector<Eigen::Index> index;
        std::vector<Scalar> value;
        bool empty() const { return index.empty(); }
    };
    HiddenEntries hidden;

    // Set when X holds only some of the set's samples: one rank's columns in a distributed run
    // whose ranks read their own parts (cli/distributed_data.h). `labels` then hold every
    // sample's label, and the outputs describe the whole set by these facts, which no one part
    // gives.
    struct Whole {
        Eigen::Index samples = 0;
        Scalar min = 0;
        Scalar max = 0;
        QString sha256; // dataSha256 of the whole prepared X
        QString checksum; // dataChecksum of it
    };
    std::optional<Whole> whole;

    bool hasMask() const { return weights.size() > 0; }

    Eigen::Index features() const { return X.rows(); }
    Eigen::Index samples() const { return X.cols(); }
    Eigen::Index totalSamples() const { return whole ? whole->samples : X.cols(); }
    bool hasLabels() const { return !labels.empty(); }
    int classCount() const { return int(classNames.size()); }
    // The name of class `label`, or its 1-based number when the set names fewer classes.
    QString className(int label) const
    {
        return label >= 0 && label < classNames.size() ? classNames[label]
                                                       : QString::number(label + 1);
    }
    // Number of samples of each class.
    std::vector<int> classSizes() const;
    // The samples of the given classes (0-based class indices), relabelled 0..c-1 in the order
    // given. Throws std::invalid_argument for an unknown or repeated class.
    Dataset selectClasses(const std::vector<int>& classes) const;
};

// The NaN entries of data.X become missing (weight 0 in data.weights, 0 in X), for facet-cli's
// --missing nan; returns how many there were (none: data is unchanged).
Eigen::Index markNanMissing(Dataset& data);

// Marks entry (i, j) missing: weight 0 (creating the all-ones weights first) and X(i, j) = 0.
void markMissing(Dataset& data, Eigen::Index i, Eigen::Index j);

// A short human summary: "ORL_32x32: 400 images 32x32 (m = 1024), 40 classes of 10, values
// 0..1".
QString describe(const Dataset& data);

// A 64-bit FNV-1a hash of X's bytes, in hex: whether two runs factorized the same data (after
// loading and preparation). Sweeps record it for --resume, run reports for --init-from.
QString dataChecksum(const Matrix& X);
// Its steps, for a matrix hashed in parts (DataDigest): the FNV-1a state before any byte, and
// the state after `count` more Scalars.
inline constexpr std::uint64_t kChecksumStart = 0xcbf29ce484222325ULL;
std::uint64_t checksumAdd(std::uint64_t state, const Scalar* values, std::size_t count);

} // namespace facet
