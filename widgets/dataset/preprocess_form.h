// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_source.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace facet {

class MissingPixelsGroup;

// The preprocessing steps as a form, in the order they run: grayscale, faces, size, equalize,
// then the values (scaling, L2), the noise and the missing pixels. Every step can be turned off.
class PreprocessForm : public QWidget {
    Q_OBJECT

public:
    explicit PreprocessForm(QWidget* parent = nullptr);

    void setRequest(const DatasetRequest& request); // its preprocess and prepare parts
    PreprocessSettings settings() const;
    PrepareOptions prepareOptions() const;

    QCheckBox* grayscaleBox() const { return m_grayscale; }
    QCheckBox* facesBox() const { return m_faces; }
    QComboBox* noFaceBox() const { return m_noFace; }
    QCheckBox* resizeBox() const { return m_resize; }
    QSpinBox* heightSpin() const { return m_height; }
    QSpinBox* widthSpin() const { return m_width; }
    QComboBox* noiseBox() const { return m_noise; }
    MissingPixelsGroup* missingGroup() const { return m_missing; }

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();

    QCheckBox* m_grayscale = nullptr;
    QCheckBox* m_faces = nullptr;
    QComboBox* m_noFace = nullptr;
    QCheckBox* m_resize = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_width = nullptr;
    QCheckBox* m_equalize = nullptr;
    QCheckBox* m_scale = nullptr;
    QCheckBox* m_l2 = nullptr;
    QComboBox* m_noise = nullptr;
    QLabel* m_amountLabel = nullptr;
    QDoubleSpinBox* m_amount = nullptr;
    QSpinBox* m_seed = nullptr;
    MissingPixelsGroup* m_missing = nullptr;
    bool m_updating = false; // setRequest() in progress: one changed() at its end
};

} // namespace facet
