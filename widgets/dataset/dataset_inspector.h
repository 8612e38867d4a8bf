// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "jobs/dataset_open_job.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QGroupBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QScrollArea;

namespace facet {

class ImageGrid;

// What the loaded dataset is: its source, size, classes and value range, its notes, and its
// images grouped by class. For a .mat file the pixel order can be changed (a transposed set is
// the usual mistake); for face detection the images without a face are listed and can be kept
// with a centre crop or left out. Both changes reload the source through the main window.
class DatasetInspector : public QWidget {
    Q_OBJECT

public:
    // Thumbnails drawn per class and in all, so a 70 000-image set stays quick to show.
    static constexpr int kMaxPerClass = 40;
    static constexpr int kMaxTiles = 1200;

    explicit DatasetInspector(QWidget* parent = nullptr);

    void setDataset(const OpenedDataset& opened);
    // Puts the choices back to the shown dataset's request (after a reload failed).
    void revertChoices();
    void clear();

    ImageGrid* grid() const { return m_grid; }
    QComboBox* pixelOrderBox() const { return m_pixelOrder; }
    QComboBox* noFaceBox() const { return m_noFace; }
    QListWidget* noFaceList() const { return m_noFaceList; }
    QGroupBox* noFaceGroup() const { return m_noFaceGroup; }
    QString classesText() const;
    // The class names and sizes shown, in the grid's order (one "all images" row when unlabelled).
    const QList<QPair<QString, int>>& classCounts() const { return m_classCounts; }

Q_SIGNALS:
    void pixelOrderRequested(facet::PixelOrder order);
    void noFacePolicyRequested(facet::NoFacePolicy policy);

private:
    void showThumbnails(const Dataset& set);

    OpenedDataset m_opened;
    QList<QPair<QString, int>> m_classCounts;
    QLabel* m_name = nullptr;
    QLabel* m_source = nullptr;
    QLabel* m_images = nullptr;
    QLabel* m_classes = nullptr;
    QLabel* m_values = nullptr;
    QLabel* m_steps = nullptr;
    QLabel* m_pixelOrderLabel = nullptr;
    QComboBox* m_pixelOrder = nullptr;
    QPlainTextEdit* m_notes = nullptr;
    QGroupBox* m_noFaceGroup = nullptr;
    QListWidget* m_noFaceList = nullptr;
    QComboBox* m_noFace = nullptr;
    QScrollArea* m_scroll = nullptr;
    ImageGrid* m_grid = nullptr;
};

} // namespace facet
