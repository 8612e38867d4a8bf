// SPDX-License-Identifier: GPL-3.0-or-later
// The fused passes over X (core/skinny_product.h: transposedUpdateProduct; Nmf::fusedStep,
// Cf::fusedStep): the kernel against its definition, and each method's fused route against its
// plain two-pass route from the same start, on data past the caches (so that the kernels'
// prefetches run too).
#include "bench/bench_runner.h"
#include "core/driver.h"
#include "core/openmp.h"
#include "core/random.h"
#include "core/skinny_product.h"
#include "method_checks.h"
#include "methods/registry.h"

#include <QtTest>

#include <optional>

using namespace facet;
using namespace facet::testing;
using Index = Eigen::Index;

namespace {

// Non-negative data of 17 MB in double: past kPrefetchBytes, so the fused steps run.
Matrix largeData()
{
    Rng rng(21);
    const Matrix W = rng.uniformMatrix(1030, 6);
    const Matrix H = rng.uniformMatrix(6, 2101);
    return W * H + Scalar(0.1) * rng.uniformMatrix(1030, 2101);
}

// The plain route while in scope (the methods check the switch at every step).
struct PlainRoute {
    PlainRoute() { setFusedPassesEnabled(false); }
    ~PlainRoute() { setFusedPassesEnabled(true); }
    PlainRoute(const PlainRoute&) = delete;
    PlainRoute& operator=(const PlainRoute&) = delete;
};

} // namespace

