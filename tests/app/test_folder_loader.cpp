// SPDX-License-Identifier: GPL-3.0-or-later
// Image folders: the AT&T, Yale and class-folder layouts, files recognised by content, and every
// kind of bad file skipped with a note instead of failing the load. Fixtures are written into a
// QTemporaryDir by the tests; the real sets are read from FACET_DATA_DIR.
#include "data/dataset_source.h"
#include "data/folder_loader.h"
#include "data/image_decode.h"
#include "data/natural_sort.h"
#include "image_fixtures.h"
#include "test_data.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace facet;
using namespace Qt::StringLiterals;

namespace {

QString joined(const QStringList& notes)
{
    return notes.join(u" | "_s);
}

Result<Dataset> loadFolder(const QString& spec, PreprocessSettings steps = {})
{
    DatasetRequest request;
    request.spec = spec;
    request.prepare = { false, false };
    request.preprocess = steps;
    return loadDataset(request);
}

// Writes `bytes` to the file whose name is the native path `path` (any bytes, not only UTF-8),
// making its folder first.
bool writeAtNativePath(const QByteArray& path, const QByteArray& bytes)
{
    const QByteArray folder = path.left(path.lastIndexOf('/'));
    if (::mkdir(folder.constData(), 0700) != 0 && errno != EEXIST)
        return false;
    const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    const bool written = ::write(fd, bytes.constData(), std::size_t(bytes.size())) == bytes.size();
    return ::close(fd) == 0 && written;
}

} // namespace

class TestFolderLoader : public QObject {
    Q_OBJECT

    QString path(const QTemporaryDir& dir, const QString& relative)
    {
        return dir.filePath(relative);
    }

private slots:
    void naturalOrder()
    {
        QStringList names { u"s10"_s, u"s2"_s, u"s1"_s, u"S3"_s, u"s01"_s, u"a"_s, u"s100"_s };
        naturalSort(names);
        QCOMPARE(names,
            (QStringList { u"a"_s, u"s01"_s, u"s1"_s, u"s2"_s, u"S3"_s, u"s10"_s, u"s100"_s }));
        QVERIFY(naturalLess(u"img9.png"_s, u"img10.png"_s));
        QVERIFY(!naturalLess(u"x"_s, u"x"_s));
    }

    void sniffsByContent()
    {
        const QImage image = fixtures::pattern(5, 4);
        QCOMPARE(sniffImageFormat(fixtures::pgmBytes(image)), ImageFormat::Pnm);
        QCOMPARE(sniffImageFormat(fixtures::encoded(image, "PNG")), ImageFormat::Png);
        QCOMPARE(sniffImageFormat(fixtures::encoded(image, "JPG")), ImageFormat::Jpeg);
        QCOMPARE(sniffImageFormat(fixtures::encoded(image, "BMP")), ImageFormat::Bmp);
        QCOMPARE(sniffImageFormat(fixtures::gifBytes(image)), ImageFormat::Gif);
        QCOMPARE(sniffImageFormat(fixtures::tiffBytes(image)), ImageFormat::Tiff);
        QCOMPARE(sniffImageFormat("This is the README"), ImageFormat::Unknown);
        QCOMPARE(sniffImageFormat(QByteArray()), ImageFormat::Unknown);
    }

