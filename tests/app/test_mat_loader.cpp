// SPDX-License-Identifier: GPL-3.0-or-later
// The MAT loader on the real files in shared/data (shapes, classes, orientation) and on broken
// files made here (each must give a clear Error, never a crash); dataset preparation and helpers.
#include "core/collectives.h"
#include "data/dataset_source.h"
#include "data/dataset_transfer.h"
#include "data/mat_loader.h"
#include "data/mat_reader_process.h"

#include "test_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <matio.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

using namespace facet;

namespace {

using Upright = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A column of X as the h x w picture it shows (X holds row-major pixels).
Upright picture(const Vector& column, int height, int width)
{
    return Eigen::Map<const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        column.data(), height, width)
        .cast<double>();
}

Vector classMean(const Dataset& data, int label)
{
    Vector sum = Vector::Zero(data.features());
    int count = 0;
    for (Eigen::Index j = 0; j < data.samples(); ++j)
        if (label < 0 || data.labels[std::size_t(j)] == label) {
            sum += data.X.col(j);
            ++count;
        }
    return sum / Scalar(count);
}

// Variance of the row profile over variance of the column profile of a square region: large when
// the region's structure is horizontal bands (eyes, brows, mouth), small when it is vertical.
double bandRatio(const Upright& image, int top, int left, int size)
{
    const Upright region = image.block(top, left, size, size);
    const Eigen::VectorXd rows = region.rowwise().mean();
    const Eigen::RowVectorXd cols = region.colwise().mean();
    const double rowVariance = (rows.array() - rows.mean()).square().mean();
    const double colVariance = (cols.array() - cols.mean()).square().mean();
    return rowVariance / colVariance;
}

// Writes small MAT-files with matio, the way a user's MATLAB or scipy would.
class MatWriter {
public:
    explicit MatWriter(const QString& path, mat_ft version = MAT_FT_MAT5)
        : m_mat(Mat_CreateVer(QFile::encodeName(path).constData(), nullptr, version))
    {
    }
    ~MatWriter() { close(); }
    MatWriter(const MatWriter&) = delete;
    MatWriter& operator=(const MatWriter&) = delete;

    bool ok() const { return m_mat != nullptr; }

    // rows x cols, data in MATLAB's column-major order.
    void write(const char* name, matio_classes cls, matio_types type, std::vector<std::size_t> dims,
        void* data, int flags = 0)
    {
        matvar_t* var = Mat_VarCreate(
            name, cls, type, int(dims.size()), dims.data(), data, flags | MAT_F_DONT_COPY_DATA);
        QVERIFY(var);
        QCOMPARE(Mat_VarWrite(m_mat, var, MAT_COMPRESSION_ZLIB), 0);
        Mat_VarFree(var);
    }
    void writeDoubles(
        const char* name, std::size_t rows, std::size_t cols, std::vector<double>& values)
    {
        write(name, MAT_C_DOUBLE, MAT_T_DOUBLE, { rows, cols }, values.data());
    }
    void writeOwned(matvar_t* var)
    {
        QVERIFY(var);
        QCOMPARE(Mat_VarWrite(m_mat, var, MAT_COMPRESSION_NONE), 0);
        Mat_VarFree(var);
    }
    void close()
    {
        if (m_mat)
            Mat_Close(m_mat);
        m_mat = nullptr;
    }

private:
    mat_t* m_mat;
};

// 4 samples x 4 features (2x2 images), labels 1 1 2 2: a valid file the broken ones start from.
std::vector<double> smallData()
{
    return { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
}
std::vector<double> smallLabels()
{
    return { 1, 1, 2, 2 };
}

} // namespace

