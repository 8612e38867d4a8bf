// SPDX-License-Identifier: GPL-3.0-or-later
// A factorization with its samples split over ranks (core/collectives.h), the ranks as threads of
// one process: the gathered factors equal one process's to 1e-10 relative for nmf (mu, hals),
// cnmf, cf, lcf, ccf, gnmf and lccf at uneven splits; the kNN graph built across the ranks is
// one process's, entry for entry; the traffic per iteration (nmf, cnmf, gnmf) is the formula of
// docs/cluster.md; the samples are split as documented.
#include "core/collectives.h"
#include "core/driver.h"
#include "core/random.h"
#include "core/skinny_product.h"
#include "graph/distributed_knn.h"
#include "graph/halo_exchange.h"
#include "methods/registry.h"

#include <QtTest>

#include <algorithm>
#include <barrier>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace facet;

namespace {

// N ranks as N threads: every collective meets at a barrier, rank 0 sums the parts in rank order
// (or the root copies), and every rank reads the result before the next collective begins.
class ThreadGroup {
public:
    explicit ThreadGroup(int size)
        : m_barrier(size)
        , m_parts(std::size_t(size))
        , m_mail(std::size_t(size))
        , m_outboxes(std::size_t(size))
    {
        for (int r = 0; r < size; ++r)
            m_ranks.push_back(std::make_unique<Rank>(*this, r));
    }
    Collectives& rank(int r) { return *m_ranks[std::size_t(r)]; }
    int size() const { return int(m_ranks.size()); }

private:
    class Rank final : public Collectives {
    public:
        Rank(ThreadGroup& group, int rank)
            : m_group(group)
            , m_rank(rank)
        {
        }
        int rank() const override { return m_rank; }
        int size() const override { return m_group.size(); }
        void sumReduce(Scalar* data, std::size_t count) override
        {
            m_traffic.reducedBytes += count * sizeof(Scalar);
            ++m_traffic.reductions;
            m_group.m_parts[std::size_t(m_rank)] = data;
            m_group.m_barrier.arrive_and_wait();
            if (m_rank == 0) {
                m_group.m_sum.assign(data, data + count);
                for (int r = 1; r < size(); ++r)
                    for (std::size_t i = 0; i < count; ++i)
                        m_group.m_sum[i] += m_group.m_parts[std::size_t(r)][i];
            }
            m_group.m_barrier.arrive_and_wait();
            std::copy_n(m_group.m_sum.data(), count, data); // count may be 0 with data null
            m_group.m_barrier.arrive_and_wait();
        }
        Matrix gatherRows(const Matrix& local, int root) override
        {
            m_group.m_blocks.resize(std::size_t(size()));
            m_group.m_barrier.arrive_and_wait();
            m_group.m_blocks[std::size_t(m_rank)] = &local;
            m_group.m_barrier.arrive_and_wait();
            Matrix out;
            if (m_rank == root) {
                Eigen::Index rows = 0;
                for (const Matrix* b : m_group.m_blocks)
                    rows += b->rows();
                out.resize(rows, local.cols());
                Eigen::Index first = 0;
                for (const Matrix* b : m_group.m_blocks) {
                    out.middleRows(first, b->rows()) = *b;
                    first += b->rows();
                }
            }
            m_group.m_barrier.arrive_and_wait();
            return out;
        }
        void broadcast(std::string& bytes, int root) override
        {
            if (m_rank == root)
                m_group.m_text = bytes;
            m_group.m_barrier.arrive_and_wait();
            bytes = m_group.m_text;
            m_group.m_barrier.arrive_and_wait();
        }
        std::string scatter(const std::vector<std::string>& parts, int root) override
        {
            if (m_rank == root)
                m_group.m_texts = &parts;
            m_group.m_barrier.arrive_and_wait();
            std::string mine = (*m_group.m_texts)[std::size_t(m_rank)];
            m_group.m_barrier.arrive_and_wait();
            return mine;
        }

        std::string sendReceive(const std::string& bytes, int to, int from) override
        {
            m_group.m_mail[std::size_t(m_rank)] = { to, &bytes };
            m_traffic.exchangedBytes += to == m_rank ? 0 : bytes.size();
            ++m_traffic.exchanges;
            m_group.m_barrier.arrive_and_wait();
            const auto& [target, text] = m_group.m_mail[std::size_t(from)];
            if (target != m_rank)
                qFatal("sendReceive: rank %d reads rank %d's message to %d", m_rank, from, target);
            std::string received = *text;
            m_group.m_barrier.arrive_and_wait();
            return received;
        }
        std::vector<std::string> allToAll(const std::vector<std::string>& parts) override
        {
            m_group.m_outboxes[std::size_t(m_rank)] = &parts;
            for (int q = 0; q < size(); ++q)
                m_traffic.exchangedBytes += q == m_rank ? 0 : parts[std::size_t(q)].size();
            ++m_traffic.exchanges;
            m_group.m_barrier.arrive_and_wait();
            std::vector<std::string> received;
            for (const std::vector<std::string>* outbox : m_group.m_outboxes)
                received.push_back((*outbox)[std::size_t(m_rank)]);
            m_group.m_barrier.arrive_and_wait();
            return received;
        }

