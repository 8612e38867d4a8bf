// SPDX-License-Identifier: GPL-3.0-or-later
// Hoyer's bars and the 3-Gaussian set of the overcomplete demo: shapes, ground truth, seeds,
// and their builtin: names with noise on top.
#include "data/dataset_source.h"
#include "data/synthetic.h"

#include <QtTest>

#include <stdexcept>

using namespace facet;
using namespace Qt::StringLiterals;

class TestSyntheticSets : public QObject {
    Q_OBJECT

private slots:
    void barsAreUnionsOfBars()
    {
        const Dataset bars
            = makeBars({ .side = 16, .samples = 300, .probability = 0.125, .seed = 5 });
        QCOMPARE(int(bars.features()), 256);
        QCOMPARE(int(bars.samples()), 300);
        QCOMPARE(bars.height, 16);
        QVERIFY(!bars.hasLabels());
        QVERIFY(((bars.X.array() == 0) || (bars.X.array() == 1)).all());
        const Matrix parts = barsParts(16);
        QCOMPARE(int(parts.cols()), 32);
        QCOMPARE(double(parts.col(3).sum()), 16.0);
        QCOMPARE(double(parts(3 * 16 + 7, 3)), 1.0); // horizontal bar 3 covers row 3
        QCOMPARE(double(parts(7 * 16 + 3, 16 + 3)), 1.0); // vertical bar 3 covers column 3
        double barsSeen = 0;
        for (Eigen::Index j = 0; j < bars.X.cols(); ++j) {
            QVERIFY(bars.X.col(j).sum() > 0); // never empty
            // The bars present are the fully lit rows and columns; they explain every pixel.
            Vector rebuilt = Vector::Zero(256);
            for (Eigen::Index b = 0; b < 32; ++b)
                if ((bars.X.col(j).array() >= parts.col(b).array()).all()) {
                    rebuilt = rebuilt.cwiseMax(parts.col(b));
                    ++barsSeen;
                }
            QVERIFY(rebuilt == bars.X.col(j));
        }
        // About 32 / 8 = 4 bars per image (a little more: empty images are redrawn).
        const double mean = barsSeen / 300;
        QVERIFY2(mean > 3.4 && mean < 4.8, qPrintable(QString::number(mean)));

        QVERIFY(makeBars({ .seed = 5 }).X == makeBars({ .seed = 5 }).X);
        QVERIFY(makeBars({ .seed = 5 }).X != makeBars({ .seed = 6 }).X);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeBars({ .side = 1 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeBars({ .probability = 0 }));
    }

    void gaussiansOfTheOvercompleteDemo()
    {
        const Dataset g = makeGaussians();
        QCOMPARE(int(g.features()), 2);
        QCOMPARE(int(g.samples()), 150);
        QCOMPARE(g.classCount(), 3);
        QCOMPARE(g.classSizes(), (std::vector<int> { 50, 50, 50 }));
        QVERIFY(g.X.minCoeff() >= 0);
        const GaussiansOptions defaults;
        for (int c = 0; c < 3; ++c) {
            Eigen::Vector2d mean = Eigen::Vector2d::Zero();
            for (Eigen::Index j = 0; j < g.X.cols(); ++j)
                if (g.labels[std::size_t(j)] == c)
                    mean += g.X.col(j).cast<double>() / 50.0;
            const Gaussian2D& want = defaults.components[std::size_t(c)];
            // Four standard errors of the mean.
            QVERIFY(std::abs(mean.x() - want.x) < 4 * want.spread / std::sqrt(50.0));
            QVERIFY(std::abs(mean.y() - want.y) < 4 * want.spread / std::sqrt(50.0));
        }

        GaussiansOptions custom;
        custom.components = { { 1, 1, 0.5 }, { 9, 1, 0.1 } };
        custom.count = 7;
        custom.seed = 3;
        const Dataset two = makeGaussians(custom);
        QCOMPARE(two.classSizes(), (std::vector<int> { 4, 3 }));
        QVERIFY(two.X.minCoeff() >= 0);
        QVERIFY(makeGaussians(custom).X == two.X);
        custom.seed = 4;
        QVERIFY(makeGaussians(custom).X != two.X);

        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeGaussians({ .components = {} }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeGaussians({ .count = 2 }));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, makeGaussians({ .components = { { -100, -100, 0.1 } } }));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, makeGaussians({ .components = { { 1, 1, -1 } } }));
    }

    void builtinNamesAndNoise()
    {
        QCOMPARE(builtinDatasetNames(), (QStringList { u"swimmer"_s, u"bars"_s, u"gaussians"_s }));
        DatasetRequest request;
        request.spec = u"builtin:bars"_s;
        Result<Dataset> bars = loadDataset(request);
        QVERIFY(bars.ok());
        QCOMPARE(bars->height, 16);
        QCOMPARE(datasetKind(u"builtin:gaussians"_s), DatasetKind::Builtin);

        request.spec = u"builtin:gaussians"_s;
        const Result<Dataset> g = loadDataset(request);
        QVERIFY(g.ok());
        QCOMPARE(int(g->samples()), 150);
        // The default preparation treats values up to 255 as grey levels and divides them.
        QVERIFY(g->X.maxCoeff() < 1 && g->X.minCoeff() >= 0);

        request.preprocess.noise = *parseNoise(u"occlusion:1"_s);
        const Result<Dataset> refused = loadDataset(request);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().contains(u"needs images"_s), qPrintable(refused.error()));

        request.spec = u"builtin:swimmer"_s;
        request.preprocess.noise = *parseNoise(u"saltpepper:0.1"_s, 9);
        const Result<Dataset> noisy = loadDataset(request);
        QVERIFY(noisy.ok());
        QVERIFY(noisy->X != makeSwimmer().X);
        QVERIFY(noisy->notes.join(u' ').contains(u"saltpepper:0.1 (seed 9)"_s));

        request.preprocess = {};
        request.preprocess.height = request.preprocess.width = 16;
        const Result<Dataset> small = loadDataset(request);
        QVERIFY(small.ok());
        QCOMPARE(int(small->features()), 256);
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestSyntheticSets)
#include "test_synthetic_sets.moc"
