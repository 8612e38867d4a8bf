// SPDX-License-Identifier: GPL-3.0-or-later
// A run's factors as a MAT file (writeFactorsMat, `facet-cli run --factors`): every variable read
// back through matio itself, in the orientation of the data file export-dataset writes, so that
// fea' * W is U for the CF family; the run's options as JSON text; refusals.
#include "cli_process.h"
#include "core/random.h"
#include "data/dataset_identity.h"
#include "data/mat_loader.h"
#include "data/mat_writer.h"
#include "experiment/run_report.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <matio.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>

using namespace facet;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

struct MatValue {
    std::size_t rows = 0, cols = 0;
    std::vector<double> values; // column-major
    QString text; // char variables
};

struct MatContents {
    QStringList order;
    std::map<QString, MatValue> variables;
};

// Every variable of the file, read by matio (not by Facet's loader).
MatContents readWithMatio(const QString& path)
{
    MatContents contents;
    mat_t* mat = Mat_Open(QFile::encodeName(path).constData(), MAT_ACC_RDONLY);
    if (!mat)
        return contents;
    while (matvar_t* var = Mat_VarReadNext(mat)) {
        MatValue value;
        value.rows = var->dims[0];
        value.cols = var->dims[1];
        const std::size_t count = value.rows * value.cols;
        if (var->class_type == MAT_C_DOUBLE) {
            const auto* data = static_cast<const double*>(var->data);
            value.values.assign(data, data + count);
        } else if (var->class_type == MAT_C_CHAR && var->data_type == MAT_T_UINT16) {
            value.text
                = QString::fromUtf16(static_cast<const char16_t*>(var->data), qsizetype(count));
        }
        const QString name = QString::fromUtf8(var->name);
        contents.order << name;
        contents.variables[name] = std::move(value);
        Mat_VarFree(var);
    }
    Mat_Close(mat);
    return contents;
}

// Images of 4 x 6 pixels (not square, so a transposed pixel order cannot pass), 3 classes.
Dataset images(int samples, bool labelled)
{
    Dataset data;
    data.name = u"planted"_s;
    data.height = 4;
    data.width = 6;
    Rng rng(17);
    data.X = rng.uniformMatrix(24, samples);
    for (int j = 0; j < samples; ++j) {
        data.X.block(8 * (j % 3), j, 8, 1).array() += Scalar(2);
        if (labelled)
            data.labels.push_back(j % 3);
    }
    if (labelled)
        data.classNames = { u"left"_s, u"middle"_s, u"right"_s };
    return data;
}

RunOptions optionsFor(const std::string& method, int maxIter)
{
    RunOptions o;
    o.method = method;
    o.params.rank = 3;
    o.driver.maxIter = maxIter;
    o.driver.tol = 0;
    o.driver.seed = 12345;
    o.clusters = 3;
    return o;
}

RunResult run(const Dataset& data, const std::string& method)
{
    return runAndCluster(data.X, data.labels, optionsFor(method, 40), {});
}

QJsonObject reportOf(const Dataset& data, const RunResult& result, const RunOptions& options)
{
    DatasetRequest request;
    request.spec = u"builtin:planted"_s;
    return runReport(data, request, options, result, {});
}

QJsonObject reportOf(const Dataset& data, const RunResult& result, const std::string& method)
{
    return reportOf(data, result, optionsFor(method, 40));
}

// A MAT v5 file written variable by variable with matio, as a user's MATLAB or scipy would; closed
// when it goes out of scope.
class HandMadeMat {
public:
    explicit HandMadeMat(const QString& path)
    {
        QFile::remove(path);
        m_mat = Mat_CreateVer(QFile::encodeName(path).constData(), nullptr, MAT_FT_MAT5);
    }
    ~HandMadeMat()
    {
        if (m_mat)
            Mat_Close(m_mat);
    }
    HandMadeMat(const HandMadeMat&) = delete;
    HandMadeMat& operator=(const HandMadeMat&) = delete;

