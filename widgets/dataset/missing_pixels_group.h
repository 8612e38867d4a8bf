// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/missing_entries.h"

#include <QGroupBox>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace facet {

// The preprocessing form's "Missing pixels" group (data/missing_entries.h): none, a fraction of
// each sample's pixels, one block per image, or a mask variable of a .mat file. The entries it
// hides leave the objective of nmf, gnmf, semignmf and cnmf; the Reconstruction view shows how
// the factorization fills them.
class MissingPixelsGroup : public QGroupBox {
    Q_OBJECT

public:
    explicit MissingPixelsGroup(QWidget* parent = nullptr);

    void setSettings(const MissingSettings& settings);
    MissingSettings settings() const;

    QComboBox* kindBox() const { return m_kind; }
    QDoubleSpinBox* percentSpin() const { return m_percent; }
    QSpinBox* sideSpin() const { return m_side; }
    QSpinBox* seedSpin() const { return m_seed; }
    QLineEdit* fileEdit() const { return m_file; }
    QLineEdit* variableEdit() const { return m_variable; }

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();
    void browse();

    QComboBox* m_kind = nullptr;
    QLabel* m_percentLabel = nullptr;
    QDoubleSpinBox* m_percent = nullptr;
    QLabel* m_sideLabel = nullptr;
    QSpinBox* m_side = nullptr;
    QLabel* m_seedLabel = nullptr;
    QSpinBox* m_seed = nullptr;
    QLabel* m_fileLabel = nullptr;
    QLineEdit* m_file = nullptr;
    QPushButton* m_browse = nullptr;
    QLabel* m_variableLabel = nullptr;
    QLineEdit* m_variable = nullptr;
    bool m_updating = false;
};

} // namespace facet