class TestMatLoader : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString temp(const QString& name) const { return m_dir.filePath(name); }

    // Loading `path` fails with a message that names the file and holds every needle.
    void expectError(
        const QString& path, const QStringList& needles, const MatLoadOptions& options = {})
    {
        const Result<Dataset> result = loadMat(path, options);
        QVERIFY2(!result.ok(), qPrintable(QStringLiteral("%1 loaded").arg(path)));
        const QString& message = result.error();
        qInfo("%s", qPrintable(message));
        QVERIFY2(message.contains(QFileInfo(path).fileName()), qPrintable(message));
        for (const QString& needle : needles)
            QVERIFY2(message.contains(needle, Qt::CaseInsensitive),
                qPrintable(QStringLiteral("'%1' not in: %2").arg(needle, message)));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void realFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("samples");
        QTest::addColumn<int>("side");
        QTest::addColumn<int>("classes");
        QTest::addColumn<int>("smallestClass");
        QTest::addColumn<int>("largestClass");
        QTest::addColumn<QString>("firstName");
        QTest::addColumn<QString>("lastName");
        QTest::addColumn<double>("maxValue");

        QTest::newRow("ORL") << QStringLiteral("ORL_32x32.mat") << 400 << 32 << 40 << 10 << 10
                             << QStringLiteral("1") << QStringLiteral("40") << 235.0;
        QTest::newRow("Yale") << QStringLiteral("Yale_32x32.mat") << 165 << 32 << 15 << 11 << 11
                              << QStringLiteral("1") << QStringLiteral("15") << 255.0;
        QTest::newRow("COIL20") << QStringLiteral("COIL20.mat") << 1440 << 32 << 20 << 72 << 72
                                << QStringLiteral("1") << QStringLiteral("20") << 1.0;
        QTest::newRow("Coil20Data_25_uni")
            << QStringLiteral("Coil20Data_25_uni.mat") << 1440 << 32 << 20 << 72 << 72
            << QStringLiteral("1") << QStringLiteral("20") << 255.0;
        QTest::newRow("YaleB") << QStringLiteral("YaleB_32x32.mat") << 2414 << 32 << 38 << 59 << 64
                               << QStringLiteral("1") << QStringLiteral("38") << 255.0;
        QTest::newRow("UMIST") << QStringLiteral("UMIST.mat") << 575 << 32 << 20 << 19 << 48
                               << QStringLiteral("1") << QStringLiteral("20") << 242.0;
        QTest::newRow("mnist") << QStringLiteral("mnist.mat") << 4000 << 28 << 10 << 359 << 454
                               << QStringLiteral("0") << QStringLiteral("9") << 255.0;
    }

    void realFiles()
    {
        QFETCH(QString, file);
        QFETCH(int, samples);
        QFETCH(int, side);
        QFETCH(int, classes);
        QFETCH(int, smallestClass);
        QFETCH(int, largestClass);
        QFETCH(QString, firstName);
        QFETCH(QString, lastName);
        QFETCH(double, maxValue);
        const QString path = facetDataFile(file);
        FACET_REQUIRE_DATA(path);

        const Result<Dataset> result = loadMat(path);
        QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error()));
        const Dataset& data = *result;
        QCOMPARE(int(data.samples()), samples);
        QCOMPARE(data.height, side);
        QCOMPARE(data.width, side);
        QCOMPARE(int(data.features()), side * side);
        QCOMPARE(data.classCount(), classes);
        QCOMPARE(int(data.labels.size()), samples);
        QCOMPARE(data.classNames.front(), firstName);
        QCOMPARE(data.classNames.back(), lastName);
        const std::vector<int> sizes = data.classSizes();
        QCOMPARE(*std::min_element(sizes.begin(), sizes.end()), smallestClass);
        QCOMPARE(*std::max_element(sizes.begin(), sizes.end()), largestClass);
        QVERIFY(std::is_sorted(data.labels.begin(), data.labels.end())); // README: sorted by class
        QCOMPARE(double(data.X.maxCoeff()), maxValue);
        QVERIFY(data.X.minCoeff() >= 0);
        QCOMPARE(data.name, QFileInfo(file).completeBaseName());
        QVERIFY(!data.notes.isEmpty());
    }

    void classCountsFromReadme()
    {
        const QString umist = facetDataFile(QStringLiteral("UMIST.mat"));
        const QString yaleB = facetDataFile(QStringLiteral("YaleB_32x32.mat"));
        const QString mnist = facetDataFile(QStringLiteral("mnist.mat"));
        FACET_REQUIRE_DATA(umist);
        FACET_REQUIRE_DATA(yaleB);
        FACET_REQUIRE_DATA(mnist);

        const std::vector<int> umistCounts { 38, 35, 26, 24, 26, 23, 19, 22, 20, 32, 34, 34, 26, 30,
            19, 26, 26, 33, 48, 34 };
        QCOMPARE(loadMat(umist)->classSizes(), umistCounts);
        const std::vector<int> digits { 366, 454, 417, 398, 431, 359, 378, 429, 364, 404 };
        QCOMPARE(loadMat(mnist)->classSizes(), digits);
        std::vector<int> yaleBCounts(38, 64);
        yaleBCounts[10] = 60, yaleBCounts[11] = 59, yaleBCounts[12] = 60, yaleBCounts[13] = 63;
        yaleBCounts[14] = 62, yaleBCounts[15] = 63, yaleBCounts[16] = 63;
        QCOMPARE(loadMat(yaleB)->classSizes(), yaleBCounts);
    }

    void imageSizeFromFileVariables()
    {
        const QString path = facetDataFile(QStringLiteral("Coil20Data_25_uni.mat"));
        FACET_REQUIRE_DATA(path);
        const Result<Dataset> data = loadMat(path);
        QVERIFY(data.ok());
        QVERIFY(data->notes.join(QLatin1Char(' ')).contains(QStringLiteral("im_height")));
    }

    // README: Deng Cai's faces are column-major; read right, the mean ORL face is upright, its eyes
    // a dark horizontal band in the upper half and its halves mirror images left to right.
    void faceOrientation()
    {
        const QString path = facetDataFile(QStringLiteral("ORL_32x32.mat"));
        FACET_REQUIRE_DATA(path);
        const Result<Dataset> good = loadMat(path);
        QVERIFY(good.ok());
        const Upright mean = picture(classMean(*good, -1), 32, 32);

        QVERIFY2(bandRatio(mean, 8, 8, 16) > 3.0, "upright mean face has horizontal bands");
        const double leftRight = (mean - mean.rowwise().reverse()).norm();
        const double upDown = (mean - mean.colwise().reverse()).norm();
        QVERIFY(2 * leftRight < upDown);

        // The darkest row across the face (the eyes) lies in the upper half: the face is not
        // upside down.
        Eigen::Index darkest = 0;
        mean.block(4, 6, 24, 20).rowwise().mean().minCoeff(&darkest);
        QVERIFY2(darkest + 4 >= 6 && darkest + 4 < 16, qPrintable(QString::number(darkest + 4)));

        MatLoadOptions wrong;
        wrong.pixelOrder = PixelOrder::RowMajor;
        const Result<Dataset> transposed = loadMat(path, wrong);
        QVERIFY(transposed.ok());
        const Upright sideways = picture(classMean(*transposed, -1), 32, 32);
        QVERIFY2(bandRatio(sideways, 8, 8, 16) < 1.0 / 3.0, "row-major load lies on its side");
        QVERIFY(sideways.isApprox(mean.transpose()));
    }

    // README: mnist.mat is row-major; the mean "1" is then a vertical stroke.
    void digitOrientation()
    {
        const QString path = facetDataFile(QStringLiteral("mnist.mat"));
        FACET_REQUIRE_DATA(path);
        const Result<Dataset> good = loadMat(path);
        QVERIFY(good.ok());
        QCOMPARE(good->classNames.at(1), QStringLiteral("1"));
        const Upright one = picture(classMean(*good, 1), 28, 28);
        QVERIFY2(bandRatio(one, 4, 4, 20) < 0.2, "mean 1 is a vertical stroke");

        // Mass is centred (MNIST centres digits by centre of mass).
        const Upright all = picture(classMean(*good, -1), 28, 28);
        double rowCentre = 0, colCentre = 0;
        for (int r = 0; r < 28; ++r)
            for (int c = 0; c < 28; ++c)
                rowCentre += r * all(r, c), colCentre += c * all(r, c);
        rowCentre /= all.sum(), colCentre /= all.sum();
        QVERIFY(std::abs(rowCentre - 13.5) < 1.5 && std::abs(colCentre - 13.5) < 1.5);

        MatLoadOptions wrong;
        wrong.pixelOrder = PixelOrder::ColumnMajor;
        const Result<Dataset> transposed = loadMat(path, wrong);
        QVERIFY(transposed.ok());
        const Upright lying = picture(classMean(*transposed, 1), 28, 28);
        QVERIFY2(bandRatio(lying, 4, 4, 20) > 5.0, "column-major load lies on its side");
        QVERIFY(!lying.isApprox(one));
    }

    // Every numeric class converts to double, and the pixel order is undone as asked.
    void storedTypes_data()
    {
        QTest::addColumn<int>("classType");
        QTest::newRow("double") << int(MAT_C_DOUBLE);
        QTest::newRow("single") << int(MAT_C_SINGLE);
        QTest::newRow("int8") << int(MAT_C_INT8);
        QTest::newRow("uint8") << int(MAT_C_UINT8);
        QTest::newRow("int16") << int(MAT_C_INT16);
        QTest::newRow("uint16") << int(MAT_C_UINT16);
        QTest::newRow("int32") << int(MAT_C_INT32);
        QTest::newRow("uint32") << int(MAT_C_UINT32);
        QTest::newRow("int64") << int(MAT_C_INT64);
        QTest::newRow("uint64") << int(MAT_C_UINT64);
    }

    void storedTypes()
    {
        QFETCH(int, classType);
        const auto cls = matio_classes(classType);
        static const matio_types typeOf[]
            = { MAT_T_UNKNOWN, MAT_T_UNKNOWN, MAT_T_UNKNOWN, MAT_T_UNKNOWN, MAT_T_UNKNOWN,
                  MAT_T_UNKNOWN, MAT_T_DOUBLE, MAT_T_SINGLE, MAT_T_INT8, MAT_T_UINT8, MAT_T_INT16,
                  MAT_T_UINT16, MAT_T_INT32, MAT_T_UINT32, MAT_T_INT64, MAT_T_UINT64 };
        // 3 samples of 2 x 3 images; value 10 i + j for sample i, file column j.
        constexpr int N = 3, D = 6;
        std::vector<unsigned char> bytes(N * D * 8);
        for (int j = 0; j < D; ++j)
            for (int i = 0; i < N; ++i) {
                const int k = j * N + i, v = 10 * i + j;
                switch (cls) {
                case MAT_C_DOUBLE:
                    reinterpret_cast<double*>(bytes.data())[k] = v;
                    break;
                case MAT_C_SINGLE:
                    reinterpret_cast<float*>(bytes.data())[k] = float(v);
                    break;
                case MAT_C_INT8:
                    reinterpret_cast<std::int8_t*>(bytes.data())[k] = std::int8_t(v);
                    break;
                case MAT_C_UINT8:
                    bytes[std::size_t(k)] = std::uint8_t(v);
                    break;
                case MAT_C_INT16:
                    reinterpret_cast<std::int16_t*>(bytes.data())[k] = std::int16_t(v);
                    break;
                case MAT_C_UINT16:
                    reinterpret_cast<std::uint16_t*>(bytes.data())[k] = std::uint16_t(v);
                    break;
                case MAT_C_INT32:
                    reinterpret_cast<std::int32_t*>(bytes.data())[k] = v;
                    break;
                case MAT_C_UINT32:
                    reinterpret_cast<std::uint32_t*>(bytes.data())[k] = std::uint32_t(v);
                    break;
                case MAT_C_INT64:
                    reinterpret_cast<std::int64_t*>(bytes.data())[k] = v;
                    break;
                case MAT_C_UINT64:
                    reinterpret_cast<std::uint64_t*>(bytes.data())[k] = std::uint64_t(v);
                    break;
                default:
                    QFAIL("unexpected class");
                }
            }
        std::vector<std::uint8_t> labels { 3, 1, 3 };
        const QString path = temp(QStringLiteral("types_%1.mat").arg(classType));
        {
            MatWriter out(path);
            QVERIFY(out.ok());
            out.write("fea", cls, typeOf[classType], { N, D }, bytes.data());
            out.write("gnd", MAT_C_UINT8, MAT_T_UINT8, { 1, N }, labels.data()); // a row of labels
        }
        MatLoadOptions options;
        options.height = 2;
        options.width = 3;
        const Result<Dataset> data = loadMat(path, options);
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(data->height, 2);
        QCOMPARE(data->width, 3);
        // Auto is column-major for anything but 28x28: pixel (r, c) is file column c * 2 + r.
        for (int i = 0; i < N; ++i)
            for (int r = 0; r < 2; ++r)
                for (int c = 0; c < 3; ++c)
                    QCOMPARE(double(data->X(r * 3 + c, i)), double(10 * i + c * 2 + r));
        QCOMPARE(data->labels, (std::vector<int> { 1, 0, 1 }));
        QCOMPARE(data->classNames, (QStringList { QStringLiteral("1"), QStringLiteral("3") }));

        options.pixelOrder = PixelOrder::RowMajor;
        const Result<Dataset> rowMajor = loadMat(path, options);
        QVERIFY(rowMajor.ok());
        for (int i = 0; i < N; ++i)
            for (int p = 0; p < D; ++p)
                QCOMPARE(double(rowMajor->X(p, i)), double(10 * i + p));
    }

    void labelsAndNames()
    {
        const QString path = temp(QStringLiteral("names.mat"));
        std::vector<double> data = smallData();
        std::vector<double> labels { 7, -2, 7, 3 };
        {
            MatWriter out(path);
            out.writeDoubles("A", 4, 4, data);
            out.writeDoubles("B", 4, 1, labels);
        }
        // No default names: the data must be named, and a label name that is absent is an error.
        expectError(path, { QStringLiteral("fea"), QStringLiteral("'A'"), QStringLiteral("'B'") });
        MatLoadOptions options;
        options.dataVariable = QStringLiteral("A");
        const Result<Dataset> unlabelled = loadMat(path, options);
        QVERIFY(unlabelled.ok());
        QVERIFY(!unlabelled->hasLabels());
        options.labelVariable = QStringLiteral("gnd");
        expectError(path, { QStringLiteral("'gnd'") }, options);

        options.labelVariable = QStringLiteral("B");
        const Result<Dataset> labelled = loadMat(path, options);
        QVERIFY(labelled.ok());
        QCOMPARE(labelled->labels, (std::vector<int> { 2, 0, 2, 1 }));
        QCOMPARE(labelled->classNames,
            (QStringList { QStringLiteral("-2"), QStringLiteral("3"), QStringLiteral("7") }));
        QCOMPARE(labelled->height, 2); // 4 features: a 2x2 square

        options.height = 3;
        expectError(path, { QStringLiteral("3 x"), QStringLiteral("4 features") }, options);
    }

    // MATLAB's older (v4) and newer HDF5-based (v7.3) containers load the same way.
    void otherVersions_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("v4") << int(MAT_FT_MAT4);
        QTest::newRow("v7.3") << int(MAT_FT_MAT73);
    }

    void otherVersions()
    {
        QFETCH(int, version);
        const QString path = temp(QStringLiteral("version_%1.mat").arg(version));
        std::vector<double> data = smallData(), labels = smallLabels();
        {
            MatWriter out(path, mat_ft(version));
            if (!out.ok())
                QSKIP("this matio cannot write that version");
            out.writeDoubles("fea", 4, 4, data);
            out.writeDoubles("gnd", 4, 1, labels);
        }
        DatasetRequest request;
        request.spec = path;
        request.prepare.scaleTo01 = false;
        const Result<Dataset> loaded = loadDataset(request);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        QCOMPARE(int(loaded->samples()), 4);
        QCOMPARE(loaded->labels, (std::vector<int> { 0, 0, 1, 1 }));
        // Sample 1, file column 2 (value 9) is pixel (0, 1) of a column-major 2x2 image.
        QCOMPARE(double(loaded->X(1, 1)), 9.0);
        // v7.3 goes through facet-mat-reader (data/mat_reader_process.h): the same dataset as
        // read in this process, with the caller's options passed on.
        QCOMPARE(isHdf5MatFile(path), version == int(MAT_FT_MAT73));
        MatLoadOptions options;
        options.pixelOrder = PixelOrder::RowMajor;
        options.labelVariable = QStringLiteral("gnd");
        const Result<Dataset> isolated = loadMat(path, options);
        options.isolateHdf5 = false;
        const Result<Dataset> here = loadMat(path, options);
        QVERIFY(isolated.ok() && here.ok());
        QVERIFY(isolated->X == here->X);
        QVERIFY(double(isolated->X(1, 1)) != 9.0); // row-major: not the column-major pixel
        QCOMPARE(isolated->labels, here->labels);
        QCOMPARE(isolated->classNames, here->classNames);
        QCOMPARE(isolated->notes, here->notes);
        QCOMPARE(isolated->name, here->name);
        QCOMPARE(isolated->source, here->source);
        QCOMPARE(isolated->height, here->height);
        QCOMPARE(isolated->width, here->width);
        options.dataVariable = QStringLiteral("nope");
        options.isolateHdf5 = true;
        const Result<Dataset> missing = loadMat(path, options);
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().contains(QStringLiteral("nope")), qPrintable(missing.error()));
    }

    // A rank of a distributed run reads its part of a MAT 7.3 file as one HDF5 hyperslab
    // (MatLoadOptions::part): the parts, side by side, are the whole set, the stored uint8
    // converted as a whole read converts it, and each part holds every sample's label, numbered
    // alike. Only MAT 7.3 files are read in parts.
    void partsOfMat73()
    {
        const QString path = temp(QStringLiteral("parts73.mat"));
        const QString level5 = temp(QStringLiteral("parts5.mat"));
        // 7 samples x 5 features (no square image: the samples stay vectors).
        std::vector<std::uint8_t> fea(35);
        for (std::size_t i = 0; i < fea.size(); ++i)
            fea[i] = std::uint8_t((i * 37 + 11) % 251);
        std::vector<double> gnd { 3, 1, 3, 2, 1, 2, 3 };
        for (const auto& [file, version] :
            { std::pair { path, MAT_FT_MAT73 }, std::pair { level5, MAT_FT_MAT5 } }) {
            MatWriter out(file, version);
            if (!out.ok())
                QSKIP("this matio cannot write MAT 7.3 files");
            out.write("fea", MAT_C_UINT8, MAT_T_UINT8, { 7, 5 }, fea.data());
            out.writeDoubles("gnd", 7, 1, gnd);
        }
        const Result<Dataset> whole = loadMat(path);
        QVERIFY2(whole.ok(), qPrintable(whole.ok() ? QString() : whole.error()));
        Matrix joined(5, 0);
        for (int part = 0; part < 3; ++part) {
            MatLoadOptions options;
            options.part = part;
            options.parts = 3;
            options.isolateHdf5 = part != 1; // the helper process, and this one
            const Result<Dataset> read = loadMat(path, options);
            QVERIFY2(read.ok(), qPrintable(read.ok() ? QString() : read.error()));
            QCOMPARE(read->X.cols(), sampleRange(7, 3, part).count);
            QCOMPARE(read->labels, whole->labels);
            QCOMPARE(read->classNames, whole->classNames);
            QCOMPARE(read->notes, whole->notes);
            joined.conservativeResize(5, joined.cols() + read->X.cols());
            joined.rightCols(read->X.cols()) = read->X;
        }
        QVERIFY(joined == whole->X);
        QCOMPARE(double(joined(1, 2)), double(fea[std::size_t(1 * 7 + 2)]));

        MatLoadOptions options;
        options.parts = 2;
        const Result<Dataset> notHdf5 = loadMat(level5, options);
        QVERIFY(!notHdf5.ok());
        QVERIFY2(
            notHdf5.error().contains(QStringLiteral("only a MAT 7.3 (HDF5) file can be read in "
                                                    "parts")),
            qPrintable(notHdf5.error()));
        options.parts = 8;
        const Result<Dataset> tooMany = loadMat(path, options);
        QVERIFY(!tooMany.ok());
        QVERIFY2(
            tooMany.error().contains(QStringLiteral("7 samples, which cannot be split into 8")),
            qPrintable(tooMany.error()));
    }

    // The helper's hand-back (data/dataset_transfer.h) keeps every field, and a truncated one is
    // an error; its command line keeps the options, empty variable names included.
    void helperHandBack()
    {
        Dataset d;
        d.name = QStringLiteral("a name, with spaces");
        d.source = QStringLiteral("/some/where.mat");
        d.X = Matrix::Random(5, 3);
        d.labels = { 0, 1, 1 };
        d.classNames = { QStringLiteral("a"), QStringLiteral("b") };
        d.height = 1;
        d.width = 5;
        d.notes = { QStringLiteral("one"), QStringLiteral("two") };
        const QString path = temp(QStringLiteral("handback.bin"));
        QVERIFY(writeDatasetTransfer(d, path).ok());
        const Result<Dataset> back = readDatasetTransfer(path);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error()));
        QVERIFY(back->X == d.X);
        QCOMPARE(back->labels, d.labels);
        QCOMPARE(back->classNames, d.classNames);
        QCOMPARE(back->notes, d.notes);
        QCOMPARE(back->name, d.name);
        QCOMPARE(back->source, d.source);
        QCOMPARE(back->height, 1);
        QCOMPARE(back->width, 5);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(file.size() - 1));
        file.close();
        const Result<Dataset> cut = readDatasetTransfer(path);
        QVERIFY(!cut.ok());
        QVERIFY2(cut.error().contains(QStringLiteral("incomplete")), qPrintable(cut.error()));

        MatLoadOptions o;
        o.memoryBudgetBytes = 12345;
        o.pixelOrder = PixelOrder::ColumnMajor;
        o.height = 4;
        o.width = 7;
        o.labelVariable = QStringLiteral("y");
        o.part = 2;
        o.parts = 3;
        const std::optional<HelperRequest> request
            = fromHelperArguments(helperArguments(QStringLiteral("in"), QStringLiteral("out"), o));
        QVERIFY(request);
        QCOMPARE(request->path, QStringLiteral("in"));
        QCOMPARE(request->output, QStringLiteral("out"));
        QCOMPARE(request->options.memoryBudgetBytes, 12345);
        QVERIFY(request->options.pixelOrder == PixelOrder::ColumnMajor);
        QCOMPARE(request->options.height, 4);
        QCOMPARE(request->options.width, 7);
        QVERIFY(request->options.dataVariable.isEmpty());
        QCOMPARE(request->options.labelVariable, QStringLiteral("y"));
        QCOMPARE(request->options.part, 2);
        QCOMPARE(request->options.parts, 3);
        QVERIFY(!request->options.isolateHdf5); // the helper reads the file itself
        QVERIFY(!fromHelperArguments({ QStringLiteral("in"), QStringLiteral("out") }));
    }

    void notAnImage()
    {
        const QString path = temp(QStringLiteral("vectors.mat"));
        std::vector<double> data(2 * 10, 1.0);
        {
            MatWriter out(path);
            out.writeDoubles("X", 2, 10, data);
        }
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->height, 1);
        QCOMPARE(loaded->width, 10);
        QVERIFY(loaded->notes.join(QLatin1Char(' ')).contains(QStringLiteral("not images")));
    }

    void brokenFiles()
    {
        const QString empty = temp(QStringLiteral("empty.mat"));
        QFile(empty).open(QIODevice::WriteOnly);
        expectError(empty, { QStringLiteral("empty") });

        expectError(temp(QStringLiteral("missing.mat")), { QStringLiteral("not found") });

        const QString text = temp(QStringLiteral("notes.mat"));
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("This is a text file that someone renamed to .mat, with no header at all.\n");
        }
        expectError(text, { QStringLiteral("not a MATLAB MAT-file") });

        const QString orl = facetDataFile(QStringLiteral("ORL_32x32.mat"));
        FACET_REQUIRE_DATA(orl);
        const QString truncated = temp(QStringLiteral("ORL_truncated.mat"));
        auto cutCopy = [&](const QString& from, qint64 bytes) {
            QFile source(from);
            QVERIFY(source.open(QIODevice::ReadOnly));
            QFile out(truncated);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(source.read(bytes));
        };
        cutCopy(orl, 1000);
        expectError(truncated, { QStringLiteral("'fea'"), QStringLiteral("truncated") });

        // Any cut, compressed (ORL) or not (UMIST), is an error and never a crash.
        const QString umist = facetDataFile(QStringLiteral("UMIST.mat"));
        for (const QString& from : { orl, umist }) {
            const qint64 size = QFileInfo(from).size();
            for (qint64 bytes :
                { qint64(100), qint64(128), qint64(136), qint64(300), size / 2, size - 1 }) {
                cutCopy(from, bytes);
                expectError(truncated, {});
            }
        }
    }

    void badContents()
    {
        std::vector<double> data = smallData(), labels = smallLabels();

        const QString mismatch = temp(QStringLiteral("mismatch.mat"));
        std::vector<double> three { 1, 1, 2 };
        {
            MatWriter out(mismatch);
            out.writeDoubles("fea", 4, 4, data);
            out.writeDoubles("gnd", 3, 1, three);
        }
        expectError(mismatch, { QStringLiteral("'gnd' has 3 labels but 'fea' has 4 samples") });

        const QString nan = temp(QStringLiteral("nan.mat"));
        std::vector<double> withNan = data;
        withNan[9] = std::numeric_limits<double>::quiet_NaN();
        {
            MatWriter out(nan);
            out.writeDoubles("fea", 4, 4, withNan);
            out.writeDoubles("gnd", 4, 1, labels);
        }
        expectError(
            nan, { QStringLiteral("'fea'"), QStringLiteral("nan"), QStringLiteral("finite") });

        const QString fractional = temp(QStringLiteral("fractional.mat"));
        std::vector<double> halves { 1, 1.5, 2, 2 };
        {
            MatWriter out(fractional);
            out.writeDoubles("fea", 4, 4, data);
            out.writeDoubles("gnd", 4, 1, halves);
        }
        expectError(fractional,
            { QStringLiteral("'gnd'"), QStringLiteral("1.5"), QStringLiteral("integer") });

        const QString complex = temp(QStringLiteral("complex.mat"));
        std::vector<double> imaginary(16, 1.0);
        mat_complex_split_t split { data.data(), imaginary.data() };
        {
            MatWriter out(complex);
            out.write("fea", MAT_C_DOUBLE, MAT_T_DOUBLE, { 4, 4 }, &split, MAT_F_COMPLEX);
        }
        expectError(complex, { QStringLiteral("'fea'"), QStringLiteral("complex") });

        const QString cube = temp(QStringLiteral("cube.mat"));
        {
            MatWriter out(cube);
            out.write("fea", MAT_C_DOUBLE, MAT_T_DOUBLE, { 4, 2, 2 }, data.data());
        }
        expectError(cube, { QStringLiteral("'fea'"), QStringLiteral("3 dimensions") });

        const QString nothing = temp(QStringLiteral("nothing.mat"));
        {
            MatWriter out(nothing);
            out.write("fea", MAT_C_DOUBLE, MAT_T_DOUBLE, { 0, 4 }, nullptr);
        }
        expectError(nothing, { QStringLiteral("'fea'"), QStringLiteral("empty") });

        const QString text = temp(QStringLiteral("chars.mat"));
        char hello[] = "hello";
        {
            MatWriter out(text);
            out.write("fea", MAT_C_CHAR, MAT_T_UINT8, { 1, 5 }, hello);
        }
        expectError(text, { QStringLiteral("'fea'"), QStringLiteral("char array") });

        const QString cell = temp(QStringLiteral("cell.mat"));
        {
            MatWriter out(cell);
            out.writeDoubles("fea", 4, 4, data);
            std::size_t one[2] = { 1, 1 };
            matvar_t* element[1]
                = { Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, one, labels.data(), 0) };
            matvar_t* var = Mat_VarCreate("gnd", MAT_C_CELL, MAT_T_CELL, 2, one, element, 0);
            out.writeOwned(var); // the cell owns its element and frees it
        }
        expectError(cell, { QStringLiteral("'gnd'"), QStringLiteral("cell array") });
    }

    void memoryBudget()
    {
        const QString path = facetDataFile(QStringLiteral("ORL_32x32.mat"));
        FACET_REQUIRE_DATA(path);
        MatLoadOptions options;
        options.memoryBudgetBytes = 1 << 20;
        expectError(path, { QStringLiteral("'fea'"), QStringLiteral("memory budget") }, options);
    }

    // A hand-made Level 5 header that claims a 2147483647 x 2147483647 double matrix: refused
    // from its dimensions, before any allocation.
    void hugeHeader()
    {
        QByteArray bytes(128, ' ');
        bytes.replace(0, 19, "MATLAB 5.0 MAT-file");
        bytes[124] = 0x00, bytes[125] = 0x01, bytes[126] = 'I', bytes[127] = 'M';
        auto u32 = [&bytes](quint32 v) {
            for (int b = 0; b < 4; ++b)
                bytes.append(char((v >> (8 * b)) & 0xff));
        };
        u32(14), u32(56); // miMATRIX, 56 bytes
        u32(6), u32(8), u32(6), u32(0); // array flags: class double
        u32(5), u32(8), u32(0x7fffffff), u32(0x7fffffff); // dimensions
        u32(1), u32(3), u32(0), u32(0); // name "fea", padded
        bytes.replace(bytes.size() - 8, 3, "fea");
        u32(9), u32(0); // real part: no data
        const QString path = temp(QStringLiteral("huge.mat"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        // Its data holds none of the values the dimensions count (an honest file of that size
        // would meet the memory budget instead).
        expectError(path,
            { QStringLiteral("'fea'"), QStringLiteral("2147483647 x 2147483647"),
                QStringLiteral("cut short") });
    }

    void datasetForms()
    {
        DatasetRequest request;
        request.spec = QStringLiteral("BuiltIn:Swimmer");
        const Result<Dataset> swimmer = loadDataset(request);
        QVERIFY(swimmer.ok());
        QCOMPARE(int(swimmer->samples()), 256);
        QCOMPARE(double(swimmer->X.maxCoeff()), 1.0); // 0/1 data is already in [0, 1]

        request.spec = QStringLiteral("builtin:dancer");
        Result<Dataset> result = loadDataset(request);
        QVERIFY(!result.ok());
        QVERIFY(result.error().contains(QStringLiteral("builtin:swimmer")));

        const QString csv = temp(QStringLiteral("table.csv"));
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("1,2,3\n");
        }
        request.spec = csv;
        result = loadDataset(request);
        QVERIFY(!result.ok());
        QVERIFY(result.error().contains(QStringLiteral(".mat")));
        QVERIFY(result.error().contains(QStringLiteral("builtin:swimmer")));

        request.spec = m_dir.path();
        QVERIFY(!loadDataset(request).ok());

        const QString orl = facetDataFile(QStringLiteral("ORL_32x32.mat"));
        FACET_REQUIRE_DATA(orl);
        const QString renamed = temp(QStringLiteral("faces.bin"));
        QVERIFY(QFile::copy(orl, renamed));
        request.spec = renamed; // recognised by content
        result = loadDataset(request);
        QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error()));
        QVERIFY(std::abs(double(result->X.maxCoeff()) - 235.0 / 255.0) < 1e-6);
        QVERIFY(result->notes.join(QLatin1Char(' ')).contains(QStringLiteral("255")));
        QVERIFY(describe(*result).startsWith(
            QStringLiteral("faces: 400 images 32x32 (m = 1024), 40 classes of 10, values 0.00")));
    }

    void preparation()
    {
        Dataset data;
        data.name = QStringLiteral("t");
        data.X = Matrix::Zero(3, 3);
        data.X.col(0) << 3, 4, 0;
        data.X.col(1) << 255, 0, 0;
        prepareDataset(data, { .scaleTo01 = true, .l2Normalize = true });
        QVERIFY(std::abs(data.X.col(0).norm() - 1) < 1e-6);
        QVERIFY(std::abs(data.X.col(1).norm() - 1) < 1e-6);
        QCOMPARE(data.X.col(2).norm(), Scalar(0)); // a blank sample stays blank, no NaN
        QVERIFY(data.X.allFinite());

        Dataset centred;
        centred.X = Matrix::Constant(2, 2, 5);
        centred.X(0, 0) = -3;
        prepareDataset(centred, { .scaleTo01 = true, .l2Normalize = false });
        QCOMPARE(centred.X(1, 1), Scalar(5));
        QVERIFY(centred.notes.join(QLatin1Char(' ')).contains(QStringLiteral("negative")));

        Dataset unit;
        unit.X = Matrix::Constant(2, 2, 0.5);
        prepareDataset(unit, {});
        QCOMPARE(unit.X(0, 0), Scalar(0.5));
    }

    void selectAndDescribe()
    {
        Dataset data;
        data.name = QStringLiteral("toy");
        data.height = 1;
        data.width = 2;
        data.X.resize(2, 5);
        data.X << 0, 1, 2, 3, 4, 5, 6, 7, 8, 9;
        data.labels = { 0, 1, 2, 1, 0 };
        data.classNames = { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") };
        QCOMPARE(data.classSizes(), (std::vector<int> { 2, 2, 1 }));
        QCOMPARE(describe(data),
            QStringLiteral("toy: 5 samples of 2 features, 3 classes of 1..2, values 0..9"));

        const Dataset picked = data.selectClasses({ 2, 0 });
        QCOMPARE(int(picked.samples()), 3);
        QCOMPARE(picked.labels, (std::vector<int> { 1, 0, 1 }));
        QCOMPARE(picked.classNames, (QStringList { QStringLiteral("c"), QStringLiteral("a") }));
        QCOMPARE(double(picked.X(0, 1)), 2.0);
        QCOMPARE(double(picked.X(1, 2)), 9.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data.selectClasses({ 3 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data.selectClasses({ 1, 1 }));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestMatLoader)
#include "test_mat_loader.moc"
