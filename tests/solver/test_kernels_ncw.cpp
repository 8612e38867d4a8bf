// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels and normalized-cut weighting (METHODS.md 1.7): kernel matrices, the CF family on them,
// the NCW mapping against a hand-made weighted run, LCCF's weighted graph, refusals.
#include "core/driver.h"
#include "core/gram.h"
#include "core/openmp.h"
#include "graph/knn_graph.h"
#include "methods/cf.h"
#include "methods/cf_family.h"
#include "methods/kernels.h"
#include "methods/lccf.h"
#include "methods/ncw.h"
#include "methods/nmf.h"
#include "methods/registry.h"

#include "method_checks.h"
#include "test_printers.h"

#include <QtTest>

using namespace facet;
using namespace facet::testing;

namespace {

MethodOptions kernelOptions(int rank, KernelKind kernel)
{
    MethodOptions o;
    o.rank = rank;
    o.kernel = kernel;
    o.degree = 2;
    o.offset = 0.5;
    return o;
}

} // namespace

class TestKernelsNcw : public QObject {
    Q_OBJECT
private slots:
    void kernelMatrices();
    void defaultSigma();
    void kernelMethodsMonotone_data();
    void kernelMethodsMonotone();
    void refusesBadKernels();
    void ncwNmfIsWeightedNmf();
    void ncwCfIsWeightedCf_data();
    void ncwCfIsWeightedCf();
    void ncwWithGaussianKernel();
    void ncwGraphKeepsRegularizer();
    void ncwLccfMonotone();
    void ncwRefusesZeroDegree();
};

void TestKernelsNcw::kernelMatrices()
{
    const Matrix X = plantedProduct(5, 7, 2, 0.1, 1);
    const Matrix P = polynomialKernel(X, 3, 0.5);
    const Matrix G = gaussianKernel(X, 0.8);
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 7; ++j) {
            const double p = std::pow(X.col(i).dot(X.col(j)) + 0.5, 3);
            const double g = std::exp(-(X.col(i) - X.col(j)).squaredNorm() / (2 * 0.8 * 0.8));
            QVERIFY(std::abs(P(i, j) - p) < 1e-12 * p);
            QVERIFY(std::abs(G(i, j) - g) < 1e-12);
        }
    QVERIFY(P == P.transpose());
    QVERIFY(G == G.transpose());
    QVERIFY(polynomialKernel(X, 1.5, 0).allFinite()); // non-integer degree, K >= 0

    // 600 samples: 3 x 3 tiles of the inner products (6 formed, 3 mirrored), on 1 and 2
    // threads, against the definitions and exactly symmetric.
    const Matrix Y = plantedProduct(9, 600, 3, 0.1, 4);
    const int threads = omp::maxThreads();
    std::vector<Matrix> polynomial, gaussian;
    for (const int t : { 1, 2 }) {
        omp::setThreads(t);
        polynomial.push_back(polynomialKernel(Y, 2, 1));
        gaussian.push_back(gaussianKernel(Y, 1.3));
        omp::setThreads(threads);
    }
    QVERIFY(polynomial[0] == polynomial[1]);
    QVERIFY(gaussian[0] == gaussian[1]);
    QVERIFY(polynomial[0] == polynomial[0].transpose());
    QVERIFY(gaussian[0] == gaussian[0].transpose());
    double worstP = 0, worstG = 0;
    for (Eigen::Index i = 0; i < 600; ++i)
        for (Eigen::Index j = 0; j < 600; ++j) {
            const double p = std::pow(double(Y.col(i).dot(Y.col(j))) + 1, 2);
            const double g
                = std::exp(-double((Y.col(i) - Y.col(j)).squaredNorm()) / (2 * 1.3 * 1.3));
            worstP = std::max(worstP, std::abs(polynomial[0](i, j) - p) / p);
            worstG = std::max(worstG, std::abs(gaussian[0](i, j) - g));
        }
    QVERIFY2(worstP < 1e-12, qPrintable(QString::number(worstP)));
    QVERIFY2(worstG < 1e-12, qPrintable(QString::number(worstG)));
}

