// SPDX-License-Identifier: GPL-3.0-or-later
// facet-cli's missing entries (cli/mask_options.h, solver/methods/mask.h): --mask FILE.mat,
// --missing nan and --occlusion-missing reach the run, oriented like fea; bad masks and methods
// without a masked route are refused with the reason.
#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli_process.h"
#include "core/random.h"
#include "data/dataset_source.h"
#include "data/mat_writer.h"
#include "data/noise.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <matio.h>

#include <limits>

using namespace facet;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

constexpr int kSide = 4; // 4 x 4 images, m = 16
constexpr int kSamples = 12;

// 12 samples of 4 x 4 images in three classes, values in [0.1, 1).
Dataset smallImages()
{
    Dataset data;
    data.name = u"small"_s;
    data.height = data.width = kSide;
    Rng rng(5);
    data.X = (0.1 + 0.9 * rng.uniformMatrix(kSide * kSide, kSamples).array()).matrix();
    for (int j = 0; j < kSamples; ++j)
        data.labels.push_back(j % 3);
    data.classNames = { u"1"_s, u"2"_s, u"3"_s };
    return data;
}

// Writes each `stored` (rows x cols as MATLAB holds it) as a double variable of the file.
bool writeVariables(
    const QString& path, const std::vector<std::pair<const char*, Eigen::MatrixXd>>& variables)
{
    mat_t* mat = Mat_CreateVer(path.toLocal8Bit().constData(), nullptr, MAT_FT_MAT5);
    if (!mat)
        return false;
    bool ok = true;
    for (const auto& [name, stored] : variables) {
        std::size_t dims[2] = { std::size_t(stored.rows()), std::size_t(stored.cols()) };
        Eigen::MatrixXd copy = stored;
        matvar_t* var = Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, copy.data(), 0);
        ok = ok && var && Mat_VarWrite(mat, var, MAT_COMPRESSION_NONE) == 0;
        Mat_VarFree(var);
    }
    Mat_Close(mat);
    return ok;
}

bool writeVariable(const QString& path, const char* name, const Eigen::MatrixXd& stored)
{
    return writeVariables(path, { { name, stored } });
}

// X's (pixel, sample) as fea stores it: row = sample, column = the column-major pixel index.
Eigen::MatrixXd asStored(const Matrix& X)
{
    Eigen::MatrixXd stored(X.cols(), X.rows());
    for (int r = 0; r < kSide; ++r)
        for (int c = 0; c < kSide; ++c)
            for (Eigen::Index i = 0; i < X.cols(); ++i)
                stored(i, c * kSide + r) = double(X(r * kSide + c, i));
    return stored;
}

QStringList runArguments(const QString& data, const QString& json, const QString& method)
{
    return { u"run"_s, u"--dataset"_s, data, u"--method"_s, method, u"--rank"_s, u"3"_s,
        u"--max-iter"_s, u"40"_s, u"--json"_s, json };
}

} // namespace

class TestCliMasks : public QObject {
    Q_OBJECT
private slots:
    void maskFileAndNanAgree();
    void refusals_data();
    void refusals();
    void occlusionBlockIsMissing();
    void l2OverObservedEntries();
};