    private:
        ThreadGroup& m_group;
        const int m_rank;
    };

    std::barrier<> m_barrier;
    std::vector<Scalar*> m_parts;
    std::vector<Scalar> m_sum;
    std::vector<const Matrix*> m_blocks;
    std::string m_text;
    const std::vector<std::string>* m_texts = nullptr;
    std::vector<std::pair<int, const std::string*>> m_mail; // per sender: (to, message)
    std::vector<const std::vector<std::string>*> m_outboxes; // per sender
    std::vector<std::unique_ptr<Rank>> m_ranks;
};

Matrix planted(Eigen::Index m, Eigen::Index n)
{
    Rng rng(9);
    Matrix X = rng.uniformMatrix(m, n);
    for (Eigen::Index j = 0; j < n; ++j)
        X.block((m / 3) * (j % 3), j, m / 3, 1).array() += 2.0;
    return X;
}

struct Split {
    Factorization one;
    Matrix V; // gathered
    Matrix W; // gathered (CF family)
    Matrix basis; // rank 0's
    Collectives::Traffic traffic; // rank 0's
};

Split runSplit(const Matrix& X, const std::string& method, const MethodOptions& o,
    const DriverOptions& driver, int ranks)
{
    Split s;
    s.one = solve(makeMethodFactory(method, X, o), driver);
    ThreadGroup group(ranks);
    std::vector<Factorization> parts(static_cast<std::size_t>(ranks));
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            Collectives& comm = group.rank(r);
            const SampleRange range = sampleRange(X.cols(), ranks, r);
            const Matrix local = X.middleCols(range.first, range.count);
            const DistributedScope scope({ &comm, X.cols(), range.first });
            parts[std::size_t(r)] = solve(makeMethodFactory(method, local, o), driver);
            Matrix V = comm.gatherRows(parts[std::size_t(r)].V, 0);
            Matrix W = parts[std::size_t(r)].W.size() > 0
                ? comm.gatherRows(parts[std::size_t(r)].W, 0)
                : Matrix();
            if (r == 0) {
                s.V = std::move(V);
                s.W = std::move(W);
                s.traffic = comm.traffic();
            }
        });
    for (std::thread& t : threads)
        t.join();
    s.basis = parts[0].basis;
    return s;
}

double relative(const Matrix& a, const Matrix& b)
{
    return (a - b).norm() / a.norm();
}

} // namespace

class TestCollectives : public QObject {
    Q_OBJECT
private slots:
    void sampleRanges()
    {
        // 77 over 4 (fewer than 64 each): 20, 19, 19, 19.
        QCOMPARE(sampleRange(77, 4, 0).first, Eigen::Index(0));
        QCOMPARE(sampleRange(77, 4, 0).count, Eigen::Index(20));
        QCOMPARE(sampleRange(77, 4, 1).first, Eigen::Index(20));
        QCOMPARE(sampleRange(77, 4, 3).first, Eigen::Index(58));
        QCOMPARE(sampleRange(77, 4, 3).count, Eigen::Index(19));
        // 301 over 4, in blocks of 64: 128, 64, 64, 45.
        QCOMPARE(sampleRange(301, 4, 0).count, Eigen::Index(128));
        QCOMPARE(sampleRange(301, 4, 1).first, Eigen::Index(128));
        QCOMPARE(sampleRange(301, 4, 3).first, Eigen::Index(256));
        QCOMPARE(sampleRange(301, 4, 3).count, Eigen::Index(45));
    }

