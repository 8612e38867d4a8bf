// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation protocols (METHODS.md section 6): cell seeding and pairing, sub-run selection,
// the semi-supervised subset, the summary table's numbers and the Wilcoxon signed-rank test
// against textbook values.
#include "core/random.h"
#include "experiment/run.h"
#include "experiment/summary.h"
#include "graph/adaptive_neighbors.h"
#include "methods/baselines.h"
#include "methods/kernels.h"
#include "test_printers.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace facet;

namespace {

// C classes of `per` samples in m dimensions: class k is a non-negative pattern (its own block
// of features lit) times a random gain, plus a little noise, so every method separates them.
Matrix planted(int m, int classes, int per, std::vector<int>& labels, std::uint64_t seed)
{
    Rng rng(seed);
    Matrix X = 0.05 * rng.uniformMatrix(m, classes * per);
    labels.clear();
    for (int k = 0; k < classes; ++k)
        for (int i = 0; i < per; ++i) {
            const Eigen::Index j = k * per + i;
            for (int f = 0; f < m; ++f)
                if (f % classes == k)
                    X(f, j) += 0.5 + 0.5 * rng.uniform();
            labels.push_back(k);
        }
    return X;
}

ExperimentOptions smallExperiment()
{
    ExperimentOptions o;
    o.methods = { "kmeans", "nmf", "cf" };
    o.clusterCounts = { 2, 3 };
    o.trials = 2;
    o.seed = 7;
    o.base.driver.maxIter = 40;
    o.base.cluster.replicates = 3;
    return o;
}

TrialResult made(const std::string& method, int c, int trial, double ac, double nmi)
{
    TrialResult t;
    t.cell = { method, c, trial, 0 };
    t.ac = ac;
    t.nmi = nmi;
    return t;
}

// P-value by enumerating all 2^n sign patterns of the given |differences| (ties averaged).
double bruteForceP(const std::vector<double>& d)
{
    std::vector<double> a;
    for (double x : d)
        if (x != 0)
            a.push_back(std::abs(x));
    const std::size_t n = a.size();
    std::vector<double> ranks(n);
    for (std::size_t i = 0; i < n; ++i) {
        double below = 0, same = 0;
        for (double y : a) {
            if (y < a[i])
                ++below;
            else if (y == a[i])
                ++same;
        }
        ranks[i] = below + (same + 1) / 2;
    }
    double observed = 0;
    for (std::size_t i = 0, k = 0; i < d.size(); ++i)
        if (d[i] != 0) {
            if (d[i] > 0)
                observed += ranks[k];
            ++k;
        }
    double low = 0, high = 0;
    for (std::uint64_t mask = 0; mask < (1ULL << n); ++mask) {
        double w = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (mask >> i & 1)
                w += ranks[i];
        low += w <= observed + 1e-9;
        high += w >= observed - 1e-9;
    }
    return std::min(1.0, 2 * std::min(low, high) / double(1ULL << n));
}

} // namespace