    bool put(const char* name, Eigen::MatrixXd values)
    {
        std::size_t dims[2] = { std::size_t(values.rows()), std::size_t(values.cols()) };
        return write(Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, values.data(), 0));
    }
    bool putText(const char* name, const char* text) // 8-bit characters
    {
        std::size_t dims[2] = { 1, std::strlen(text) };
        return write(Mat_VarCreate(
            name, MAT_C_CHAR, MAT_T_UINT8, 2, dims, const_cast<char*>(text), MAT_F_DONT_COPY_DATA));
    }

    // UTF-8 char data: its dimensions count characters, its data tag bytes.
    bool putUtf8(const char* name, const QString& text)
    {
        QByteArray bytes = text.toUtf8();
        std::size_t dims[2] = { 1, std::size_t(text.toUcs4().size()) };
        return write(Mat_VarCreate(
            name, MAT_C_CHAR, MAT_T_UTF8, 2, dims, bytes.data(), MAT_F_DONT_COPY_DATA));
    }

private:
    bool write(matvar_t* var)
    {
        const bool ok = m_mat && var && Mat_VarWrite(m_mat, var, MAT_COMPRESSION_NONE) == 0;
        Mat_VarFree(var);
        return ok;
    }

    mat_t* m_mat = nullptr;
};

} // namespace