void TestKernelsNcw::defaultSigma()
{
    const Matrix X = plantedProduct(6, 40, 2, 0.3, 2);
    MethodOptions o = kernelOptions(2, KernelKind::Gaussian);
    std::vector<std::string> notes;
    const auto gram = makeKernel(X, o, notes);
    QVERIFY((gram->matrix() - gaussianKernel(X, meanPairwiseDistance(X, 0))).norm() < 1e-14);
    QCOMPARE(notes.size(), std::size_t(1));
    QVERIFY(notes[0].find("mean pairwise distance") != std::string::npos);
    QVERIFY(notes[0].find("pre-image") != std::string::npos);
}

void TestKernelsNcw::kernelMethodsMonotone_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("kernel");
    for (const char* method : { "cf", "lcf", "ccf" }) {
        QTest::newRow(qPrintable(QStringLiteral("%1 polynomial").arg(method)))
            << QString::fromLatin1(method) << int(KernelKind::Polynomial);
        QTest::newRow(qPrintable(QStringLiteral("%1 gaussian").arg(method)))
            << QString::fromLatin1(method) << int(KernelKind::Gaussian);
    }
}

void TestKernelsNcw::kernelMethodsMonotone()
{
    QFETCH(QString, method);
    QFETCH(int, kernel);
    const Matrix X = plantedProduct(20, 50, 4, 0.3, 3);
    MethodOptions o = kernelOptions(4, KernelKind(kernel));
    o.init = InitKind::Random;
    o.initSet = true;
    const Factorization f
        = solve(makeMethodFactory(method.toStdString(), X, o), fixedIterations(150));
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(hasNote(f, "kernel: "));
    QVERIFY((f.basis - X * f.W).norm() < 1e-12 * std::max(1.0, double(f.basis.norm())));
    QVERIFY(f.history.back() < f.history.front());
}

void TestKernelsNcw::refusesBadKernels()
{
    const Matrix X = plantedProduct(6, 10, 2, 0.1, 1);
    MethodOptions o = kernelOptions(2, KernelKind::Polynomial);
    o.degree = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("cf", X, o));
    o.degree = 2;
    o.offset = std::numeric_limits<double>::infinity();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("cf", X, o));
    // A non-integer power of a negative inner product.
    o.offset = 0;
    o.degree = 1.5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("cf", centred(X), o));
    o = kernelOptions(2, KernelKind::Gaussian);
    o.sigma = 0.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("cf", X, o));
    o.sigma = -1.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("lcf", X, o));
    // n = 30000: K would need 7.2e9 bytes; refused before anything is allocated.
    const Matrix wide = Matrix::Constant(1, 30000, 0.5);
    o = kernelOptions(2, KernelKind::Polynomial);
    try {
        makeMethodFactory("cf", wide, o);
        QFAIL("a 30000 x 30000 kernel was accepted");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(
            QString::fromUtf8(e.what()).contains(QStringLiteral("7200000000 bytes")), e.what());
    }
    // LCCF too, and before building its kNN graph (minutes at this size), not after.
    try {
        makeMethodFactory("lccf", wide, o);
        QFAIL("LCCF accepted a 30000 x 30000 kernel");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(
            QString::fromUtf8(e.what()).contains(QStringLiteral("7200000000 bytes")), e.what());
    }
    // Weights and kernel parameters whose products overflow ran, stopped as non-finite before
    // their first iteration and were scored on the start (issue 36, item 15): refused with the
    // bound, the kernel's before its n x n products. An offset within the bound can still
    // overflow as a power: the data's bound names both ways back.
    const auto refusal = [&](const std::string& method, const MethodOptions& options) {
        try {
            makeMethodFactory(method, X, options);
            return QStringLiteral("(accepted)");
        } catch (const std::invalid_argument& e) {
            return QString::fromUtf8(e.what());
        }
    };
    o = kernelOptions(2, KernelKind::Polynomial);
    o.offset = 1e100;
    QString message = refusal("cf", o);
    QVERIFY2(message.contains(QStringLiteral("reaches 1e200"))
            && message.contains(QStringLiteral("lower the degree to at most 1.5 or |offset| to "
                                               "at most 1e+75")),
        qPrintable(message));
    o.offset = 1e308;
    message = refusal("cf", o);
    QVERIFY2(
        message.contains(QStringLiteral("offset 1e+308 is beyond 1e+150")), qPrintable(message));
    o.offset = 0;
    o.degree = 1e20;
    message = refusal("cf", o);
    QVERIFY2(message.contains(QStringLiteral("degree 1e+20 is above 100")), qPrintable(message));
    for (const auto& [method, weight] :
        { std::pair { "lccf", &MethodOptions::beta }, std::pair { "cf-ogl", &MethodOptions::mu },
            std::pair { "cf-ogl", &MethodOptions::beta } }) {
        MethodOptions w = kernelOptions(2, KernelKind::Linear);
        w.*weight = 1e308;
        message = refusal(method, w);
        QVERIFY2(message.contains(QStringLiteral("1e+308 is beyond 1e+150, the largest weight")),
            qPrintable(message));
    }
    MethodOptions l = kernelOptions(2, KernelKind::Linear);
    l.lambda = 1e308;
    message = refusal("gnmf", l);
    QVERIFY2(
        message.contains(QStringLiteral("lambda 1e+308 is beyond 1e+150")), qPrintable(message));
}

