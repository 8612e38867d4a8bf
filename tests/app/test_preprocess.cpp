// SPDX-License-Identifier: GPL-3.0-or-later
// The image steps: settings as JSON, grey, resize, equalize, face detection with both no-face
// policies, the before/after preview, and noise.
#include "data/dataset_request_json.h"
#include "data/dataset_source.h"
#include "data/image_render.h"
#include "data/noise.h"
#include "data/preprocess.h"
#include "folder_fixture.h"
#include "image_fixtures.h"
#include "jobs/dataset_open_job.h"
#include "test_data.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace facet;
using namespace Qt::StringLiterals;

namespace {

ImageSet syntheticSet(int count, int width, int height)
{
    ImageSet set;
    set.name = u"synthetic"_s;
    for (int i = 0; i < count; ++i) {
        set.images.push_back(fixtures::pattern(width, height, i));
        set.files << u"f%1.png"_s.arg(i);
        set.labels.push_back(i % 2);
    }
    set.classNames = { u"even"_s, u"odd"_s };
    return set;
}

QString notesOf(const Dataset& data)
{
    return data.notes.join(u" | "_s);
}

} // namespace

class TestPreprocess : public QObject {
    Q_OBJECT

private slots:
    void settingsRoundTripThroughJson()
    {
        PreprocessSettings s;
        s.detectFaces = true;
        s.noFace = NoFacePolicy::Skip;
        s.height = 40;
        s.width = 30;
        s.equalize = true;
        s.grayscale = false;
        s.noise = *parseNoise(u"saltpepper:0.05"_s, (1ULL << 60) + 3);
        const QJsonObject o = preprocessToJson(s);
        QCOMPARE(o[u"no_face"_s].toString(), u"skip"_s);
        QCOMPARE(o[u"noise"_s].toString(), u"saltpepper:0.05"_s);
        const Result<PreprocessSettings> back = preprocessFromJson(o);
        QVERIFY(back.ok());
        QVERIFY(*back == s);
        QVERIFY(*preprocessFromJson({}) == PreprocessSettings {}); // defaults for old files
        QCOMPARE(describePreprocess(s),
            u"colour kept, faces (skip misses), 40x30, equalized, noise saltpepper:0.05 seed "_s
                + QString::number((1ULL << 60) + 3));
        QCOMPARE(describePreprocess({}), u"as loaded"_s);

        DatasetRequest request;
        request.spec = u"/data/att_faces"_s;
        request.prepare.l2Normalize = true;
        request.mat.pixelOrder = PixelOrder::RowMajor;
        request.preprocess = s;
        const QJsonObject json = datasetRequestToJson(request);
        const QJsonObject prepare = json[u"preprocess"_s].toObject();
        for (const char* key : { "scale01", "l2_normalize", "pixel_order", "grayscale",
                 "detect_faces", "no_face", "height", "width", "equalize", "noise", "noise_seed" })
            QVERIFY2(prepare.contains(QLatin1String(key)), key);
        const Result<DatasetRequest> again = datasetRequestFromJson(
            QJsonDocument::fromJson(QJsonDocument(json).toJson()).object());
        QVERIFY(again.ok());
        QCOMPARE(again->spec, request.spec);
        QVERIFY(again->prepare.l2Normalize);
        QVERIFY(again->mat.pixelOrder == PixelOrder::RowMajor);
        QVERIFY(again->preprocess == s);
    }

