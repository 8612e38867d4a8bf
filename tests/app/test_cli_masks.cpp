// SPDX-License-Identifier: GPL-3.0-or-later
// facet-cli's missing entries (cli/mask_options.h, solver/methods/mask.h): --mask FILE.mat,
// --missing nan and --occlusion-missing reach the run, oriented like fea; bad masks and methods
// without a masked route are refused with the reason. The explorer's missing pixels
// (data/missing_entries.h): generated and file masks, the hidden values they keep, their
// refusals and their place in the preprocessing settings.
#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli_process.h"
#include "core/random.h"
#include "data/dataset_source.h"
#include "data/mat_writer.h"
#include "data/missing_entries.h"
#include "data/noise.h"
#include "data/preprocess_settings.h"

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
constexpr Eigen::Index kSide2()
{
    return kSide * kSide;
}

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
    void generatedMasksKeepTheHiddenValues_data();
    void generatedMasksKeepTheHiddenValues();
    void missingRefusalsLeaveTheData_data();
    void missingRefusalsLeaveTheData();
    void missingSettingsInJson();
    void loadedDatasetHidesAfterPreparation();
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

void TestCliMasks::generatedMasksKeepTheHiddenValues_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("perSample");
    QTest::newRow("30 % of the pixels") << u"pixels:0.3"_s << 5; // round(0.3 * 16)
    QTest::newRow("a 2 x 2 block") << u"block:2"_s << 4;
}

void TestCliMasks::generatedMasksKeepTheHiddenValues()
{
    QFETCH(QString, text);
    QFETCH(int, perSample);
    const Dataset complete = smallImages();
    const Result<MissingSettings> settings = parseMissing(text, 3);
    QVERIFY2(settings, qPrintable(settings ? QString() : settings.error()));
    Dataset data = complete;
    QVERIFY(applyMissing(data, *settings, 0));
    QVERIFY(data.hasMask());
    QCOMPARE(int(data.hidden.index.size()), perSample * kSamples);
    QVERIFY(std::is_sorted(data.hidden.index.begin(), data.hidden.index.end()));
    for (Eigen::Index j = 0; j < kSamples; ++j) {
        QCOMPARE(int((data.weights.col(j).array() == 0).count()), perSample);
        const HiddenColumn hidden = hiddenColumn(data.hidden, data.features(), j);
        QCOMPARE(int(hidden.rows.size()), perSample);
        Eigen::Index top = kSide, left = kSide, bottom = -1, right = -1;
        for (std::size_t t = 0; t < hidden.rows.size(); ++t) {
            const Eigen::Index i = hidden.rows[t];
            QCOMPARE(data.weights(i, j), Scalar(0));
            QCOMPARE(data.X(i, j), Scalar(0));
            QCOMPARE(hidden.values[t], complete.X(i, j));
            top = std::min(top, i / kSide);
            bottom = std::max(bottom, i / kSide);
            left = std::min(left, i % kSide);
            right = std::max(right, i % kSide);
        }
        if (settings->kind == MissingKind::Block) // one square, not scattered pixels
            QVERIFY(bottom - top == 1 && right - left == 1);
    }
    // The seed decides: the same again, another seed another mask.
    Dataset again = complete;
    QVERIFY(applyMissing(again, *settings, 0));
    QCOMPARE(again.weights, data.weights);
    MissingSettings other = *settings;
    other.seed = 4;
    Dataset another = complete;
    QVERIFY(applyMissing(another, other, 0));
    QVERIFY(another.weights != data.weights);
    // Choosing classes keeps each kept sample's hidden values at its new column.
    const Dataset part = data.selectClasses({ 2, 0 });
    QCOMPARE(int(part.hidden.index.size()), perSample * int(part.samples()));
    std::vector<Eigen::Index> kept; // the samples of classes 2 and 0, in the data's order
    for (Eigen::Index j = 0; j < kSamples; ++j)
        if (complete.labels[std::size_t(j)] != 1)
            kept.push_back(j);
    for (std::size_t t = 0; t < part.hidden.index.size(); ++t) {
        const Eigen::Index i = part.hidden.index[t] % kSide2(), j = part.hidden.index[t] / kSide2();
        QCOMPARE(part.weights(i, j), Scalar(0));
        QCOMPARE(part.hidden.value[t], complete.X(i, kept[std::size_t(j)]));
    }
}

void TestCliMasks::missingRefusalsLeaveTheData_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("block as large as the image") << u"block:4"_s << u"choose a side below 4"_s;
    QTest::newRow("block on vectors") << u"block:1 vectors"_s << u"needs images"_s;
    QTest::newRow("no file chosen") << u"file"_s << u"no mask file is chosen"_s;
    QTest::newRow("file of another shape") << u"file shape"_s << u"is 3 x 16 but the data is"_s;
    QTest::newRow("file hiding a whole sample")
        << u"file sample"_s << u"sample 2 has no observed entry left"_s;
    QTest::newRow("file hiding a pixel everywhere")
        << u"file pixel"_s << u"feature 1 (pixel row 1, column 1) is missing in every sample"_s;
}