void TestKernelsNcw::ncwNmfIsWeightedNmf()
{
    // NMF-NCW = NMF on X' = X diag(d)^(-1/2), d = X^T X 1, with V = diag(d)^(1/2) V'.
    const Matrix X = plantedProduct(30, 25, 3, 0.2, 4);
    MethodOptions o;
    o.rank = 3;
    o.algorithm = Algorithm::Mu; // as the directly built Nmf below
    o.ncw = true;
    const Factorization f = solve(makeMethodFactory("nmf", X, o), fixedIterations(80, 6));
    const Vector d = X.transpose() * (X * Vector::Ones(25));
    const Matrix Xw = X * d.cwiseSqrt().cwiseInverse().asDiagonal();
    const Factorization inner
        = solve([&] { return std::make_unique<Nmf>(Xw, 3); }, fixedIterations(80, 6));
    for (std::size_t t = 0; t < inner.history.size(); ++t)
        QVERIFY(std::abs(f.history[t] - inner.history[t]) <= 1e-12 * inner.history[t]);
    QVERIFY((f.basis - inner.basis).norm() < 1e-10 * f.basis.norm());
    QVERIFY((f.V - d.cwiseSqrt().asDiagonal() * inner.V).norm() < 1e-10 * f.V.norm());
    QVERIFY(hasNote(f, "NCW"));
    // The mapped-back factors reconstruct X as the weighted ones reconstruct X'.
    const double weighted
        = ((X - f.basis * f.V.transpose()) * d.cwiseSqrt().cwiseInverse().asDiagonal())
              .squaredNorm();
    QVERIFY(std::abs(weighted - f.history.back()) < 1e-9 * f.history.back());
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestKernelsNcw::ncwCfIsWeightedCf_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::newRow("explicit K (n <= m)") << 40 << 25;
    QTest::newRow("implicit K (n > m)") << 15 << 50;
}

