// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_source.h"
#include "data/image_set.h"
#include "data/preprocess.h"

#include <QImage>
#include <QWidget>

#include <memory>

class QLabel;
class QSpinBox;

namespace facet {

// One sample before and after the image steps, side by side. The source (the files of a folder
// or list, else the loaded .mat or built-in set) and every preview are computed on the global
// thread pool: face detection takes tens of milliseconds per image. One preview runs at a time;
// settings changed meanwhile are previewed when it ends, and answers for older settings or an
// older source are dropped.
class PreprocessPreview : public QWidget {
    Q_OBJECT

public:
    explicit PreprocessPreview(QWidget* parent = nullptr);

    // Loads the images `request.spec` names (its preprocessing ignored); sourceReady() or failed().
    void setSource(const DatasetRequest& request);
    void setSettings(const PreprocessSettings& settings);

    int sampleCount() const;
    int sample() const; // 0-based
    void setSample(int index);
    bool isBusy() const { return m_running || m_loading; }

    QSpinBox* sampleSpin() const { return m_sampleSpin; }
    const QImage& beforeImage() const { return m_preview.before; }
    const QImage& afterImage() const { return m_preview.after; }
    QString outcome() const { return m_preview.outcome; }

Q_SIGNALS:
    void sourceReady(int samples);
    void previewReady(); // the shown preview is the one for the current sample and settings
    void failed(const QString& message);

private:
    // The images of the source; exactly one of the two is set.
    struct Source {
        std::shared_ptr<const ImageSet> images;
        std::shared_ptr<const Dataset> data;
    };
    struct Outcome {
        SamplePreview preview;
        QString error;
    };

    void schedule();
    void startPreview();
    void showPreview(const Outcome& outcome);
    void showMessage(const QString& message);
    QString sampleName(int index) const;

    Source m_source;
    PreprocessSettings m_settings;
    SamplePreview m_preview;
    quint64 m_sourceId = 0; // answers of an older setSource() are dropped
    bool m_loading = false;
    bool m_running = false; // a preview is being computed
    bool m_pending = false; // the settings or sample changed while it was

    QSpinBox* m_sampleSpin = nullptr;
    QLabel* m_sampleName = nullptr;
    QLabel* m_before = nullptr;
    QLabel* m_after = nullptr;
    QLabel* m_beforeCaption = nullptr;
    QLabel* m_afterCaption = nullptr;
    QLabel* m_outcome = nullptr;
};

} // namespace facet
