// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"
#include "metrics/sample_reconstruction.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;

namespace facet {

class ColorBar;
class ImageGrid;
struct ImageSection;

// One sample at a time against the factorization: the original x_i, its reconstruction
// basis V(i, :)^T, the signed residual, the relative error, and the largest terms of the sum as
// basis thumbnails with their coefficient v_ij. A spin box with previous/next buttons picks the
// sample; setSample() lets other views (a click in the cluster or representation view) pick it.
// On data with missing pixels (Dataset::weights) the sample is drawn with its missing pixels
// marked, beside the reconstruction that fills them, the sample filled in, and the values the
// mask hid when they are known (Dataset::hidden); the errors split into observed and hidden.
class ReconstructionView : public QWidget {
    Q_OBJECT

public:
    static constexpr int kTopTerms = 8;

    explicit ReconstructionView(QWidget* parent = nullptr);

    void setResult(const Dataset& dataset, const RunResult& result);
    void clear();

    int sampleCount() const { return int(m_X.cols()); }
    int currentSample() const { return m_sample; } // 0-based, -1 when empty
    const SampleReconstruction& reconstruction() const { return m_current; }
    QString errorText() const;
    QSpinBox* sampleSpinBox() const { return m_spin; }
    QPushButton* previousButton() const { return m_previous; }
    QPushButton* nextButton() const { return m_next; }
    ImageGrid* grid() const { return m_grid; }
    ColorBar* residualBar() const { return m_residualBar; }
    // The colour of missing pixels in the "observed" tile.
    static QColor missingColor() { return QColor(230, 97, 0); }
    // sqrt(sum (hidden - fill)^2 / sum hidden^2) over every hidden entry of the data; NaN when
    // the data hides none or the result does not fit.
    double hiddenError() const { return m_hiddenError; }

public Q_SLOTS:
    // 0-based; out of range is ignored.
    void setSample(int sample);

Q_SIGNALS:
    void sampleChanged(int sample);

private:
    void showSample();
    // The masked half of showSample: the residual and error over observed entries, the tiles.
    void showMaskedSample(ImageSection& images, const QString& info);

    QSpinBox* m_spin = nullptr;
    QPushButton* m_previous = nullptr;
    QPushButton* m_next = nullptr;
    QLabel* m_info = nullptr;
    QLabel* m_error = nullptr;
    ImageGrid* m_grid = nullptr;
    ColorBar* m_residualBar = nullptr;

    // Kept to redraw when the sample changes: X (m x n), its labels and the factorization.
    Matrix m_X;
    Matrix m_weights; // empty: every entry observed
    Dataset::HiddenEntries m_hidden;
    double m_hiddenError = 0;
    std::vector<int> m_labels;
    QStringList m_classNames;
    int m_height = 0;
    int m_width = 0;
    RunResult m_result;
    bool m_signedBasis = false;
    int m_sample = -1;
    SampleReconstruction m_current;
};

} // namespace facet
