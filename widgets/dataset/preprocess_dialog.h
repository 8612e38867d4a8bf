// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_source.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QPushButton;
class QSettings;

namespace facet {

class PreprocessForm;
class PreprocessPreview;

// The preprocessing of one dataset before it is loaded: the steps on the left, a live preview
// of one sample on the right. Accepting hands back the request with the chosen settings.
class PreprocessDialog : public QDialog {
    Q_OBJECT

public:
    explicit PreprocessDialog(const DatasetRequest& request, QWidget* parent = nullptr);

    DatasetRequest request() const;

    PreprocessForm* form() const { return m_form; }
    PreprocessPreview* preview() const { return m_preview; }
    QPushButton* loadButton() const;

    // The last accepted preprocessing (QSettings "preprocess/..."), for `spec`: what a folder
    // opened next starts with. Without a saved one: grey, 32x32, scaled to [0, 1].
    static DatasetRequest lastUsedRequest(const QString& spec);
    static void rememberRequest(const DatasetRequest& request);

private:
    DatasetRequest m_request;
    PreprocessForm* m_form = nullptr;
    PreprocessPreview* m_preview = nullptr;
    QLabel* m_summary = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace facet
