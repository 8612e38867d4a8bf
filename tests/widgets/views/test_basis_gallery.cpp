// SPDX-License-Identifier: GPL-3.0-or-later
// The basis gallery: weight order, the automatic signed scale, and clicking a basis image to see
// the samples that use it most.

#include "common/image_grid.h"
#include "data/dataset.h"
#include "data/dataset_source.h"
#include "data/synthetic.h"
#include "experiment/run.h"
#include "screenshot.h"
#include "test_data.h"
#include "views/basis_gallery.h"
#include "views/basis_samples_strip.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

#include <algorithm>
#include <memory>
#include <numeric>

using namespace facet;
using facet::testing::saveScreenshot;

namespace {

// The oracle, written out independently of metrics/basis_usage: ||u_j||_2 * sum_i |V(i, j)|.
std::vector<double> expectedWeights(const Matrix& basis, const Matrix& V)
{
    std::vector<double> weights;
    for (Eigen::Index j = 0; j < basis.cols(); ++j) {
        double squares = 0;
        for (Eigen::Index r = 0; r < basis.rows(); ++r)
            squares += double(basis(r, j)) * double(basis(r, j));
        double absolute = 0;
        for (Eigen::Index i = 0; i < V.rows(); ++i)
            absolute += std::abs(double(V(i, j)));
        weights.push_back(std::sqrt(squares) * absolute);
    }
    return weights;
}

std::vector<int> largestFirst(const std::vector<double>& values)
{
    std::vector<int> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return values[a] > values[b]; });
    return order;
}

struct SwimmerRun {
    std::shared_ptr<const Dataset> data;
    Factorization factorization;
};

const SwimmerRun& swimmerNmf()
{
    static const SwimmerRun run = [] {
        auto data = std::make_shared<const Dataset>(makeSwimmer());
        RunOptions options;
        options.method = "nmf";
        options.params.rank = 16;
        options.driver.maxIter = 150;
        options.driver.seed = 7;
        return SwimmerRun { data, runAndCluster(data->X, {}, options).factorization };
    }();
    return run;
}

std::unique_ptr<BasisGallery> shownGallery()
{
    auto gallery = std::make_unique<BasisGallery>();
    gallery->resize(900, 700);
    gallery->show();
    if (!QTest::qWaitForWindowExposed(gallery.get()))
        return nullptr;
    return gallery;
}

void clickTile(BasisGallery& gallery, int position)
{
    ImageGrid* grid = gallery.grid();
    const QRect rect = grid->tileRect(0, position);
    QVERIFY(!rect.isEmpty());
    QTest::mouseClick(grid, Qt::LeftButton, {}, rect.center());
}

} // namespace

class TestBasisGallery : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tilesAreOrderedByWeight();
    void indexOrderAndBasisWithoutCoefficients();
    void clickingATileShowsItsStrongestSamples();
    void escapeAndCloseHideTheSamples();
    void negativeBasisChoosesTheSignedScale();
    void orlFacesScreenshots();
};

void TestBasisGallery::tilesAreOrderedByWeight()
{
    const SwimmerRun& run = swimmerNmf();
    const Factorization& f = run.factorization;
    auto gallery = shownGallery();
    QVERIFY(gallery);
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);

    QCOMPARE(gallery->order(), BasisGallery::Order::Weight);
    const std::vector<double> expected = expectedWeights(f.basis, f.V);
    QCOMPARE(gallery->weights().size(), expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j)
        QVERIFY(std::abs(gallery->weights()[j] - expected[j]) <= 1e-9 * expected[j]);
    QCOMPARE(gallery->tileOrder(), largestFirst(expected));

    // Each tile is captioned with its original (1-based) index and its share of the weight.
    const double total = std::accumulate(expected.begin(), expected.end(), 0.0);
    const QList<ImageTile>& tiles = gallery->grid()->sections().front().tiles;
    QCOMPARE(int(tiles.size()), 16);
    for (int position = 0; position < 16; ++position) {
        const int j = gallery->tileOrder()[std::size_t(position)];
        const QString caption = tiles[position].caption;
        QVERIFY2(caption.startsWith(QStringLiteral("%1 \u00b7 ").arg(j + 1)), qPrintable(caption));
        const double share = caption.section(QStringLiteral(" \u00b7 "), 1).chopped(1).toDouble();
        QVERIFY2(
            std::abs(share - 100 * expected[std::size_t(j)] / total) < 0.051 * std::max(share, 1.0),
            qPrintable(caption));
    }
    saveScreenshot(*gallery, QStringLiteral("basis_gallery_swimmer_by_weight.png"));
}

