// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QFrame>

#include <vector>

class QLabel;
class QToolButton;

namespace facet {

struct Dataset;
class ImageGrid;

// The samples that use one basis image most: the largest |V(i, j)| first, each image upright with
// its coefficient under it. Shown below the basis gallery when a basis image is clicked.
class BasisSamplesStrip : public QFrame {
    Q_OBJECT

public:
    static constexpr int kDefaultCount = 12;

    explicit BasisSamplesStrip(QWidget* parent = nullptr);

    // samples: X m x n with n = V.rows(); V: n x k; j: 0-based part index.
    void showSamples(const Dataset& samples, const Matrix& V, int j, int count = kDefaultCount);
    void clear();

    int part() const { return m_part; } // -1 when empty
    const std::vector<int>& samples() const { return m_samples; } // 0-based, strongest first
    ImageGrid* grid() const { return m_grid; }
    QLabel* titleLabel() const { return m_title; }
    QToolButton* closeButton() const { return m_close; }

Q_SIGNALS:
    void closeRequested();

private:
    int m_part = -1;
    std::vector<int> m_samples;
    QLabel* m_title = nullptr;
    QToolButton* m_close = nullptr;
    ImageGrid* m_grid = nullptr;
};

} // namespace facet
