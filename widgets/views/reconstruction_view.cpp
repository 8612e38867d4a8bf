// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/reconstruction_view.h"

#include "common/color_bar.h"
#include "common/image_grid.h"
#include "data/image_render.h"
#include "data/missing_entries.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace facet {

namespace {

// Images about this many screen pixels across: a 32x32 face at 3x, pixels still visible.
constexpr int kImagePixels = 96;

QString errorNumber(double value)
{
    return QString::number(value, 'g', 3);
}

ImageTile imageTile(const Vector& column, int height, int width, ImageScaling scaling,
    const QString& caption, const QString& toolTip)
{
    ImageTile t;
    t.image = columnToImage(column, height, width, scaling);
    t.caption = caption;
    t.toolTip = toolTip;
    return t;
}

} // namespace

ReconstructionView::ReconstructionView(QWidget* parent)
    : QWidget(parent)
    , m_spin(new QSpinBox(this))
    , m_previous(new QPushButton(tr("◀ Previous"), this))
    , m_next(new QPushButton(tr("Next ▶"), this))
    , m_info(new QLabel(this))
    , m_error(new QLabel(this))
    , m_grid(new ImageGrid)
    , m_residualBar(new ColorBar(this))
{
    m_spin->setObjectName(QStringLiteral("reconstructionSample"));
    m_previous->setObjectName(QStringLiteral("reconstructionPrevious"));
    m_next->setObjectName(QStringLiteral("reconstructionNext"));
    m_error->setObjectName(QStringLiteral("reconstructionError"));
    m_info->setObjectName(QStringLiteral("reconstructionInfo"));
    m_spin->setPrefix(tr("sample "));
    m_spin->setKeyboardTracking(false);
    m_spin->setToolTip(tr("The sample to show (1-based, in the data's order)"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setWordWrap(true); // one line of 470 px held the dock, and the window, that wide
    m_grid->setPlaceholderText(tr("A sample and its reconstruction appear after a run."));
    // A scale, not a banner: up to 420 px, narrower in a narrow dock.
    m_residualBar->setMinimumWidth(200);
    m_residualBar->setMaximumWidth(420);
    m_residualBar->setStops(
        { { 0.0, QColor(33, 102, 172) }, { 0.5, Qt::white }, { 1.0, QColor(178, 24, 43) } });

    auto* picker = new QHBoxLayout;
    picker->addWidget(m_previous);
    picker->addWidget(m_spin);
    picker->addWidget(m_next);
    picker->addWidget(m_info, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(picker);
    layout->addWidget(m_error);
    layout->addWidget(m_residualBar, 0, Qt::AlignLeft);
    layout->addWidget(scroll, 1);

    connect(m_spin, &QSpinBox::valueChanged, this, [this](int value) { setSample(value - 1); });
    connect(m_previous, &QPushButton::clicked, this, [this] { setSample(m_sample - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { setSample(m_sample + 1); });
    clear();
}

void ReconstructionView::clear()
{
    m_X.resize(0, 0);
    m_weights.resize(0, 0);
    m_hidden = {};
    m_hiddenError = std::nan("");
    m_labels.clear();
    m_classNames.clear();
    m_result = {};
    m_sample = -1;
    m_current = {};
    {
        const QSignalBlocker block(m_spin);
        m_spin->setRange(0, 0);
    }
    for (QWidget* w : { static_cast<QWidget*>(m_spin), static_cast<QWidget*>(m_previous),
             static_cast<QWidget*>(m_next) })
        w->setEnabled(false);
    m_info->clear();
    m_error->setText(tr("No reconstruction yet."));
    m_residualBar->setLabels(tr("−|max|"), tr("+|max|"), tr("residual"));
    m_residualBar->hide();
    m_grid->clear();
}

void ReconstructionView::setResult(const Dataset& dataset, const RunResult& result)
{
    const Factorization& f = result.factorization;
    const bool fits = f.basis.rows() == dataset.features() && f.V.rows() == dataset.samples()
        && f.basis.cols() == f.V.cols() && dataset.samples() > 0;
    const int keep = m_sample;
    clear();
    if (!fits)
        return;
    m_X = dataset.X;
    if (dataset.hasMask()) {
        m_weights = dataset.weights;
        m_hidden = dataset.hidden;
        // How the factors fill what the mask hid, over the whole data.
        double residual = 0, total = 0;
        const Eigen::Index m = dataset.features();
        for (std::size_t t = 0; t < m_hidden.index.size(); ++t) {
            const Eigen::Index i = m_hidden.index[t] % m, j = m_hidden.index[t] / m;
            const double value = double(m_hidden.value[t]);
            const double r = value - double(f.basis.row(i).dot(f.V.row(j)));
            residual += r * r;
            total += value * value;
        }
        if (total > 0)
            m_hiddenError = std::sqrt(residual / total);
    }
    m_labels = dataset.labels;
    m_classNames = dataset.classNames;
    m_height = dataset.height;
    m_width = dataset.width;
    m_result = result;
    m_signedBasis = f.basis.size() > 0 && f.basis.minCoeff() < 0;
    if (m_height > 0 && m_width > 0)
        m_grid->setZoomPercent(std::clamp(100 * kImagePixels / std::max(m_height, m_width),
            ImageGrid::kMinZoomPercent, ImageGrid::kMaxZoomPercent));
    {
        const QSignalBlocker block(m_spin);
        m_spin->setRange(1, sampleCount());
    }
    m_spin->setEnabled(true);
    m_residualBar->show();
    // A new run on the same data keeps the sample the user was looking at.
    setSample(keep >= 0 && keep < sampleCount() ? keep : 0);
}

void ReconstructionView::setSample(int sample)
{
    if (sample < 0 || sample >= sampleCount())
        return;
    const bool changed = sample != m_sample;
    m_sample = sample;
    {
        const QSignalBlocker block(m_spin);
        m_spin->setValue(sample + 1);
    }
    m_previous->setEnabled(sample > 0);
    m_next->setEnabled(sample + 1 < sampleCount());
    showSample();
    if (changed)
        Q_EMIT sampleChanged(sample);
}

void ReconstructionView::showSample()
{
    const Factorization& f = m_result.factorization;
    m_current = reconstructSample(m_X, f, m_sample, kTopTerms);

    const bool labelled = m_sample < int(m_labels.size());
    const int label = labelled ? m_labels[std::size_t(m_sample)] : -1;
    const QString className = label >= 0 && label < m_classNames.size()
        ? m_classNames[label]
        : QString::number(label + 1);
    const int cluster = m_sample < int(m_result.predicted.size())
        ? m_result.predicted[std::size_t(m_sample)]
        : -1;
    QString info = labelled ? tr("class %1").arg(className) : tr("no class label");
    if (cluster >= 0)
        info += tr(", cluster %1").arg(cluster + 1);
    m_info->setText(info);
    const QString pca = f.method == "pca" ? tr(" (PCA: the data mean added back)") : QString();
    ImageSection images;
    if (m_weights.size() > 0) {
        showMaskedSample(images, info);
    } else {
        m_error->setText(std::isnan(m_current.relativeError)
                ? tr("Relative error: undefined (an all-zero sample)")
                : tr("<b>Relative error ‖x − reconstruction‖ / ‖x‖ = %1</b> &nbsp; (whole data: "
                     "%2)%3")
                      .arg(m_current.relativeError, 0, 'f', 4)
                      .arg(std::isnan(m_result.reconstructionError)
                              ? tr("n/a")
                              : QString::number(m_result.reconstructionError, 'f', 4))
                      .arg(pca));
        const double peak = m_current.residualPeak;
        m_residualBar->setLabels(QStringLiteral("−%1").arg(errorNumber(peak)),
            QStringLiteral("+%1").arg(errorNumber(peak)), tr("residual, 0 is white"));
        images.title
            = tr("Sample %1 (%2): each image on its own grey range").arg(m_sample + 1).arg(info);
        images.tiles.append(imageTile(m_current.original, m_height, m_width, ImageScaling::PerImage,
            tr("original"), tr("The sample as the solver saw it")));
        images.tiles.append(
            imageTile(m_current.reconstruction, m_height, m_width, ImageScaling::PerImage,
                tr("reconstruction"), tr("basis × row %1 of V, transposed").arg(m_sample + 1)));
        images.tiles.append(imageTile(m_current.residual, m_height, m_width, ImageScaling::Signed,
            tr("residual"), tr("Blue: reconstruction too bright; red: too dark; white: exact")));
    }

    ImageSection terms;
    terms.title = tr("Largest terms basis_j · v_ij (ranked by their norm), v_ij under each");
    for (std::size_t t = 0; t < m_current.topComponents.size(); ++t) {
        const int j = m_current.topComponents[t];
        terms.tiles.append(imageTile(f.basis.col(j), m_height, m_width,
            m_signedBasis ? ImageScaling::Signed : ImageScaling::PerImage,
            tr("#%1: %2").arg(j + 1).arg(errorNumber(m_current.topCoefficients[t])),
            tr("Basis vector %1, coefficient v_ij = %2")
                .arg(j + 1)
                .arg(m_current.topCoefficients[t], 0, 'g', 6)));
    }
    m_grid->setSections({ images, terms });
}

void ReconstructionView::showMaskedSample(ImageSection& images, const QString& info)
{
    const auto w = m_weights.col(m_sample);
    const Eigen::Index m = m_X.rows();
    // The residual and the error over the entries the solver saw: a missing entry's X holds a
    // stand-in 0, not data.
    double residual = 0, total = 0, peak = 0;
    Eigen::Index missing = 0;
    for (Eigen::Index i = 0; i < m; ++i) {
        if (w(i) == 0) {
            m_current.residual(i) = 0;
            ++missing;
            continue;
        }
        const double r = double(m_current.residual(i)), x = double(m_current.original(i));
        residual += r * r;
        total += x * x;
        peak = std::max(peak, std::abs(r));
    }
    m_current.residualPeak = peak;
    m_current.relativeError = total > 0 ? std::sqrt(residual / total) : std::nan("");
    // The values the mask hid in this sample, when the data kept them.
    const HiddenColumn hidden = hiddenColumn(m_hidden, m, Eigen::Index(m_sample));
    double hiddenResidual = 0, hiddenTotal = 0;
    Vector before = m_current.original;
    for (std::size_t t = 0; t < hidden.rows.size(); ++t) {
        const Eigen::Index i = hidden.rows[t];
        const double r = double(hidden.values[t]) - double(m_current.reconstruction(i));
        hiddenResidual += r * r;
        hiddenTotal += double(hidden.values[t]) * double(hidden.values[t]);
        before(i) = hidden.values[t];
    }
    const bool allKnown = missing > 0 && Eigen::Index(hidden.rows.size()) == missing;
    QString text = tr("<b>Observed entries: relative error %1</b> (whole data: %2). ")
                       .arg(std::isnan(m_current.relativeError)
                               ? tr("undefined")
                               : QString::number(m_current.relativeError, 'f', 4))
                       .arg(std::isnan(m_result.reconstructionError)
                               ? tr("n/a")
                               : QString::number(m_result.reconstructionError, 'f', 4));
    text += missing == 1
        ? tr("1 of the %1 pixels is missing, filled by the factors").arg(m)
        : tr("%1 of the %2 pixels are missing, filled by the factors").arg(missing).arg(m);
    if (hiddenTotal > 0)
        text += tr("; against the hidden values: relative error <b>%1</b> (whole data: %2)")
                    .arg(std::sqrt(hiddenResidual / hiddenTotal), 0, 'f', 4)
                    .arg(m_hiddenError, 0, 'f', 4);
    else if (missing > 0)
        text += tr(" (their values are unknown)");
    m_error->setText(text + u'.');
    m_residualBar->setLabels(QStringLiteral("−%1").arg(errorNumber(peak)),
        QStringLiteral("+%1").arg(errorNumber(peak)), tr("residual, 0 is white"));

    images.title = tr("Sample %1 (%2): missing pixels in orange; each image on its own grey range")
                       .arg(m_sample + 1)
                       .arg(info);
    const auto tile = [&](const Vector& column, ImageScaling scaling, const QString& caption,
                          const QString& toolTip) {
        return imageTile(column, m_height, m_width, scaling, caption, toolTip);
    };
    // The observed image on the observed pixels' grey range, the missing ones painted over.
    Vector observed = m_current.original;
    double lowest = std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < m; ++i)
        if (w(i) != 0)
            lowest = std::min(lowest, double(observed(i)));
    for (Eigen::Index i = 0; i < m && std::isfinite(lowest); ++i)
        if (w(i) == 0)
            observed(i) = Scalar(lowest);
    ImageTile marked = tile(observed, ImageScaling::PerImage, tr("observed"),
        tr("The sample as the solver saw it: %1 missing pixels, in orange").arg(missing));
    marked.image = marked.image.convertToFormat(QImage::Format_RGB32);
    for (Eigen::Index i = 0; i < m; ++i)
        if (w(i) == 0)
            marked.image.setPixelColor(int(i % m_width), int(i / m_width), missingColor());
    images.tiles.append(marked);
    images.tiles.append(tile(m_current.reconstruction, ImageScaling::PerImage, tr("reconstruction"),
        tr("basis × row %1 of V, transposed").arg(m_sample + 1)));
    Vector filled = m_current.original;
    for (Eigen::Index i = 0; i < m; ++i)
        if (w(i) == 0)
            filled(i) = m_current.reconstruction(i);
    images.tiles.append(tile(filled, ImageScaling::PerImage, tr("filled in"),
        tr("The observed pixels, and the reconstruction's where they are missing")));
    if (allKnown)
        images.tiles.append(tile(before, ImageScaling::PerImage, tr("before the mask"),
            tr("The sample with the values the mask hid")));
    images.tiles.append(tile(m_current.residual, ImageScaling::Signed, tr("residual"),
        tr("On observed pixels: blue, reconstruction too bright; red, too dark; white: exact "
           "or missing")));
}

QString ReconstructionView::errorText() const
{
    return m_error->text();
}

} // namespace facet
