// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "data/image_render.h"

#include <QWidget>

class QComboBox;
class QToolButton;
class QLabel;
class QScrollArea;
class QSlider;

namespace facet {

class ColorBar;
class ImageGrid;

// The k basis images of a factorization, upright in a zoomable grid, with a colour bar that
// tells how values became grey levels. Basis columns are h*w values in row-major pixel order
// (NMF: columns of U; CF family: columns of X W).
class BasisGallery : public QWidget {
    Q_OBJECT

public:
    // How values become grey levels.
    enum class Scale {
        PerImage, // each image's min..max: shows every part's shape, hides relative strength
        Shared, // one range for all: strong and weak parts compare directly
        Signed, // diverging around 0, for bases with negative entries
    };
    Q_ENUM(Scale)

    explicit BasisGallery(QWidget* parent = nullptr);

    // basis: m x k with m = height * width.
    void setBasis(const Matrix& basis, int height, int width);
    void clear();
    int imageCount() const;
    Scale scale() const;
    void setScale(Scale scale);
    int zoomPercent() const;
    void setZoomPercent(int percent);
    // The scaling the app's mosaic export can reproduce closest to what is shown.
    ImageScaling exportScaling() const;

    ImageGrid* grid() const { return m_grid; }
    ColorBar* colorBar() const { return m_colorBar; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    // While m_autoZoom: the largest zoom that shows all k images without scrolling.
    void fitZoom();
    void updateColorBar();

    Matrix m_basis;
    int m_height = 0;
    int m_width = 0;
    double m_min = 0;
    double m_max = 0;
    bool m_autoZoom = true; // until the user zooms, the zoom follows the window (Fit sets it back)
    bool m_fitting = false;

    QComboBox* m_scaleCombo = nullptr;
    QSlider* m_zoomSlider = nullptr;
    QLabel* m_zoomLabel = nullptr;
    QToolButton* m_fitButton = nullptr;
    QScrollArea* m_scroll = nullptr;
    ImageGrid* m_grid = nullptr;
    ColorBar* m_colorBar = nullptr;
};

} // namespace facet