    void badSettingsAreErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("needle");
        QTest::newRow("type") << QByteArray(R"({"equalize": 1})") << u"equalize"_s;
        QTest::newRow("policy") << QByteArray(R"({"no_face": "drop"})") << u"no_face"_s;
        QTest::newRow("size") << QByteArray(R"({"height": -2, "width": 3})") << u"height"_s;
        QTest::newRow("half size") << QByteArray(R"({"height": 32})") << u"both"_s;
        QTest::newRow("noise") << QByteArray(R"({"noise": "pink:3"})") << u"noise"_s;
        QTest::newRow("seed") << QByteArray(R"({"noise_seed": -1})") << u"noise_seed"_s;
    }
    void badSettingsAreErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, needle);
        const Result<PreprocessSettings> s
            = preprocessFromJson(QJsonDocument::fromJson(json).object());
        QVERIFY(!s.ok());
        QVERIFY2(s.error().contains(needle), qPrintable(s.error()));
    }

    void sizesParse()
    {
        int h = 0, w = 0;
        QVERIFY(parseImageSize(u"112x92"_s, h, w).ok());
        QCOMPARE(h, 112);
        QCOMPARE(w, 92);
        QVERIFY(parseImageSize(u"16"_s, h, w).ok());
        QCOMPARE(w, 16);
        for (const QString& bad : { u"0x3"_s, u"axb"_s, u"3x4x5"_s, u"5000x2"_s, u""_s })
            QVERIFY2(!parseImageSize(bad, h, w).ok(), qPrintable(bad));
    }

    void greyResizeEqualize()
    {
        ImageSet set = syntheticSet(3, 8, 8);
        QImage colour(8, 8, QImage::Format_RGB888);
        colour.fill(QColor(255, 0, 0));
        set.images[0] = colour;
        // A low-contrast picture: values 100..107 only.
        QImage dull(8, 8, QImage::Format_Grayscale8);
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c)
                dull.scanLine(r)[c] = uchar(100 + (r + c) % 8);
        set.images[1] = dull;

        PreprocessSettings s;
        s.height = 4;
        s.width = 4;
        const Result<Dataset> plain = preprocessImages(set, s);
        QVERIFY(plain.ok());
        QCOMPARE(plain->height, 4);
        QCOMPARE(int(plain->samples()), 3);
        // Pure red in luma: 0.299 * 255, and INTER_AREA of a constant image is that constant.
        QVERIFY(std::abs(double(plain->X(5, 0)) - 76.0) <= 1.0);
        QVERIFY((plain->X.array() == plain->X.array().round()).all()); // 8-bit grey levels
        QVERIFY(double(plain->X.col(1).maxCoeff()) <= 107);

        s.equalize = true;
        const Result<Dataset> equalized = preprocessImages(set, s);
        QVERIFY(equalized.ok());
        QCOMPARE(double(equalized->X.col(1).maxCoeff()), 255.0);
        QVERIFY(double(equalized->X.col(1).minCoeff()) < 60);
        QVERIFY(notesOf(*equalized).contains(u"histogram equalized"_s));
        QCOMPARE(equalized->labels, (std::vector<int> { 0, 1, 0 }));
    }

    void facesWithBothPolicies()
    {
        // Test patterns hold no face: the centre crop keeps them all and lists them, skipping
        // leaves nothing, which is an error that names the way out.
        const ImageSet set = syntheticSet(4, 40, 50);
        PreprocessSettings s;
        s.detectFaces = true;
        PreprocessReport report;
        const Result<Dataset> kept = preprocessImages(set, s, &report);
        QVERIFY2(kept.ok(), qPrintable(kept.ok() ? QString() : kept.error()));
        QCOMPARE(int(kept->samples()), 4);
        QCOMPARE(kept->height, 32); // faces default to 32x32
        QCOMPARE(report.noFace.size(), 4);
        QCOMPARE(report.faces, 0);
        QVERIFY(notesOf(*kept).contains(u"no face in 4 image(s) (centre crop): f0.png"_s));

        s.noFace = NoFacePolicy::Skip;
        const Result<Dataset> skipped = preprocessImages(set, s);
        QVERIFY(!skipped.ok());
        QVERIFY2(skipped.error().contains(u"--no-face center"_s), qPrintable(skipped.error()));
    }

    // Issue 37, item 8: face detection on a folder took seconds with only "Loading...". It counts
    // its images now and stops between two of them, which is a clean "cancelled" error.
    void faceDetectionCountsImagesAndStops()
    {
        const ImageSet set = syntheticSet(6, 40, 50);
        PreprocessSettings s;
        s.detectFaces = true;
        std::stop_source stop;
        QList<int> done;
        QList<int> totals;
        PreprocessControl control;
        control.stop = stop.get_token();
        control.onImage = [&](int count, int total) {
            done << count;
            totals << total;
            if (count == 3)
                stop.request_stop();
        };
        PreprocessReport report;
        const Result<Dataset> stopped = preprocessImages(set, s, &report, control);
        QVERIFY(!stopped.ok());
        QVERIFY(report.cancelled);
        QVERIFY2(stopped.error().contains(u"cancelled after 3 of 6 images"_s),
            qPrintable(stopped.error()));
        QCOMPARE(done, (QList<int> { 1, 2, 3 }));
        QCOMPARE(totals, (QList<int> { 6, 6, 6 }));

        done.clear();
        control.stop = {};
        const Result<Dataset> all = preprocessImages(set, s, &report, control);
        QVERIFY(all.ok());
        QVERIFY(!report.cancelled);
        QCOMPARE(done, (QList<int> { 1, 2, 3, 4, 5, 6 }));
    }

    // The worker behind the GUI's load: one progress report an image, in order and before the
    // answer; cancel() answers cancelled() and nothing else.
    void openJobReportsFacesAndCancels()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(fixtures::writeClassFolder(dir.path()));
        DatasetOpenJob job;
        QSignalSpy progress(&job, &DatasetOpenJob::progress);
        QSignalSpy opened(&job, &DatasetOpenJob::opened);
        QSignalSpy failed(&job, &DatasetOpenJob::failed);
        QSignalSpy cancelled(&job, &DatasetOpenJob::cancelled);
        DatasetRequest request;
        request.spec = dir.path();
        request.preprocess.detectFaces = true;
        const quint64 id = job.open(request);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
        QCOMPARE(progress.count(), 5);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(progress[i][0].toULongLong(), id);
            QCOMPARE(progress[i][1].toInt(), i + 1);
            QCOMPARE(progress[i][2].toInt(), 5);
        }

        job.open(request);
        job.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 60000);
        QVERIFY(!job.isLoading());
        QCOMPARE(opened.count(), 1);
        QCOMPARE(failed.count(), 0);
    }

    void missingCascadeIsAClearError()
    {
        qputenv("FACET_CASCADE_DIR", "/nonexistent/cascades");
        PreprocessSettings s;
        s.detectFaces = true;
        const Result<Dataset> data = preprocessImages(syntheticSet(2, 30, 30), s);
        qunsetenv("FACET_CASCADE_DIR");
        QVERIFY(!data.ok());
        QVERIFY2(data.error().contains(u"haarcascade_frontalface_default.xml"_s),
            qPrintable(data.error()));
        QVERIFY(data.error().contains(u"opencv-data"_s));
        QVERIFY(data.error().contains(u"/nonexistent/cascades"_s));
    }

    void previewShowsBeforeAndAfter()
    {
        const ImageSet set = syntheticSet(3, 20, 10);
        PreprocessSettings s;
        s.height = 5;
        s.width = 10;
        s.noise = *parseNoise(u"occlusion:2"_s, 4);
        const Result<SamplePreview> p = previewSample(set, 1, s);
        QVERIFY(p.ok());
        QCOMPARE(p->before.size(), QSize(20, 10));
        QCOMPARE(p->after.size(), QSize(10, 5));
        QVERIFY(p->kept);
        QVERIFY2(p->outcome.contains(u"resized from 10x20"_s), qPrintable(p->outcome));

        // The preview draws the same noise the dataset gets for that sample.
        const Result<Dataset> data = preprocessImages(set, s);
        Dataset noisy = *data;
        QVERIFY(addNoise(noisy, s.noise).ok());
        for (int r = 0; r < 5; ++r)
            for (int c = 0; c < 10; ++c)
                QCOMPARE(p->after.pixelColor(c, r).red(), int(noisy.X(r * 10 + c, 1)));

        QVERIFY(!previewSample(set, 7, s).ok());
        s.detectFaces = true;
        s.noFace = NoFacePolicy::Skip;
        const Result<SamplePreview> none = previewSample(set, 0, s);
        QVERIFY(none.ok());
        QVERIFY(!none->kept);
        QVERIFY(none->after.isNull());
    }

    void datasetImagesKeepTheirRange()
    {
        Dataset data;
        data.name = u"unit"_s;
        data.height = 4;
        data.width = 4;
        data.X = Matrix::Constant(16, 2, 0.5);
        data.X(0, 1) = 1.0;
        PreprocessSettings s;
        const Result<Dataset> same = preprocessDataset(data, s);
        QVERIFY(same.ok());
        QVERIFY(same->X == data.X);
        s.height = s.width = 2;
        const Result<Dataset> small = preprocessDataset(data, s);
        QVERIFY(small.ok());
        QCOMPARE(int(small->features()), 4);
        QCOMPARE(double(small->X(1, 0)), 0.5);
        QVERIFY(std::abs(double(small->X(0, 1)) - 0.625) < 1e-9);

        Dataset points;
        points.height = 1;
        points.width = 2;
        points.X = Matrix::Ones(2, 3);
        QVERIFY(!preprocessDataset(points, s).ok());
    }

    void noise()
    {
        Dataset base;
        base.name = u"flat"_s;
        base.height = 20;
        base.width = 20;
        base.X = Matrix::Constant(400, 5, 0.5);

        Dataset a = base, b = base, c = base;
        const NoiseSettings gaussian = *parseNoise(u"gaussian:0.1"_s, 7);
        QVERIFY(addNoise(a, gaussian).ok());
        QVERIFY(addNoise(b, gaussian).ok());
        QVERIFY(addNoise(c, *parseNoise(u"gaussian:0.1"_s, 8)).ok());
        QVERIFY(a.X == b.X);
        QVERIFY(a.X != c.X);
        QVERIFY(a.X.minCoeff() >= 0 && a.X.maxCoeff() <= 1);
        const double sd = std::sqrt((a.X.array() - 0.5).square().mean());
        QVERIFY2(sd > 0.09 && sd < 0.11, qPrintable(QString::number(sd)));

        Dataset sp = base;
        QVERIFY(addNoise(sp, *parseNoise(u"saltpepper:0.2"_s)).ok());
        const double hit = double((sp.X.array() != 0.5).count()) / double(sp.X.size());
        QVERIFY2(hit > 0.15 && hit < 0.25, qPrintable(QString::number(hit)));
        QVERIFY(((sp.X.array() == 0) || (sp.X.array() == 1) || (sp.X.array() == 0.5)).all());

        Dataset block = base;
        QVERIFY(addNoise(block, *parseNoise(u"occlusion:6"_s, 1)).ok());
        for (Eigen::Index j = 0; j < 5; ++j)
            QCOMPARE(int((block.X.col(j).array() == 1).count()), 36);
        QVERIFY(notesOf(block).contains(u"occlusion:6"_s));

        Dataset bytes = base;
        bytes.X.setConstant(100);
        bytes.X(0, 0) = 255;
        QVERIFY(addNoise(bytes, gaussian).ok());
        QVERIFY(bytes.X.maxCoeff() <= 255 && bytes.X.minCoeff() >= 0);
        QVERIFY(bytes.X.maxCoeff() > 101); // sigma is 10% of 0..255, not of 0..1

        Dataset points;
        points.height = 1;
        points.width = 2;
        points.X = Matrix::Ones(2, 3);
        QVERIFY(!addNoise(points, *parseNoise(u"occlusion:1"_s)).ok());
        Dataset tooSmall = base;
        QVERIFY(!addNoise(tooSmall, *parseNoise(u"occlusion:21"_s)).ok());

        for (const QString& bad : { u"gaussian"_s, u"gaussian:-1"_s, u"saltpepper:2"_s,
                 u"occlusion:2.5"_s, u"occlusion:0"_s, u"pink:1"_s })
            QVERIFY2(!parseNoise(bad).ok(), qPrintable(bad));
        QCOMPARE(parseNoise(u"none"_s)->kind, NoiseKind::None);
    }

    void realAttFacesAreFound()
    {
        const QString att = facetDataFile(u"att_faces"_s);
        FACET_REQUIRE_DATA(att);
        const Result<ImageSet> set = loadImageSet(att);
        QVERIFY(set.ok());
        PreprocessSettings s;
        s.detectFaces = true;
        s.height = s.width = 32;
        PreprocessReport report;
        const Result<Dataset> data = preprocessImages(*set, s, &report);
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        qInfo("att_faces: faces in %d of %d images, %d aligned by both eyes", report.faces,
            report.images, report.eyesAligned);
        QVERIFY2(report.faces >= 360, qPrintable(QString::number(report.faces))); // "most"
        QCOMPARE(int(data->samples()), 400);
        // Look at this picture when the alignment changes: 40 subjects, first image each.
        std::vector<int> firsts;
        for (int c = 0; c < 40; ++c)
            firsts.push_back(c * 10);
        Matrix tiles(1024, 40);
        for (int k = 0; k < 40; ++k)
            tiles.col(k) = data->X.col(firsts[std::size_t(k)]);
        QVERIFY(imageMosaic(tiles, 32, 32, 10, 3).save(u"att_faces_aligned.png"_s));

        // A face class next to a class of blank pictures: skipping drops the blank class.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(u"face"_s));
        for (int i = 1; i <= 3; ++i) {
            // Copied into the temporary folder at run time only; the repository holds no faces.
            QVERIFY(
                QFile::copy(att + u"/s1/%1.pgm"_s.arg(i), dir.filePath(u"face/%1.pgm"_s.arg(i))));
            QImage blank(92, 112, QImage::Format_Grayscale8);
            blank.fill(128);
            QVERIFY(fixtures::writeBytes(
                dir.filePath(u"blank/%1.pgm"_s.arg(i)), fixtures::pgmBytes(blank)));
        }
        s.noFace = NoFacePolicy::Skip;
        DatasetRequest request;
        request.spec = dir.path();
        request.preprocess = s;
        const Result<Dataset> mixed = loadDataset(request);
        QVERIFY2(mixed.ok(), qPrintable(mixed.ok() ? QString() : mixed.error()));
        QCOMPARE(mixed->classNames, QStringList { u"face"_s });
        QVERIFY(int(mixed->samples()) >= 2);
        QVERIFY(notesOf(*mixed).contains(u"dropped 1 class(es) left without images: blank"_s));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestPreprocess)
#include "test_preprocess.moc"
