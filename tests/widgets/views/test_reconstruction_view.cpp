// SPDX-License-Identifier: GPL-3.0-or-later
// The reconstruction view on real runs, driven through its spin box and buttons: the sample's
// error as computed from basis and V by hand, the largest terms in order, and the images.

#include "common/color_bar.h"
#include "common/image_grid.h"
#include "data/missing_entries.h"
#include "small_run.h"
#include "views/reconstruction_view.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace facet;
using namespace facet::testing;

namespace {

// ||x_i - basis v_i|| / ||x_i||, straight from the factors.
double sampleError(const Dataset& data, const Factorization& f, int i)
{
    const Vector approx = f.basis * f.V.row(i).transpose();
    return double((data.X.col(i) - approx).norm() / data.X.col(i).norm());
}

// Components by |v_ij| ||basis_j||, largest first.
std::vector<int> termOrder(const Factorization& f, int i)
{
    std::vector<int> order(static_cast<std::size_t>(f.V.cols()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::abs(f.V(i, a)) * f.basis.col(a).norm()
            > std::abs(f.V(i, b)) * f.basis.col(b).norm();
    });
    return order;
}

void typeSample(QSpinBox* spin, int oneBased)
{
    QLineEdit* edit = spin->findChild<QLineEdit*>();
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(spin, QString::number(oneBased));
    QTest::keyClick(spin, Qt::Key_Return);
}

} // namespace

class TestReconstructionView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pickerButtonsAndSpinBoxChooseTheSample();
    void errorAndTopTermsMatchTheFactors_data();
    void errorAndTopTermsMatchTheFactors();
    void mismatchedResultClears();
    void missingPixelsAreMarkedAndFilled();
};

void TestReconstructionView::pickerButtonsAndSpinBoxChooseTheSample()
{
    FACET_LOAD_ORL(data, 6);
    const RunResult result = runMethod(data, "nmf", 12);
    ReconstructionView view;
    view.resize(900, 700);
    view.show();
    QSignalSpy changed(&view, &ReconstructionView::sampleChanged);
    view.setResult(data, result);
    QCOMPARE(view.currentSample(), 0);
    QCOMPARE(view.sampleSpinBox()->value(), 1);
    QCOMPARE(view.sampleSpinBox()->maximum(), 60);
    QVERIFY(!view.previousButton()->isEnabled());
    QVERIFY(view.nextButton()->isEnabled());

    QTest::mouseClick(view.nextButton(), Qt::LeftButton);
    QTest::mouseClick(view.nextButton(), Qt::LeftButton);
    QCOMPARE(view.currentSample(), 2);
    QCOMPARE(view.sampleSpinBox()->value(), 3);
    QTest::mouseClick(view.previousButton(), Qt::LeftButton);
    QCOMPARE(view.currentSample(), 1);

    typeSample(view.sampleSpinBox(), 60);
    QCOMPARE(view.currentSample(), 59);
    QVERIFY(!view.nextButton()->isEnabled());
    QVERIFY(view.previousButton()->isEnabled());
    QCOMPARE(changed.count(), 5); // 0, 1, 2, 1, 59
    QCOMPARE(changed.last().at(0).toInt(), 59);

    // The slot other views call; out of range is ignored.
    view.setSample(-3);
    view.setSample(60);
    QCOMPARE(view.currentSample(), 59);
    view.setSample(24);
    QCOMPARE(view.sampleSpinBox()->value(), 25);

    // Original, reconstruction, residual, then the 8 largest of the 12 terms.
    const QList<ImageSection>& sections = view.grid()->sections();
    QCOMPARE(sections.size(), 2);
    QCOMPARE(sections[0].tiles.size(), 3);
    QCOMPARE(sections[1].tiles.size(), ReconstructionView::kTopTerms);
    QCOMPARE(sections[0].tiles[0].image.size(), QSize(data.width, data.height));
    QVERIFY(view.residualBar()->highLabel().startsWith(QStringLiteral("+")));
    saveScreenshot(view, QStringLiteral("reconstruction_view_orl6.png"));

    // A new run on the same data keeps the sample.
    view.setResult(data, runMethod(data, "cf", 12, 60));
    QCOMPARE(view.currentSample(), 24);
}

void TestReconstructionView::errorAndTopTermsMatchTheFactors_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("nmf") << QStringLiteral("nmf");
    QTest::newRow("cf") << QStringLiteral("cf"); // basis = X W
}

void TestReconstructionView::errorAndTopTermsMatchTheFactors()
{
    QFETCH(QString, method);
    FACET_LOAD_ORL(data, 6);
    const RunResult result = runMethod(data, method.toStdString(), 10);
    const Factorization& f = result.factorization;
    ReconstructionView view;
    view.resize(900, 700);
    view.show();
    view.setResult(data, result);
    typeSample(view.sampleSpinBox(), 17);
    QCOMPARE(view.currentSample(), 16);

    const double error = sampleError(data, f, 16);
    QVERIFY(error > 0 && error < 1);
    QVERIFY2(
        view.errorText().contains(QString::number(error, 'f', 4)), qPrintable(view.errorText()));
    const std::vector<int> expected = termOrder(f, 16);
    const std::vector<int>& shown = view.reconstruction().topComponents;
    QCOMPARE(int(shown.size()), ReconstructionView::kTopTerms);
    QVERIFY(std::equal(shown.begin(), shown.end(), expected.begin()));
    // Each term's caption names its basis vector and coefficient.
    const ImageSection& terms = view.grid()->sections()[1];
    for (int t = 0; t < ReconstructionView::kTopTerms; ++t)
        QVERIFY(terms.tiles[t].caption.startsWith(
            QStringLiteral("#%1:").arg(shown[std::size_t(t)] + 1)));
    saveScreenshot(view, QStringLiteral("reconstruction_view_%1.png").arg(method));
}

