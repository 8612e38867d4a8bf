// SPDX-License-Identifier: GPL-3.0-or-later
// LCCF, GNMF and SemiGNMF (METHODS.md 1.3, 1.6, 2.3): lambda = 0 reproduces CF / NMF, monotone
// objectives, the update rules against the objective's finite-difference gradient, the label
// graph of SemiGNMF, option validation.
#include "core/driver.h"
#include "graph/knn_graph.h"
#include "method_checks.h"
#include "methods/gnmf.h"
#include "methods/lccf.h"
#include "methods/registry.h"

#include "test_printers.h"

#include <QtTest>

using namespace facet;
using namespace facet::testing;
using Index = Eigen::Index;

Q_DECLARE_METATYPE(facet::GraphWeight)

namespace {

MethodOptions graphOptions(int rank, std::optional<double> lambda)
{
    MethodOptions o;
    o.rank = rank;
    o.lambda = lambda;
    return o;
}

DriverOptions driverOptions(int maxIter, std::uint64_t seed)
{
    DriverOptions d;
    d.maxIter = maxIter;
    d.tol = 0;
    d.seed = seed;
    return d;
}

void verifyIdentical(const Factorization& a, const Factorization& b)
{
    QVERIFY(a.V == b.V);
    QVERIFY(a.W == b.W);
    QVERIFY(a.basis == b.basis);
    QCOMPARE(a.history, b.history);
    QCOMPARE(a.stopReason, b.stopReason);
}

// A graph whose D is not S 1, as the NCW form produces: the methods must use D as given.
std::shared_ptr<const Graph> transformedGraph(const Matrix& X)
{
    Graph g = buildKnnGraph(X, KnnOptions { 4, GraphWeight::Heat, std::nullopt, 0 });
    g.degree = 1.7 * g.degree.array() + 0.3;
    return std::make_shared<const Graph>(std::move(g));
}

} // namespace

class TestGraphMethods : public QObject {
    Q_OBJECT
private slots:
    void lambdaZeroEqualsBase_data();
    void lambdaZeroEqualsBase();
    void monotone_data();
    void monotone();
    void gradientMatchesUpdate_data();
    void gradientMatchesUpdate();
    void defaultLambdaAndSharedGraph();
    void returnedObjectiveIsTheReturnedFactors_data();
    void returnedObjectiveIsTheReturnedFactors();
    void semignmfUsesLabelGraph();
    void semignmfWithoutLabelsIsGnmf();
    void refusesBadInput();
};

void TestGraphMethods::lambdaZeroEqualsBase_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("base");
    QTest::newRow("lccf/cf") << QStringLiteral("lccf") << QStringLiteral("cf");
    QTest::newRow("gnmf/nmf") << QStringLiteral("gnmf") << QStringLiteral("nmf");
    QTest::newRow("semignmf/nmf") << QStringLiteral("semignmf") << QStringLiteral("nmf");
}

void TestGraphMethods::lambdaZeroEqualsBase()
{
    QFETCH(QString, method);
    QFETCH(QString, base);
    std::vector<int> truth;
    const Matrix X = clustered(20, 48, 3, 9, &truth);
    MethodOptions o = graphOptions(4, 0.0);
    o.algorithm = Algorithm::Mu; // one algorithm for both (NMF's default, hals-ex, is not GNMF's)
    o.knownLabels.assign(truth.size(), -1);
    for (std::size_t i = 0; i < truth.size(); i += 4)
        o.knownLabels[i] = truth[i];
    DriverOptions d = driverOptions(80, 31);
    d.replicates = 2;
    const Factorization a = solve(makeMethodFactory(method.toStdString(), X, o), d);
    const Factorization b = solve(makeMethodFactory(base.toStdString(), X, o), d);
    QCOMPARE(a.method, method.toStdString());
    verifyIdentical(a, b);
}

