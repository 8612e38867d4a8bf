// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset/preprocess_form.h"

#include "dataset/missing_pixels_group.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

constexpr int kDefaultSide = 32;

// Amount ranges and defaults per noise kind (the meaning of `amount` is NoiseSettings').
struct NoiseAmount {
    double minimum, maximum, step, fallback;
    int decimals;
};

NoiseAmount amountFor(NoiseKind kind)
{
    switch (kind) {
    case NoiseKind::Gaussian:
        return { 0.001, 1, 0.01, 0.1, 3 };
    case NoiseKind::SaltPepper:
        return { 0.001, 1, 0.01, 0.05, 3 };
    case NoiseKind::Occlusion:
        return { 1, 4096, 1, 8, 0 };
    case NoiseKind::None:
        break;
    }
    return { 0, 0, 1, 0, 0 };
}

QSpinBox* sideSpin(QWidget* parent)
{
    auto* spin = new QSpinBox(parent);
    spin->setRange(1, 4096);
    spin->setValue(kDefaultSide);
    spin->setAccelerated(true);
    return spin;
}

} // namespace

PreprocessForm::PreprocessForm(QWidget* parent)
    : QWidget(parent)
    , m_grayscale(new QCheckBox(tr("&Grayscale (colour to luma)")))
    , m_faces(new QCheckBox(tr("Detect &faces, align the eyes and crop")))
    , m_noFace(new QComboBox)
    , m_resize(new QCheckBox(tr("&Resize to")))
    , m_height(sideSpin(this))
    , m_width(sideSpin(this))
    , m_equalize(new QCheckBox(tr("Histogram &equalization")))
    , m_scale(new QCheckBox(tr("&Scale values to [0, 1]")))
    , m_l2(new QCheckBox(tr("Each sample to unit &L2 norm")))
    , m_noise(new QComboBox)
    , m_amountLabel(new QLabel)
    , m_amount(new QDoubleSpinBox)
    , m_seed(new QSpinBox)
    , m_missing(new MissingPixelsGroup)
{
    m_noFace->addItem(tr("Centre crop"), int(NoFacePolicy::CenterCrop));
    m_noFace->addItem(tr("Skip the image"), int(NoFacePolicy::Skip));
    m_noise->addItem(tr("None"), int(NoiseKind::None));
    m_noise->addItem(tr("Gaussian"), int(NoiseKind::Gaussian));
    m_noise->addItem(tr("Salt and pepper"), int(NoiseKind::SaltPepper));
    m_noise->addItem(tr("Occlusion block"), int(NoiseKind::Occlusion));
    m_seed->setRange(0, 999999);
    m_grayscale->setToolTip(tr("Off, a colour file is an error: every pixel is one feature."));
    m_faces->setToolTip(tr("OpenCV Haar cascades: the largest frontal face, then both eyes; the "
                           "face is rotated and scaled so the eyes sit at fixed points."));
    m_scale->setToolTip(tr("0..255 data divided by 255; data already in [0, 1] is untouched."));

    auto* image = new QGroupBox(tr("Image steps"));
    auto* imageLayout = new QVBoxLayout(image);
    imageLayout->addWidget(m_grayscale);
    imageLayout->addWidget(m_faces);
    auto* noFaceRow = new QHBoxLayout;
    noFaceRow->setContentsMargins(20, 0, 0, 0);
    auto* noFaceLabel = new QLabel(tr("&Without a face:"));
    noFaceLabel->setBuddy(m_noFace);
    noFaceRow->addWidget(noFaceLabel);
    noFaceRow->addWidget(m_noFace, 1);
    imageLayout->addLayout(noFaceRow);
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_resize);
    sizeRow->addWidget(m_height);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(tr("(height × width)")));
    sizeRow->addStretch(1);
    imageLayout->addLayout(sizeRow);
    imageLayout->addWidget(m_equalize);

    auto* values = new QGroupBox(tr("Values"));
    auto* valuesLayout = new QVBoxLayout(values);
    valuesLayout->addWidget(m_scale);
    valuesLayout->addWidget(m_l2);

    auto* noise = new QGroupBox(tr("Noise"));
    auto* noiseLayout = new QFormLayout(noise);
    noiseLayout->addRow(tr("&Kind:"), m_noise);
    noiseLayout->addRow(m_amountLabel, m_amount);
    noiseLayout->addRow(tr("See&d:"), m_seed);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(image);
    layout->addWidget(values);
    layout->addWidget(noise);
    layout->addWidget(m_missing);
    layout->addStretch(1);

    const auto emitChanged = [this] {
        updateEnabled();
        if (!m_updating)
            Q_EMIT changed();
    };
    for (QCheckBox* box : { m_grayscale, m_faces, m_resize, m_equalize, m_scale, m_l2 })
        connect(box, &QCheckBox::toggled, this, emitChanged);
    for (QSpinBox* spin : { m_height, m_width, m_seed })
        connect(spin, &QSpinBox::valueChanged, this, emitChanged);
    connect(m_noFace, &QComboBox::currentIndexChanged, this, emitChanged);
    connect(m_amount, &QDoubleSpinBox::valueChanged, this, emitChanged);
    connect(m_missing, &MissingPixelsGroup::changed, this, emitChanged);
    connect(m_noise, &QComboBox::currentIndexChanged, this, [this, emitChanged] {
        const NoiseAmount a = amountFor(NoiseKind(m_noise->currentData().toInt()));
        const bool wasUpdating = m_updating;
        m_updating = true; // one changed() for the kind, not one per spin box property
        m_amount->setDecimals(a.decimals);
        m_amount->setRange(a.minimum, a.maximum);
        m_amount->setSingleStep(a.step);
        if (!wasUpdating)
            m_amount->setValue(a.fallback);
        m_updating = wasUpdating;
        emitChanged();
    });
    m_resize->setChecked(true);
    m_scale->setChecked(true);
    m_grayscale->setChecked(true);
    updateEnabled();
}