void TestReconstructionView::mismatchedResultClears()
{
    FACET_LOAD_ORL(data, 6);
    RunResult result = runMethod(data, "nmf", 6, 40);
    ReconstructionView view;
    view.setResult(data, result);
    QCOMPARE(view.sampleCount(), 60);
    result.factorization.V.conservativeResize(30, 6); // from another dataset
    view.setResult(data, result);
    QCOMPARE(view.sampleCount(), 0);
    QCOMPARE(view.currentSample(), -1);
    QVERIFY(!view.sampleSpinBox()->isEnabled());
    QVERIFY(!view.nextButton()->isEnabled());
    QCOMPARE(view.grid()->sections().size(), 0);
}

void TestReconstructionView::missingPixelsAreMarkedAndFilled()
{
    // ORL with 30 % of each sample's pixels hidden, factorized with the mask: the observed tile
    // paints exactly the missing pixels orange, the filled-in tile takes the reconstruction
    // there, and the error on the hidden values is the one computed from the factors.
    FACET_LOAD_ORL(complete, 6);
    Dataset data = complete;
    MissingSettings missing;
    missing.kind = MissingKind::Pixels;
    missing.amount = 0.3;
    missing.seed = 4;
    QVERIFY(applyMissing(data, missing, 0));
    RunOptions options;
    options.method = "nmf";
    options.params.rank = 6;
    options.params.weights = std::make_shared<const Matrix>(data.weights);
    options.driver.maxIter = 40;
    options.driver.seed = 7;
    const RunResult result = runAndCluster(data.X, data.labels, options);
    const Factorization& f = result.factorization;
    ReconstructionView view;
    view.resize(900, 700);
    view.show();
    view.setResult(data, result);
    typeSample(view.sampleSpinBox(), 9);
    const int j = 8;
    const Vector approx = f.basis * f.V.row(j).transpose();

    const ImageSection& images = view.grid()->sections()[0];
    QStringList captions;
    for (const ImageTile& tile : images.tiles)
        captions << tile.caption;
    QCOMPARE(captions,
        QStringList({ "observed", "reconstruction", "filled in", "before the mask", "residual" }));
    const QImage& observed = images.tiles[0].image;
    const QImage filled = images.tiles[2].image.convertToFormat(QImage::Format_Grayscale8);
    const QImage reconstruction = images.tiles[1].image.convertToFormat(QImage::Format_Grayscale8);
    int marked = 0;
    double hiddenResidual = 0, hiddenTotal = 0, observedResidual = 0, observedTotal = 0;
    for (Eigen::Index i = 0; i < data.features(); ++i) {
        const int x = int(i % data.width), y = int(i / data.width);
        const bool isMissing = data.weights(i, j) == 0;
        const bool orange = observed.pixelColor(x, y) == ReconstructionView::missingColor();
        QVERIFY2(orange == isMissing, qPrintable(QStringLiteral("pixel %1").arg(i)));
        marked += orange ? 1 : 0;
        const double r = double(complete.X(i, j) - approx(i));
        (isMissing ? hiddenResidual : observedResidual) += r * r;
        (isMissing ? hiddenTotal : observedTotal)
            += double(complete.X(i, j)) * double(complete.X(i, j));
    }
    QCOMPARE(marked, int(std::lround(0.3 * double(data.features()))));
    // The filled-in image is the reconstruction at the missing pixels (up to the grey range: the
    // brightest missing pixel of the reconstruction compares with its own range's).
    Eigen::Index brightest = -1;
    for (Eigen::Index i = 0; i < data.features(); ++i)
        if (data.weights(i, j) == 0 && (brightest < 0 || approx(i) > approx(brightest)))
            brightest = i;
    QVERIFY(
        filled.pixelColor(int(brightest % data.width), int(brightest / data.width)).value() > 0);
    const QString text = view.errorText();
    QVERIFY2(text.contains(QString::number(std::sqrt(observedResidual / observedTotal), 'f', 4)),
        qPrintable(text));
    QVERIFY2(text.contains(QString::number(std::sqrt(hiddenResidual / hiddenTotal), 'f', 4)),
        qPrintable(text));
    QVERIFY(std::isfinite(view.hiddenError()) && view.hiddenError() > 0);
    // The residual is zero on missing pixels (their X holds a stand-in 0, not data).
    for (Eigen::Index i = 0; i < data.features(); ++i)
        if (data.weights(i, j) == 0)
            QCOMPARE(view.reconstruction().residual(i), Scalar(0));
    saveScreenshot(view, QStringLiteral("reconstruction_view_missing.png"));
}

#include "facet_test.h"
FACET_TEST_MAIN(TestReconstructionView)
#include "test_reconstruction_view.moc"