void TestCliMasks::maskFileAndNanAgree()
{
    // NaN entries (--missing nan) and a mask file with zeros at the same stored places mark the
    // same entries of X: the product of the two has the NaN count, not more, so the file is
    // oriented and ordered exactly like fea.
    QTemporaryDir dir;
    Dataset data = smallImages();
    Matrix hidden = Matrix::Ones(data.X.rows(), data.X.cols());
    Rng rng(6);
    for (Eigen::Index i = 0; i < hidden.size(); ++i)
        if (rng.uniform() < 0.3)
            hidden.data()[i] = 0;
    const Eigen::Index missing = (hidden.array() == 0).count();
    Dataset withNan = data;
    withNan.X = (hidden.array() == 0).select(std::numeric_limits<Scalar>::quiet_NaN(), data.X);
    const QString nanMat = dir.filePath(u"nan.mat"_s); // writeDatasetMat refuses NaN
    Eigen::MatrixXd gnd(kSamples, 1);
    for (int j = 0; j < kSamples; ++j)
        gnd(j, 0) = j % 3 + 1;
    QVERIFY(writeVariables(nanMat, { { "fea", asStored(withNan.X) }, { "gnd", gnd } }));
    const QString maskMat = dir.filePath(u"mask.mat"_s);
    QVERIFY(writeVariable(maskMat, "mask", asStored(hidden)));

    // Without --missing nan, NaN stays an error.
    const QString json = dir.filePath(u"r.json"_s);
    CliRun run = runCli(runArguments(nanMat, json, u"nmf"_s));
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains(u"the data must be finite"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"--missing nan"_s), qPrintable(run.err));

    run = runCli(runArguments(nanMat, json, u"nmf"_s) + QStringList { u"--missing"_s, u"nan"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QJsonObject mask = readJson(json)[u"mask"_s].toObject();
    QCOMPARE(mask[u"missing"_s].toInt(), int(missing));
    QCOMPARE(mask[u"sources"_s].toArray().first().toString(), u"nan"_s);

    run = runCli(runArguments(nanMat, json, u"gnmf"_s)
        + QStringList { u"--missing"_s, u"nan"_s, u"--mask"_s, maskMat });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    mask = readJson(json)[u"mask"_s].toObject();
    QCOMPARE(mask[u"missing"_s].toInt(), int(missing));
    QCOMPARE(mask[u"sources"_s].toArray().size(), 2);

    // The clean data with the mask file alone: the same entries.
    const QString cleanMat = dir.filePath(u"clean.mat"_s);
    QVERIFY(writeDatasetMat(cleanMat, data).ok());
    run = runCli(runArguments(cleanMat, json, u"cnmf"_s)
        + QStringList {
            u"--mask"_s, maskMat, u"--labeled-fraction"_s, u"0.3"_s, u"--classes"_s, u"1,2"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(readJson(json)[u"n"_s].toInt(), 8); // --classes keeps the kept samples' weights
    Eigen::Index keptMissing = 0; // classes 1 and 2: the samples j with j % 3 < 2
    for (Eigen::Index j = 0; j < kSamples; ++j)
        if (j % 3 < 2)
            keptMissing += (hidden.col(j).array() == 0).count();
    QCOMPARE(readJson(json)[u"mask"_s].toObject()[u"missing"_s].toInt(), int(keptMissing));
}

void TestCliMasks::refusals_data()
{
    QTest::addColumn<QString>("maskKind");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("needle");
    QTest::newRow("shape") << u"shape"_s << QStringList {}
                           << u"is 3 x 16 but the data is 12 x 16"_s;
    QTest::newRow("negative") << u"negative"_s << QStringList {}
                              << u"negative weight -1 at sample 2, feature 5"_s;
    QTest::newRow("nan") << u"nan"_s << QStringList {} << u"has NaN at sample 2, feature 5"_s;
    QTest::newRow("no variable") << u"ok"_s << QStringList { u"--mask-var"_s, u"W"_s } << u"'W'"_s;
    QTest::newRow("cf") << u"ok"_s << QStringList { u"--method"_s, u"cf"_s }
                        << u"cf takes no mask: its objective is written through the kernel"_s;
    QTest::newRow("kmeans") << u"ok"_s << QStringList { u"--method"_s, u"kmeans"_s }
                            << u"whole samples"_s;
    QTest::newRow("occlusion without noise")
        << u"none"_s << QStringList { u"--occlusion-missing"_s } << u"give that noise"_s;
    QTest::newRow("missing what") << u"none"_s << QStringList { u"--missing"_s, u"zero"_s }
                                  << u"--missing must be nan"_s;
}

void TestCliMasks::refusals()
{
    QFETCH(QString, maskKind);
    QFETCH(QStringList, extra);
    QFETCH(QString, needle);
    QTemporaryDir dir;
    const QString dataMat = dir.filePath(u"d.mat"_s);
    QVERIFY(writeDatasetMat(dataMat, smallImages()).ok());
    Eigen::MatrixXd stored = Eigen::MatrixXd::Ones(kSamples, kSide * kSide);
    if (maskKind == u"shape")
        stored = Eigen::MatrixXd::Ones(3, kSide * kSide);
    else if (maskKind == u"negative")
        stored(1, 4) = -1;
    else if (maskKind == u"nan")
        stored(1, 4) = std::numeric_limits<double>::quiet_NaN();
    const QString maskMat = dir.filePath(u"m.mat"_s);
    QVERIFY(writeVariable(maskMat, "mask", stored));
    QStringList arguments = runArguments(dataMat, dir.filePath(u"r.json"_s), u"nmf"_s);
    if (extra.size() >= 2 && extra.first() == u"--method") {
        arguments[arguments.indexOf(u"nmf"_s)] = extra[1];
        extra = extra.mid(2);
    }
    if (maskKind != u"none")
        arguments << u"--mask"_s << maskMat;
    const CliRun run = runCli(arguments + extra);
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains(needle), qPrintable(run.err));
    QVERIFY(!QFileInfo::exists(dir.filePath(u"r.json"_s)));
}

void TestCliMasks::occlusionBlockIsMissing()
{
    // --occlusion-missing marks exactly the pixels the white block would cover, and nothing else.
    Dataset white = smallImages();
    white.X.setZero();
    Dataset missing = white;
    NoiseSettings noise = *parseNoise(u"occlusion:2"_s, 9);
    QVERIFY(addNoise(white, noise).ok());
    noise.missing = true;
    QVERIFY(addNoise(missing, noise).ok());
    QVERIFY(missing.hasMask());
    QVERIFY(((missing.weights.array() == 0) == (white.X.array() == 1)).all());
    QCOMPARE((missing.weights.array() == 0).count(), Eigen::Index(kSamples * 4));
    QVERIFY((missing.X.array() == 0).all());

    // End to end: the run records the block's entries as its missing ones.
    QTemporaryDir dir;
    const QString dataMat = dir.filePath(u"d.mat"_s);
    QVERIFY(writeDatasetMat(dataMat, smallImages()).ok());
    const QString json = dir.filePath(u"r.json"_s);
    const CliRun run = runCli(runArguments(dataMat, json, u"semignmf"_s)
        + QStringList { u"--noise"_s, u"occlusion:2"_s, u"--occlusion-missing"_s,
            u"--labeled-fraction"_s, u"0.3"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(readJson(json)[u"mask"_s].toObject()[u"missing"_s].toInt(), kSamples * 4);
}

void TestCliMasks::l2OverObservedEntries()
{
    Dataset data = smallImages();
    data.weights = Matrix::Ones(data.X.rows(), data.X.cols());
    for (Eigen::Index j = 0; j < data.X.cols(); ++j) {
        data.weights(j % 16, j) = 0;
        data.X(j % 16, j) = 0;
    }
    prepareDataset(data, PrepareOptions { false, true });
    for (Eigen::Index j = 0; j < data.X.cols(); ++j)
        QVERIFY(std::abs(double(data.X.col(j).norm()) - 1) < 1e-6);
}

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestCliMasks)
#include "test_cli_masks.moc"