void TestGraphMethods::monotone_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("lambda");
    QTest::addColumn<GraphWeight>("weight");
    for (const char* method : { "lccf", "gnmf", "semignmf" })
        for (double lambda : { 1.0, 100.0 })
            QTest::addRow("%s lambda=%g", method, lambda)
                << QString::fromLatin1(method) << lambda << GraphWeight::Binary;
    QTest::newRow("lccf heat") << QStringLiteral("lccf") << 100.0 << GraphWeight::Heat;
    QTest::newRow("lccf cosine") << QStringLiteral("lccf") << 100.0 << GraphWeight::Cosine;
    QTest::newRow("gnmf heat") << QStringLiteral("gnmf") << 100.0 << GraphWeight::Heat;
}

void TestGraphMethods::monotone()
{
    QFETCH(QString, method);
    QFETCH(double, lambda);
    QFETCH(GraphWeight, weight);
    std::vector<int> truth;
    // m > n and m < n take the two product orders of the CF kernel operator.
    for (auto [m, n] : { std::pair { 40, 60 }, std::pair { 25, 90 } }) {
        truth.clear();
        const Matrix X = clustered(m, n, 5, 7, &truth);
        MethodOptions o = graphOptions(5, lambda);
        o.weight = weight;
        o.knownLabels.assign(truth.size(), -1);
        for (std::size_t i = 0; i < truth.size(); i += 3)
            o.knownLabels[i] = truth[i];
        const Factorization f
            = solve(makeMethodFactory(method.toStdString(), X, o), driverOptions(200, 3));
        QCOMPARE(f.iterations, 200);
        QCOMPARE(f.stopReason, StopReason::MaxIterations);
        verifyMonotone(f.history);
        QVERIFY((f.V.array() >= 0).all());
    }
}

void TestGraphMethods::gradientMatchesUpdate_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("lambda");
    QTest::addColumn<bool>("transformed"); // a graph with D != S 1 (the NCW form)
    for (const char* method : { "lccf", "gnmf" })
        for (double lambda : { 1.0, 100.0 })
            for (bool transformed : { false, true })
                QTest::addRow("%s lambda=%g%s", method, lambda, transformed ? " D!=S1" : "")
                    << QString::fromLatin1(method) << lambda << transformed;
}

void TestGraphMethods::gradientMatchesUpdate()
{
    // At a random positive point the gradient of O (central differences of objective() alone)
    // equals c (N - P) of the update rule, with one constant c per factor (here c = 2).
    QFETCH(QString, method);
    QFETCH(double, lambda);
    QFETCH(bool, transformed);
    const Matrix X = clustered(12, 15, 3, 5);
    MethodContext context;
    if (transformed)
        context.graph = transformedGraph(X);
    const MethodFactory make
        = makeMethodFactory(method.toStdString(), X, graphOptions(3, lambda), context);
    std::unique_ptr<Method> m = make();
    Rng rng(3);
    m->initialize(rng);
    const std::vector<Matrix> point = m->state();
    if (transformed) {
        // The regularizer is lambda Tr(V^T (D - S) V) with D the graph's degree vector as given.
        std::unique_ptr<Method> plain
            = makeMethodFactory(method.toStdString(), X, graphOptions(3, 0.0), context)();
        plain->restore(point);
        const Graph& g = *context.graph;
        const Matrix& V = point[1];
        const double reg
            = lambda * double((V.transpose() * (g.degree.asDiagonal() * V - g.S * V)).trace());
        QVERIFY(std::abs(m->objective() - plain->objective() - reg) <= 1e-9 * std::abs(reg));
    }
    for (int factor = 0; factor < int(point.size()); ++factor) {
        m->restore(point);
        const UpdateTerms t = m->updateTerms(factor);
        const Matrix expected = t.denominator - t.numerator;
        Matrix numeric(expected.rows(), expected.cols());
        for (Index i = 0; i < expected.size(); ++i) {
            std::vector<Matrix> s = point;
            const double h = 1e-6 * std::max(1.0, std::abs(double(s[factor].data()[i])));
            s[factor].data()[i] += h;
            m->restore(s);
            const double up = m->objective();
            s[factor].data()[i] -= 2 * h;
            m->restore(s);
            const double down = m->objective();
            numeric.data()[i] = (up - down) / (2 * h);
        }
        const double c = (numeric.array() * expected.array()).sum() / expected.squaredNorm();
        QVERIFY2(std::abs(c - 2.0) < 1e-4, qPrintable(QStringLiteral("constant %1").arg(c)));
        const double err = (numeric - c * expected).cwiseAbs().maxCoeff();
        QVERIFY2(err < 1e-5 * std::max(1.0, double(numeric.cwiseAbs().maxCoeff())),
            qPrintable(QStringLiteral("factor %1: max deviation %2").arg(factor).arg(err)));
    }
}