class TestExperiment : public QObject {
    Q_OBJECT
private slots:
    void planOrderAndSeeds()
    {
        ExperimentOptions o = smallExperiment();
        const std::vector<ExperimentCell> cells = planCells(o);
        QCOMPARE(int(cells.size()), 2 * 2 * 3);
        // c, then trial, then method: whole (c, trial) rows first.
        QCOMPARE(cells[0].method, std::string("kmeans"));
        QCOMPARE(cells[2].method, std::string("cf"));
        QCOMPARE(cells[3].trial, 1);
        QCOMPARE(cells[6].clusters, 3);
        QVERIFY(trialSeed(7, 2, 0) != trialSeed(7, 2, 1));
        QVERIFY(trialSeed(7, 2, 0) != trialSeed(7, 3, 0));
        QVERIFY(trialSeed(7, 2, 0) != trialSeed(8, 2, 0));
        const std::vector<int> drawn = drawClasses(15, 6, 99);
        QCOMPARE(drawn, drawClasses(15, 6, 99));
        QCOMPARE(int(std::set<int>(drawn.begin(), drawn.end()).size()), 6);
        QVERIFY(std::is_sorted(drawn.begin(), drawn.end()));
        QVERIFY(drawn.back() < 15);
    }
    void validationNamesTheRule()
    {
        ExperimentOptions o = smallExperiment();
        o.clusterCounts = { 2, 9 };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validateExperiment(o, 6));
        o = smallExperiment();
        o.evaluate = EvaluateOn::Unlabeled;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validateExperiment(o, 6));
        o = smallExperiment();
        o.parameter = SweepParameter::P;
        o.parameterValues = { 3, 4.5 };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validateExperiment(o, 6));
        validateExperiment(smallExperiment(), 6);
    }
    void validationAgainstTheClassSizes()
    {
        // Refused before the first cell: a sweep of such options wrote a table of failed cells
        // and advised --resume, which failed the same way.
        const auto refusal = [](const ExperimentOptions& o, std::vector<int> sizes) {
            try {
                validateExperimentSizes(o, std::move(sizes));
            } catch (const std::invalid_argument& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        ExperimentOptions o = smallExperiment();
        o.clusterCounts = { 2, 3 };
        QVERIFY(refusal(o, { 10, 3, 9, 2 }).empty()); // k = 3 <= 2 + 3 + 9 at c = 3
        o.rankOffset = 4; // k = 6 at c = 2 > 2 + 3, the two smallest classes
        QVERIFY2(refusal(o, { 10, 3, 9, 2 }).find("rank 6 at c = 2 exceeds the 5 samples")
                != std::string::npos,
            refusal(o, { 10, 3, 9, 2 }).c_str());
        o = smallExperiment();
        o.clusterCounts = { 2 };
        o.parameter = SweepParameter::Rank;
        o.parameterValues = { 2, 40 };
        QVERIFY(!refusal(o, { 10, 10, 10 }).empty());
        o.parameterValues = { 2, 20 };
        QVERIFY(refusal(o, { 10, 10, 10 }).empty());
        o = smallExperiment();
        o.labeledPerClass = 10;
        o.evaluate = EvaluateOn::Unlabeled;
        QVERIFY(refusal(o, { 10, 12, 15 }).find("labels every sample") != std::string::npos);
        QVERIFY(refusal(o, { 11, 12, 15 }).empty());
        o.evaluate = EvaluateOn::All; // scored on all samples: nothing to refuse
        QVERIFY(refusal(o, { 10, 12, 15 }).empty());
    }
    void cellIsReproducibleAndPaired()
    {
        std::vector<int> labels;
        const Matrix X = planted(24, 6, 8, labels, 3);
        const ExperimentOptions o = smallExperiment();
        const ExperimentData data { X, labels };
        const ExperimentCell cell { "nmf", 3, 1, 0 };
        const TrialResult a = *runCell(data, o, cell);
        const TrialResult b = *runCell(data, o, cell);
        QCOMPARE(a.ac, b.ac);
        QCOMPARE(a.nmi, b.nmi);
        QCOMPARE(a.objective, b.objective); // bit-identical, not approximately equal
        QCOMPARE(a.iterations, b.iterations);
        QCOMPARE(a.samples, 3 * 8);
        QCOMPARE(a.rank, 3);
        // Every method of one (c, trial) sees the same classes.
        const TrialResult other = *runCell(data, o, { "cf", 3, 1, 0 });
        QCOMPARE(other.classes, a.classes);
        QCOMPARE(other.seed, a.seed);
        QVERIFY(a.ac > 0.9); // planted classes are easy
    }
    void presetStopGivesNoResult()
    {
        std::vector<int> labels;
        const Matrix X = planted(24, 6, 8, labels, 3);
        std::stop_source stop;
        stop.request_stop();
        QVERIFY(!runCell({ X, labels }, smallExperiment(), { "nmf", 2, 0, 0 }, stop.get_token()));
    }
    // Cancel during the set-up (core/cancellation.h): the neighbour searches, a formed kernel and
    // PCA's covariance stop at their next block, and runAndCluster reports a Cancelled run without
    // factors, naming the stage, instead of throwing; the driver's methods keep their rule (a
    // preset stop gives Cancelled with the start's finite factors).
    void cancelDuringSetUp_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("kernel"); // KernelKind
        QTest::addColumn<bool>("approximate"); // KnnSearch::Approximate
        QTest::addColumn<QString>("stage"); // empty: the driver's cancel, with factors
        const QString search = QString::fromLatin1(kNeighborSearchStage);
        const QString kernel = QString::fromLatin1(kKernelStage);
        const QString pca = QString::fromLatin1(kPcaStage);
        const auto linear = int(KernelKind::Linear);
        QTest::newRow("lccf, exact kNN") << "lccf" << 12 << 600 << linear << false << search;
        QTest::newRow("lccf, HNSW") << "lccf" << 12 << 600 << linear << true << search;
        QTest::newRow("gnmf") << "gnmf" << 12 << 600 << linear << false << search;
        QTest::newRow("semignmf") << "semignmf" << 12 << 600 << linear << false << search;
        QTest::newRow("cf-ogl, adaptive neighbours")
            << "cf-ogl" << 12 << 600 << linear << false << search;
        QTest::newRow("cf, gaussian kernel")
            << "cf" << 12 << 600 << int(KernelKind::Gaussian) << false << kernel;
        QTest::newRow("lcf, polynomial kernel")
            << "lcf" << 12 << 600 << int(KernelKind::Polynomial) << false << kernel;
        QTest::newRow("pca, m <= n") << "pca" << 12 << 600 << linear << false << pca;
        QTest::newRow("pca, m > n") << "pca" << 600 << 120 << linear << false << pca;
        QTest::newRow("pca, split by depth") << "pca" << 12 << 8200 << linear << false << pca;
        QTest::newRow("nmf") << "nmf" << 12 << 600 << linear << false << QString();
        QTest::newRow("cf") << "cf" << 12 << 600 << linear << false << QString();
    }
    void cancelDuringSetUp()
    {
        QFETCH(QString, method);
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, kernel);
        QFETCH(bool, approximate);
        QFETCH(QString, stage);
        constexpr int kClasses = 4;
        std::vector<int> labels;
        const Matrix X = planted(m, kClasses, n / kClasses, labels, 11);
        RunOptions options;
        options.method = method.toStdString();
        options.params.rank = kClasses;
        options.params.kernel = KernelKind(kernel);
        options.params.knnSearch = approximate ? KnnSearch::Approximate : KnnSearch::Exact;
        options.labeledFraction = method == u"semignmf" ? 0.2 : 0;
        options.driver.maxIter = 5;
        std::stop_source stop;
        stop.request_stop();
        SolveControl control;
        control.stop = stop.get_token();
        const RunResult cancelled = runAndCluster(X, labels, options, control);
        const Factorization& f = cancelled.factorization;
        QCOMPARE(f.stopReason, StopReason::Cancelled);
        QCOMPARE(QString::fromStdString(cancelled.cancelledDuring), stage);
        if (stage.isEmpty()) {
            QCOMPARE(f.V.rows(), Eigen::Index(X.cols()));
            QVERIFY(f.V.allFinite() && f.basis.allFinite());
            QCOMPARE(int(cancelled.predicted.size()), int(X.cols()));
        } else {
            QCOMPARE(f.method, options.method);
            QCOMPARE(f.V.size(), Eigen::Index(0));
            QCOMPARE(f.basis.size(), Eigen::Index(0));
            QVERIFY(f.history.empty());
            QVERIFY(cancelled.predicted.empty());
            QVERIFY(!cancelled.ac && !cancelled.nmi);
        }
        // Without the cancel the same options run to the end: the stop, not the data, ended it.
        // The stage was announced as it began (SolveControl::onStage), and its end before the
        // iterations.
        std::vector<std::string> stages;
        SolveControl watch;
        watch.onStage = [&stages](std::string_view name) { stages.emplace_back(name); };
        const RunResult whole = runAndCluster(X, labels, options, watch);
        std::vector<std::string> expected;
        if (!stage.isEmpty())
            expected.push_back(stage.toStdString());
        if (!stage.isEmpty() && method != u"pca")
            expected.emplace_back();
        QVERIFY(stages == expected);
        QVERIFY(whole.cancelledDuring.empty());
        QVERIFY(whole.factorization.stopReason != StopReason::Cancelled);
        QCOMPARE(int(whole.predicted.size()), int(X.cols()));
    }
    // The neighbour searches and the formed kernels report their progress
    // (SolveControl::onStageProgress), and a stop requested from inside the step, at its first
    // report, ends it there: a cancel in mid-step, not only one set before it began. n = 1,200
    // gives the exact search five rows of tiles and HNSW four reports during its insertions.
    void cancelMidSearch_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("approximate");
        QTest::addColumn<int>("kernel"); // KernelKind
        QTest::addColumn<int>("perClass"); // samples per class, 4 classes
        QTest::addColumn<QString>("stage");
        const QString search = QString::fromLatin1(kNeighborSearchStage);
        const QString kernel = QString::fromLatin1(kKernelStage);
        const auto linear = int(KernelKind::Linear);
        QTest::newRow("lccf, exact kNN")
            << QStringLiteral("lccf") << false << linear << 300 << search;
        QTest::newRow("gnmf, HNSW") << QStringLiteral("gnmf") << true << linear << 300 << search;
        QTest::newRow("cf-ogl, adaptive neighbours")
            << QStringLiteral("cf-ogl") << false << linear << 300 << search;
        // 4,000 samples: 136 tiles of X^T X in three groups, then the entry transform.
        QTest::newRow("cf, gaussian kernel")
            << QStringLiteral("cf") << false << int(KernelKind::Gaussian) << 1000 << kernel;
        QTest::newRow("lcf, polynomial kernel")
            << QStringLiteral("lcf") << false << int(KernelKind::Polynomial) << 1000 << kernel;
        // 4,000 samples: the 12 x 12 covariance in 8 slabs.
        QTest::newRow("pca, covariance")
            << QStringLiteral("pca") << false << linear << 1000 << QString::fromLatin1(kPcaStage);
    }
    void cancelMidSearch()
    {
        QFETCH(QString, method);
        QFETCH(bool, approximate);
        QFETCH(int, kernel);
        QFETCH(int, perClass);
        QFETCH(QString, stage);
        std::vector<int> labels;
        const Matrix X = planted(12, 4, perClass, labels, 17);
        RunOptions options;
        options.method = method.toStdString();
        options.params.rank = 4;
        options.params.knnSearch = approximate ? KnnSearch::Approximate : KnnSearch::Exact;
        options.params.kernel = KernelKind(kernel);
        options.driver.maxIter = 3;

        // Uncancelled: fractions in (0, 1], rising, the last one 1.
        std::vector<double> fractions;
        SolveControl watch;
        watch.onStageProgress = [&fractions](double f) { fractions.push_back(f); };
        const RunResult whole = runAndCluster(X, labels, options, watch);
        QVERIFY(whole.cancelledDuring.empty());
        QVERIFY2(fractions.size() >= 4, qPrintable(QString::number(fractions.size())));
        QVERIFY(fractions.front() > 0 && fractions.front() < 0.5);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);

        std::stop_source stop;
        SolveControl control;
        control.stop = stop.get_token();
        int reports = 0;
        control.onStageProgress = [&](double) {
            ++reports;
            stop.request_stop();
        };
        const RunResult cancelled = runAndCluster(X, labels, options, control);
        QCOMPARE(reports, 1);
        QCOMPARE(cancelled.factorization.stopReason, StopReason::Cancelled);
        QCOMPARE(QString::fromStdString(cancelled.cancelledDuring), stage);
        QCOMPARE(cancelled.factorization.V.size(), Eigen::Index(0));
    }
    // SetupCache: re-runs with the same graph options reuse the kNN graph and the kernel operator
    // (no second search), with the same bits as a run without the cache; other graph options
    // build and keep a new graph.
    void setupCacheReusesTheGraph()
    {
        std::vector<int> labels;
        const Matrix X = planted(12, 4, 150, labels, 13);
        RunOptions o;
        o.method = "lccf";
        o.params.rank = 4;
        o.driver.maxIter = 20;
        SetupCache cache;
        int searches = 0;
        SolveControl watch;
        watch.onStage = [&searches](std::string_view stage) {
            searches += stage == std::string_view(kNeighborSearchStage);
        };
        const auto run = [&](const RunOptions& options) {
            return runAndCluster(X, labels, options, watch, &cache);
        };
        run(o);
        QCOMPARE(searches, 1);
        QVERIFY(cache.graph && cache.gram);
        const auto graph = cache.graph;
        const auto gram = cache.gram;
        o.params.lambda = 10; // a slider move
        const RunResult cached = run(o);
        QCOMPARE(searches, 1);
        QCOMPARE(cache.graph, graph);
        QCOMPARE(cache.gram, gram);
        const RunResult fresh = runAndCluster(X, labels, o);
        QVERIFY(cached.factorization.V == fresh.factorization.V);
        QVERIFY(cached.factorization.basis == fresh.factorization.basis);
        QVERIFY(cached.predicted == fresh.predicted);
        o.method = "gnmf"; // the same graph options: the same graph
        run(o);
        o.method = "nmf"; // no graph: the cache keeps its own
        run(o);
        QCOMPARE(searches, 1);
        QCOMPARE(cache.graph, graph);
        o.method = "lccf";
        o.params.p = 7;
        run(o);
        QCOMPARE(searches, 2);
        QCOMPARE(cache.p, 7);
        QCOMPARE(cache.graph->size(), X.cols());
        o.params.weight = GraphWeight::Heat;
        run(o);
        QCOMPARE(searches, 3);
        QVERIFY(cache.weight == GraphWeight::Heat);
        const RunResult heat = run(o);
        QCOMPARE(searches, 3);
        QVERIFY(heat.factorization.V == runAndCluster(X, labels, o).factorization.V);

        // A graph finished before Cancel ended the set-up (here as the kernel begins) is kept.
        SetupCache kept;
        std::stop_source stop;
        SolveControl cancelAtKernel;
        cancelAtKernel.stop = stop.get_token();
        cancelAtKernel.onStage = [&stop](std::string_view stage) {
            if (stage == std::string_view(kKernelStage))
                stop.request_stop();
        };
        o.params.kernel = KernelKind::Gaussian;
        const RunResult cancelled = runAndCluster(X, labels, o, cancelAtKernel, &kept);
        QCOMPARE(cancelled.cancelledDuring, std::string(kKernelStage));
        QVERIFY(kept.graph);
        QVERIFY(kept.weight == GraphWeight::Heat);
    }
    void subrunSelection()
    {
        std::vector<int> labels;
        const Matrix X = planted(24, 6, 8, labels, 5);
        ExperimentOptions o = smallExperiment();
        o.subruns = 4;
        o.base.driver.maxIter = 5; // short runs differ, so the choice matters
        const ExperimentCell cell { "nmf", 4, 0, 0 };
        const TrialResult byObjective = *runCell({ X, labels }, o, cell);
        QCOMPARE(int(byObjective.subruns.size()), 4);
        for (const SubrunScore& s : byObjective.subruns)
            QVERIFY(byObjective.objective <= s.objective);
        o.selection = SubrunSelection::Accuracy;
        const TrialResult byAccuracy = *runCell({ X, labels }, o, cell);
        for (const SubrunScore& s : byAccuracy.subruns)
            QVERIFY(byAccuracy.ac >= s.ac);
        // The sub-runs themselves do not depend on the rule.
        QCOMPARE(byAccuracy.subruns[2].objective, byObjective.subruns[2].objective);
    }
    void semiSupervisedSubset()
    {
        std::vector<int> labels;
        const Matrix X = planted(24, 6, 8, labels, 9);
        ExperimentOptions o = smallExperiment();
        o.methods = { "cnmf", "nmf" };
        o.labeledPerClass = 2;
        o.rankOffset = 1;
        o.evaluate = EvaluateOn::Unlabeled;
        const TrialResult t = *runCell({ X, labels }, o, { "cnmf", 3, 0, 0 });
        QCOMPARE(t.labeled, 3 * 2);
        QCOMPARE(t.evaluated, 3 * 8 - 3 * 2);
        QCOMPARE(t.rank, 4);
        const TrialResult n = *runCell({ X, labels }, o, { "nmf", 3, 0, 0 });
        QCOMPARE(n.evaluated, t.evaluated); // same subset for the unsupervised baseline
    }
    void replayRepeatsTheKeptSubrun_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("labeledPerClass");
        QTest::newRow("nmf") << QStringLiteral("nmf") << 0;
        QTest::newRow("cnmf with labels") << QStringLiteral("cnmf") << 2;
    }
    void replayRepeatsTheKeptSubrun()
    {
        QFETCH(QString, method);
        QFETCH(int, labeledPerClass);
        std::vector<int> labels;
        const Matrix X = planted(24, 6, 8, labels, 11);
        ExperimentOptions o = smallExperiment();
        o.methods = { method.toStdString() };
        o.subruns = 3;
        o.labeledPerClass = labeledPerClass;
        o.base.driver.maxIter = 7; // short sub-runs differ, so the kept one is a real choice
        const ExperimentCell cell { method.toStdString(), 4, 2, 0 };
        const TrialResult trial = *runCell({ X, labels }, o, cell);
        const CellReplay replay = replayCell({ X, labels }, o, cell, trial.subrun);
        QCOMPARE(replay.classes, trial.classes);
        QCOMPARE(int(replay.truth.size()), trial.samples);
        QCOMPARE(int(replay.X.cols()), trial.samples);
        QCOMPARE(int(std::count_if(replay.run.params.knownLabels.begin(),
                     replay.run.params.knownLabels.end(), [](int l) { return l >= 0; })),
            trial.labeled);
        const RunResult again = runAndCluster(replay.X, replay.truth, replay.run);
        QCOMPARE(again.factorization.history.back(), trial.objective); // bit for bit
        QCOMPARE(again.factorization.iterations, trial.iterations);
        QCOMPARE(*again.ac, trial.ac);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, replayCell({ X, labels }, o, cell, o.subruns));
    }
    void graphComponentsAreScored()
    {
        // CF_OGL's learned graph with exactly c components is a clustering of its own: the
        // cell scores it beside k-means on V, as the run itself does (RunResult::graphAc); the
        // other methods have none.
        std::vector<int> labels;
        const Matrix X = planted(24, 6, 8, labels, 5);
        ExperimentOptions o = smallExperiment();
        o.methods = { "cf-ogl", "nmf" };
        o.base.driver.maxIter = 5;
        const ExperimentCell cell { "cf-ogl", 3, 0, 0 };
        const TrialResult trial = *runCell({ X, labels }, o, cell);
        QVERIFY(trial.graphAc && trial.graphNmi);
        const CellReplay replay = replayCell({ X, labels }, o, cell, trial.subrun);
        const RunResult again = runAndCluster(replay.X, replay.truth, replay.run);
        QVERIFY(again.graphAc);
        QCOMPARE(*trial.graphAc, *again.graphAc);
        QCOMPARE(*trial.graphNmi, *again.graphNmi);
        QVERIFY(!runCell({ X, labels }, o, { "nmf", 3, 0, 0 })->graphAc);
    }
    void parameterSweepAppliesTheValue()
    {
        ExperimentOptions o = smallExperiment();
        o.parameter = SweepParameter::Lambda;
        o.parameterValues = { 0.5, 50 };
        QCOMPARE(int(planCells(o).size()), 2 * 2 * 2 * 3);
        QCOMPARE(*cellRunOptions(o, { "lcf", 2, 0, 1 }, 0).params.lambda, 50.0);
        o.parameter = SweepParameter::Rank;
        o.parameterValues = { 7 };
        QCOMPARE(cellRunOptions(o, { "nmf", 2, 0, 0 }, 0).params.rank, 7);
        // The trial's seeds do not depend on the grid value: a fixed set of trials.
        QCOMPARE(cellRunOptions(o, { "nmf", 2, 0, 0 }, 1).driver.seed,
            deriveSeed(trialSeed(o.seed, 2, 0), kFirstSubrunStream + 1));
    }
    void meanAndSampleStd()
    {
        const MeanStd s = meanStd({ 1, 2, 3, 4 });
        QCOMPARE(s.mean, 2.5);
        QVERIFY(std::abs(s.std - std::sqrt(5.0 / 3.0)) < 1e-15);
        QCOMPARE(meanStd({ 3 }).std, 0.0);
        QVERIFY(std::isnan(meanStd({}).mean));
    }
    // Factorization::randomStart is the start the method resolved, not the option as given:
    // CCF's default start is NMF's factors, CF_OGL has its own (suggestsKMeansStart reads it).
    void startIsRecorded_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("init"); // -1: the method's default
        QTest::addColumn<bool>("random");
        QTest::newRow("nmf default") << QStringLiteral("nmf") << -1 << true;
        QTest::newRow("nmf nndsvd") << QStringLiteral("nmf") << int(InitKind::Nndsvd) << false;
        QTest::newRow("cf default") << QStringLiteral("cf") << -1 << true;
        QTest::newRow("cf kmeans") << QStringLiteral("cf") << int(InitKind::KMeans) << false;
        QTest::newRow("lccf default") << QStringLiteral("lccf") << -1 << true;
        QTest::newRow("ccf default (nmf)") << QStringLiteral("ccf") << -1 << false;
        QTest::newRow("ccf random") << QStringLiteral("ccf") << int(InitKind::Random) << true;
        QTest::newRow("cf-ogl") << QStringLiteral("cf-ogl") << -1 << false;
    }
    void startIsRecorded()
    {
        QFETCH(QString, method);
        QFETCH(int, init);
        QFETCH(bool, random);
        std::vector<int> truth;
        const Matrix X = planted(24, 3, 10, truth, 5);
        RunOptions o;
        o.method = method.toStdString();
        o.params.rank = 3;
        if (init >= 0) {
            o.params.init = InitKind(init);
            o.params.initSet = true;
        }
        o.params.algorithm = Algorithm::Mu; // the papers' rules: still falling after 15
        o.driver.maxIter = 15; // past the 10-iteration window that decides "still decreasing"
        o.driver.minIter = 0;
        o.driver.tol = 0;
        o.cluster.replicates = 2;
        if (method == u"ccf")
            o.labeledFraction = 0.3;
        const RunResult r = runAndCluster(X, truth, o);
        QCOMPARE(r.factorization.randomStart, random);
        // After 15 iterations every run here is still falling: the CF family's random starts
        // get the advice, nothing else does.
        QVERIFY(r.factorization.stillDecreasing);
        QCOMPARE(suggestsKMeansStart(r.factorization, o), random && method != u"nmf");
    }
    void summaryOfHandMadeResults()
    {
        ExperimentOptions o;
        o.methods = { "nmf", "cf" };
        o.clusterCounts = { 2, 3 };
        o.trials = 2;
        const std::vector<TrialResult> trials { made("nmf", 2, 0, 0.9, 0.5),
            made("cf", 2, 0, 0.7, 0.6), made("nmf", 2, 1, 0.7, 0.5), made("cf", 2, 1, 0.9, 0.6),
            made("nmf", 3, 0, 0.6, 0.4), made("cf", 3, 0, 0.5, 0.2), made("nmf", 3, 1, 0.8, 0.4),
            made("cf", 3, 1, 0.7, 0.2) };
        const SweepSummary s = summarize(o, trials);
        QCOMPARE(int(s.series.size()), 2);
        QVERIFY(std::abs(s.cells[0][0].ac.mean - 0.8) < 1e-15);
        QVERIFY(std::abs(s.cells[0][0].ac.std - std::sqrt(0.02)) < 1e-15);
        QVERIFY(std::abs(s.cells[1][1].ac.mean - 0.6) < 1e-15);
        QCOMPARE(s.best(Metric::Accuracy, 0), (std::vector<int> { 0, 1 })); // an exact tie
        QCOMPARE(s.best(Metric::Accuracy, 1), (std::vector<int> { 0 }));
        QCOMPARE(s.best(Metric::Nmi, 0), (std::vector<int> { 1 }));
        QVERIFY(std::abs(s.average[0].ac.mean - 0.75) < 1e-15); // (0.8 + 0.7) / 2
        QVERIFY(std::abs(s.average[1].ac.mean - 0.7) < 1e-15); // (0.8 + 0.6) / 2
        QCOMPARE(s.best(Metric::Accuracy, -1), (std::vector<int> { 0 }));

        const SeriesComparison cmp
            = compareSeries(o, trials, { "nmf", 0 }, { "cf", 0 }, Metric::Accuracy);
        QCOMPARE(int(cmp.perClusters.size()), 2);
        QCOMPARE(cmp.overall.test.n, 4);
        QVERIFY(std::abs(cmp.overall.meanDifference - 0.05) < 1e-12);
    }
    void wilcoxonTextbookExact()
    {
        // Fisher's Zea mays differences (cross- minus self-fertilized heights), the example of
        // SciPy's wilcoxon documentation: W- = 24, two-sided exact p = 1352 / 32768.
        const std::vector<double> d { 6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75 };
        const WilcoxonResult r = wilcoxonSignedRank(d, std::vector<double>(d.size(), 0.0));
        QVERIFY(r.exact);
        QCOMPARE(r.n, 15);
        QCOMPARE(r.wMinus, 24.0);
        QCOMPARE(r.wPlus, 96.0);
        QCOMPARE(r.pValue, 0.041259765625);
    }
    void wilcoxonHollanderWolfe()
    {
        // Hollander & Wolfe's depression scale (R's wilcox.test example): V = 40, one-sided
        // p = 10 / 512, so two-sided 0.0390625.
        const std::vector<double> x { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
        const std::vector<double> y { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29 };
        const WilcoxonResult r = wilcoxonSignedRank(x, y);
        QCOMPARE(r.wPlus, 40.0);
        QCOMPARE(r.pValue, 0.0390625);
    }
    void wilcoxonExactWithTiesAndZeros()
    {
        // Ties and zero differences: the exact p equals the enumeration of every sign pattern.
        const std::vector<double> d { 2, -2, 1, 0, 3, 3, -1, 2, 4, 0, 5, 3 };
        const WilcoxonResult r = wilcoxonSignedRank(d, std::vector<double>(d.size(), 0.0));
        QCOMPARE(r.zeros, 2);
        QCOMPARE(r.n, 10);
        QVERIFY(std::abs(r.pValue - bruteForceP(d)) < 1e-15);
        const WilcoxonResult none
            = wilcoxonSignedRank({ 0.5, 0.25 }, std::vector<double> { 0.5, 0.25 });
        QCOMPARE(none.n, 0);
        QCOMPARE(none.pValue, 1.0);
    }
    void wilcoxonNormalApproximation()
    {
        // n = 30: d = 1..30 with 3, 7, 12, 18, 25 negative. By hand: W+ = 400, mean 232.5,
        // variance 30*31*61/24 = 2363.75, z = (167.5 - 0.5) / sqrt(2363.75) = 3.434913.
        std::vector<double> d;
        for (int i = 1; i <= 30; ++i)
            d.push_back((i == 3 || i == 7 || i == 12 || i == 18 || i == 25) ? -i : i);
        const std::vector<double> zero(d.size(), 0.0);
        const WilcoxonResult r = wilcoxonSignedRank(d, zero);
        QVERIFY(!r.exact);
        QCOMPARE(r.wPlus, 400.0);
        QVERIFY(std::abs(r.z - 3.4349126722673153) < 1e-12);
        QVERIFY(std::abs(r.pValue - 0.0005927448088530607) < 1e-15);
        // With ties (groups of 4, 6, 5, 5, 4, 3, 3) and two zeros: tie-corrected variance
        // 2363.75 - 870 / 48; by hand W+ = 368, z = 2.784319, p = 0.005364024.
        const std::vector<double> tied { 0.5, -0.5, 0.5, 0.5, 1, -1, 1, 1, 1, -1, 1.5, 1.5, -1.5,
            1.5, 1.5, -2, 2, 2, 2, 2, 3, -3, 3, 3, 4, 4, -4, 5, 5, 5, 0, 0 };
        const WilcoxonResult t = wilcoxonSignedRank(tied, std::vector<double>(tied.size(), 0.0));
        QCOMPARE(t.n, 30);
        QCOMPARE(t.zeros, 2);
        QCOMPARE(t.wPlus, 368.0);
        QVERIFY(std::abs(t.z - 2.7843190558700637) < 1e-12);
        QVERIFY(std::abs(t.pValue - 0.00536402406805535) < 1e-14);
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestExperiment)
#include "test_experiment.moc"
