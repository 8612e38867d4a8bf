// SPDX-License-Identifier: GPL-3.0-or-later
// export-dataset: the prepared set written in Deng Cai's layout reads back through the .mat
// loader unchanged; and the CLI on folders (the done-when checks on the real sets).
#include "cli/cli_options.h"
#include "cli_process.h"
#include "core/collectives.h"
#include "data/dataset_source.h"
#include "data/mat_loader.h"
#include "data/mat_reader_process.h"
#include "data/mat_writer.h"
#include "image_fixtures.h"
#include "test_data.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace facet;
using namespace facet::testing;
using namespace facet::cli;
using namespace Qt::StringLiterals;

namespace {

Dataset asymmetric(int height, int width, int samples)
{
    Dataset data;
    data.name = u"toy"_s;
    data.height = height;
    data.width = width;
    data.X.resize(Eigen::Index(height) * width, samples);
    for (Eigen::Index k = 0; k < data.X.size(); ++k)
        data.X.data()[k] = Scalar(k % 97) / 96;
    return data;
}

void compareData(const Dataset& a, const Dataset& b)
{
    QCOMPARE(a.height, b.height);
    QCOMPARE(a.width, b.width);
    QCOMPARE(a.X.rows(), b.X.rows());
    QCOMPARE(a.X.cols(), b.X.cols());
    QVERIFY((a.X - b.X).cwiseAbs().maxCoeff() < 1e-12);
    QCOMPARE(a.labels, b.labels);
    QCOMPARE(a.classNames, b.classNames);
}

} // namespace