void TestKernelsNcw::ncwCfIsWeightedCf()
{
    // CF-NCW = CF on K' = Gamma^(1/2) K Gamma^(1/2): W = Gamma^(1/2) W', V = Gamma^(-1/2) V'.
    QFETCH(int, m);
    QFETCH(int, n);
    const Matrix X = plantedProduct(m, n, 3, 0.2, 4);
    MethodOptions o;
    o.rank = 3;
    o.algorithm = Algorithm::Mu; // as the directly built Cf below
    o.ncw = true;
    const Factorization f = solve(makeMethodFactory("cf", X, o), fixedIterations(80, 6));
    const Vector d = X.transpose() * (X * Vector::Ones(n));
    const Vector root = d.cwiseSqrt();
    const Matrix Xw = X * root.cwiseInverse().asDiagonal();
    const auto gram = Gram::fromMatrix(Xw.transpose() * Xw);
    const Factorization inner
        = solve([&] { return std::make_unique<Cf>(Xw, gram, 3); }, fixedIterations(80, 6));
    for (std::size_t t = 0; t < inner.history.size(); ++t)
        QVERIFY(std::abs(f.history[t] - inner.history[t]) <= 1e-10 * inner.history[t]);
    QVERIFY((f.V - root.asDiagonal() * inner.V).norm() < 1e-8 * f.V.norm());
    QVERIFY((f.W - root.cwiseInverse().asDiagonal() * inner.W).norm() < 1e-8 * f.W.norm());
    QVERIFY((f.basis - X * f.W).norm() < 1e-10 * f.basis.norm()); // X W = X' W'
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestKernelsNcw::ncwWithGaussianKernel()
{
    // d = K 1 of the Gaussian kernel; the method runs on Gamma^(1/2) K Gamma^(1/2).
    const Matrix X = plantedProduct(10, 40, 3, 0.2, 4);
    MethodOptions o = kernelOptions(3, KernelKind::Gaussian);
    o.sigma = 1.5;
    o.ncw = true;
    std::vector<std::string> notes;
    const auto K = makeKernel(X, o, notes);
    const auto data = makeNcwData(X, K, false);
    QVERIFY((data->d - K->matrix().rowwise().sum()).norm() < 1e-12 * data->d.norm());
    const Vector s = data->d.cwiseSqrt().cwiseInverse();
    QVERIFY((data->gram->matrix() - s.asDiagonal() * K->matrix() * s.asDiagonal()).norm() < 1e-14);
    const Factorization f = solve(makeMethodFactory("cf", X, o), fixedIterations(100));
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(hasNote(f, "NCW") && hasNote(f, "kernel: gaussian"));
}

void TestKernelsNcw::ncwGraphKeepsRegularizer()
{
    // lambda Tr(V'^T L' V') = lambda Tr(V^T L V) for V = Gamma^(-1/2) V'.
    const Matrix X = plantedProduct(10, 30, 3, 0.2, 4);
    KnnOptions knn;
    knn.weight = GraphWeight::Heat;
    const Graph graph = buildKnnGraph(X, knn);
    const Vector d = X.transpose() * (X * Vector::Ones(30));
    const auto weighted = ncwGraph(graph, d);
    Rng rng(5);
    const Matrix Vw = rng.uniformMatrix(30, 3);
    const Matrix V = d.cwiseSqrt().asDiagonal() * Vw;
    const double original = graphRegularizerValue(graph, V, 2.0);
    const double transformed = graphRegularizerValue(*weighted, Vw, 2.0);
    QVERIFY(std::abs(original - transformed) < 1e-10 * std::abs(original));
    QVERIFY(weighted->S.isApprox(Matrix(weighted->S.transpose()).sparseView()));
}

void TestKernelsNcw::ncwLccfMonotone()
{
    // The wiring graph_methods.cpp can use: LCCF on X' with the weighted graph, inside Ncw.
    const Matrix X = plantedProduct(20, 40, 3, 0.2, 4);
    const auto graph = std::make_shared<const Graph>(buildKnnGraph(X, KnnOptions {}));
    const auto data = makeNcwData(X, Gram::linear(X), true);
    const auto weighted = ncwGraph(*graph, data->d);
    const MethodFactory make = [&] {
        return std::make_unique<Ncw>(
            data, std::make_unique<Lccf>(data->Xw, data->gram, weighted, 3, 50.0));
    };
    const Factorization f = solve(make, fixedIterations(150));
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(f.method, std::string("lccf"));
    QVERIFY(f.V.allFinite() && f.W.allFinite());
    // lccfFactory (the registry's wiring) builds the same thing from options.ncw.
    MethodOptions o;
    o.rank = 3;
    o.ncw = true;
    MethodContext context;
    const Factorization g = solve(lccfFactory(X, o, context, graph, 50.0), fixedIterations(150));
    QCOMPARE(g.history, f.history);
    QVERIFY(g.V == f.V);
    QVERIFY(hasNote(g, "NCW"));
}

void TestKernelsNcw::ncwRefusesZeroDegree()
{
    Matrix X = plantedProduct(8, 10, 2, 0.1, 1);
    X.col(4).setZero();
    MethodOptions o;
    o.rank = 2;
    o.ncw = true;
    for (const std::string method : { "nmf", "cf" }) {
        try {
            makeMethodFactory(method, X, o);
            QFAIL("a zero degree was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("sample 5")), e.what());
        }
    }
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestKernelsNcw)
#include "test_kernels_ncw.moc"