class FusedStepsTest : public QObject {
    Q_OBJECT

private slots:
    void kernelMatchesDefinition_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("threads");
        QTest::newRow("blocks and tails, two threads") << 77 << 1003 << 10 << 2;
        QTest::newRow("one thread") << 64 << 515 << 7 << 1;
        QTest::newRow("rank 1") << 130 << 260 << 1 << 2;
        QTest::newRow("tall and narrow") << 2000 << 45 << 13 << 2;
        // Enough work for two threads (the rows above stay on one); k = 25 and 41: P's columns in
        // several register strips, the last one partial.
        QTest::newRow("two threads at work, k = 25") << 301 << 1500 << 25 << 2;
        QTest::newRow("two threads at work, k = 41") << 150 << 997 << 41 << 2;
        // A block of 40 columns past 1 MiB: the fused pass keeps rankUpdate's row chunks.
        QTest::newRow("long columns") << 4000 << 130 << 10 << 2;
        // Columns long enough for the dot tiles to run in chunks of rows (a formed kernel of
        // n = 9001), with a row tail, tiles of 5 columns and single ones, groups of 5, 5 and 3.
        QTest::newRow("dots in chunks of rows") << 9001 << 97 << 13 << 2;
        QTest::newRow("dots in chunks of rows, one thread") << 8003 << 45 << 4 << 1;
        // X under 1 MiB with work for two threads: multiplySkinny's whole-X stripUpdate route
        // splits the columns as the fused pass does.
        QTest::newRow("short X, two threads") << 2048 << 60 << 25 << 2;
    }
    void kernelMatchesDefinition()
    {
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(int, threads);
        const int saved = omp::maxThreads();
        omp::setThreads(threads);
        Rng rng(3);
        const Matrix X = rng.uniformMatrix(m, n);
        const Matrix U = rng.uniformMatrix(m, k);
        const Matrix V0 = rng.uniformMatrix(n, k);
        Matrix V = V0, Q, P;
        std::vector<int> visits(std::size_t(n), 0);
        // A row-local rule that needs Q's rows: V <- V + 2 Q.
        const auto update = [&](Index first, Index count) {
            V.middleRows(first, count) += Scalar(2) * Q.middleRows(first, count);
            for (Index i = first; i < first + count; ++i)
                ++visits[std::size_t(i)];
        };
        transposedUpdateProduct(X, U, Q, V, update, P);
        // The fused pass adds each entry's terms in the order the plain product does: the same
        // bits as X V with the V it wrote, on the same threads (a seed reproduces its factors
        // whichever route the size takes).
        Matrix plain, plainQ;
        multiplySkinny(X, V, plain);
        multiplyTransposedSkinny(X, U, plainQ);
        omp::setThreads(saved);
        QVERIFY2(P == plain, "P: the same bits as multiplySkinny(X, V)");
        // Q's dot tiles, whether they run down whole columns or in chunks of rows: the same bits
        // as the plain X^T U.
        QVERIFY2(Q == plainQ, "Q: the same bits as multiplyTransposedSkinny(X, U)");
        const Matrix Q0 = X.transpose() * U;
        const Matrix Vnew = V0 + Scalar(2) * Q0;
        const Matrix P0 = X * Vnew;
        const double tolerance = 64 * std::numeric_limits<Scalar>::epsilon();
        QVERIFY2(relativeDifference(Q, Q0) <= tolerance, "Q = X^T U");
        QVERIFY2(relativeDifference(V, Vnew) <= tolerance, "V's rows updated from Q's");
        QVERIFY2(relativeDifference(P, P0) <= tolerance, "P = X V with the new V");
        // Every row handed to the rule exactly once.
        QVERIFY(std::all_of(visits.begin(), visits.end(), [](int v) { return v == 1; }));
    }

    void refusesMismatchedShapes()
    {
        Rng rng(4);
        const Matrix X = rng.uniformMatrix(20, 30);
        const Matrix U = rng.uniformMatrix(20, 3);
        Matrix V = rng.uniformMatrix(29, 3), Q, P;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
            transposedUpdateProduct(
                X, U, Q, V, [](Index, Index) {}, P));
    }

    void methodsFuse_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<bool>("small");
        QTest::addColumn<int>("labelledInTen"); // cnmf, ccf, semignmf: labelled samples per ten
        for (const char* method :
            { "nmf", "gnmf", "semignmf", "cf", "lccf", "lcf", "cnmf", "ccf", "nmf+ncw", "cf+ncw",
                "lccf+ncw", "cf+gaussian", "lccf+gaussian", "lcf+gaussian", "ccf+polynomial" })
            QTest::newRow(method) << QString::fromLatin1(method) << false << 1;
        // CF_OGL's inner steps are LCCF's fused passes (the rows above, at full size) with its
        // learned graph: 300 samples test that hook and the restore, without the eigensolves of a
        // 2101-sample graph (11 of this test's 20 s, four times that under ASan).
        for (const char* method : { "cf-ogl", "cf-ogl+gaussian" })
            QTest::newRow(method) << QString::fromLatin1(method) << true << 1;
        // The semi-supervised sweep's fraction (METHODS.md: e.g. 30 %), in runs of 3 neighbours:
        // whole runs of cleared rows inside one column block of the pass.
        for (const char* method : { "cnmf", "ccf" })
            QTest::addRow("%s, 3 in 10 labelled", method)
                << QString::fromLatin1(method) << false << 3;
        // The fused route also runs on cache-resident sets (core/skinny_product.h: fusesPasses):
        // 1030 x 300, where the CF family forms the linear K (n <= m, 300 x 300).
        for (const char* method : { "nmf", "gnmf", "cf", "lccf", "lcf", "cnmf", "ccf" })
            QTest::addRow("%s, 300 samples", method) << QString::fromLatin1(method) << true << 1;
    }
    void methodsFuse()
    {
        // Same start, same rules: the fused route (one or two passes over X per iteration) and
        // the plain one agree up to the rounding of the products' summation order. LCF brings its
        // own rules to the fused step (Cf's hooks); it once ran CF's instead, through Cf::step.
        // CNMF and CCF leave their labelled rows out of the pass's X V, finish their labelled
        // classes after it (ConstraintMatrix::finishFusedRule) and add those rows' part of X V
        // from the class sums of X: a tenth (or three tenths) of the samples is labelled, in
        // classes of unequal sizes, scattered over X's column blocks.
        // With a kernel (+gaussian, +polynomial) K is formed (2101 x 2101, 35 MB) and the CF
        // family reads it once per iteration instead of twice; NCW runs the same rules on the
        // weighted data. CF_OGL's inner LCCF steps take the same fused passes (methods/
        // cf_fused.h) with its learned graph; its objective may rise where beta changes.
        QFETCH(QString, entry);
        QFETCH(bool, small);
        QFETCH(int, labelledInTen);
        const BenchMethod variant = parseBenchMethod(entry.toStdString());
        const QString method = QString::fromStdString(variant.name);
        static const Matrix large = largeData();
        const Matrix X = small ? Matrix(large.leftCols(300)) : large;
        Matrix Xn = X; // the CF family on unit-norm samples, as facet-cli runs it
        Xn.colwise().normalize();
        const bool nmfFamily = method.endsWith(u"nmf");
        const Matrix& data = nmfFamily ? X : Xn;
        MethodOptions o;
        o.rank = 6;
        o.kernel = variant.kernel;
        o.ncw = variant.ncw;
        o.knnSearch = KnnSearch::Exact;
        if (method == u"cnmf" || method == u"ccf" || method == u"semignmf") {
            o.knownLabels.assign(std::size_t(data.cols()), -1);
            for (Index j = 0; j < data.cols(); ++j)
                if (j % 10 < labelledInTen) // classes 0, 1 twice as big
                    o.knownLabels[std::size_t(j)] = int((j / 10) % 7 % 5);
        }
        DriverOptions d;
        // CF_OGL: 3 outer iterations, each 10 inner steps and an eigensolve. Five steps are
        // enough: a rule that differs between the routes differs from the first step on, and the
        // graph and kernel set-up, not the steps, is most of a row's time.
        const int iterations = method == u"cf-ogl" ? 3 : 5;
        d.maxIter = iterations;
        d.minIter = iterations;
        d.tol = 0;
        d.seed = 5;
        QVERIFY(fusesPasses(data, o.rank));
        MethodContext context; // one graph and kernel for both routes
        const MethodFactory make = makeMethodFactory(method.toStdString(), data, o, context);
        const Factorization fused = solve(make, d);
        const Factorization plain = [&] {
            const PlainRoute route;
            return solve(make, d);
        }();
        QVERIFY(fusesPasses(data, o.rank));
        QCOMPARE(fused.iterations, iterations);
        // The run log says which route ran.
        const auto fusedNote = [](const Factorization& f) {
            return std::any_of(f.log.begin(), f.log.end(),
                [](const std::string& line) { return line.starts_with("fused passes:"); });
        };
        QVERIFY(fusedNote(fused));
        QVERIFY(!fusedNote(plain));
        QCOMPARE(plain.iterations, iterations);
        const double tolerance = 1e-10;
        QVERIFY2(relativeDifference(fused.V, plain.V) <= tolerance,
            qPrintable(QString::number(relativeDifference(fused.V, plain.V))));
        QVERIFY2(relativeDifference(fused.basis, plain.basis) <= tolerance,
            qPrintable(QString::number(relativeDifference(fused.basis, plain.basis))));
        for (std::size_t t = 0; t < plain.history.size(); ++t)
            QVERIFY2(std::abs(fused.history[t] - plain.history[t])
                    <= tolerance * std::abs(plain.history[t]),
                qPrintable(QString::number(t)));
        // The rules still only descend (CF_OGL: within each segment of a fixed beta).
        QCOMPARE(fused.segmentStarts, plain.segmentStarts);
        for (std::size_t t = 1; t < fused.history.size(); ++t)
            if (std::find(fused.segmentStarts.begin(), fused.segmentStarts.end(), int(t))
                == fused.segmentStarts.end())
                QVERIFY2(fused.history[t] <= fused.history[t - 1] * (1 + 1e-9),
                    qPrintable(QString::number(t)));
        // X V and X W are kept between fused steps: a restored state, after another run in the
        // same object, must continue like the run it came from (the restore clears them).
        if (method == u"cf-ogl") {
            const std::unique_ptr<Method> m = make();
            Rng first(5), second(9);
            m->initialize(first);
            m->step();
            const std::vector<Matrix> saved = m->state();
            m->step();
            const Matrix next = m->state().at(1);
            m->initialize(second);
            m->step();
            m->restore(saved);
            m->step();
            QVERIFY2(relativeDifference(m->state().at(1), next) <= 1e-9,
                qPrintable(QString::number(relativeDifference(m->state().at(1), next))));
        }
        // A labelled class's samples share one row of V.
        for (std::size_t i = 0; i < o.knownLabels.size(); ++i)
            for (std::size_t j = i + 1; j < o.knownLabels.size() && method != u"semignmf"; ++j)
                if (o.knownLabels[i] >= 0 && o.knownLabels[i] == o.knownLabels[j])
                    QCOMPARE(fused.V.row(Index(i)), fused.V.row(Index(j)));
    }

    void formedKernelVRuleInBlocks_data()
    {
        QTest::addColumn<QString>("method");
        for (const char* method : { "cf", "lccf", "lcf", "ccf", "cf+gaussian" })
            QTest::newRow(method) << QString::fromLatin1(method);
    }
    void formedKernelVRuleInBlocks()
    {
        // 400 samples of 1030 features: the CF family forms K (400 x 400), and at rank 40 its
        // fused step's V rule runs in blocks of 64 rows over two threads (methods/cf_fused.cpp).
        // It must agree with the plain route as methodsFuse's rows do, and give the same bits
        // again on the same threads.
        QFETCH(QString, method);
        const BenchMethod variant = parseBenchMethod(method.toStdString());
        static const Matrix large = largeData();
        Matrix data = large.leftCols(400);
        data.colwise().normalize();
        MethodOptions o;
        o.rank = 40;
        o.kernel = variant.kernel;
        o.knnSearch = KnnSearch::Exact;
        if (variant.name == "ccf") {
            o.knownLabels.assign(std::size_t(data.cols()), -1);
            for (Index j = 0; j < data.cols(); j += 5)
                o.knownLabels[std::size_t(j)] = int((j / 5) % 7);
        }
        DriverOptions d;
        d.maxIter = 8;
        d.minIter = 8;
        d.tol = 0;
        d.seed = 3;
        QVERIFY(fusesPasses(data, o.rank));
        MethodContext context;
        const MethodFactory make = makeMethodFactory(variant.name, data, o, context);
        const int saved = omp::maxThreads();
        omp::setThreads(2);
        const Factorization fused = solve(make, d);
        const Factorization again = solve(make, d);
        const Factorization plain = [&] {
            const PlainRoute route;
            return solve(make, d);
        }();
        omp::setThreads(saved);
        QVERIFY(fused.V == again.V);
        QVERIFY(fused.history == again.history);
        const double tolerance = 1e-10;
        QVERIFY2(relativeDifference(fused.V, plain.V) <= tolerance,
            qPrintable(QString::number(relativeDifference(fused.V, plain.V))));
        QVERIFY2(relativeDifference(fused.basis, plain.basis) <= tolerance,
            qPrintable(QString::number(relativeDifference(fused.basis, plain.basis))));
    }

    void graphTermsCachedOnlyForTheirV_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("fused");
        for (const char* method : { "gnmf", "semignmf", "lccf" }) {
            QTest::addRow("%s, fused", method) << QString::fromLatin1(method) << true;
            QTest::addRow("%s, plain", method) << QString::fromLatin1(method) << false;
        }
    }
    void graphTermsCachedOnlyForTheirV()
    {
        // GNMF and LCCF keep the objective's graph gather for the next V rule
        // (GraphTermCache). A twin method restored to the same state before every call has
        // nothing cached and computes each term afresh: both must give the same objectives and
        // factors step after step.
        QFETCH(QString, method);
        QFETCH(bool, fused);
        static const Matrix X = largeData();
        Matrix data = fused ? X : Matrix(X.topLeftCorner(200, 300));
        if (!method.endsWith(u"nmf"))
            data.colwise().normalize();
        MethodOptions o;
        o.rank = 5;
        o.algorithm = Algorithm::Mu; // the rules' own caches (an extrapolation restarts on restore)
        o.knnSearch = KnnSearch::Exact;
        if (method == u"semignmf") {
            o.knownLabels.assign(std::size_t(data.cols()), -1);
            for (Index j = 0; j < data.cols(); j += 10)
                o.knownLabels[std::size_t(j)] = int((j / 10) % 4);
        }
        std::optional<PlainRoute> plain;
        if (!fused)
            plain.emplace();
        QCOMPARE(fusesPasses(data, o.rank), fused);
        const MethodFactory make
            = makeMethodFactory(method.toStdString(), data, o, MethodContext {});
        const std::unique_ptr<Method> cached = make(), fresh = make();
        Rng rngA(9), rngB(9);
        cached->initialize(rngA);
        fresh->initialize(rngB);
        for (int t = 0; t < 6; ++t) {
            cached->step();
            const double a = cached->objective();
            fresh->restore(fresh->state());
            fresh->step();
            fresh->restore(fresh->state());
            const double b = fresh->objective();
            QVERIFY2(std::abs(a - b) <= 1e-10 * std::abs(b),
                qPrintable(QStringLiteral("step %1: %2 against %3")
                               .arg(t)
                               .arg(a, 0, 'g', 17)
                               .arg(b, 0, 'g', 17)));
            const auto sa = cached->state(), sb = fresh->state();
            for (std::size_t f = 0; f < sa.size(); ++f)
                QVERIFY(relativeDifference(sa[f], sb[f]) <= 1e-10);
        }
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(FusedStepsTest)
#include "test_fused_steps.moc"