void TestGraphMethods::returnedObjectiveIsTheReturnedFactors_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("lambda");
    for (const char* method : { "lccf", "gnmf" })
        for (double lambda : { 0.0, 100.0 })
            QTest::addRow("%s lambda=%g", method, lambda) << QString::fromLatin1(method) << lambda;
}

void TestGraphMethods::returnedObjectiveIsTheReturnedFactors()
{
    // The final normalization keeps basis V^T but rescales V, and lambda Tr(V^T L V) with it:
    // Factorization::returnedObjective is the objective of the factors returned, computed here
    // from them and the graph alone, and differs from the last iteration's once lambda > 0.
    QFETCH(QString, method);
    QFETCH(double, lambda);
    const Matrix X = clustered(30, 45, 3, 11);
    MethodContext context;
    context.graph = std::make_shared<const Graph>(
        buildKnnGraph(X, KnnOptions { 5, GraphWeight::Binary, std::nullopt, 0 }));
    const Factorization f
        = solve(makeMethodFactory(method.toStdString(), X, graphOptions(3, lambda), context),
            driverOptions(15, 4));
    const Graph& g = *context.graph;
    const double expected = (X - f.basis * f.V.transpose()).squaredNorm()
        + lambda * double((f.V.transpose() * (g.degree.asDiagonal() * f.V - g.S * f.V)).trace());
    QVERIFY2(std::abs(f.returnedObjective - expected) <= 1e-9 * expected,
        qPrintable(QStringLiteral("returned %1, from the factors %2")
                       .arg(f.returnedObjective, 0, 'g', 17)
                       .arg(expected, 0, 'g', 17)));
    QCOMPARE(returnedObjectiveDiffers(f), lambda > 0);
}

void TestGraphMethods::defaultLambdaAndSharedGraph()
{
    const Matrix X = clustered(15, 40, 4, 2);
    const DriverOptions d = driverOptions(40, 5);
    for (const char* method : { "lccf", "gnmf" }) {
        // Unset lambda is 100.
        const Factorization a
            = solve(makeMethodFactory(method, X, graphOptions(4, std::nullopt)), d);
        const Factorization b = solve(makeMethodFactory(method, X, graphOptions(4, 100.0)), d);
        verifyIdentical(a, b);
        // A graph in the context is used as given, not rebuilt from p / weight.
        MethodOptions o = graphOptions(4, 100.0);
        MethodContext context;
        context.graph = std::make_shared<const Graph>(
            buildKnnGraph(X, KnnOptions { 5, GraphWeight::Binary, std::nullopt, 0 }));
        o.p = 9; // ignored: the context already has the graph
        const Factorization c = solve(makeMethodFactory(method, X, o, context), d);
        verifyIdentical(a, c);
        MethodOptions other = graphOptions(4, 100.0);
        other.p = 9;
        QVERIFY(!(solve(makeMethodFactory(method, X, other), d).V == a.V));
    }
}