    void decodesEveryFormatExactly()
    {
        const QImage image = fixtures::pattern(7, 5, 3);
        for (const auto& [name, bytes] : { std::pair { "pgm", fixtures::pgmBytes(image) },
                 std::pair { "png", fixtures::encoded(image, "PNG") },
                 std::pair { "bmp", fixtures::encoded(image, "BMP") },
                 std::pair { "gif", fixtures::gifBytes(image) },
                 std::pair { "tif", fixtures::tiffBytes(image) } }) {
            const Result<QImage> decoded = decodeImageBytes(bytes, QString::fromLatin1(name));
            QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error()));
            QCOMPARE(decoded->format(), QImage::Format_Grayscale8);
            QCOMPARE(decoded->size(), image.size());
            for (int r = 0; r < image.height(); ++r)
                for (int c = 0; c < image.width(); ++c)
                    QCOMPARE(decoded->pixelColor(c, r).red(), image.pixelColor(c, r).red());
        }
        // JPEG is lossy: close, not equal.
        const Result<QImage> jpeg
            = decodeImageBytes(fixtures::encoded(image, "JPG", 100), u"jpg"_s);
        QVERIFY(jpeg.ok());
        QCOMPARE(jpeg->size(), image.size());
    }

    void attLayout()
    {
        QTemporaryDir dir;
        for (int s = 1; s <= 12; ++s)
            for (int i = 1; i <= 2; ++i)
                QVERIFY(fixtures::writeBytes(path(dir, u"s%1/%2.pgm"_s.arg(s).arg(i)),
                    fixtures::pgmBytes(fixtures::pattern(6, 8, s * 10 + i))));
        QVERIFY(fixtures::writeBytes(path(dir, u"README"_s), "The ORL database of faces\n"));
        const Result<ImageSet> set = loadImageFolder(dir.path());
        QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error()));
        QCOMPARE(set->size(), 24);
        QCOMPARE(set->classNames.size(), 12);
        QCOMPARE(set->classNames.mid(0, 3), (QStringList { u"s1"_s, u"s2"_s, u"s3"_s }));
        QCOMPARE(set->classNames.at(9), u"s10"_s);
        QCOMPARE(set->files.at(2), u"s2/1.pgm"_s);
        QCOMPARE(set->labels.at(2), 1);
        QCOMPARE(set->labels.at(19), 9); // s10
        QVERIFY(joined(set->notes).contains(u"not images: README"_s));

        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY(data.ok());
        QCOMPARE(data->height, 8);
        QCOMPARE(data->width, 6);
        QCOMPARE(int(data->samples()), 24);
        // Row-major inside the column: pixel (r, c) at r * width + c.
        const QImage first = fixtures::pattern(6, 8, 11);
        QCOMPARE(double(data->X(2 * 6 + 5, 0)), double(first.pixelColor(5, 2).red()));
    }

    void yaleLayoutWithoutExtensions()
    {
        QTemporaryDir dir;
        const QStringList conditions { u"happy"_s, u"sad"_s, u"glasses"_s };
        for (int s = 1; s <= 3; ++s)
            for (int k = 0; k < conditions.size(); ++k) {
                const QImage image = fixtures::pattern(10, 7, s * 3 + k);
                // GIFs like the real set, one PNG to show the content decides, not the name.
                const QByteArray bytes
                    = k == 2 ? fixtures::encoded(image, "PNG") : fixtures::gifBytes(image);
                QVERIFY(fixtures::writeBytes(
                    path(dir, u"subject%1.%2"_s.arg(s, 2, 10, QLatin1Char('0')).arg(conditions[k])),
                    bytes));
            }
        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(int(data->samples()), 9);
        QCOMPARE(
            data->classNames, (QStringList { u"subject01"_s, u"subject02"_s, u"subject03"_s }));
        QCOMPARE(data->classSizes(), (std::vector<int> { 3, 3, 3 }));
        QCOMPARE(data->height, 7);
        QCOMPARE(data->width, 10);
    }

    void genericClassFoldersAllFormats()
    {
        QTemporaryDir dir;
        const QImage image = fixtures::pattern(9, 9, 1);
        QVERIFY(fixtures::writeBytes(path(dir, u"cat/a.png"_s), fixtures::encoded(image, "PNG")));
        QVERIFY(fixtures::writeBytes(path(dir, u"cat/b.jpg"_s), fixtures::encoded(image, "JPG")));
        QVERIFY(fixtures::writeBytes(path(dir, u"cat/c.bmp"_s), fixtures::encoded(image, "BMP")));
        QVERIFY(fixtures::writeBytes(path(dir, u"dog/d.tif"_s), fixtures::tiffBytes(image)));
        QVERIFY(fixtures::writeBytes(path(dir, u"dog/e.gif"_s), fixtures::gifBytes(image)));
        QVERIFY(fixtures::writeBytes(path(dir, u"dog/deeper/f.pgm"_s), fixtures::pgmBytes(image)));
        QImage colour(9, 9, QImage::Format_RGB32);
        colour.fill(QColor(200, 30, 40));
        QVERIFY(colour.save(path(dir, u"dog/g.png"_s)));
        QVERIFY(fixtures::writeBytes(path(dir, u"stray.png"_s), fixtures::encoded(image, "PNG")));
        QVERIFY(QDir(dir.path()).mkpath(u"empty"_s));

        const Result<ImageSet> set = loadImageFolder(dir.path());
        QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error()));
        QCOMPARE(set->size(), 7);
        QCOMPARE(set->classNames, (QStringList { u"cat"_s, u"dog"_s }));
        QVERIFY(set->files.contains(u"dog/deeper/f.pgm"_s));
        const int colourIndex = int(set->files.indexOf(u"dog/g.png"_s));
        QCOMPARE(set->images[std::size_t(colourIndex)].format(), QImage::Format_RGB888);
        const QString notes = joined(set->notes);
        QVERIFY2(notes.contains(u"outside the class folders: stray.png"_s), qPrintable(notes));
        QVERIFY2(notes.contains(u"without images: empty/"_s), qPrintable(notes));
        // dog/deeper/f.pgm joins class dog, and a note says so.
        QVERIFY2(notes.contains(u"join its class (1 of 2 class folder(s) hold some: dog/)"_s),
            qPrintable(notes));
        QVERIFY(!notes.contains(u"open the folder that holds"_s));

        // The default grayscale step turns the colour image into luma grey.
        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY(data.ok());
        QVERIFY(joined(data->notes).contains(u"1 colour image(s) converted to grey"_s));
        PreprocessSettings keepColour;
        keepColour.grayscale = false;
        const Result<Dataset> refused = loadFolder(dir.path(), keepColour);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().contains(u"dog/g.png"_s), qPrintable(refused.error()));
    }

    void aParentOfTheClassFoldersGivesOneClass()
    {
        // The folder above the class folders was opened: every image falls into one class, the
        // set's name; the note says what happened and what to open instead.
        QTemporaryDir dir;
        for (int s = 1; s <= 2; ++s)
            for (int i = 1; i <= 2; ++i)
                QVERIFY(fixtures::writeBytes(path(dir, u"orl/s%1/%2.pgm"_s.arg(s).arg(i)),
                    fixtures::pgmBytes(fixtures::pattern(6, 6, s * 3 + i))));
        const Result<ImageSet> set = loadImageFolder(dir.path());
        QVERIFY(set.ok());
        QCOMPARE(set->classNames, (QStringList { u"orl"_s }));
        const QString notes = joined(set->notes);
        QVERIFY2(notes.contains(u"(1 of 1 class folder(s) hold some: orl/); with one class, open "
                                "the folder that holds the class folders"_s),
            qPrintable(notes));
    }

    void unlabelledFlatFolder()
    {
        QTemporaryDir dir;
        for (int i = 1; i <= 4; ++i)
            QVERIFY(fixtures::writeBytes(path(dir, u"img%1.png"_s.arg(i)),
                fixtures::encoded(fixtures::pattern(4, 4, i), "PNG")));
        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY(data.ok());
        QCOMPARE(int(data->samples()), 4);
        QVERIFY(!data->hasLabels());
        QVERIFY(joined(data->notes).contains(u"unlabelled"_s));
    }

    void badFilesAreSkippedAndListed()
    {
        QTemporaryDir dir;
        const QImage image = fixtures::pattern(8, 8, 2);
        const QByteArray png = fixtures::encoded(image, "PNG");
        const QByteArray jpg = fixtures::encoded(image, "JPG");
        const QByteArray pgm = fixtures::pgmBytes(image);
        QVERIFY(fixtures::writeBytes(path(dir, u"a/good.png"_s), png));
        QVERIFY(fixtures::writeBytes(path(dir, u"a/cut.png"_s), png.left(png.size() / 2)));
        QVERIFY(fixtures::writeBytes(path(dir, u"a/cut.jpg"_s), jpg.left(jpg.size() / 2)));
        QVERIFY(fixtures::writeBytes(path(dir, u"a/cut.pgm"_s), pgm.left(pgm.size() - 5)));
        QVERIFY(
            fixtures::writeBytes(path(dir, u"a/cut.gif"_s), fixtures::gifBytes(image).left(60)));
        QVERIFY(fixtures::writeBytes(path(dir, u"a/zero.png"_s), QByteArray()));
        QVERIFY(fixtures::writeBytes(path(dir, u"a/notes.txt"_s), "not an image"));
        // The right signature and end chunk around garbage: only the decoder can tell.
        QVERIFY(fixtures::writeBytes(path(dir, u"a/garbage.png"_s),
            png.left(8) + QByteArray(64, 'x') + "IEND\xAE\x42\x60\x82"));
        QVERIFY(fixtures::writeBytes(path(dir, u"b/good.pgm"_s), pgm));

        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(int(data->samples()), 2);
        const QString notes = joined(data->notes);
        QVERIFY2(notes.contains(u"not images: a/notes.txt"_s), qPrintable(notes));
        QVERIFY2(notes.contains(u"empty file(s) (0 bytes): a/zero.png"_s), qPrintable(notes));
        QVERIFY2(notes.contains(u"skipped 5 damaged image(s)"_s), qPrintable(notes));
        for (const QString& name :
            { u"a/cut.png"_s, u"a/cut.jpg"_s, u"a/cut.pgm"_s, u"a/cut.gif"_s })
            QVERIFY2(notes.contains(name + u": truncated"_s), qPrintable(name + u" in "_s + notes));
        QVERIFY2(notes.contains(u"a/garbage.png"_s), qPrintable(notes));
    }

    void mixedSizesGoToTheMostCommon()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 3; ++i)
            QVERIFY(fixtures::writeBytes(path(dir, u"c/%1.png"_s.arg(i)),
                fixtures::encoded(fixtures::pattern(6, 8, i), "PNG")));
        QVERIFY(fixtures::writeBytes(
            path(dir, u"c/big.png"_s), fixtures::encoded(fixtures::pattern(12, 12), "PNG")));
        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY(data.ok());
        QCOMPARE(data->height, 8);
        QCOMPARE(data->width, 6);
        QCOMPARE(int(data->samples()), 4);
        QVERIFY2(
            joined(data->notes)
                .contains(u"1 image(s) resized to 8x6, the most common size: c/big.png (12x12)"_s),
            qPrintable(joined(data->notes)));

        PreprocessSettings sized;
        sized.height = sized.width = 4;
        const Result<Dataset> small = loadFolder(dir.path(), sized);
        QVERIFY(small.ok());
        QCOMPARE(small->height, 4);
        QCOMPARE(int(small->features()), 16);
    }

    void singleImageClassesAndManyClasses()
    {
        QTemporaryDir dir;
        // 300 classes (more than a byte can count), one image each, numeric folder names.
        for (int c = 1; c <= 300; ++c)
            QVERIFY(fixtures::writeBytes(
                path(dir, u"%1/x.pgm"_s.arg(c)), fixtures::pgmBytes(fixtures::pattern(2, 2, c))));
        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(data->classCount(), 300);
        QCOMPARE(data->classNames.at(1), u"2"_s);
        QCOMPARE(data->classNames.at(299), u"300"_s);
        QCOMPARE(data->labels.at(299), 299);
        const std::vector<int> sizes = data->classSizes();
        QVERIFY(std::all_of(sizes.begin(), sizes.end(), [](int s) { return s == 1; }));
        QVERIFY(describe(*data).contains(u"300 classes of 1"_s));
    }

    void nonAsciiNames()
    {
        QTemporaryDir dir;
        QVERIFY(fixtures::writeBytes(
            path(dir, u"Ärger/größe.png"_s), fixtures::encoded(fixtures::pattern(3, 3), "PNG")));
        QVERIFY(fixtures::writeBytes(
            path(dir, u"人脸/测试.pgm"_s), fixtures::pgmBytes(fixtures::pattern(3, 3, 1))));
        const Result<Dataset> data = loadFolder(dir.path());
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(int(data->samples()), 2);
        QVERIFY(data->classNames.contains(u"Ärger"_s));
        QVERIFY(data->classNames.contains(u"人脸"_s));
    }

    // File and folder names in Latin-1, which are not UTF-8: QDir leaves them out without a
    // word (a flat folder of 6 showed 1 image, two class folders "the folder is empty"). They
    // load by their bytes, show U+FFFD, and a note names them; folders whose names show alike
    // stay two classes; a FIFO is named in a note, never opened.
    void namesThatAreNotUtf8_data()
    {
        QTest::addColumn<QByteArrayList>("names"); // relative native paths
        QTest::addColumn<int>("classes");
        QTest::addColumn<QStringList>("shown"); // some of set.files, or the class names
        QTest::newRow("flat folder") << QByteArrayList { "Jos\xe9_1.pgm", "Jos\xe9_2.pgm",
            "Ren\xe9"
            "e_1.pgm",
            "Ren\xe9"
            "e_2.pgm",
            "Fran\xe7ois_1.pgm",
            "plain_1.pgm" } << 4 << QStringList { u"Jos\uFFFD_1.pgm"_s, u"Fran\uFFFDois_1.pgm"_s };
        QTest::newRow("class folders") << QByteArrayList { "Jos\xe9/1.pgm", "Jos\xe9/2.pgm",
            "Jos\xe9/\xe9t\xe9.pgm",
            "Ren\xe9"
            "e/1.pgm",
            "Ren\xe9"
            "e/2.pgm",
            "Ren\xe9"
            "e/\xe9t\xe9.pgm" } << 2 << QStringList { u"Jos\uFFFD"_s, u"Ren\uFFFDe"_s };
        QTest::newRow("class folders shown alike") << QByteArrayList { "\xe9/1.pgm", "\xe9/2.pgm",
            "\xe8/1.pgm", "\xe8/2.pgm" } << 2 << QStringList { u"\uFFFD"_s, u"\uFFFD (2)"_s };
    }
    void namesThatAreNotUtf8()
    {
        QFETCH(QByteArrayList, names);
        QFETCH(int, classes);
        QFETCH(QStringList, shown);
        QTemporaryDir dir;
        const QByteArray top = QFile::encodeName(dir.path());
        // QTemporaryDir removes through QDir, which does not see these names either.
        const auto removeByBytes = qScopeGuard([&top] {
            std::error_code ignored;
            std::filesystem::remove_all(std::filesystem::path(top.toStdString()), ignored);
        });
        for (qsizetype i = 0; i < names.size(); ++i)
            QVERIFY(writeAtNativePath(
                top + '/' + names[i], fixtures::pgmBytes(fixtures::pattern(4, 4, int(i)))));
        QVERIFY(::mkfifo((top + "/pipe").constData(), 0600) == 0);
        const Result<ImageSet> set = loadImageFolder(dir.path());
        QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error()));
        QCOMPARE(set->size(), int(names.size()));
        QCOMPARE(int(set->classNames.size()), classes);
        for (const QString& name : shown)
            QVERIFY2(set->files.contains(name) || set->classNames.contains(name),
                qPrintable(name + u" in "_s + set->files.join(u", "_s)));
        const QString notes = joined(set->notes);
        QVERIFY2(notes.contains(u"not UTF-8"_s), qPrintable(notes));
        QVERIFY2(notes.contains(u"not files (a FIFO, socket, device or dangling link): pipe"_s),
            qPrintable(notes));
    }

    void unreadableFiles()
    {
        // Tests run as root in CI containers, and root reads a chmod 000 file anyway; then the
        // file simply loads. As another user it is skipped and listed as unreadable.
        QTemporaryDir dir;
        const QString locked = path(dir, u"k/locked.png"_s);
        QVERIFY(fixtures::writeBytes(locked, fixtures::encoded(fixtures::pattern(4, 4), "PNG")));
        QVERIFY(fixtures::writeBytes(
            path(dir, u"k/open.png"_s), fixtures::encoded(fixtures::pattern(4, 4, 1), "PNG")));
        QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
        const Result<Dataset> data = loadFolder(dir.path());
        QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY(data.ok());
        if (geteuid() == 0) {
            QCOMPARE(int(data->samples()), 2);
        } else {
            QCOMPARE(int(data->samples()), 1);
            QVERIFY(joined(data->notes).contains(u"unreadable file(s): k/locked.png"_s));
        }
    }

    void emptyAndImagelessFoldersAreClearErrors()
    {
        QTemporaryDir dir;
        Result<Dataset> data = loadFolder(dir.path());
        QVERIFY(!data.ok());
        QVERIFY2(data.error().contains(u"the folder is empty"_s), qPrintable(data.error()));

        QVERIFY(fixtures::writeBytes(path(dir, u"README"_s), "text"));
        QVERIFY(fixtures::writeBytes(path(dir, u"sub/zero.png"_s), QByteArray()));
        data = loadFolder(dir.path());
        QVERIFY(!data.ok());
        QVERIFY2(data.error().contains(u"no images"_s), qPrintable(data.error()));
        QVERIFY2(data.error().contains(u"README"_s), qPrintable(data.error()));
        QVERIFY2(data.error().contains(u"sub/zero.png"_s), qPrintable(data.error()));

        const Result<Dataset> single = loadFolder(path(dir, u"sub/zero.png"_s));
        QVERIFY(!single.ok());
    }

    void realAttFaces()
    {
        const QString att = facetDataFile(u"att_faces"_s);
        FACET_REQUIRE_DATA(att);
        const Result<Dataset> data = loadFolder(att);
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(int(data->samples()), 400);
        QCOMPARE(data->classCount(), 40);
        QCOMPARE(data->height, 112);
        QCOMPARE(data->width, 92);
        QCOMPARE(data->classNames.at(9), u"s10"_s);
        QCOMPARE(data->classSizes(), std::vector<int>(40, 10));
        QVERIFY(joined(data->notes).contains(u"README"_s));
    }

    void realYaleFaces()
    {
        const QString yale = facetDataFile(u"yalefaces"_s);
        FACET_REQUIRE_DATA(yale);
        const Result<Dataset> data = loadFolder(yale);
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(int(data->samples()), 164);
        QCOMPARE(data->classCount(), 15);
        QCOMPARE(data->height, 243);
        QCOMPARE(data->width, 320);
        QCOMPARE(data->classNames.front(), u"subject01"_s);
        QCOMPARE(data->classSizes().front(), 10); // subject01.centerlight is missing
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestFolderLoader)
#include "test_folder_loader.moc"