void TestBasisGallery::indexOrderAndBasisWithoutCoefficients()
{
    const SwimmerRun& run = swimmerNmf();
    const Factorization& f = run.factorization;
    auto gallery = shownGallery();
    QVERIFY(gallery);
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);
    auto* orderCombo = gallery->findChild<QComboBox*>(QStringLiteral("basisOrderCombo"));
    QVERIFY(orderCombo);
    orderCombo->setCurrentIndex(orderCombo->findData(int(BasisGallery::Order::Index)));
    std::vector<int> identity(16);
    std::iota(identity.begin(), identity.end(), 0);
    QCOMPARE(gallery->tileOrder(), identity);
    QCOMPARE(gallery->grid()->sections().front().tiles[3].caption.section(QLatin1Char(' '), 0, 0),
        QStringLiteral("4"));

    // The old entry point: no V, so no weights, index order and no sample strip on a click.
    gallery->setOrder(BasisGallery::Order::Weight);
    gallery->setBasis(f.basis, run.data->height, run.data->width);
    QVERIFY(gallery->weights().empty());
    QVERIFY(!orderCombo->isEnabled());
    QCOMPARE(gallery->tileOrder(), identity);
    QCOMPARE(gallery->grid()->sections().front().tiles[3].caption, QStringLiteral("4"));
    QSignalSpy activated(gallery.get(), &BasisGallery::basisActivated);
    clickTile(*gallery, 5);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.front().front().toInt(), 5);
    QVERIFY(!gallery->samplesStrip()->isVisible());
}

void TestBasisGallery::clickingATileShowsItsStrongestSamples()
{
    const SwimmerRun& run = swimmerNmf();
    const Factorization& f = run.factorization;
    auto gallery = shownGallery();
    QVERIFY(gallery);
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);
    QSignalSpy activated(gallery.get(), &BasisGallery::basisActivated);

    for (int position : { 0, 7 }) {
        const int j = gallery->tileOrder()[std::size_t(position)];
        clickTile(*gallery, position);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.takeFirst().front().toInt(), j);
        QCOMPARE(gallery->activeBasis(), j);
        QCOMPARE(gallery->grid()->selectedTile(), (TilePosition { 0, position }));

        BasisSamplesStrip* strip = gallery->samplesStrip();
        QVERIFY(strip->isVisible());
        // Oracle: the 12 largest V(i, j) (Swimmer's V is non-negative), largest first.
        std::vector<double> column(std::size_t(f.V.rows()));
        for (Eigen::Index i = 0; i < f.V.rows(); ++i)
            column[std::size_t(i)] = double(f.V(i, j));
        std::vector<int> expected = largestFirst(column);
        expected.resize(12);
        QCOMPARE(strip->samples(), expected);
        const QList<ImageTile>& tiles = strip->grid()->sections().front().tiles;
        QCOMPARE(int(tiles.size()), 12);
        for (int t = 0; t < 12; ++t)
            QCOMPARE(tiles[t].caption,
                QString::number(double(f.V(expected[std::size_t(t)], j)), 'g', 3));
        // The strip's images are the samples themselves.
        const QImage first = tiles.front().image;
        QCOMPARE(first.size(), QSize(run.data->width, run.data->height));
        QVERIFY(strip->titleLabel()->text().contains(QStringLiteral("Basis %1").arg(j + 1)));
    }
    saveScreenshot(*gallery, QStringLiteral("basis_gallery_swimmer_samples.png"));

    // Switching to index order keeps the selection on the same part.
    const int active = gallery->activeBasis();
    gallery->setOrder(BasisGallery::Order::Index);
    QCOMPARE(gallery->grid()->selectedTile(), (TilePosition { 0, active }));
    QCOMPARE(gallery->samplesStrip()->part(), active);
}

