// SPDX-License-Identifier: GPL-3.0-or-later
// facet-fuzz-seeds DIR: writes the seed corpora DIR/{mat,image,csv,cli,session} with Facet's own
// writers (writeDatasetMat, matio, Qt's and OpenCV's encoders), tiny so the fuzzers mutate fast.
#include "data/mat_writer.h"
#include "fuzz_support.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTextStream>

#include <matio.h>
#include <opencv2/imgcodecs.hpp>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace facet;

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(bytes) == bytes.size();
}

Dataset tinyDataset(int height, int width, int samples, bool labelled)
{
    Dataset d;
    d.height = height;
    d.width = width;
    d.X.resize(height * width, samples);
    for (Eigen::Index j = 0; j < d.X.cols(); ++j)
        for (Eigen::Index i = 0; i < d.X.rows(); ++i)
            d.X(i, j) = Scalar((i * 7 + j * 3) % 11) / 10;
    if (labelled) {
        d.classNames = { QStringLiteral("1"), QStringLiteral("2") };
        for (int j = 0; j < samples; ++j)
            d.labels.push_back(j % 2);
    }
    return d;
}

// One variable per call, in the given class, version and compression: the shapes loadMat
// accepts and a few it refuses (3-D, char, wrong label count).
template <class T>
bool writeMatio(const QString& path, mat_ft version, matio_compression compression,
    matio_classes cls, matio_types type, std::vector<std::size_t> dims, std::vector<T> values,
    const char* name = "fea", bool withLabels = true)
{
    mat_t* mat = Mat_CreateVer(QFile::encodeName(path).constData(), nullptr, version);
    if (!mat)
        return false;
    matvar_t* var = Mat_VarCreate(
        name, cls, type, int(dims.size()), dims.data(), values.data(), MAT_F_DONT_COPY_DATA);
    bool ok = var && Mat_VarWrite(mat, var, compression) == 0;
    Mat_VarFree(var);
    if (withLabels && ok) {
        std::vector<double> labels(dims[0]);
        for (std::size_t i = 0; i < labels.size(); ++i)
            labels[i] = double(i % 2 + 1);
        std::array<std::size_t, 2> labelDims { labels.size(), 1 };
        matvar_t* gnd = Mat_VarCreate("gnd", MAT_C_DOUBLE, MAT_T_DOUBLE, 2, labelDims.data(),
            labels.data(), MAT_F_DONT_COPY_DATA);
        ok = gnd && Mat_VarWrite(mat, gnd, compression) == 0;
        Mat_VarFree(gnd);
    }
    Mat_Close(mat);
    return ok;
}

bool writeMatSeeds(const QString& dir)
{
    bool ok = writeDatasetMat(dir + QStringLiteral("/square.mat"), tinyDataset(2, 2, 4, true)).ok()
        && writeDatasetMat(dir + QStringLiteral("/sized.mat"), tinyDataset(2, 3, 3, true)).ok()
        && writeDatasetMat(dir + QStringLiteral("/unlabelled.mat"), tinyDataset(1, 3, 2, false))
               .ok();
    std::vector<std::uint8_t> bytes { 0, 50, 100, 150, 200, 250, 10, 20 };
    ok = ok
        && writeMatio(dir + QStringLiteral("/uint8.mat"), MAT_FT_MAT5, MAT_COMPRESSION_NONE,
            MAT_C_UINT8, MAT_T_UINT8, { 2, 4 }, bytes);
    ok = ok
        && writeMatio(dir + QStringLiteral("/single.mat"), MAT_FT_MAT5, MAT_COMPRESSION_ZLIB,
            MAT_C_SINGLE, MAT_T_SINGLE, { 2, 4 }, std::vector<float> { 1, 2, 3, 4, 5, 6, 7, 8 });
    ok = ok
        && writeMatio(dir + QStringLiteral("/int16_X.mat"), MAT_FT_MAT5, MAT_COMPRESSION_NONE,
            MAT_C_INT16, MAT_T_INT16, { 3, 1 }, std::vector<std::int16_t> { -1, 0, 1 }, "X");
    ok = ok
        && writeMatio(dir + QStringLiteral("/cube.mat"), MAT_FT_MAT5, MAT_COMPRESSION_NONE,
            MAT_C_DOUBLE, MAT_T_DOUBLE, { 1, 2, 2 }, std::vector<double> { 1, 2, 3, 4 }, "fea",
            false);
    // A factors file's run report (readMatText), beside a matrix.
    const std::u16string report = u"{\"method\": \"nmf\", \"seed\": 3}";
    ok = ok
        && writeMatio(dir + QStringLiteral("/facet_run.mat"), MAT_FT_MAT5, MAT_COMPRESSION_NONE,
            MAT_C_CHAR, MAT_T_UINT16, { 1, report.size() },
            std::vector<char16_t>(report.begin(), report.end()), "facet_run", false);
    // The same in UTF-8 char data, whose data tag counts bytes and dimensions characters.
    const std::string utf8 = "{\"method\": \"gr\xc3\xbc\xc3\x9f\"}";
    ok = ok
        && writeMatio(dir + QStringLiteral("/facet_run_utf8.mat"), MAT_FT_MAT5,
            MAT_COMPRESSION_NONE, MAT_C_CHAR, MAT_T_UTF8, { 1, utf8.size() - 2 },
            std::vector<char>(utf8.begin(), utf8.end()), "facet_run", false);
    ok = ok
        && writeMatio(dir + QStringLiteral("/v4.mat"), MAT_FT_MAT4, MAT_COMPRESSION_NONE,
            MAT_C_DOUBLE, MAT_T_DOUBLE, { 2, 2 }, std::vector<double> { 1, 2, 3, 4 });
    // The HDF5-based v7.3 container, which matio reads through Debian's libhdf5.
    ok = ok
        && writeMatio(dir + QStringLiteral("/v73.mat"), MAT_FT_MAT73, MAT_COMPRESSION_NONE,
            MAT_C_DOUBLE, MAT_T_DOUBLE, { 2, 2 }, std::vector<double> { 1, 2, 3, 4 });
    return ok;
}

