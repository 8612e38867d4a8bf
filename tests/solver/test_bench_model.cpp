// SPDX-License-Identifier: GPL-3.0-or-later
// The benchmark's arithmetic (issue 7): the per-method flop and byte counts on tiny shapes worked
// out by hand, the roofline limit, the generated low-rank sets, and the wire format between
// facet-cli and facet-bench-float. Nothing here measures time.
#include "bench/bench_runner.h"
#include "bench/bench_wire.h"
#include "bench/flops.h"
#include "bench/lowrank_data.h"
#include "bench/roofline.h"
#include "cluster/kmeans.h"

#include <Eigen/SVD>
#include <QtTest>

#include <sstream>
#include <stdexcept>
#include <utility>

using namespace facet;

class BenchModelTest : public QObject {
    Q_OBJECT

private slots:
    void nmfCountsByHand()
    {
        // m = 3, n = 5, k = 2: 4mnk 120, 6nk^2 120, 4mk^2 48, 5nk 50, 3mk 18, 2k^2 8.
        const IterationCost c = iterationCost({ "nmf", 3, 5, 2, false, 0, 8 });
        QCOMPARE(c.flops, 364.0);
        // X twice (2mn = 30 values), 16 n x k and 12 m x k passes: (30 + 160 + 72) * 8 bytes.
        QCOMPARE(c.bytes, (30.0 + 16 * 10 + 12 * 6) * 8);
    }

    void cfCountsByHand()
    {
        // Implicit: 8mnk 240 + 10nk^2 200 + 8nk 80 + 2k^2 8; X read 4 times.
        const IterationCost implicit = iterationCost({ "cf", 3, 5, 2, false, 0, 8 });
        QCOMPARE(implicit.flops, 528.0);
        QCOMPARE(implicit.bytes, (60.0 + 28 * 10 + 4 * 6) * 8);
        // Explicit K (n <= m in Gram::linear): 4 n^2 k replaces 8mnk; K read twice.
        const IterationCost formed = iterationCost({ "cf", 6, 5, 2, true, 0, 8 });
        QCOMPARE(formed.flops, 4.0 * 25 * 2 + 200 + 80 + 8);
        QCOMPARE(formed.bytes, (50.0 + 28 * 10) * 8);
    }