void TestBasisGallery::escapeAndCloseHideTheSamples()
{
    const SwimmerRun& run = swimmerNmf();
    const Factorization& f = run.factorization;
    auto gallery = shownGallery();
    QVERIFY(gallery);
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);

    clickTile(*gallery, 2);
    QVERIFY(gallery->samplesStrip()->isVisible());
    QTest::keyClick(gallery->grid(), Qt::Key_Escape);
    QVERIFY(!gallery->samplesStrip()->isVisible());
    QCOMPARE(gallery->activeBasis(), -1);
    QVERIFY(!gallery->grid()->selectedTile().isValid());

    clickTile(*gallery, 3);
    QVERIFY(gallery->samplesStrip()->isVisible());
    QTest::mouseClick(gallery->samplesStrip()->closeButton(), Qt::LeftButton);
    QVERIFY(!gallery->samplesStrip()->isVisible());
    QCOMPARE(gallery->activeBasis(), -1);

    // A new result closes the strip of the old one.
    clickTile(*gallery, 1);
    QVERIFY(gallery->samplesStrip()->isVisible());
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);
    QVERIFY(!gallery->samplesStrip()->isVisible());
}

void TestBasisGallery::negativeBasisChoosesTheSignedScale()
{
    const SwimmerRun& run = swimmerNmf();
    const Factorization& f = run.factorization;
    auto gallery = shownGallery();
    QVERIFY(gallery);
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);
    QCOMPARE(gallery->scale(), BasisGallery::Scale::PerImage);

    const Matrix centred = (f.basis.array() - f.basis.mean()).matrix();
    QVERIFY(centred.minCoeff() < 0);
    gallery->setFactors(centred, f.V, run.data, run.data->height, run.data->width);
    QCOMPARE(gallery->scale(), BasisGallery::Scale::Signed);
    QCOMPARE(gallery->exportScaling(), ImageScaling::Signed);

    // The user can still change it; a non-negative basis goes back to the user's choice.
    gallery->setScale(BasisGallery::Scale::Shared);
    QCOMPARE(gallery->scale(), BasisGallery::Scale::Shared);
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);
    QCOMPARE(gallery->scale(), BasisGallery::Scale::Shared);
    gallery->setFactors(centred, f.V, run.data, run.data->height, run.data->width);
    QCOMPARE(gallery->scale(), BasisGallery::Scale::Signed);
    gallery->setFactors(f.basis, f.V, run.data, run.data->height, run.data->width);
    QCOMPARE(gallery->scale(), BasisGallery::Scale::Shared);
}

void TestBasisGallery::orlFacesScreenshots()
{
    const QString path = facetDataFile(QStringLiteral("ORL_32x32.mat"));
    FACET_REQUIRE_DATA(path);
    DatasetRequest request;
    request.spec = path;
    Result<Dataset> loaded = loadDataset(request);
    QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error()));
    auto data = std::make_shared<const Dataset>(std::move(*loaded));
    auto gallery = shownGallery();
    QVERIFY(gallery);

    for (const char* method : { "nmf", "pca" }) {
        RunOptions options;
        options.method = method;
        options.params.rank = 20;
        options.driver.maxIter = 100;
        const Factorization f = runAndCluster(data->X, data->labels, options).factorization;
        gallery->setFactors(f.basis, f.V, data, data->height, data->width);
        QCOMPARE(gallery->scale(),
            f.basis.minCoeff() < 0 ? BasisGallery::Scale::Signed : BasisGallery::Scale::PerImage);
        clickTile(*gallery, 0);
        QVERIFY(gallery->samplesStrip()->isVisible());
        QCOMPARE(int(gallery->samplesStrip()->samples().size()), 12);
        saveScreenshot(
            *gallery, QStringLiteral("basis_gallery_orl_%1.png").arg(QLatin1String(method)));
    }
}

#include "facet_test.h"
FACET_TEST_MAIN(TestBasisGallery)
#include "test_basis_gallery.moc"
