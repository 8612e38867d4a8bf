// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "data/image_render.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QToolButton;
class QGridLayout;
class QLabel;
class QScrollArea;
class QSlider;

namespace facet {

struct Dataset;
class BasisSamplesStrip;
class ColorBar;
class ImageGrid;
struct ImageTile;

// The k basis images of a factorization, upright in a zoomable grid, with a colour bar that
// tells how values became grey levels. Basis columns are h*w values in row-major pixel order
// (NMF: columns of U; CF family: columns of X W). Given the coefficients V as well, the images
// are ordered by weight (metrics/basis_usage.h) and clicking one shows the samples that use it
// most in a strip below.
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

    // The order of the tiles.
    enum class Order {
        Weight, // largest ||u_j||_2 ||v_j||_1 first (needs V)
        Index, // as the solver returned them
    };
    Q_ENUM(Order)

    explicit BasisGallery(QWidget* parent = nullptr);

    // basis: m x k with m = height * width. Without V: index order, no sample strip.
    void setBasis(const Matrix& basis, int height, int width);
    // basis: m x k, V: n x k, data: the n samples (X m x n) the factors came from, or null
    // (then the tiles are still ordered by weight, but clicking shows no samples).
    void setFactors(const Matrix& basis, const Matrix& V, std::shared_ptr<const Dataset> data,
        int height, int width);
    void clear();
    // While a newer run computes, the bases shown are the previous run's: a note above them
    // says so (empty: hidden). clear() and new factors hide it.
    void setNewerRunNote(const QString& text);
    QString newerRunNote() const;
    int imageCount() const;
    Scale scale() const;
    void setScale(Scale scale);
    Order order() const;
    void setOrder(Order order);
    int zoomPercent() const;
    void setZoomPercent(int percent);
    // The scaling the app's mosaic export can reproduce closest to what is shown.
    ImageScaling exportScaling() const;

    // weight_j by 0-based part index; empty without V.
    const std::vector<double>& weights() const { return m_weights; }
    // The 0-based part index shown in each tile, in grid order.
    const std::vector<int>& tileOrder() const { return m_order; }

    // Selects part j (0-based), shows its strongest samples when the data is known and emits
    // basisActivated(j). The same as clicking its tile.
    void activateBasis(int j);
    void hideSamples();
    int activeBasis() const { return m_active; } // -1: none

    ImageGrid* grid() const { return m_grid; }
    ColorBar* colorBar() const { return m_colorBar; }
    BasisSamplesStrip* samplesStrip() const { return m_strip; }

Q_SIGNALS:
    void basisActivated(int j);

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    // The view tools (order, scale) and the zoom in one row, or the zoom on a second row.
    void placeTools(bool oneRow);
    // While m_autoZoom: the largest zoom that shows all k images without scrolling.
    void fitZoom();
    void updateColorBar();
    // Signed for a basis with negative entries, else the user's last choice.
    void chooseScaleFor(const Matrix& basis);
    ImageTile tileFor(int j) const;

    Matrix m_basis;
    Matrix m_V;
    std::shared_ptr<const Dataset> m_data;
    std::vector<double> m_weights;
    std::vector<int> m_order;
    int m_height = 0;
    int m_width = 0;
    double m_min = 0;
    double m_max = 0;
    int m_active = -1;
    Scale m_userScale = Scale::PerImage;
    bool m_choosingScale = false;
    bool m_autoZoom = true; // until the user zooms, the zoom follows the window (Fit sets it back)
    bool m_fitting = false;

    QComboBox* m_scaleCombo = nullptr;
    QComboBox* m_orderCombo = nullptr;
    QSlider* m_zoomSlider = nullptr;
    QLabel* m_zoomLabel = nullptr;
    QToolButton* m_fitButton = nullptr;
    QWidget* m_viewTools = nullptr;
    QWidget* m_zoomTools = nullptr;
    QGridLayout* m_tools = nullptr;
    bool m_toolsInOneRow = true;
    QScrollArea* m_scroll = nullptr;
    ImageGrid* m_grid = nullptr;
    BasisSamplesStrip* m_strip = nullptr;
    ColorBar* m_colorBar = nullptr;
    QLabel* m_newerRun = nullptr;
};

} // namespace facet
