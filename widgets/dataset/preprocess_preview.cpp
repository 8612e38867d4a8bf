// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset/preprocess_preview.h"

#include "util/thread_handoff.h"

#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPixmap>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace facet {

namespace {

constexpr int kBox = 224; // side of the square each image is drawn in

// Magnified by a whole factor without smoothing, so the pixels of a 32x32 result stay visible;
// larger images shrink smoothly.
QPixmap fitted(const QImage& image)
{
    if (image.isNull())
        return {};
    const int side = std::max(image.width(), image.height());
    if (side <= kBox) {
        const int factor = std::max(1, kBox / side);
        return QPixmap::fromImage(
            image.scaled(image.size() * factor, Qt::KeepAspectRatio, Qt::FastTransformation));
    }
    return QPixmap::fromImage(
        image.scaled(kBox, kBox, Qt::KeepAspectRatio, Qt::SmoothTransformation));
}

QString sizeText(const QImage& image)
{
    return QStringLiteral("%1×%2").arg(image.height()).arg(image.width());
}

QLabel* imageLabel()
{
    auto* label = new QLabel;
    label->setFixedSize(kBox + 8, kBox + 8);
    label->setAlignment(Qt::AlignCenter);
    label->setFrameShape(QFrame::StyledPanel);
    label->setBackgroundRole(QPalette::Base);
    label->setAutoFillBackground(true);
    return label;
}

} // namespace