void TestCliMasks::missingRefusalsLeaveTheData()
{
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    Dataset data = smallImages();
    if (kind.endsWith(u" vectors"_s))
        data.height = data.width = 0;
    MissingSettings missing = *parseMissing(kind.section(u' ', 0, 0), 1);
    if (kind.startsWith(u"file "_s)) {
        missing.file = dir.filePath(u"mask.mat"_s);
        Eigen::MatrixXd stored = Eigen::MatrixXd::Ones(kSamples, kSide * kSide);
        if (kind.endsWith(u"shape"_s))
            stored.resize(3, kSide * kSide);
        if (kind.endsWith(u"sample"_s))
            stored.row(1).setZero();
        if (kind.endsWith(u"pixel"_s))
            stored.col(0).setZero();
        QVERIFY(writeVariable(missing.file, "mask", stored));
    }
    const Matrix before = data.X;
    const Result<bool> applied = applyMissing(data, missing, 0);
    QVERIFY(!applied);
    QVERIFY2(applied.error().contains(expected), qPrintable(applied.error()));
    QCOMPARE(data.X, before);
    QVERIFY(!data.hasMask());
    QVERIFY(data.hidden.empty());
    QVERIFY(data.maskSources.isEmpty());
}

void TestCliMasks::missingSettingsInJson()
{
    PreprocessSettings settings;
    settings.missing = *parseMissing(u"pixels:0.25"_s, 9);
    Result<PreprocessSettings> back = preprocessFromJson(preprocessToJson(settings));
    QVERIFY(back);
    QCOMPARE(back->missing, settings.missing);
    settings.missing = { MissingKind::File, 0, 0, u"/data/m.mat"_s, u"holes"_s };
    back = preprocessFromJson(preprocessToJson(settings));
    QVERIFY(back);
    QCOMPARE(back->missing, settings.missing);
    QVERIFY(describePreprocess(settings).contains(u"mask from /data/m.mat:holes"_s));
    // Files from before missing pixels load as none; bad values name the key.
    QCOMPARE(preprocessFromJson(QJsonObject {})->missing, MissingSettings {});
    for (const auto& [json, expected] :
        { std::pair { QJsonObject { { u"missing"_s, u"pixels:2"_s } }, u"fraction"_s },
            std::pair { QJsonObject { { u"missing"_s, u"file"_s } }, u"missing_file"_s },
            std::pair { QJsonObject { { u"missing"_s, 3 } }, u"missing must be a string"_s },
            std::pair { QJsonObject { { u"missing_seed"_s, -1 } }, u"missing_seed"_s } }) {
        const Result<PreprocessSettings> refused = preprocessFromJson(json);
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(expected), qPrintable(refused.error()));
    }
}

void TestCliMasks::loadedDatasetHidesAfterPreparation()
{
    // Swimmer (0/1 images, scaled to [0, 1] as loaded): the hidden values are the prepared ones.
    DatasetRequest request;
    request.spec = u"builtin:swimmer"_s;
    const Result<Dataset> plain = loadDataset(request);
    QVERIFY(plain);
    request.preprocess.missing = *parseMissing(u"pixels:0.2"_s, 2);
    const Result<Dataset> masked = loadDataset(request);
    QVERIFY2(masked, qPrintable(masked ? QString() : masked.error()));
    QVERIFY(masked->hasMask());
    QVERIFY(!plain->hasMask());
    QVERIFY(masked->notes.join(u'\n').contains(u"20 % of the pixels missing (seed 2)"_s));
    for (std::size_t t = 0; t < masked->hidden.index.size(); ++t)
        QCOMPARE(masked->hidden.value[t], plain->X.data()[masked->hidden.index[t]]);
    // The exported dataset carries its mask, which --mask reads back in place.
    QTemporaryDir dir;
    const QString exported = dir.filePath(u"masked.mat"_s);
    QVERIFY(writeDatasetMat(exported, *masked));
    request = {};
    request.spec = exported;
    Result<Dataset> back = loadDataset(request);
    QVERIFY(back);
    QVERIFY(applyMaskFile(exported, u"mask"_s, 0, *back));
    QCOMPARE(back->weights, masked->weights);
    const Eigen::Index count = (masked->weights.array() == 0).count();
    QCOMPARE(Eigen::Index(masked->hidden.index.size()), count);
    QCOMPARE(count, Eigen::Index(std::lround(0.2 * double(plain->features()))) * plain->samples());
}

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestCliMasks)
#include "test_cli_masks.moc"
