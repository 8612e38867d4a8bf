// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QImage>
#include <QList>
#include <QString>
#include <QWidget>

#include <functional>

namespace facet {

struct ImageTile {
    QImage image; // drawn upright at the grid's zoom
    QString caption; // one short line under the image; empty: none
    QString toolTip;
    bool flagged = false; // framed (a sample outside its cluster's majority class)
    QColor frameColor {}; // of a flagged tile's frame (its true class's colour); invalid: red
};

// A tile's place: section and index within it; -1 for none.
struct TilePosition {
    int section = -1;
    int index = -1;
    bool isValid() const { return section >= 0 && index >= 0; }
    friend bool operator==(const TilePosition&, const TilePosition&) = default;
};

struct ImageSection {
    QString title; // empty: the tiles start at the top without a heading
    QList<ImageTile> tiles;
};

// Titled sections of image tiles that wrap to the available width, painted directly (a widget
// per tile would not scale to the thousands a cluster view can hold). It reports its height for
// a width, so inside a resizable QScrollArea it scrolls vertically only. Ctrl+wheel zooms.
class ImageGrid : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMinZoomPercent = 25;
    static constexpr int kMaxZoomPercent = 1600;

    explicit ImageGrid(QWidget* parent = nullptr);

    void setSections(QList<ImageSection> sections);
    void clear();
    const QList<ImageSection>& sections() const { return m_sections; }
    int tileCount() const;

    // Drawn image size in percent of the image's own pixels; magnified without smoothing so
    // single pixels of a 32x32 basis image stay visible.
    void setZoomPercent(int percent);
    int zoomPercent() const { return m_zoomPercent; }
    // Shown centred when there are no sections.
    void setPlaceholderText(const QString& text);

    // The height the sections need at a width and zoom, to choose a zoom before applying it.
    int contentHeight(int width, int zoomPercent) const;

    // Where a tile's image is drawn at the current width and zoom (widget coordinates); empty
    // for a position that does not exist. The caption sits below this rectangle.
    QRect tileRect(int section, int index) const;
    // The tile whose image contains `position`, or an invalid position.
    TilePosition tileAt(const QPoint& position) const;

    // One tile framed in the highlight colour (the one a view shows details of); cleared by
    // setSections() and clear().
    void setSelectedTile(TilePosition position);
    TilePosition selectedTile() const { return m_selected; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void zoomChanged(int percent);
    // A left click on a tile's image.
    void tileClicked(int section, int index);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    // Walks the layout for a width; returns the total height. The visitors get the title rects
    // and the image rects (caption below the image rect) in painting order.
    using TileVisitor = std::function<void(TilePosition, const ImageTile&, const QRect&)>;
    int layOut(int width, int zoomPercent,
        const std::function<void(const ImageSection&, const QRect&)>& onTitle,
        const TileVisitor& onTile) const;
    static QSize scaledSize(const QImage& image, int zoomPercent);
    void contentChanged();

    QList<ImageSection> m_sections;
    QString m_placeholder;
    TilePosition m_selected;
    int m_zoomPercent = 300;
};

} // namespace facet