PreprocessPreview::PreprocessPreview(QWidget* parent)
    : QWidget(parent)
    , m_sampleSpin(new QSpinBox)
    , m_sampleName(new QLabel)
    , m_before(imageLabel())
    , m_after(imageLabel())
    , m_beforeCaption(new QLabel)
    , m_afterCaption(new QLabel)
    , m_outcome(new QLabel)
{
    m_sampleSpin->setRange(1, 1);
    m_sampleSpin->setEnabled(false);
    m_sampleSpin->setAccelerated(true);
    m_sampleName->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_beforeCaption->setAlignment(Qt::AlignCenter);
    m_afterCaption->setAlignment(Qt::AlignCenter);

    auto* sampleRow = new QHBoxLayout;
    auto* sampleLabel = new QLabel(tr("Sa&mple:"));
    sampleLabel->setBuddy(m_sampleSpin);
    sampleRow->addWidget(sampleLabel);
    sampleRow->addWidget(m_sampleSpin);
    sampleRow->addWidget(m_sampleName, 1);

    auto* images = new QGridLayout;
    images->addWidget(new QLabel(tr("<b>Before</b>")), 0, 0, Qt::AlignHCenter);
    images->addWidget(new QLabel(tr("<b>After</b>")), 0, 1, Qt::AlignHCenter);
    images->addWidget(m_before, 1, 0);
    images->addWidget(m_after, 1, 1);
    images->addWidget(m_beforeCaption, 2, 0);
    images->addWidget(m_afterCaption, 2, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(sampleRow);
    layout->addLayout(images);
    layout->addWidget(m_outcome);
    layout->addStretch(1);

    connect(m_sampleSpin, &QSpinBox::valueChanged, this, &PreprocessPreview::schedule);
    showMessage(tr("Loading the images..."));
}

int PreprocessPreview::sampleCount() const
{
    if (m_source.images)
        return m_source.images->size();
    return m_source.data ? int(m_source.data->samples()) : 0;
}

int PreprocessPreview::sample() const
{
    return m_sampleSpin->value() - 1;
}

void PreprocessPreview::setSample(int index)
{
    m_sampleSpin->setValue(index + 1);
}

QString PreprocessPreview::sampleName(int index) const
{
    if (m_source.images) {
        const ImageSet& set = *m_source.images;
        const QString file = set.files.value(index);
        return set.hasLabels()
            ? tr("%1 (class %2)").arg(file, set.classNames.value(set.labels[std::size_t(index)]))
            : file;
    }
    if (m_source.data && m_source.data->hasLabels()) {
        const Dataset& set = *m_source.data;
        return tr("class %1").arg(set.classNames.value(set.labels[std::size_t(index)]));
    }
    return {};
}

void PreprocessPreview::setSource(const DatasetRequest& request)
{
    const quint64 id = ++m_sourceId;
    m_source = {};
    m_loading = true;
    m_sampleSpin->setEnabled(false);
    showMessage(tr("Loading the images..."));
    DatasetRequest raw;
    raw.spec = request.spec;
    raw.mat = request.mat;
    auto* watcher = new QFutureWatcher<std::pair<Source, QString>>(this);
    connect(
        watcher, &QFutureWatcher<std::pair<Source, QString>>::finished, this, [this, watcher, id] {
            const auto [source, error] = watcher->result();
            watcher->deleteLater();
            if (id != m_sourceId)
                return;
            m_loading = false;
            if (!error.isEmpty()) {
                showMessage(error);
                Q_EMIT failed(error);
                return;
            }
            m_source = source;
            const QSignalBlocker blocker(m_sampleSpin);
            m_sampleSpin->setRange(1, std::max(1, sampleCount()));
            m_sampleSpin->setSuffix(tr(" of %1").arg(sampleCount()));
            m_sampleSpin->setEnabled(sampleCount() > 1);
            Q_EMIT sourceReady(sampleCount());
            schedule();
        });
    watcher->setFuture(
        runOnPool(QThreadPool::globalInstance(), [raw]() -> std::pair<Source, QString> {
            try {
                const DatasetKind kind = datasetKind(raw.spec);
                if (kind == DatasetKind::ImageFolder || kind == DatasetKind::ImageList) {
                    auto set = loadImageSet(raw.spec);
                    if (!set)
                        return { {}, set.error() };
                    return { { std::make_shared<const ImageSet>(std::move(*set)), {} }, {} };
                }
                auto loaded = loadDataset(raw);
                if (!loaded)
                    return { {}, loaded.error() };
                return { { {}, std::make_shared<const Dataset>(std::move(*loaded)) }, {} };
            } catch (const std::exception& error) {
                return { {}, QString::fromLocal8Bit(error.what()) };
            }
        }));
}

void PreprocessPreview::setSettings(const PreprocessSettings& settings)
{
    if (settings == m_settings && !m_preview.outcome.isEmpty())
        return;
    m_settings = settings;
    schedule();
}

void PreprocessPreview::schedule()
{
    if (m_loading || sampleCount() == 0)
        return;
    if (m_running) {
        m_pending = true;
        return;
    }
    startPreview();
}

void PreprocessPreview::startPreview()
{
    m_running = true;
    m_pending = false;
    const quint64 sourceId = m_sourceId;
    const int index = sample();
    const PreprocessSettings settings = m_settings;
    const Source source = m_source;
    m_sampleName->setText(sampleName(index));
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, sourceId] {
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        m_running = false;
        if (sourceId != m_sourceId)
            return; // a new source is loading; it schedules its own preview
        if (m_pending) {
            startPreview(); // stale: the settings or the sample changed meanwhile
            return;
        }
        showPreview(outcome);
    });
    watcher->setFuture(
        runOnPool(QThreadPool::globalInstance(), [source, index, settings]() -> Outcome {
            try {
                auto result = source.images ? previewSample(*source.images, index, settings)
                                            : previewSample(*source.data, index, settings);
                if (!result)
                    return { {}, result.error() };
                return { *result, {} };
            } catch (const std::exception& error) {
                return { {}, QString::fromLocal8Bit(error.what()) };
            }
        }));
}

void PreprocessPreview::showPreview(const Outcome& outcome)
{
    if (!outcome.error.isEmpty()) {
        m_preview = {};
        m_before->clear();
        m_after->clear();
        m_beforeCaption->clear();
        m_afterCaption->clear();
        m_outcome->setText(outcome.error);
        Q_EMIT failed(outcome.error);
        return;
    }
    m_preview = outcome.preview;
    m_before->setPixmap(fitted(m_preview.before));
    m_beforeCaption->setText(tr("%1 %2").arg(sizeText(m_preview.before),
        m_preview.before.format() == QImage::Format_RGB888 ? tr("colour") : tr("grey")));
    if (m_preview.kept) {
        m_after->setPixmap(fitted(m_preview.after));
        m_afterCaption->setText(sizeText(m_preview.after));
    } else {
        m_after->setText(tr("Left out"));
        m_afterCaption->clear();
    }
    m_outcome->setText(tr("What happened: %1").arg(m_preview.outcome));
    Q_EMIT previewReady();
}

void PreprocessPreview::showMessage(const QString& message)
{
    m_preview = {};
    m_before->clear();
    m_after->clear();
    m_beforeCaption->clear();
    m_afterCaption->clear();
    m_sampleName->clear();
    m_outcome->setText(message);
}

} // namespace facet
