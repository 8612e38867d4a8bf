// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/projection_view.h"

#include "common/image_grid.h"
#include "data/image_render.h"
#include "methods/registry.h"
#include "util/thread_handoff.h"
#include "views/cluster_view.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace facet {

namespace {

constexpr int kZoomPercent = 300;

// Indices of the largest entries of v, largest first (ties by index).
std::vector<int> largestEntries(const Vector& v, int count)
{
    std::vector<int> order(std::size_t(v.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&v](int a, int b) { return v(a) > v(b); });
    order.resize(std::size_t(std::min<Eigen::Index>(count, v.size())));
    return order;
}

} // namespace

ProjectionView::ProjectionView(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QLabel)
    , m_open(new QPushButton(tr("Project an image...")))
    , m_grid(new ImageGrid)
{
    setObjectName(QStringLiteral("projectionView"));
    m_summary->setObjectName(QStringLiteral("projectionSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_open->setObjectName(QStringLiteral("projectionOpen"));
    m_open->setToolTip(tr("Choose an image file (or drop one on the window) to express it in the "
                          "current basis"));
    m_grid->setObjectName(QStringLiteral("projectionGrid"));
    m_grid->setZoomPercent(kZoomPercent);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_grid);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_open, 0, Qt::AlignLeft);
    layout->addWidget(m_summary);
    layout->addWidget(scroll, 1);
    connect(m_open, &QPushButton::clicked, this, &ProjectionView::chooseFile);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &ProjectionView::onFinished);
    clear();
}

ProjectionView::~ProjectionView()
{
    // The task holds shared copies of everything it reads; waiting keeps it from signalling a
    // destroyed watcher.
    m_watcher.waitForFinished();
}

void ProjectionView::setContext(std::shared_ptr<const Dataset> dataset,
    const DatasetRequest& request, std::shared_ptr<const RunResult> result,
    const RunOptions& options)
{
    m_data = std::move(dataset);
    m_request = request;
    m_result = std::move(result);
    m_options = options;
    ++m_generation;
    m_projection.reset();
    m_grid->clear();
    m_open->setEnabled(hasContext());
    m_summary->setText(hasContext()
            ? tr("Drop an image on the window, or choose one, to project it onto the %1 basis "
                 "(k = %2).")
                  .arg(QString::fromStdString(methodLabel(m_options.method)))
                  .arg(m_result->factorization.basis.cols())
            : tr("Run a factorization first: new images are expressed in its basis."));
}

void ProjectionView::clear()
{
    setContext(nullptr, {}, nullptr, {});
}

void ProjectionView::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Project an image"), {},
        tr("Images (*.png *.jpg *.jpeg *.bmp *.pgm *.ppm *.gif *.tif *.tiff *.webp);;All files "
           "(*)"));
    if (!path.isEmpty())
        projectFile(path);
}

void ProjectionView::projectFile(const QString& path)
{
    if (!hasContext()) {
        Q_EMIT failed(tr("Run a factorization before projecting %1.").arg(path));
        return;
    }
    if (m_watcher.isRunning())
        m_watcher.waitForFinished(); // one short task at a time; its answer is superseded below
    m_pendingGeneration = m_generation;
    m_summary->setText(tr("Projecting %1...").arg(QFileInfo(path).fileName()));
    auto dataset = m_data;
    auto result = m_result;
    const DatasetRequest request = m_request;
    const RunOptions options = m_options;
    m_watcher.setFuture(
        runOnPool(QThreadPool::globalInstance(), [path, dataset, result, request, options] {
            Outcome outcome;
            outcome.path = path;
            Result<NewSample> sample = sampleFromImageFile(path, *dataset, request);
            if (!sample) {
                outcome.error = sample.error();
                return outcome;
            }
            outcome.sample = std::move(*sample);
            try {
                outcome.projection = projectSample(result->factorization, options, dataset->X,
                    result->predicted, outcome.sample.x);
            } catch (const std::exception& error) {
                outcome.error = QString::fromStdString(error.what());
            }
            return outcome;
        }));
}