void TestGraphMethods::semignmfUsesLabelGraph()
{
    // SemiGNMF = GNMF on applyLabelConstraints(kNN graph, labels).
    std::vector<int> truth;
    const Matrix X = clustered(20, 60, 4, 11, &truth);
    MethodOptions o = graphOptions(4, 10.0);
    o.knownLabels.assign(truth.size(), -1);
    for (std::size_t i = 0; i < truth.size(); i += 5)
        o.knownLabels[i] = truth[i];
    const DriverOptions d = driverOptions(60, 8);
    const Factorization semi = solve(makeMethodFactory("semignmf", X, o), d);
    QCOMPARE(semi.method, std::string("semignmf"));

    KnnOptions knn;
    knn.p = o.p;
    const auto graph = std::make_shared<const Graph>(
        applyLabelConstraints(buildKnnGraph(X, knn), o.knownLabels));
    const Factorization direct
        = solve([&] { return std::make_unique<Gnmf>(X, graph, 4, 10.0); }, d);
    QVERIFY(semi.V == direct.V);
    QVERIFY(semi.basis == direct.basis);
    QCOMPARE(semi.history, direct.history);
    // The labels change the result.
    QVERIFY(!(solve(makeMethodFactory("gnmf", X, o), d).V == semi.V));
}

void TestGraphMethods::semignmfWithoutLabelsIsGnmf()
{
    const Matrix X = clustered(20, 50, 4, 12);
    const DriverOptions d = driverOptions(60, 4);
    MethodOptions o = graphOptions(4, 100.0);
    const Factorization gnmf = solve(makeMethodFactory("gnmf", X, o), d);
    const Factorization empty = solve(makeMethodFactory("semignmf", X, o), d);
    o.knownLabels.assign(50, -1);
    const Factorization unknown = solve(makeMethodFactory("semignmf", X, o), d);
    QVERIFY(gnmf.V == empty.V && gnmf.basis == empty.basis);
    QCOMPARE(gnmf.history, empty.history);
    QVERIFY(gnmf.V == unknown.V && gnmf.basis == unknown.basis);
    QCOMPARE(gnmf.history, unknown.history);
}

void TestGraphMethods::refusesBadInput()
{
    const Matrix X = clustered(10, 20, 2, 1);
    for (const char* method : { "lccf", "gnmf", "semignmf" }) {
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, makeMethodFactory(method, X, graphOptions(3, -1.0)));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, makeMethodFactory(method, X, graphOptions(3, std::nan(""))));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, makeMethodFactory(method, X, graphOptions(21, 1.0)));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, makeMethodFactory(method, X, graphOptions(0, 1.0)));
        MethodOptions o = graphOptions(3, 1.0);
        o.p = 20;
        try {
            makeMethodFactory(method, X, o);
            QFAIL("p = n accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("p <= n - 1")), e.what());
        }
        // A shared graph of another data set is refused.
        MethodContext context;
        context.graph
            = std::make_shared<const Graph>(buildKnnGraph(clustered(10, 25, 2, 1), KnnOptions {}));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, makeMethodFactory(method, X, graphOptions(3, 1.0), context));
    }
    MethodOptions o = graphOptions(3, 1.0);
    o.knownLabels.assign(19, 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("semignmf", X, o));
    // Signed data: GNMF refuses it; LCCF takes the general form of METHODS.md 1.4 and says so.
    Matrix signedX = X;
    signedX.col(0) *= -1;
    // The refusal names the method asked for (it said "NMF needs ..." for all of them).
    for (const auto& [method, label] :
        { std::pair { "gnmf", "GNMF needs" }, std::pair { "semignmf", "SemiGNMF needs" } }) {
        try {
            makeMethodFactory(method, signedX, graphOptions(3, 1.0));
            QFAIL("signed data accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(
                QString::fromUtf8(e.what()).contains(QStringLiteral("non-negative")), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(QString::fromLatin1(label)), e.what());
        }
    }
    const MethodFactory lccf = makeMethodFactory("lccf", signedX, graphOptions(3, 1.0));
    DriverOptions d;
    d.maxIter = 20;
    const Factorization f = solve(lccf, d);
    bool noted = false;
    for (const std::string& line : f.log)
        noted = noted || line.find("general form") != std::string::npos;
    QVERIFY(noted);
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestGraphMethods)
#include "test_graph_methods.moc"