void PreprocessForm::updateEnabled()
{
    m_noFace->setEnabled(m_faces->isChecked());
    m_height->setEnabled(m_resize->isChecked());
    m_width->setEnabled(m_resize->isChecked());
    const auto kind = NoiseKind(m_noise->currentData().toInt());
    m_amount->setEnabled(kind != NoiseKind::None);
    m_seed->setEnabled(kind != NoiseKind::None);
    switch (kind) {
    case NoiseKind::Gaussian:
        m_amountLabel->setText(tr("σ (fraction of range):"));
        break;
    case NoiseKind::SaltPepper:
        m_amountLabel->setText(tr("Fraction of pixels:"));
        break;
    case NoiseKind::Occlusion:
        m_amountLabel->setText(tr("Block side (pixels):"));
        break;
    case NoiseKind::None:
        m_amountLabel->setText(tr("Amount:"));
        break;
    }
}

void PreprocessForm::setRequest(const DatasetRequest& request)
{
    const PreprocessSettings& s = request.preprocess;
    m_updating = true;
    m_grayscale->setChecked(s.grayscale);
    m_faces->setChecked(s.detectFaces);
    m_noFace->setCurrentIndex(m_noFace->findData(int(s.noFace)));
    m_resize->setChecked(s.hasSize());
    m_height->setValue(s.hasSize() ? s.height : kDefaultSide);
    m_width->setValue(s.hasSize() ? s.width : kDefaultSide);
    m_equalize->setChecked(s.equalize);
    m_scale->setChecked(request.prepare.scaleTo01);
    m_l2->setChecked(request.prepare.l2Normalize);
    m_noise->setCurrentIndex(m_noise->findData(int(s.noise.kind)));
    if (s.noise.kind != NoiseKind::None)
        m_amount->setValue(s.noise.amount);
    m_seed->setValue(int(std::min<std::uint64_t>(s.noise.seed, std::uint64_t(m_seed->maximum()))));
    m_missing->setSettings(s.missing);
    m_updating = false;
    updateEnabled();
    Q_EMIT changed();
}

PreprocessSettings PreprocessForm::settings() const
{
    PreprocessSettings s;
    s.grayscale = m_grayscale->isChecked();
    s.detectFaces = m_faces->isChecked();
    s.noFace = NoFacePolicy(m_noFace->currentData().toInt());
    if (m_resize->isChecked()) {
        s.height = m_height->value();
        s.width = m_width->value();
    }
    s.equalize = m_equalize->isChecked();
    s.noise.kind = NoiseKind(m_noise->currentData().toInt());
    if (s.noise.kind != NoiseKind::None) {
        s.noise.amount = s.noise.kind == NoiseKind::Occlusion ? std::round(m_amount->value())
                                                              : m_amount->value();
        s.noise.seed = std::uint64_t(m_seed->value());
    }
    s.missing = m_missing->settings();
    return s;
}

PrepareOptions PreprocessForm::prepareOptions() const
{
    PrepareOptions options;
    options.scaleTo01 = m_scale->isChecked();
    options.l2Normalize = m_l2->isChecked();
    return options;
}

} // namespace facet