bool writeImageSeeds(const QString& dir)
{
    QImage grey(3, 2, QImage::Format_Grayscale8);
    for (int r = 0; r < grey.height(); ++r)
        for (int c = 0; c < grey.width(); ++c)
            grey.scanLine(r)[c] = uchar(30 * r + 60 * c);
    QImage colour = grey.convertToFormat(QImage::Format_RGB888);
    colour.setPixelColor(0, 0, QColor(250, 0, 0));
    bool ok = true;
    for (const char* format : { "png", "pgm", "bmp", "jpg" })
        ok = ok && grey.save(dir + QStringLiteral("/grey.") + QLatin1String(format), format);
    for (const char* format : { "png", "ppm", "bmp" })
        ok = ok && colour.save(dir + QStringLiteral("/colour.") + QLatin1String(format), format);
    // Formats Qt cannot write here: OpenCV's encoders (TIFF, WebP, 16-bit PNG, ASCII PGM).
    const cv::Mat wide(2, 3, CV_16UC1, cv::Scalar(40000));
    const cv::Mat small(2, 3, CV_8UC3, cv::Scalar(10, 200, 30));
    ok = ok
        && cv::imwrite(QFile::encodeName(dir + QStringLiteral("/wide.png")).toStdString(), wide);
    ok = ok
        && cv::imwrite(QFile::encodeName(dir + QStringLiteral("/small.tiff")).toStdString(), small);
    ok = ok
        && cv::imwrite(QFile::encodeName(dir + QStringLiteral("/small.webp")).toStdString(), small);
    ok = ok
        && cv::imwrite(QFile::encodeName(dir + QStringLiteral("/ascii.pgm")).toStdString(),
            cv::Mat(2, 2, CV_8UC1, cv::Scalar(7)), { cv::IMWRITE_PXM_BINARY, 0 });
    // Neither Qt nor OpenCV writes GIF: a 2 x 1 GIF89a, grey palette, LZW code size 2.
    static const unsigned char kGif[]
        = { 'G', 'I', 'F', '8', '9', 'a', 2, 0, 1, 0, 0x80, 0, 0, 0x00, 0x00, 0x00, 0xFF, 0xFF,
              0xFF, 0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x0A, 0, 0x3B };
    ok = ok
        && writeFile(dir + QStringLiteral("/tiny.gif"),
            QByteArray(reinterpret_cast<const char*>(kGif), sizeof kGif));
    return ok;
}

bool writeCsvSeeds(const QString& dir)
{
    const std::array<const char*, 7> lists { "a.png,1\nb.pgm,2\nc.bmp,1\n",
        "path,label\n\"a.png\",cat\nd.jpg,dog\n# comment\n\n", "a.png\nb.pgm\n",
        "file\tclass\na.png\t3\nbroken.png\t4\n", "missing.png,1\na.png,2\n",
        "\xEF\xBB\xBF"
        "\"b.pgm\",\"two, words\"\r\n\"c.bmp\",\"q\"\"uote\"\r\n",
        "../a.png,1\n/nonexistent/x.png,2\n" };
    bool ok = true;
    for (std::size_t i = 0; i < lists.size(); ++i)
        ok = ok && writeFile(dir + QStringLiteral("/list%1.csv").arg(i), QByteArray(lists[i]));
    return ok;
}

bool writeCliSeeds(const QString& dir)
{
    const std::array<const char*, 9> commands { "--help", "--version\n",
        "info\n--data\nbuiltin:swimmer\n",
        "run\n--data\nbuiltin:swimmer\n--method\nnmf\n--rank\n5\n--max-iter\n20\n--seed\n3\n",
        "run\n--data\ndata.mat\n--method\nlccf\n--rank\n10\n--lambda\n0.5\n--normalize\nl2\n",
        "run\n--data\nfolder\n--method\ncnmf\n--labeled-fraction\n0.3\n--json\nout.json\n",
        "sweep\n--data\nbuiltin:swimmer\n--methods\nnmf,cf\n--ranks\n2,4\n--trials\n2\n--out\nsw\n",
        "export-dataset\n--data\nbuiltin:swimmer\n--out\nx.mat\n",
        "bench\n--methods\nnmf\n--sizes\n100x50\n" };
    bool ok = true;
    for (std::size_t i = 0; i < commands.size(); ++i)
        ok = ok && writeFile(dir + QStringLiteral("/args%1.txt").arg(i), QByteArray(commands[i]));
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: facet-fuzz-seeds DIR\n");
        return 2;
    }
    facet::fuzz::initQt();
    const QString root = QFile::decodeName(argv[1]);
    bool ok = true;
    for (const char* corpus : { "mat", "image", "csv", "cli", "session" })
        ok = ok && QDir().mkpath(root + u'/' + QLatin1String(corpus));
    ok = ok && writeMatSeeds(root + QStringLiteral("/mat"));
    ok = ok && writeImageSeeds(root + QStringLiteral("/image"));
    ok = ok && writeCsvSeeds(root + QStringLiteral("/csv"));
    ok = ok && writeCliSeeds(root + QStringLiteral("/cli"));
    if (!ok) {
        std::fprintf(stderr, "facet-fuzz-seeds: could not write the seeds into %s\n", argv[1]);
        return 1;
    }
    return 0;
}