void ProjectionView::onFinished()
{
    if (m_pendingGeneration != m_generation || !hasContext())
        return; // the factorization changed while the image was being prepared
    const Outcome outcome = m_watcher.result();
    if (!outcome.error.isEmpty()) {
        m_summary->setText(
            tr("Could not project %1: %2").arg(QFileInfo(outcome.path).fileName(), outcome.error));
        Q_EMIT failed(outcome.error);
        return;
    }
    showOutcome(outcome);
    Q_EMIT projected(outcome.path);
}

void ProjectionView::showOutcome(const Outcome& outcome)
{
    const Dataset& dataset = *m_data;
    const Projection& p = outcome.projection;
    const Factorization& f = m_result->factorization;
    m_projection = p;
    const int h = dataset.height, w = dataset.width;

    ImageSection sample { tr("The new image"), {} };
    sample.tiles << ImageTile { outcome.sample.image, tr("prepared"),
        outcome.sample.outcome.isEmpty() ? tr("as the dataset's images are prepared")
                                         : outcome.sample.outcome };
    sample.tiles << ImageTile { columnToImage(p.reconstruction, h, w), tr("reconstruction"),
        tr("U v: the basis images weighted by the coefficients below") };
    const Vector residual = outcome.sample.x - p.reconstruction;
    sample.tiles << ImageTile { columnToImage(residual, h, w, ImageScaling::Signed), tr("residual"),
        tr("x - U v: red above, blue below the reconstruction") };

    ImageSection coefficients { tr("Largest coefficients"), {} };
    const double total = p.v.cwiseAbs().sum();
    for (int j : largestEntries(p.v, kTopCoefficients)) {
        if (p.v(j) <= 0 && f.method != "pca")
            break;
        coefficients.tiles << ImageTile { columnToImage(f.basis.col(j), h, w),
            tr("#%1: %2").arg(j + 1).arg(p.v(j), 0, 'g', 3),
            tr("basis image %1, %2% of the coefficients' total")
                .arg(j + 1)
                .arg(total > 0 ? 100 * std::abs(p.v(j)) / total : 0.0, 0, 'f', 1) };
    }

    ImageSection members { tr("Nearest cluster %1").arg(p.cluster + 1), {} };
    std::vector<int> classCounts(std::size_t(std::max(1, dataset.classCount())), 0);
    for (Eigen::Index i = 0; i < dataset.samples(); ++i) {
        if (m_result->predicted[std::size_t(i)] != p.cluster)
            continue;
        if (dataset.hasLabels())
            ++classCounts[std::size_t(dataset.labels[std::size_t(i)])];
        if (members.tiles.size() < kClusterMembers)
            members.tiles << ImageTile { columnToImage(dataset.X.col(i), h, w),
                dataset.hasLabels() ? dataset.classNames.value(dataset.labels[std::size_t(i)])
                                    : QString(),
                tr("sample %1").arg(i + 1) };
    }
    m_grid->setSections({ sample, coefficients, members });

    QString cluster = tr("nearest cluster %1").arg(p.cluster + 1);
    // The Clusters view's rule, ties said as ties: the largest class alone read "mostly class
    // 16" where 6 of 12 were class 1 and 6 class 16 (issue 37).
    if (dataset.hasLabels())
        if (const QString holds = clusterComposition(classCounts, dataset.classNames);
            !holds.isEmpty())
            cluster += QStringLiteral(" (%1)").arg(holds);
    m_summary->setText(tr("<b>%1</b>: relative error %2, %3; %4 of %5 coefficients non-zero.")
                           .arg(QFileInfo(outcome.path).fileName().toHtmlEscaped())
                           .arg(p.relativeError, 0, 'f', 3)
                           .arg(cluster.toHtmlEscaped())
                           .arg((p.v.array() != 0).count())
                           .arg(p.v.size()));
}

} // namespace facet