class TestFactorsMat : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void cfFactorsReadBackInTheDataFilesOrientation()
    {
        const Dataset data = images(30, true);
        const RunResult result = run(data, "cf");
        const QString path = m_dir.filePath(u"cf.mat"_s);
        const Result<bool> written
            = writeFactorsMat(path, data, result, reportOf(data, result, "cf"));
        QVERIFY2(written, qPrintable(written ? QString() : written.error()));

        const MatContents file = readWithMatio(path);
        QCOMPARE(file.order,
            QStringList({ u"U"_s, u"V"_s, u"W"_s, u"labels"_s, u"gnd"_s, u"objective"_s,
                u"im_height"_s, u"im_width"_s, u"facet_run"_s }));
        const Factorization& f = result.factorization;
        const MatValue& u = file.variables.at(u"U"_s);
        QCOMPARE(u.rows, std::size_t(24));
        QCOMPARE(u.cols, std::size_t(3));
        // Pixel (r, c) is row c * 4 + r of U (MATLAB's reshape(U(:, j), 4, 6)), row r * 6 + c of
        // the basis.
        for (int j = 0; j < 3; ++j)
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 6; ++c)
                    QCOMPARE(
                        u.values[std::size_t(j * 24 + c * 4 + r)], double(f.basis(r * 6 + c, j)));
        for (const auto& [name, matrix] :
            { std::pair { u"V"_s, &f.V }, std::pair { u"W"_s, &f.W } }) {
            const MatValue& v = file.variables.at(name);
            QCOMPARE(v.rows, std::size_t(30));
            QCOMPARE(v.cols, std::size_t(3));
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 30; ++i)
                    QCOMPARE(v.values[std::size_t(j * 30 + i)], double((*matrix)(i, j)));
        }
        const MatValue& labels = file.variables.at(u"labels"_s);
        const MatValue& gnd = file.variables.at(u"gnd"_s);
        QCOMPARE(labels.rows, std::size_t(30));
        for (int i = 0; i < 30; ++i) {
            QCOMPARE(labels.values[std::size_t(i)], double(result.predicted[std::size_t(i)] + 1));
            QCOMPARE(gnd.values[std::size_t(i)], double(data.labels[std::size_t(i)] + 1));
        }
        QCOMPARE(file.variables.at(u"objective"_s).values, f.history);
        QCOMPARE(file.variables.at(u"im_height"_s).values, std::vector<double> { 4 });
        QCOMPARE(file.variables.at(u"im_width"_s).values, std::vector<double> { 6 });

        // The data file of the same set, as export-dataset writes it: fea' * W is U.
        const QString feaPath = m_dir.filePath(u"data.mat"_s);
        QVERIFY(writeDatasetMat(feaPath, data).ok());
        const MatContents dataFile = readWithMatio(feaPath);
        const MatValue& fea = dataFile.variables.at(u"fea"_s);
        QCOMPARE(fea.rows, std::size_t(30));
        const MatValue& w = file.variables.at(u"W"_s);
        for (std::size_t p = 0; p < 24; ++p)
            for (std::size_t j = 0; j < 3; ++j) {
                double sum = 0;
                for (std::size_t i = 0; i < 30; ++i)
                    sum += fea.values[p * 30 + i] * w.values[j * 30 + i];
                QVERIFY(std::abs(sum - u.values[j * 24 + p]) < 1e-9);
            }

        // The run's options, as JSON text without the two arrays the file holds as variables.
        const QJsonObject run
            = QJsonDocument::fromJson(file.variables.at(u"facet_run"_s).text.toUtf8()).object();
        QCOMPARE(run.value(u"method"_s).toString(), u"cf"_s);
        QCOMPARE(run.value(u"seed"_s).toDouble(), 12345.0);
        QCOMPARE(run.value(u"params"_s).toObject().value(u"max-iter"_s).toInt(), 40);
        QCOMPARE(
            run.value(u"dataset"_s).toObject().value(u"path"_s).toString(), u"builtin:planted"_s);
        QVERIFY(!run.contains(u"labels"_s));
        QVERIFY(!run.contains(u"objective_history"_s));
    }

    void nmfOnUnlabelledDataHasNoWAndNoGnd()
    {
        const Dataset data = images(12, false);
        const RunResult result = run(data, "nmf");
        const QString path = m_dir.filePath(u"nmf.mat"_s);
        QVERIFY(writeFactorsMat(path, data, result, reportOf(data, result, "nmf")).ok());
        const MatContents file = readWithMatio(path);
        QCOMPARE(file.order,
            QStringList({ u"U"_s, u"V"_s, u"labels"_s, u"objective"_s, u"im_height"_s,
                u"im_width"_s, u"facet_run"_s }));
        // Not a dataset: the loader says which variable it missed, and reads V when asked.
        const Result<Dataset> asData = loadMat(path);
        QVERIFY(!asData);
        MatLoadOptions readV;
        readV.dataVariable = u"V"_s;
        readV.labelVariable = u"labels"_s;
        readV.height = 1;
        readV.width = 3;
        const Result<Dataset> v = loadMat(path, readV);
        QVERIFY2(v, qPrintable(v ? QString() : v.error()));
        QCOMPARE(v->samples(), Eigen::Index(12));
    }

    void refusesWhatItCannotWrite()
    {
        const Dataset data = images(12, true);
        RunResult result = run(data, "nmf");
        const QJsonObject report = reportOf(data, result, "nmf");
        const Result<bool> folder = writeFactorsMat(m_dir.path(), data, result, report);
        QVERIFY(!folder);
        QVERIFY2(folder.error().contains(u"is a folder"_s), qPrintable(folder.error()));
        const Result<bool> other
            = writeFactorsMat(m_dir.filePath(u"x.mat"_s), images(13, true), result, report);
        QVERIFY(!other);
        QVERIFY2(other.error().contains(u"do not match the data (24 features, 13 samples)"_s),
            qPrintable(other.error()));
        result.factorization.V.resize(0, 0);
        const Result<bool> empty
            = writeFactorsMat(m_dir.filePath(u"y.mat"_s), data, result, report);
        QVERIFY(!empty);
        QVERIFY2(empty.error().contains(u"no factors"_s), qPrintable(empty.error()));
        QVERIFY(!QFile::exists(m_dir.filePath(u"x.mat"_s)));
        QVERIFY(!QFile::exists(m_dir.filePath(u"y.mat"_s)));
    }

    // 20 iterations, the factors file, 20 more from it: the objective continues where the
    // first run stopped, as in one run of 40 (the multiplicative rules commute with the final
    // normalization's column scaling). For NMF that also takes U back from the file's column-major
    // pixels of a 4 x 6 image. (Not for the graph methods: their term lambda Tr(V^T L V) changes
    // under that scaling, so they go on from the exported factors' own objective.)
    void warmStartContinuesTheRun_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("ncw");
        QTest::newRow("nmf") << u"nmf"_s << false;
        QTest::newRow("cf") << u"cf"_s << false;
        // With a third of the samples labelled: the file's V gives Z back (its least-squares
        // fit), as the run's own seed labels the same samples.
        QTest::newRow("cnmf") << u"cnmf"_s << false;
        QTest::newRow("ccf") << u"ccf"_s << false;
        // The file holds the factors mapped back from the weighted problem; the start maps them
        // into it again (V' = Gamma^(1/2) V, and for CF W' = Gamma^(-1/2) W).
        QTest::newRow("nmf ncw") << u"nmf"_s << true;
        QTest::newRow("cf ncw") << u"cf"_s << true;
    }
    void warmStartContinuesTheRun()
    {
        QFETCH(QString, method);
        QFETCH(bool, ncw);
        const std::string name = method.toStdString();
        const Dataset data = images(30, true);
        const auto options = [&](int maxIter) {
            RunOptions o = optionsFor(name, maxIter);
            if (name == "cnmf" || name == "ccf")
                o.labeledFraction = 0.34;
            o.params.ncw = ncw;
            // The rules commute with the saved factors' normalization; an extrapolated run (the
            // default) continues from them too, but its direction starts afresh.
            o.params.algorithm = Algorithm::Mu;
            return o;
        };
        const RunResult whole = runAndCluster(data.X, data.labels, options(40), {});
        const RunResult first = runAndCluster(data.X, data.labels, options(20), {});
        if (name == "cnmf" || name == "ccf")
            QVERIFY(std::count_if(first.knownLabels.begin(), first.knownLabels.end(), [](int l) {
                return l >= 0;
            }) >= 9);
        const QString path
            = m_dir.filePath(method + (ncw ? u"_ncw"_s : QString()) + u"_start.mat"_s);
        QVERIFY(writeFactorsMat(path, data, first, reportOf(data, first, options(20))).ok());

        RunOptions again = options(20);
        const Result<StartFactors> start = readStartFactors(path, data, again);
        QVERIFY2(start, qPrintable(start ? QString() : start.error()));
        // The file's objective is the earlier run's history: the second run counts on from it.
        QCOMPARE(start->history, first.factorization.history);
        QVERIFY2(start->notes.isEmpty(), qPrintable(start->notes.join(u'\n')));
        again.driver.start = std::make_shared<const std::vector<Matrix>>(start->factors);
        again.driver.startHistory = start->history;
        const RunResult second = runAndCluster(data.X, data.labels, again, {});
        QCOMPARE(second.factorization.iterations, 40);
        QCOMPARE(int(second.factorization.history.size()), 40);
        QVERIFY(second.factorization.segmentStarts.empty());
        for (int t = 0; t < 40; ++t) {
            const double a = whole.factorization.history[std::size_t(t)];
            const double b = second.factorization.history[std::size_t(t)];
            QVERIFY2(std::abs(a - b) <= 1e-9 * a,
                qPrintable(
                    u"iteration %1: %2 in one run, %3 continued"_s.arg(t + 1).arg(a).arg(b)));
        }
        QVERIFY(!suggestsKMeansStart(second.factorization, again));
    }

    // LCCF's saved factors are normalized, which changes its graph term: the continued run
    // starts a new segment where the file's history ends, instead of reading the jump as
    // progress.
    void warmStartOfAGraphMethodStartsASegment()
    {
        const Dataset data = images(30, true);
        const RunResult first = runAndCluster(data.X, data.labels, optionsFor("lccf", 20), {});
        const QString path = m_dir.filePath(u"lccf_start.mat"_s);
        QVERIFY(writeFactorsMat(path, data, first, reportOf(data, first, "lccf")).ok());
        RunOptions again = optionsFor("lccf", 15);
        const Result<StartFactors> start = readStartFactors(path, data, again);
        QVERIFY2(start, qPrintable(start ? QString() : start.error()));
        again.driver.start = std::make_shared<const std::vector<Matrix>>(start->factors);
        again.driver.startHistory = start->history;
        const RunResult second = runAndCluster(data.X, data.labels, again, {});
        QCOMPARE(second.factorization.iterations, 35);
        QCOMPARE(second.factorization.segmentStarts, std::vector<int> { 20 });
    }

    // CF_OGL starts from a file's W and V but learns its graph anew (the factors carry no Q, F or
    // beta): a note says so, and the run counts from 1, even from its own run's file.
    void cfOglStartsFromTheFactorsAsANewRun()
    {
        const Dataset data = images(30, true);
        const RunResult first = runAndCluster(data.X, data.labels, optionsFor("cf-ogl", 4), {});
        const QString path = m_dir.filePath(u"ogl_start.mat"_s);
        QVERIFY(writeFactorsMat(path, data, first, reportOf(data, first, optionsFor("cf-ogl", 4)))
                    .ok());
        RunOptions again = optionsFor("cf-ogl", 3);
        const Result<StartFactors> start = readStartFactors(path, data, again);
        QVERIFY2(start, qPrintable(start ? QString() : start.error()));
        QCOMPARE(start->notes,
            QStringList { u"cf-ogl starts from the W and V of ogl_start.mat and learns its graph "
                          u"anew (Q from the adaptive-neighbour graph, beta from --beta), which "
                          u"the factors do not carry: a new run, counted from iteration 1"_s });
        QVERIFY(start->history.empty());
        again.driver.start = std::make_shared<const std::vector<Matrix>>(start->factors);
        const RunResult second = runAndCluster(data.X, data.labels, again, {});
        QCOMPARE(second.factorization.iterations, 3);
        QVERIFY(second.factorization.returnedObjective > 0);
        QVERIFY(!warmStartContinues("cf-ogl"));
        QVERIFY(warmStartContinues("lccf"));
        QVERIFY(!warmStartContinues("kmeans"));
    }

    // The file's run report says when a start does not continue that run: another method, or
    // CNMF with other labelled samples. The start is still made, counted from iteration 1.
    void warmStartFromAnotherRunIsNoted()
    {
        const Dataset data = images(30, true);
        RunOptions labelled = optionsFor("cnmf", 20);
        labelled.labeledFraction = 0.34;
        const RunResult first = runAndCluster(data.X, data.labels, labelled, {});
        const QString path = m_dir.filePath(u"cnmf_start.mat"_s);
        QVERIFY(writeFactorsMat(path, data, first, reportOf(data, first, labelled)).ok());

        RunOptions fewer = labelled;
        fewer.labeledFraction = 0.2;
        Result<StartFactors> start = readStartFactors(path, data, fewer);
        QVERIFY2(start, qPrintable(start ? QString() : start.error()));
        QCOMPARE(start->notes.size(), 1);
        QVERIFY2(start->notes[0].contains(u"labelled its samples with seed 12345, labeled-fraction "
                                          u"0.34; this run labels them with seed 12345, "
                                          u"labeled-fraction 0.2"_s),
            qPrintable(start->notes[0]));
        QVERIFY(start->history.empty());
        RunOptions reseeded = labelled;
        reseeded.driver.seed = 7;
        start = readStartFactors(path, data, reseeded);
        QVERIFY(start && start->notes.size() == 1 && start->history.empty());
        start = readStartFactors(path, data, optionsFor("nmf", 20));
        QVERIFY(start);
        QCOMPARE(start->notes,
            QStringList { u"cnmf_start.mat holds the factors of a cnmf run; nmf starts from them, "
                          u"which does not continue that run"_s });
        QVERIFY(start->history.empty());
        start = readStartFactors(path, data, labelled);
        QVERIFY(start && start->notes.isEmpty() && start->history.size() == 20);
        // The same shapes from other data (another file of the size, or other preprocessing):
        // accepted as a start, noted, and counted from 1. It continued the run, its history
        // jumping from one function's value to another's.
        Dataset other = data;
        other.X(0, 0) += Scalar(0.25);
        start = readStartFactors(path, other, labelled);
        QVERIFY2(start, qPrintable(start ? QString() : start.error()));
        QCOMPARE(start->notes.size(), 1);
        QVERIFY2(start->notes[0].contains(u"cnmf_start.mat's run factorized other data"_s),
            qPrintable(start->notes[0]));
        QVERIFY(start->history.empty());
        // NCW minimizes another objective with the same factors.
        RunOptions weighted = optionsFor("nmf", 20);
        weighted.params.ncw = true;
        const RunResult plain = runAndCluster(data.X, data.labels, optionsFor("nmf", 20), {});
        const QString plainPath = m_dir.filePath(u"nmf_plain.mat"_s);
        QVERIFY(
            writeFactorsMat(plainPath, data, plain, reportOf(data, plain, optionsFor("nmf", 20)))
                .ok());
        start = readStartFactors(plainPath, data, weighted);
        QVERIFY2(start, qPrintable(start ? QString() : start.error()));
        QCOMPARE(start->notes,
            QStringList { u"nmf_plain.mat's run did not use normalized-cut weighting and this one "
                          u"does, so their objectives differ; nmf starts from the file's factors "
                          u"and does not continue that run"_s });
        QVERIFY(start->history.empty());

        // A facet_run that is not a report is refused; a file without one is a start from
        // elsewhere, taken as it is.
        for (const char* text : { "not json", "" }) {
            const QString made = m_dir.filePath(u"foreign.mat"_s);
            {
                HandMadeMat out(made);
                QVERIFY(out.put("U", first.factorization.basis.cast<double>()));
                QVERIFY(out.put("V", first.factorization.V.cast<double>()));
                if (*text)
                    QVERIFY(out.putText("facet_run", text));
            }
            start = readStartFactors(made, data, labelled);
            if (*text) {
                QVERIFY(!start);
                QVERIFY2(start.error().contains(u"facet_run is not the JSON report of a run"_s),
                    qPrintable(start.error()));
            } else {
                QVERIFY2(start, qPrintable(start ? QString() : start.error()));
                QVERIFY(start->notes.isEmpty() && start->history.empty());
            }
        }
        // A report whose seed is no seed (a file from anyone): said, not converted.
        const QString odd = m_dir.filePath(u"odd_seed.mat"_s);
        {
            HandMadeMat out(odd);
            QVERIFY(out.put("U", first.factorization.basis.cast<double>()));
            QVERIFY(out.put("V", first.factorization.V.cast<double>()));
            QVERIFY(out.putText("facet_run", R"({"method": "cnmf", "seed": -1e300})"));
        }
        start = readStartFactors(odd, data, labelled);
        QVERIFY2(start, qPrintable(start ? QString() : start.error()));
        QCOMPARE(start->notes.size(), 1);
        QVERIFY2(start->notes[0].contains(u"names no seed"_s), qPrintable(start->notes[0]));
    }

    // readMatText takes the three ways text is stored: UTF-16 (MATLAB's and Facet's own), 8-bit,
    // and UTF-8, whose characters may take several bytes each (cut before: decoded by count).
    void readsTextInEveryEncoding()
    {
        const QString path = m_dir.filePath(u"text.mat"_s);
        const QString text = u"{\"note\": \"Grüße, 東京 \U0001F600\"}"_s;
        {
            HandMadeMat out(path);
            QVERIFY(out.putUtf8("utf8", text));
            QVERIFY(out.putText("plain", "{\"a\": 1}"));
        }
        Result<std::optional<QString>> read = readMatText(path, u"utf8"_s);
        QVERIFY2(read, qPrintable(read ? QString() : read.error()));
        QVERIFY(read->has_value());
        QCOMPARE(**read, text);
        read = readMatText(path, u"plain"_s);
        QVERIFY(read && read->has_value());
        QCOMPARE(**read, u"{\"a\": 1}"_s);
        read = readMatText(path, u"absent"_s);
        QVERIFY(read && !read->has_value());
    }

    void warmStartRefusals()
    {
        const Dataset data = images(30, true);
        const RunResult cf = run(data, "cf");
        const QString path = m_dir.filePath(u"refusals.mat"_s);
        QVERIFY(writeFactorsMat(path, data, cf, reportOf(data, cf, "cf")).ok());
        RunOptions o = optionsFor("cf", 10);
        o.params.rank = 4;
        Result<StartFactors> start = readStartFactors(path, data, o);
        QVERIFY(!start);
        QVERIFY2(start.error().contains(u"W is 30 x 3, but the start needs 30 x 4"_s),
            qPrintable(start.error()));
        start = readStartFactors(path, images(31, true), optionsFor("cf", 10));
        QVERIFY(!start);
        QVERIFY2(start.error().contains(u"30 x 3, but the start needs 31 x 3"_s),
            qPrintable(start.error()));
        start = readStartFactors(path, data, optionsFor("kmeans", 10));
        QVERIFY(!start);
        QVERIFY(start.error().contains(u"kmeans keeps other factors"_s));
        const Dataset unlabelled = images(12, false);
        const RunResult nmf = run(unlabelled, "nmf");
        const QString nmfPath = m_dir.filePath(u"nmf_only.mat"_s);
        QVERIFY(writeFactorsMat(nmfPath, unlabelled, nmf, {}).ok());
        start = readStartFactors(nmfPath, unlabelled, optionsFor("lccf", 10));
        QVERIFY(!start);
        QVERIFY2(start.error().contains(u"no variable 'W'; the file has 'U'"_s),
            qPrintable(start.error()));
        // An objective that is not a vector, or not finite, is not a history to count on from.
        for (const double last : { 1.0, std::numeric_limits<double>::quiet_NaN() }) {
            const QString made = m_dir.filePath(u"objective.mat"_s);
            {
                HandMadeMat out(made);
                QVERIFY(out.put("W", cf.factorization.W.cast<double>()));
                QVERIFY(out.put("V", cf.factorization.V.cast<double>()));
                QVERIFY(out.put("objective",
                    std::isnan(last) ? Eigen::MatrixXd(Eigen::Vector3d(3, 2, last))
                                     : Eigen::MatrixXd(Eigen::Matrix2d::Constant(last))));
            }
            start = readStartFactors(made, data, optionsFor("cf", 10));
            QVERIFY(!start);
            QVERIFY2(start.error().contains(std::isnan(last)
                             ? u"objective has a value that is not finite"_s
                             : u"objective is 2 x 2"_s),
                qPrintable(start.error()));
        }

        // The driver checks what it is given: shapes, finite and non-negative values, one start.
        RunOptions given = optionsFor("cf", 5);
        std::vector<Matrix> bad { cf.factorization.W, cf.factorization.V };
        bad[1](4, 1) = -0.5;
        given.driver.start = std::make_shared<const std::vector<Matrix>>(bad);
        try {
            runAndCluster(data.X, data.labels, given, {});
            QFAIL("a negative start was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(
                         u"factor 2 of the given start has a negative"_s),
                e.what());
        }
        bad[1](4, 1) = 0.5;
        given.driver.replicates = 2;
        given.driver.start = std::make_shared<const std::vector<Matrix>>(bad);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, runAndCluster(data.X, data.labels, given, {}));
    }

    // Factors that cannot start the method (issue 36, item 13): U = 0 ended "converged" at 13
    // times the start file's objective (a multiplicative rule never moves an entry from 0), and
    // V scaled by 1e300 stopped as non-finite at once; both are refused with the reason.
    void degenerateWarmStartsAreRefused_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("needle");
        QTest::newRow("nmf, U = 0") << u"nmf"_s << u"basis zero"_s
                                    << u"factor 1 of the given start has a column of zeros"_s;
        QTest::newRow("cf, one column of W zero")
            << u"cf"_s << u"column zero"_s << u"has a column of zeros (column 2)"_s;
        QTest::newRow("nmf, V x 1e300")
            << u"nmf"_s << u"V huge"_s << u"the objective of the given start is not finite"_s;
        QTest::newRow("cf, V x 1e300")
            << u"cf"_s << u"V huge"_s << u"the objective of the given start is not finite"_s;
    }
    void degenerateWarmStartsAreRefused()
    {
        QFETCH(QString, method);
        QFETCH(QString, change);
        QFETCH(QString, needle);
        const Dataset data = images(30, true);
        const RunResult first = run(data, method.toStdString());
        const Factorization& f = first.factorization;
        std::vector<Matrix> start { method == u"nmf" ? f.basis : f.W, f.V };
        if (change == u"basis zero")
            start[0].setZero();
        else if (change == u"column zero")
            start[0].col(1).setZero();
        else
            start[1] *= Scalar(1e300);
        RunOptions given = optionsFor(method.toStdString(), 20);
        given.driver.start = std::make_shared<const std::vector<Matrix>>(start);
        try {
            const RunResult result = runAndCluster(data.X, data.labels, given, {});
            QFAIL(qPrintable(
                u"accepted, ended %1 after %2 iterations at %3"_s
                    .arg(QString::fromLatin1(stopReasonName(result.factorization.stopReason)))
                    .arg(result.factorization.iterations)
                    .arg(result.factorization.history.empty()
                            ? 0.0
                            : result.factorization.history.back())));
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(needle), e.what());
        }
    }

    void cliWritesTheFactorsOfItsRun()
    {
        const QString json = m_dir.filePath(u"run.json"_s);
        const QString mat = m_dir.filePath(u"run.mat"_s);
        const CliRun cli = runCli({ u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
            u"lccf"_s, u"--rank"_s, u"17"_s, u"--max-iter"_s, u"30"_s, u"--seed"_s, u"5"_s,
            u"--json"_s, json, u"--factors"_s, mat });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const QJsonObject report = readJson(json);
        const MatContents file = readWithMatio(mat);
        QVERIFY(file.order.contains(u"W"_s));
        const MatValue& v = file.variables.at(u"V"_s);
        QCOMPARE(qint64(v.rows), report.value(u"n"_s).toInteger());
        QCOMPARE(v.cols, std::size_t(17));
        const QJsonArray labels = report.value(u"labels"_s).toArray();
        const MatValue& fileLabels = file.variables.at(u"labels"_s);
        QCOMPARE(qsizetype(fileLabels.rows), labels.size());
        for (qsizetype i = 0; i < labels.size(); ++i)
            QCOMPARE(fileLabels.values[std::size_t(i)], labels.at(i).toDouble() + 1);
        // The report names the data by the SHA-256 of the matrix as factorized: Swimmer with
        // each sample at unit L2 norm, the CF family's preparation; the file repeats it (below).
        Result<Dataset> swimmer = loadDataset(DatasetRequest { u"builtin:swimmer"_s, {}, {}, {} });
        QVERIFY(swimmer.ok());
        const QString asLoaded = dataSha256(swimmer->X);
        prepareDataset(*swimmer, PrepareOptions { false, true });
        const QString reported
            = report.value(u"dataset"_s).toObject().value(u"sha256"_s).toString();
        QCOMPARE(reported, dataSha256(swimmer->X));
        QVERIFY(reported != asLoaded);
        QJsonObject expected = report;
        expected.remove(u"labels"_s);
        expected.remove(u"objective_history"_s);
        // The file's report adds the data's checksum, which --init-from compares.
        QJsonObject inFile
            = QJsonDocument::fromJson(file.variables.at(u"facet_run"_s).text.toUtf8()).object();
        QJsonObject dataset = inFile.value(u"dataset"_s).toObject();
        QVERIFY2(dataset.value(u"checksum"_s).toString().size() >= 8,
            qPrintable(dataset.value(u"checksum"_s).toString()));
        dataset.remove(u"checksum"_s);
        inFile.insert(u"dataset"_s, dataset);
        QCOMPARE(inFile, expected);

        // --init-from continues from that file and records it; a run file naming one cannot
        // become a session run, which could not repeat it.
        const QString next = m_dir.filePath(u"next.json"_s);
        const CliRun warm = runCli(
            { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s, u"lccf"_s, u"--rank"_s,
                u"17"_s, u"--max-iter"_s, u"5"_s, u"--json"_s, next, u"--init-from"_s, mat });
        QVERIFY2(warm.exitCode == 0, qPrintable(warm.err));
        const QJsonObject nextReport = readJson(next);
        const QJsonObject params = nextReport.value(u"params"_s).toObject();
        QCOMPARE(params.value(u"init-from"_s).toString(), QFileInfo(mat).absoluteFilePath());
        // It counts on from the file's 30 iterations; LCCF's normalized factors begin a segment.
        QCOMPARE(nextReport.value(u"iterations"_s).toInt(), 35);
        const QJsonArray earlier = report.value(u"objective_history"_s).toArray();
        const QJsonArray counted = nextReport.value(u"objective_history"_s).toArray();
        QCOMPARE(earlier.size(), 30);
        for (qsizetype t = 0; t < earlier.size(); ++t)
            QCOMPARE(counted.at(t).toDouble(), earlier.at(t).toDouble());
        QCOMPARE(nextReport.value(u"segment_starts"_s).toArray(), QJsonArray { 30 });
        // Another method starts from the file without continuing its run: said, and counted
        // from 1.
        const CliRun other = runCli(
            { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s, u"cf"_s, u"--rank"_s,
                u"17"_s, u"--max-iter"_s, u"5"_s, u"--json"_s, next, u"--init-from"_s, mat });
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        QVERIFY2(other.out.contains(u"note: run.mat holds the factors of a lccf run; cf starts "
                                    u"from them"_s),
            qPrintable(other.out));
        QCOMPARE(readJson(next).value(u"iterations"_s).toInt(), 5);
        const CliRun twice = runCli(
            { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s, u"lccf"_s, u"--rank"_s,
                u"17"_s, u"--replicates"_s, u"2"_s, u"--json"_s, next, u"--init-from"_s, mat });
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.err.contains(u"one replicate"_s), qPrintable(twice.err));
        const CliRun both = runCli(
            { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s, u"lccf"_s, u"--rank"_s,
                u"17"_s, u"--init"_s, u"kmeans"_s, u"--json"_s, next, u"--init-from"_s, mat });
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains(u"give one of them"_s), qPrintable(both.err));
        // sweep has no single run to write.
        const CliRun sweep = runCli({ u"sweep"_s, u"--dataset"_s, u"builtin:swimmer"_s,
            u"--methods"_s, u"nmf"_s, u"--out"_s, m_dir.filePath(u"s"_s), u"--factors"_s, mat });
        QCOMPARE(sweep.exitCode, 2);
        QVERIFY2(sweep.err.contains(u"--factors"_s), qPrintable(sweep.err));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestFactorsMat)
#include "test_factors_mat.moc"