    void splitEqualsOneProcess_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("algorithm"); // -1: the method's default
        QTest::addColumn<int>("ranks");
        QTest::newRow("nmf mu, 3") << "nmf" << int(Algorithm::Mu) << 3;
        // Every column of rank 0 is zero: the data checks decide from every rank's values
        // (requireUsableData), not rank 0 alone, which refused "all zeros" while the others
        // waited for it.
        QTest::newRow("nmf mu, 3, rank 0's columns zero") << "nmf+zeros" << int(Algorithm::Mu) << 3;
        QTest::newRow("nmf hals, 4 (blocks cut across ranks)")
            << "nmf" << int(Algorithm::Hals) << 4;
        QTest::newRow("cf, 2") << "cf" << -1 << 2;
        QTest::newRow("lcf, 3") << "lcf" << -1 << 3;
        // Every fourth sample labelled: Z's class rows sum their samples over the ranks.
        QTest::newRow("cnmf, 3 (class rows over the ranks)") << "cnmf" << -1 << 3;
        QTest::newRow("ccf, 4 (its nmf start distributed)") << "ccf" << -1 << 4;
        // Labels among the first 64 samples only: ranks 1-3 hold none of their own, and their
        // Z still starts with the shared class rows.
        QTest::newRow("cnmf, 4 (labels on rank 0 only)") << "cnmf+first" << -1 << 4;
        QTest::newRow("ccf, 4 (labels on rank 0 only)") << "ccf+first" << -1 << 4;
        // No labels at all: cnmf is nmf, its Z V's rows, drawn where one process draws them.
        QTest::newRow("cnmf, 3 (no labels)") << "cnmf+none" << -1 << 3;
        // The kNN graph across the ranks, its halo rows of V exchanged every iteration.
        QTest::newRow("gnmf, 3") << "gnmf" << -1 << 3;
        QTest::newRow("gnmf mu-ex, heat weights, 2") << "gnmf+heat" << int(Algorithm::MuEx) << 2;
        QTest::newRow("lccf, 4, cosine weights") << "lccf+cosine" << -1 << 4;
    }
    void splitEqualsOneProcess()
    {
        QFETCH(QString, method);
        QFETCH(int, algorithm);
        QFETCH(int, ranks);
        Matrix X = planted(24, 301); // HALS blocks of 64 rows straddle the ranks' parts
        if (method.endsWith(QStringLiteral("+zeros")))
            X.leftCols(sampleRange(X.cols(), ranks, 0).count).setZero();
        MethodOptions o;
        o.rank = 3;
        if (algorithm >= 0)
            o.algorithm = Algorithm(algorithm);
        const QString labels = method.section(u'+', 1);
        method = method.section(u'+', 0, 0);
        if (labels == u"heat")
            o.weight = GraphWeight::Heat;
        if (labels == u"cosine")
            o.weight = GraphWeight::Cosine;
        if ((method == u"cnmf" || method == u"ccf") && labels != u"none")
            for (Eigen::Index j = 0; j < X.cols(); ++j) // planted's classes
                o.knownLabels.push_back(
                    j % 4 == 0 && (labels != u"first" || j < 64) ? int(j % 3) : -1);
        DriverOptions driver;
        driver.minIter = driver.maxIter = 40;
        driver.seed = 4;
        const Split s = runSplit(X, method.toStdString(), o, driver, ranks);
        QCOMPARE(s.V.rows(), X.cols());
        QVERIFY2(
            relative(s.one.V, s.V) < 1e-10, qPrintable(QString::number(relative(s.one.V, s.V))));
        QVERIFY(relative(s.one.basis, s.basis) < 1e-10);
        if (s.one.W.size() > 0)
            QVERIFY(relative(s.one.W, s.W) < 1e-10);
        QCOMPARE(s.one.iterations, 40);
    }

    // The graph of buildDistributedKnnGraph() on each rank is one process's buildKnnGraph()
    // restricted to that rank's columns: the same edges, weights and degrees, bit for bit, with
    // duplicate samples (ties at distance 0, broken by index across the ranks) among them.
    void graphEqualsOneProcess_data()
    {
        QTest::addColumn<int>("weight");
        QTest::addColumn<int>("ranks");
        QTest::newRow("binary, 2") << int(GraphWeight::Binary) << 2;
        QTest::newRow("heat, 3") << int(GraphWeight::Heat) << 3;
        QTest::newRow("cosine, 4") << int(GraphWeight::Cosine) << 4;
        QTest::newRow("binary, 4") << int(GraphWeight::Binary) << 4;
    }
    void graphEqualsOneProcess()
    {
        QFETCH(int, weight);
        QFETCH(int, ranks);
        Matrix X = planted(24, 301);
        for (Eigen::Index j = 0; j < 12; ++j) // duplicates on different ranks
            X.col(290 - 7 * j) = X.col(3 + 11 * j);
        KnnOptions knn;
        knn.p = 5;
        knn.weight = GraphWeight(weight);
        knn.search = KnnSearch::Exact;
        const Graph one = buildKnnGraph(X, knn);
        ThreadGroup group(ranks);
        std::vector<Graph> parts(static_cast<std::size_t>(ranks));
        std::vector<std::thread> threads;
        for (int r = 0; r < ranks; ++r)
            threads.emplace_back([&, r] {
                const SampleRange range = sampleRange(X.cols(), ranks, r);
                parts[std::size_t(r)]
                    = buildDistributedKnnGraph(X.middleCols(range.first, range.count), knn,
                        { &group.rank(r), X.cols(), range.first });
            });
        for (std::thread& t : threads)
            t.join();
        Eigen::Index edges = 0;
        for (int r = 0; r < ranks; ++r) {
            const SampleRange range = sampleRange(X.cols(), ranks, r);
            const Graph& g = parts[std::size_t(r)];
            QVERIFY(g.halo);
            QCOMPARE(g.size(), range.count);
            QCOMPARE(g.S.rows(), g.halo->extendedRows());
            for (Eigen::Index a = 0; a < range.count; ++a) {
                const Eigen::Index i = range.first + a;
                QVERIFY(g.degree(a) == one.degree(i)); // bit for bit: one sum, one order
                Eigen::Index stored = 0;
                for (SparseMatrix::InnerIterator it(g.S, a); it; ++it, ++stored)
                    QVERIFY(it.value() == one.S.coeff(g.halo->globalIndex(it.row()), i));
                QCOMPARE(stored, Eigen::Index(one.S.col(i).nonZeros()));
                edges += stored;
            }
        }
        QCOMPARE(edges, Eigen::Index(one.S.nonZeros()));
    }

    // nmf mu reduces X V (m k), V^T V (k^2) and the objective's trace (1) per iteration, and
    // ||X||^2, the start's V^T V and the final normalization's products once.
    void trafficIsTheFormula()
    {
        const Eigen::Index m = 24, k = 3;
        const Matrix X = planted(m, 301);
        MethodOptions o;
        o.rank = int(k);
        o.algorithm = Algorithm::Mu;
        const auto traffic = [&](const char* method, int iterations) {
            DriverOptions driver;
            driver.minIter = driver.maxIter = iterations;
            return runSplit(X, method, o, driver, 2).traffic.reducedBytes;
        };
        const double perIteration = double(traffic("nmf", 30) - traffic("nmf", 20)) / 10;
        QCOMPARE(perIteration, double((m * k + k * k + 1) * sizeof(Scalar)));
        // cnmf: Z's c class rows once more on the fused route (the labelled classes' numerator),
        // twice on the plain one (numerator and denominator); docs/cluster.md's table.
        const Eigen::Index c = 3;
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            o.knownLabels.push_back(j % 5 == 0 ? int(j % c) : -1);
        const double cnmf = double(traffic("cnmf", 30) - traffic("cnmf", 20)) / 10;
        const Eigen::Index classRows = fusesPasses(m, X.cols(), k) ? 1 : 2;
        QCOMPARE(cnmf, double((m * k + k * k + 1 + classRows * c * k) * sizeof(Scalar)));

        // gnmf mu: nmf's reductions and the graph term's share of the objective (1); and one halo
        // exchange, rank 0 sending each other rank once every row of its samples that one has a
        // neighbour of (counted here on one process's graph).
        o.knownLabels.clear();
        const auto gnmfTraffic = [&](int iterations) {
            DriverOptions driver;
            driver.minIter = driver.maxIter = iterations;
            return runSplit(X, "gnmf", o, driver, 3).traffic;
        };
        const Collectives::Traffic t20 = gnmfTraffic(20), t30 = gnmfTraffic(30);
        QCOMPARE(double(t30.reducedBytes - t20.reducedBytes) / 10,
            double((m * k + k * k + 2) * sizeof(Scalar)));
        QCOMPARE(double(t30.exchanges - t20.exchanges) / 10, 1.0);
        KnnOptions knn;
        knn.p = o.p;
        const Graph one = buildKnnGraph(X, knn);
        const SampleRange zero = sampleRange(X.cols(), 3, 0);
        Eigen::Index sentRows = 0;
        for (int q = 1; q < 3; ++q) {
            const SampleRange other = sampleRange(X.cols(), 3, q);
            for (Eigen::Index i = zero.first; i < zero.first + zero.count; ++i) {
                bool needed = false;
                for (SparseMatrix::InnerIterator it(one.S, i); it && !needed; ++it)
                    needed = it.row() >= other.first && it.row() < other.first + other.count;
                sentRows += needed ? 1 : 0;
            }
        }
        QVERIFY(sentRows > 0);
        QCOMPARE(double(t30.exchangedBytes - t20.exchangedBytes) / 10,
            double(sentRows * k * Eigen::Index(sizeof(Scalar))));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestCollectives)
#include "test_collectives.moc"