class TestExportDataset : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void roundTripNonSquareWithTextClasses()
    {
        Dataset data = asymmetric(3, 5, 4);
        data.labels = { 0, 1, 1, 0 };
        data.classNames = { u"s1"_s, u"s2"_s };
        const QString path = m_dir.filePath(u"text.mat"_s);
        QVERIFY(writeDatasetMat(path, data).ok());
        const Result<Dataset> back = loadMat(path);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error()));
        QCOMPARE(back->classNames, (QStringList { u"1"_s, u"2"_s })); // 1..c for text names
        QCOMPARE(back->labels, data.labels);
        QCOMPARE(back->height, 3);
        QCOMPARE(back->width, 5);
        QVERIFY((back->X - data.X).cwiseAbs().maxCoeff() < 1e-12);
    }

    void roundTripNumericClassesAndUnlabelled()
    {
        Dataset data = asymmetric(6, 6, 3);
        data.labels = { 2, 0, 1 };
        data.classNames = { u"3"_s, u"7"_s, u"10"_s };
        const QString path = m_dir.filePath(u"numeric.mat"_s);
        QVERIFY(writeDatasetMat(path, data).ok());
        const Result<Dataset> back = loadMat(path);
        QVERIFY(back.ok());
        compareData(*back, data);

        // Numbers that are not distinct integers: 1..c, so no two classes merge (all three
        // were written as gnd = 1) and no label is fractional (which the loader refuses).
        for (const QStringList& names : { QStringList { u"1"_s, u"1.0"_s, u"01"_s },
                 QStringList { u"0.5"_s, u"1.5"_s, u"2"_s } }) {
            Dataset same = data;
            same.classNames = names;
            QVERIFY(writeDatasetMat(path, same).ok());
            const Result<Dataset> read = loadMat(path);
            QVERIFY2(read.ok(), qPrintable(read.ok() ? QString() : read.error()));
            QCOMPARE(read->classCount(), 3);
            QCOMPARE(read->labels, same.labels);
        }

        Dataset plain = asymmetric(4, 4, 2);
        QVERIFY(writeDatasetMat(path, plain).ok()); // replaces the file
        const Result<Dataset> again = loadMat(path);
        QVERIFY(again.ok());
        QVERIFY(!again->hasLabels());
        QVERIFY((again->X - plain.X).cwiseAbs().maxCoeff() < 1e-12);

        QVERIFY(!writeDatasetMat(m_dir.filePath(u"no/such/folder/x.mat"_s), plain).ok());
        QVERIFY(!writeDatasetMat(m_dir.path(), plain).ok());
        QVERIFY(!writeDatasetMat(path, Dataset {}).ok());
        QVERIFY(QDir(m_dir.path())
                    .entryList(QDir::Hidden | QDir::Files)
                    .filter(u".numeric"_s)
                    .isEmpty());
    }

    void cliExportsAFolderThatLoadsBack()
    {
        const QString folder = m_dir.filePath(u"faces"_s);
        for (int s = 1; s <= 3; ++s)
            for (int i = 1; i <= 2; ++i)
                QVERIFY(fixtures::writeBytes(folder + u"/%1/%2.pgm"_s.arg(s * 5).arg(i),
                    fixtures::pgmBytes(fixtures::pattern(12, 16, s * 3 + i))));
        const QString out = m_dir.filePath(u"faces.mat"_s);
        const CliRun run = runCli({ u"export-dataset"_s, folder, u"--out"_s, out, u"--size"_s,
            u"8x6"_s, u"--noise"_s, u"gaussian:0.05"_s, u"--noise-seed"_s, u"4"_s });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"6 images 8x6"_s), qPrintable(run.out));

        DatasetRequest request;
        request.spec = folder;
        request.preprocess.height = 8;
        request.preprocess.width = 6;
        request.preprocess.noise = *parseNoise(u"gaussian:0.05"_s, 4);
        const Result<Dataset> direct = loadDataset(request);
        QVERIFY(direct.ok());
        const Result<Dataset> back = loadMat(out);
        QVERIFY(back.ok());
        compareData(*back, *direct);
        QCOMPARE(back->classNames, (QStringList { u"5"_s, u"10"_s, u"15"_s })); // numeric: values
    }

    // --mat73 writes the same set as MAT 7.3 (HDF5), which a rank of a distributed run reads in
    // part (MatLoadOptions::part): the parts side by side are the set.
    void cliExportsMat73()
    {
        const QString level5 = m_dir.filePath(u"bars5.mat"_s),
                      hdf5 = m_dir.filePath(u"bars73.mat"_s);
        CliRun run = runCli({ u"export-dataset"_s, u"builtin:bars"_s, u"--out"_s, level5 });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        run = runCli({ u"export-dataset"_s, u"builtin:bars"_s, u"--out"_s, hdf5, u"--mat73"_s });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(!isHdf5MatFile(level5));
        QVERIFY(isHdf5MatFile(hdf5));
        const Result<Dataset> a = loadMat(level5), b = loadMat(hdf5);
        QVERIFY2(
            a.ok() && b.ok(), qPrintable(a.ok() ? (b.ok() ? QString() : b.error()) : a.error()));
        compareData(*b, *a);
        MatLoadOptions second;
        second.part = 1;
        second.parts = 2;
        const Result<Dataset> part = loadMat(hdf5, second);
        QVERIFY2(part.ok(), qPrintable(part.ok() ? QString() : part.error()));
        QVERIFY(part->X == a->X.rightCols(part->X.cols()));
        QCOMPARE(part->X.cols(), sampleRange(a->X.cols(), 2, 1).count);
    }

    void cliRejectsBadExports()
    {
        CliRun run = runCli({ u"export-dataset"_s, u"builtin:bars"_s });
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--out"_s), qPrintable(run.err));
        run = runCli(
            { u"export-dataset"_s, u"builtin:bars"_s, u"--out"_s, u"/nonexistent/dir/x.mat"_s });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"does not exist"_s), qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count(u'\n'), 0);
        run = runCli({ u"info"_s, u"builtin:bars"_s, u"--size"_s, u"big"_s });
        QCOMPARE(run.exitCode, 2);
        run = runCli({ u"info"_s, u"builtin:bars"_s, u"--no-face"_s, u"skip"_s });
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(u"--detect-faces"_s));
        run = runCli({ u"info"_s, m_dir.filePath(u"empty-folder"_s) });
        QCOMPARE(run.exitCode, 1);
    }

    void refusesToOverwriteItsInput()
    {
        // The output is the input file itself, by its own name, through a symbolic link or
        // a hard link: export-dataset and run refuse before loading, and the input keeps every
        // byte (here an extra variable the export would have dropped, and the 0..255 values it
        // would have scaled).
        QTemporaryDir dir;
        const QString input = dir.filePath(u"in.mat"_s);
        Dataset data = asymmetric(4, 3, 6);
        data.X *= 255;
        QVERIFY(writeDatasetMat(input, data).ok());
        const QByteArray before = readBytes(input);
        QVERIFY(!before.isEmpty());
        const QString link = dir.filePath(u"link.mat"_s), hard = dir.filePath(u"hard.mat"_s);
        QVERIFY(QFile::link(input, link));
        QVERIFY(
            ::link(QFile::encodeName(input).constData(), QFile::encodeName(hard).constData()) == 0);
        for (const QString& out : { input, link, hard }) {
            CliRun run = runCli({ u"export-dataset"_s, input, u"--out"_s, out });
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(u"is the input"_s), qPrintable(run.err));
            run = runCli({ u"run"_s, u"--dataset"_s, input, u"--method"_s, u"nmf"_s, u"--rank"_s,
                u"2"_s, u"--max-iter"_s, u"2"_s, u"--json"_s, dir.filePath(u"r.json"_s),
                u"--factors"_s, out });
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(u"is the input"_s), qPrintable(run.err));
            QCOMPARE(readBytes(input), before);
        }
        // Another file in the same folder is written as before.
        const CliRun run
            = runCli({ u"export-dataset"_s, input, u"--out"_s, dir.filePath(u"out.mat"_s) });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }

    void refusesToOverwriteTheImagesOfItsInput()
    {
        // An image folder's and an image list's samples are inputs too: run's --basis-png onto
        // one of them (in a nested folder, or named by the list) is refused before loading and
        // the image keeps its bytes; a new file in the folder, or a non-image one, is written.
        QTemporaryDir dir;
        const QString folder = dir.filePath(u"faces"_s);
        for (const QString& name : { u"s1/1.png"_s, u"s1/2.png"_s, u"s2/1.png"_s, u"s2/2.png"_s })
            QVERIFY(fixtures::writeBytes(
                QDir(folder).filePath(name), fixtures::encoded(fixtures::pattern(8, 8), "PNG")));
        const QString image = QDir(folder).filePath(u"s2/1.png"_s);
        const QString list = dir.filePath(u"list.csv"_s);
        QVERIFY(fixtures::writeBytes(list, "faces/s1/1.png,a\nfaces/s2/1.png,b\n"));
        const QByteArray before = readBytes(image);
        const auto run = [&](const QString& dataset, const QString& png) {
            return runCli({ u"run"_s, u"--dataset"_s, dataset, u"--method"_s, u"nmf"_s, u"--rank"_s,
                u"2"_s, u"--max-iter"_s, u"2"_s, u"--json"_s, dir.filePath(u"r.json"_s),
                u"--basis-png"_s, png });
        };
        for (const QString& dataset : { folder, list }) {
            const CliRun refused = run(dataset, image);
            QCOMPARE(refused.exitCode, 1);
            QVERIFY2(refused.err.contains(u"would replace one of the samples"_s),
                qPrintable(refused.err));
            QCOMPARE(readBytes(image), before);
        }
        const QString fresh = QDir(folder).filePath(u"basis.png"_s);
        CliRun written = run(folder, fresh);
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
        QVERIFY(QFileInfo::exists(fresh));
        written = run(list, QDir(folder).filePath(u"s1/2.png"_s)); // not in the list
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
    }

    void parsesPreprocessOptions()
    {
        QTemporaryDir dir;
        QVERIFY(fixtures::writeBytes(
            dir.filePath(u"a/1.png"_s), fixtures::encoded(fixtures::pattern(4, 4), "PNG")));
        Result<CliOptions> o = parseArguments(
            { u"run"_s, u"--dataset"_s, dir.path(), u"--method"_s, u"nmf"_s, u"--rank"_s, u"2"_s,
                u"--json"_s, u"o.json"_s, u"--detect-faces"_s, u"--no-face"_s, u"skip"_s,
                u"--equalize"_s, u"--noise"_s, u"saltpepper:0.05"_s, u"--noise-seed"_s, u"12"_s });
        QVERIFY2(o.ok(), qPrintable(o.ok() ? QString() : o.error()));
        const PreprocessSettings& s = o->dataset.preprocess;
        QVERIFY(s.detectFaces && s.equalize && s.noFace == NoFacePolicy::Skip);
        QCOMPARE(s.height, 32); // runs bring image folders to the papers' 32x32
        QCOMPARE(s.noise.seed, 12ULL);
        o = parseArguments({ u"info"_s, dir.path() });
        QVERIFY(o.ok());
        QCOMPARE(o->dataset.preprocess.height, 0); // info shows the files as they are
        o = parseArguments(
            { u"export-dataset"_s, dir.path(), u"--out"_s, u"x.mat"_s, u"--size"_s, u"raw"_s });
        QVERIFY(o.ok());
        QCOMPARE(o->dataset.preprocess.height, 0);
        QVERIFY(o->dataset.prepare.scaleTo01);
        o = parseArguments({ u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
            u"nmf"_s, u"--rank"_s, u"2"_s, u"--json"_s, u"o.json"_s });
        QVERIFY(o.ok());
        QCOMPARE(o->dataset.preprocess.height, 0); // .mat and built-in sets keep their size
    }

    void runReportRecordsThePreprocessing()
    {
        const QString folder = m_dir.filePath(u"run"_s);
        for (int s = 1; s <= 2; ++s)
            for (int i = 1; i <= 3; ++i)
                QVERIFY(fixtures::writeBytes(folder + u"/c%1/%2.png"_s.arg(s).arg(i),
                    fixtures::encoded(fixtures::pattern(10, 10, s * 7 + i), "PNG")));
        const QString json = m_dir.filePath(u"run.json"_s);
        const CliRun run = runCli({ u"run"_s, u"--dataset"_s, folder, u"--method"_s, u"nmf"_s,
            u"--rank"_s, u"2"_s, u"--max-iter"_s, u"20"_s, u"--equalize"_s, u"--json"_s, json });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(o[u"m"_s].toInt(), 1024);
        const QJsonObject pre = o[u"dataset"_s].toObject()[u"preprocess"_s].toObject();
        QCOMPARE(pre[u"height"_s].toInt(), 32);
        QCOMPARE(pre[u"width"_s].toInt(), 32);
        QCOMPARE(pre[u"equalize"_s].toBool(), true);
        QCOMPARE(pre[u"detect_faces"_s].toBool(), false);
        QCOMPARE(pre[u"noise"_s].toString(), u"none"_s);
        QVERIFY(pre.contains(u"scale01"_s));
    }

    void doneWhenOnTheRealSets()
    {
        const QString att = facetDataFile(u"att_faces"_s);
        const QString yale = facetDataFile(u"yalefaces"_s);
        FACET_REQUIRE_DATA(att);
        FACET_REQUIRE_DATA(yale);
        CliRun run = runCli({ u"info"_s, att });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"400 images 112x92 (m = 10304), 40 classes of 10"_s),
            qPrintable(run.out));
        run = runCli({ u"info"_s, yale });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"164 images 243x320 (m = 77760), 15 classes of 10..11"_s),
            qPrintable(run.out));

        const QString out = m_dir.filePath(u"att32.mat"_s);
        run = runCli({ u"export-dataset"_s, att, u"--out"_s, out, u"--no-scale"_s });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Result<Dataset> back = loadMat(out);
        QVERIFY(back.ok());
        QCOMPARE(int(back->samples()), 400);
        QCOMPARE(int(back->features()), 1024);
        QCOMPARE(back->classCount(), 40);
        QCOMPARE(back->classNames.front(), u"1"_s); // s1 -> 1 .. s40 -> 40
        QCOMPARE(back->labels[99], 9); // s10, natural order
        QVERIFY(back->X.maxCoeff() > 1); // --no-scale kept the grey levels
        DatasetRequest request;
        request.spec = att;
        request.prepare.scaleTo01 = false;
        request.preprocess.height = request.preprocess.width = 32;
        const Result<Dataset> direct = loadDataset(request);
        QVERIFY(direct.ok());
        QVERIFY((back->X - direct->X).cwiseAbs().maxCoeff() < 1e-12);
        QCOMPARE(back->labels, direct->labels);
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestExportDataset)
#include "test_export_dataset.moc"