    void fusedStepsReadXLess()
    {
        // NMF's fused step reads X once (15 values instead of 30); CF's twice instead of four
        // times, and forms W^T K W from X W: 2mk^2 = 24 replaces 2nk^2 = 40.
        CostInputs nmf { "nmf", 3, 5, 2, false, 0, 8 };
        nmf.fusedPasses = true;
        QCOMPARE(iterationCost(nmf).flops, 364.0);
        QCOMPARE(iterationCost(nmf).bytes, (15.0 + 16 * 10 + 12 * 6) * 8);
        CostInputs cf { "cf", 3, 5, 2, false, 0, 8 };
        cf.fusedPasses = true;
        QCOMPARE(iterationCost(cf).flops, 528.0 + 24 - 40);
        QCOMPARE(iterationCost(cf).bytes, (30.0 + 28 * 10 + 4 * 6) * 8);
        // CNMF reads X once like NMF; the labelled samples' part of X V is added from the class
        // sums of X (c = 1 class: m c = 3 values read, 2mck = 12 flops), and its finish copies
        // between V and Z (2 n x k passes).
        CostInputs cnmf { "cnmf", 3, 5, 2, false, 0, 8 };
        cnmf.fusedPasses = true;
        cnmf.labelledClasses = 1;
        QCOMPARE(iterationCost(cnmf).flops, 364.0 + 12);
        QCOMPARE(iterationCost(cnmf).bytes, (15.0 + 3 + 18 * 10 + 12 * 6) * 8);
        CostInputs ccf { "ccf", 3, 5, 2, false, 0, 8 };
        ccf.fusedPasses = true;
        ccf.labelledClasses = 1;
        QCOMPARE(iterationCost(ccf).flops, 528.0 + 24 - 40 + 12);
        QCOMPARE(iterationCost(ccf).bytes, (30.0 + 3 + 30 * 10 + 4 * 6) * 8);
        // More classes than samples are refused.
        ccf.labelledClasses = 6;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iterationCost(ccf));
        // A formed K (5 x 5) is read once instead of twice; the flops stay those of the plain
        // rules (K W V^T V and W^T K W from K W), and CCF has no X V to correct.
        CostInputs formed { "cf", 6, 5, 2, true, 0, 8 };
        const IterationCost twoPasses = iterationCost(formed);
        formed.fusedPasses = true;
        QCOMPARE(iterationCost(formed).flops, twoPasses.flops);
        QCOMPARE(twoPasses.bytes - iterationCost(formed).bytes, 25.0 * 8);
        formed.method = "ccf";
        formed.labelledClasses = 2;
        const double ccfFormed = iterationCost(formed).flops;
        formed.labelledClasses = 0;
        QCOMPARE(iterationCost(formed).flops, ccfFormed);
        // The NMF family has no formed kernel.
        CostInputs nmfFormed { "nmf", 6, 5, 2, true, 0, 8 };
        nmfFormed.fusedPasses = true;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iterationCost(nmfFormed));
    }

    void graphAndVariantTerms()
    {
        const CostInputs cf { "cf", 100, 400, 10, false, 3000, 8 };
        CostInputs lccf = cf;
        lccf.method = "lccf";
        // The graph term: 5 nnz k + 7 n k flops, S read once with its indices (one gather serves
        // the objective and the next rule).
        QCOMPARE(iterationCost(lccf).flops - iterationCost(cf).flops, 5.0 * 3000 * 10 + 7.0 * 4000);
        QCOMPARE(
            iterationCost(lccf).bytes - iterationCost(cf).bytes, 1.0 * 3000 * 16 + 16.0 * 4000 * 8);
        // The same on the fused route.
        CostInputs cfFused = cf, lccfFused = lccf;
        cfFused.fusedPasses = lccfFused.fusedPasses = true;
        QCOMPARE(iterationCost(lccfFused).flops - iterationCost(cfFused).flops,
            5.0 * 3000 * 10 + 7.0 * 4000);
        QCOMPARE(iterationCost(lccfFused).bytes - iterationCost(cfFused).bytes,
            1.0 * 3000 * 16 + 16.0 * 4000 * 8);
        CostInputs gnmf = lccf, nmf = cf;
        gnmf.method = "gnmf";
        nmf.method = "nmf";
        QCOMPARE(
            iterationCost(gnmf).flops - iterationCost(nmf).flops, 5.0 * 3000 * 10 + 7.0 * 4000);
        CostInputs ccf = cf, lcf = cf;
        ccf.method = "ccf";
        lcf.method = "lcf";
        QCOMPARE(iterationCost(ccf).flops - iterationCost(cf).flops, 2.0 * 4000);
        QCOMPARE(iterationCost(lcf).flops - iterationCost(cf).flops, 13.0 * 4000);
        // Single precision halves every byte, not a flop.
        CostInputs single = cf;
        single.scalarBytes = 4;
        QCOMPARE(iterationCost(single).bytes * 2, iterationCost(cf).bytes);
        QCOMPARE(iterationCost(single).flops, iterationCost(cf).flops);
    }

    void kmeansRoundByHand()
    {
        // m = 3, n = 5, k = 2: 2mnk 60 + mn 15 + 2nk 20 + 10mk 60 flops; X once in double
        // (120 bytes), the labels twice (40), 20 m x k passes (960). In double whatever the
        // solver's Scalar.
        const IterationCost cost = iterationCost({ "kmeans", 3, 5, 2, false, 0, 4 });
        QCOMPARE(cost.flops, 155.0);
        QCOMPARE(cost.bytes, 1120.0);
        // Half the rounds fresh and 2 updates per round: the sums 7.5 + 2m u 12 flops instead of
        // 15; 16 m x k passes (768 bytes) instead of 20.
        CostInputs updated { "kmeans", 3, 5, 2, false, 0, 4 };
        updated.kmeansFreshShare = 0.5;
        updated.kmeansUpdatesPerRound = 2;
        QCOMPARE(iterationCost(updated).flops, 159.5);
        QCOMPARE(iterationCost(updated).bytes, 928.0);
        updated.kmeansUpdatesPerRound = 6; // more than n
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iterationCost(updated));
        updated.kmeansUpdatesPerRound = 0;
        updated.kmeansFreshShare = 1.5;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iterationCost(updated));
        QVERIFY(!hasFusedStep("kmeans"));
        CostInputs fused { "kmeans", 3, 5, 2 };
        fused.fusedPasses = true;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iterationCost(fused));
    }

    void pcaSolveByHand()
    {
        // m = 100, n = 400, k = 5 (p = 100, q = 400), Lanczos with a subspace of 20, 40 products,
        // 2 restarts: the lower triangle p(p+1)q 4,040,000, the mean mn 40,000, the centring
        // 4p^2 40,000, the products 40 (2p^2 + 4p 20) 1,120,000, the restarts 2 (2p 20^2)
        // 160,000, the scores 2mnk + nk 402,000.
        PcaCostInputs in { 100, 400, 5, 8, true, 20, 40, 2 };
        QCOMPARE(pcaCost(in).flops, 5802000.0);
        // X twice 640,000; the accumulator once per slab of 256 (two slabs) 320,000; 6 p x p
        // passes 480,000 and its double copy 80,000; each product reads its lower triangle
        // (5,050 doubles) 1,616,000.
        QCOMPARE(pcaCost(in).bytes, 3136000.0);
        // m > n: the same Gram matrix and eigenpairs; U from X [E 1/n] 2mn(k+1), the scores
        // G E 2p^2 k instead of X^T U.
        PcaCostInputs tall = in;
        std::swap(tall.m, tall.n);
        QCOMPARE(pcaCost(tall).flops - pcaCost(in).flops, 480000.0 + 100000.0 - 402000.0);
        // The full decomposition: 9p^3 and four p x p passes in double instead.
        PcaCostInputs dense = in;
        dense.lanczos = false;
        QCOMPARE(pcaCost(dense).flops - pcaCost(in).flops, 9e6 - 1120000.0 - 160000.0);
        QCOMPARE(pcaCost(dense).bytes - pcaCost(in).bytes, 320000.0 - 1616000.0);
        in.k = 101;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pcaCost(in));
    }

    void cfOglIterationByHand()
    {
        // m = 100, n = 400, k = 5, c = 3, 10 inner steps, implicit K (K M = 4mnk = 800,000),
        // nnz(Q) 2,000, nnz(S) 3,000, the eigensolve 1e6 flops and 2e5 bytes per step:
        //   inner steps 10 (2 KM + 8nk^2 + 2 nnz(S) k + 11nk) = 10 x 1,732,000
        //   after them 3 nnz(Q) k + 9 nnz(Q) + 4 nnz(S) + n + eigen + 3 nnz(Q) c = 1,078,400
        //   objective 7 nnz(Q) + 2nk^2 + 2nk + 2k^2 = 38,050
        CfOglCostInputs in;
        in.m = 100;
        in.n = 400;
        in.k = 5;
        in.c = 3;
        in.qNonZeros = 2000;
        in.sNonZeros = 3000;
        in.eigenFlops = 1e6;
        in.eigenBytes = 2e5;
        QCOMPARE(cfOglCost(in).flops, 17320000.0 + 1078400.0 + 38050.0);
        // Bytes: per inner step X four times 1,280,000, 32 n x k passes 512,000, S 48,000 and
        // the X M intermediates 16,000; then the pair distances' rows 256,000, 12 passes over
        // Q 384,000 and 4 over S 192,000, the eigensolve, 10 n x k passes 160,000.
        QCOMPARE(cfOglCost(in).bytes, 18560000.0 + 256000.0 + 384000.0 + 192000.0 + 2e5 + 160000.0);
        // Fused inner steps: X twice per step (640,000 bytes less each), W^T K W from X W,
        // 2mk^2 5,000 for 2nk^2 20,000 flops.
        in.fusedPasses = true;
        QCOMPARE(cfOglCost(in).flops, 17320000.0 - 150000.0 + 1078400.0 + 38050.0);
        QCOMPARE(cfOglCost(in).bytes,
            18560000.0 - 6400000.0 + 256000.0 + 384000.0 + 192000.0 + 2e5 + 160000.0);
        // A formed K (n x n, 1,280,000 bytes) read once per step instead of twice; KM = 2n^2 k.
        in.explicitKernel = true;
        const IterationCost formed = cfOglCost(in);
        in.fusedPasses = false;
        QCOMPARE(cfOglCost(in).bytes - formed.bytes, 10 * 1280000.0);
        QCOMPARE(cfOglCost(in).flops, formed.flops);
        in.c = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cfOglCost(in));
    }

    void benchTimesKMeansAndPca()
    {
        // The runner on a tiny generated set: k-means gets a modelled row with its Lloyd rounds
        // and its scores, pca one with its solve (p = 30: the full decomposition); a bad variant
        // its message.
        LowRankData data = makeLowRankData({ 200, 30, 3, 0.3, 0.1, 5 });
        BenchOptions options;
        options.methods = { "kmeans", "pca", "nmf+gaussian", "cf-ogl" };
        options.ranks = { 3 };
        options.iterations = 20;
        options.repeats = 2;
        const MachinePeaks peaks { 1, 64, 50, 50, 10, 1 << 20 };
        const std::vector<BenchRow> rows
            = benchDataset("gen:200x30", data.X, data.labels, options, peaks);
        QCOMPARE(rows.size(), std::size_t(4));
        const auto find = [&](const std::string& method) {
            return *std::find_if(
                rows.begin(), rows.end(), [&](const BenchRow& r) { return r.method == method; });
        };
        const BenchRow km = find("kmeans");
        QVERIFY2(km.error.empty(), km.error.c_str());
        QVERIFY(km.modelled);
        QVERIFY(km.iterations >= 1 && km.iterations <= 20);
        QVERIFY(km.msPerIteration > 0);
        // The same Lloyd run again: its fresh rounds and updates of the sums set the row's flops
        // (all fresh would count mn = 6,000 for each round).
        KMeansOptions same;
        same.clusters = 3;
        same.replicates = 1;
        same.maxIter = options.iterations;
        same.seed = options.seed;
        const KMeansResult lloyd = kmeans(data.X, same);
        QCOMPARE(km.iterations, lloyd.iterations);
        CostInputs kmCost { "kmeans", 30, 200, 3 };
        kmCost.kmeansFreshShare = double(lloyd.freshSumRounds) / lloyd.iterations;
        kmCost.kmeansUpdatesPerRound = double(lloyd.sumUpdates) / lloyd.iterations;
        QCOMPARE(km.flopsPerIteration, iterationCost(kmCost).flops);
        QVERIFY(km.ac && *km.ac > 0.9); // three well separated planted classes
        const BenchRow pca = find("pca");
        QVERIFY2(pca.error.empty(), pca.error.c_str());
        QVERIFY(pca.modelled);
        QCOMPARE(pca.iterations, 1);
        QVERIFY(pca.msPerIteration > 0);
        // By hand, m = 30, n = 200, k = 3, p = 30: 186,000 + 6,000 + 3,600 + 9p^3 243,000 + the
        // scores 36,600 flops.
        QCOMPARE(pca.flopsPerIteration, 475200.0);
        QVERIFY(pca.ac && *pca.ac > 0.9);
        QVERIFY(find("nmf+gaussian").error.find("CF family") != std::string::npos);
        // CF_OGL: modelled from the counts its steps kept (K implicit, n = 200 > m = 30): at
        // least its 10 inner steps' two K M products each, 10 x 2 x 4mnk.
        const BenchRow ogl = find("cf-ogl");
        QVERIFY2(ogl.error.empty(), ogl.error.c_str());
        QVERIFY(ogl.modelled);
        QVERIFY(ogl.graphNonZeros > 0);
        QVERIFY(ogl.flopsPerIteration > 10 * 2 * 4.0 * 30 * 200 * 3);
    }

    void ceilingsPerCase()
    {
        // With the run's ceilings every row is judged against them as given; with
        // ceilingsPerCase each row measures its own (no machine measures exactly the made-up
        // 50 GFLOP/s and 10 GB/s here) and its limit is computed from those.
        LowRankData data = makeLowRankData({ 120, 20, 3, 0.3, 0.1, 5 });
        BenchOptions options;
        options.methods = { "nmf", "kmeans" };
        options.ranks = { 3 };
        options.iterations = 4;
        options.repeats = 1;
        options.warmupIterations = 0;
        options.score = false;
        const MachinePeaks run { 1, 64, 50, 50, 10, 1 << 16 };
        for (const bool perCase : { false, true }) {
            options.ceilingsPerCase = perCase;
            Matrix X = data.X;
            const std::vector<BenchRow> rows = benchDataset("gen", X, data.labels, options, run);
            QCOMPARE(rows.size(), std::size_t(2));
            for (const BenchRow& row : rows) {
                QVERIFY2(row.error.empty(), row.error.c_str());
                QVERIFY(row.modelled);
                if (!perCase) {
                    QCOMPARE(row.gemmGflops, 50.0);
                    QCOMPARE(row.triadGBs, 10.0);
                } else {
                    QVERIFY(row.gemmGflops > 0 && row.gemmGflops != 50.0);
                    QVERIFY(row.triadGBs > 0 && row.triadGBs != 10.0);
                }
                const double limit = 1e3
                    * std::max(row.flopsPerIteration / (row.gemmGflops * 1e9),
                        row.bytesPerIteration / (row.triadGBs * 1e9));
                QVERIFY(std::abs(row.limitMs - limit) <= 1e-12 * limit);
                QCOMPARE(row.limitFraction, row.limitMs / row.msPerIteration);
            }
        }
        // The wire format carries them to facet-cli.
        BenchRow row;
        row.gemmGflops = 123.25;
        row.triadGBs = 45.5;
        const std::optional<BenchRow> back = parseBenchRow(formatBenchRow(row));
        QVERIFY(back);
        QCOMPARE(back->gemmGflops, 123.25);
        QCOMPARE(back->triadGBs, 45.5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, measureCaseCeilings(MachinePeaks {}));
    }

    void unmodelledMethodsAreRefused()
    {
        QVERIFY(!hasCostModel("cf-ogl"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iterationCost({ "cf-ogl", 3, 5, 2 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, iterationCost({ "nmf", 0, 5, 2 }));
    }

    void rooflineIsTheSlowerCeiling()
    {
        // 2 GFLOP at 100 GFLOP/s = 20 ms; 1 GB at 10 GB/s = 100 ms: memory bound.
        QCOMPARE(rooflineSeconds({ 2e9, 1e9 }, 100, 10), 0.1);
        // 20 GFLOP = 200 ms beats 1 GB = 100 ms: compute bound.
        QCOMPARE(rooflineSeconds({ 2e10, 1e9 }, 100, 10), 0.2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rooflineSeconds({ 1, 1 }, 0, 10));
    }

    void generatedSetIsSeededLowRankAndInRange()
    {
        const auto spec = parseLowRankName("gen:300x40");
        QVERIFY(spec);
        QCOMPARE(spec->samples, Eigen::Index(300));
        QCOMPARE(spec->features, Eigen::Index(40));
        QCOMPARE(lowRankName(*spec), std::string("gen:300x40"));
        QVERIFY(!parseLowRankName("gen:300"));
        QVERIFY(!parseLowRankName("orl"));
        QVERIFY(!parseLowRankName("gen:0x4"));

        const LowRankData a = makeLowRankData(*spec);
        const LowRankData b = makeLowRankData(*spec);
        QCOMPARE(a.X.rows(), Eigen::Index(40));
        QCOMPARE(a.X.cols(), Eigen::Index(300));
        QVERIFY(a.X == b.X);
        QVERIFY(a.labels == b.labels);
        // A part (one rank's columns) is the whole set's columns bit for bit, with every label;
        // 2,500 samples span three generation blocks, and the parts cross their boundaries.
        const auto big = parseLowRankName("gen:2500x30");
        const LowRankData all = makeLowRankData(*big);
        for (const auto& [first, count] : { std::pair { 0, 2500 }, std::pair { 1000, 100 },
                 std::pair { 1020, 1030 }, std::pair { 2499, 1 }, std::pair { 7, 0 } }) {
            const LowRankData part = makeLowRankData(*big, first, count);
            QCOMPARE(part.X.cols(), Eigen::Index(count));
            QVERIFY2(part.X == all.X.middleCols(first, count), qPrintable(QString::number(first)));
            QVERIFY(part.labels == all.labels);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeLowRankData(*big, 2400, 101));
        QVERIFY(a.X.minCoeff() >= 0);
        QVERIFY(a.X.maxCoeff() <= 1);
        for (const int label : a.labels)
            QVERIFY(label >= 0 && label < spec->rank);
        // Low rank plus small noise: the 11th singular value is far below the 10th.
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a.X.cast<double>());
        const auto s = svd.singularValues();
        QVERIFY2(s(10) < 0.2 * s(9), qPrintable(QString::number(s(10) / s(9))));
    }

    void datasetWireRoundTrip()
    {
        const Matrix X = makeLowRankData({ 70, 9, 3, 0.3, 0.1, 5 }).X;
        const std::vector<int> labels(70, 2);
        std::stringstream stream;
        writeBenchDataset(stream, "gen:70x9", X, labels);
        const BenchDataset back = readBenchDataset(stream);
        QCOMPARE(back.name, std::string("gen:70x9"));
        QVERIFY(back.X == X);
        QVERIFY(back.labels == labels);
        std::stringstream broken("FACETDS0");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readBenchDataset(broken));
    }

    void rowWireRoundTrip()
    {
        BenchRow row;
        row.dataset = "COIL-20";
        row.method = "lccf";
        row.precision = "float";
        row.rank = 20;
        row.m = 1024;
        row.n = 1440;
        row.msPerIteration = 1.25;
        row.modelled = true;
        row.flopsPerIteration = 3.5e8;
        row.ac = 0.6875;
        row.error = "a\ttab";
        const auto back = parseBenchRow(formatBenchRow(row));
        QVERIFY(back);
        QCOMPARE(back->dataset, row.dataset);
        QCOMPARE(back->rank, 20);
        QCOMPARE(back->n, Eigen::Index(1440));
        QCOMPARE(back->msPerIteration, 1.25);
        QCOMPARE(back->flopsPerIteration, 3.5e8);
        QVERIFY(back->modelled);
        QCOMPARE(*back->ac, 0.6875);
        QVERIFY(!back->nmi);
        QCOMPARE(back->error, std::string("a tab"));
        QVERIFY(!parseBenchRow("peaks\tthreads=2"));

        MachinePeaks peaks;
        peaks.threads = 2;
        peaks.gemmGflops = 98.5;
        const auto p = parseMachinePeaks(formatMachinePeaks(peaks));
        QVERIFY(p);
        QCOMPARE(p->threads, 2);
        QCOMPARE(p->gemmGflops, 98.5);
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(BenchModelTest)
#include "test_bench_model.moc"
