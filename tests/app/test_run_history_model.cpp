// SPDX-License-Identifier: GPL-3.0-or-later
// The run history table: rows of real runs under QAbstractItemModelTester, ids that are never
// reused, the editable name (and only it), removal of scattered rows, and the CSV exports.
#include "data/dataset_identity.h"
#include "models/run_history_model.h"
#include "run_record_fixtures.h"
#include "session/run_csv.h"

#include <QAbstractItemModelTester>
#include <QCryptographicHash>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>

using namespace facet;
using namespace Qt::StringLiterals;

class TestRunHistoryModel : public QObject {
    Q_OBJECT

    Dataset m_data;
    std::vector<RunRecord> m_runs;

    QStringList names(const RunHistoryModel& model)
    {
        QStringList list;
        for (int row = 0; row < model.rowCount(); ++row)
            list << model.index(row, RunHistoryModel::NameColumn).data().toString();
        return list;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_data = facet::fixtures::labelledBars();
        m_runs.push_back(facet::fixtures::solvedRecord(m_data, "nmf", 3, 1, u"a"_s));
        m_runs.push_back(facet::fixtures::solvedRecord(m_data, "cf", 3, 2, u"b"_s));
        m_runs.push_back(facet::fixtures::solvedRecord(m_data, "gnmf", 4, 3, u"c"_s));
        m_runs.push_back(facet::fixtures::solvedRecord(m_data, "nmf", 5, 4));
    }

    void rowsShowTheRuns()
    {
        RunHistoryModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (const RunRecord& r : m_runs)
            model.addRun(r);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(RunHistoryModel::ColumnCount));
        QCOMPARE(names(model), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"NMF k=5"_s }));
        QCOMPARE(model.headerData(RunHistoryModel::AcColumn, Qt::Horizontal).toString(), u"AC"_s);
        const auto cell
            = [&](int row, int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(cell(1, RunHistoryModel::MethodColumn), u"CF"_s);
        QCOMPARE(cell(2, RunHistoryModel::ParamsColumn), u"k=4"_s);
        QCOMPARE(cell(2, RunHistoryModel::SeedColumn), u"3"_s);
        QCOMPARE(model.index(0, RunHistoryModel::IterationsColumn).data().toInt(),
            m_runs[0].summary.iterations);
        QCOMPARE(cell(0, RunHistoryModel::AcColumn),
            QString::number(100 * *m_runs[0].summary.ac, 'f', 1) + u" %"_s);
        QCOMPARE(cell(0, RunHistoryModel::ObjectiveColumn),
            QString::number(m_runs[0].summary.objective, 'g', 6));
        QVERIFY(cell(0, RunHistoryModel::TimeColumn).endsWith(u"s"_s));

        model.setParamsFormatter(
            [](const RunOptions& o) { return u"rank %1"_s.arg(o.params.rank); });
        QCOMPARE(cell(3, RunHistoryModel::ParamsColumn), u"rank 5"_s);
    }

    // The Dataset column names the data a run factorized; the tooltip gives its source,
    // preparation and digest, and a run from an older session says it has none.
    void datasetColumnAndDigest()
    {
        // The digest is SHA-256 of X's float64 bytes, column-major: checked against Qt's own
        // implementation of SHA-256 on the same bytes.
        const Matrix& X = m_data.X;
        const QByteArray bytes(
            reinterpret_cast<const char*>(X.data()), qsizetype(X.size() * sizeof(double)));
        const QString expected = QString::fromLatin1(
            QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        QCOMPARE(dataSha256(X), expected);
        Matrix changed = X;
        changed(5, 7) = std::nextafter(changed(5, 7), 2.0);
        QVERIFY(dataSha256(changed) != expected);
        // Held in parts (the ranks of a distributed run), the digest passed from part to part as
        // its state gives the same SHA-256 and checksum as the whole.
        DataDigest head;
        head.add(X.leftCols(3));
        std::optional<DataDigest> second = DataDigest::fromState(head.state());
        QVERIFY(second);
        second->add(X.middleCols(3, X.cols() - 5));
        std::optional<DataDigest> third = DataDigest::fromState(second->state());
        QVERIFY(third);
        third->add(X.rightCols(2));
        QCOMPARE(third->sha256(), expected);
        QCOMPARE(third->checksum(), dataChecksum(X));
        QVERIFY(!DataDigest::fromState(head.state().substr(1)));

        RunHistoryModel model;
        RunRecord known = m_runs[0];
        known.dataset = datasetIdentity(
            m_data, DatasetRequest { u"/data/bars.mat"_s, {}, {}, {} }, dataSha256(m_data.X));
        model.addRun(known);
        model.addRun(m_runs[1]);
        const QModelIndex first = model.index(0, RunHistoryModel::DatasetColumn);
        QCOMPARE(model.headerData(RunHistoryModel::DatasetColumn, Qt::Horizontal).toString(),
            u"Dataset"_s);
        QCOMPARE(first.data().toString(), u"labelled bars 8x8"_s);
        const QString tip = first.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(u"on labelled bars 8x8 (/data/bars.mat, scaled to [0, 1]; sha256 "_s
                     + expected.left(12)),
            qPrintable(tip));
        QCOMPARE(model.index(1, RunHistoryModel::DatasetColumn).data().toString(), u"–"_s);
        QVERIFY2(model.index(1, 0).data(Qt::ToolTipRole).toString().contains(u"from before"_s),
            qPrintable(model.index(1, 0).data(Qt::ToolTipRole).toString()));
    }

    void idsAreUniqueAndNeverReused()
    {
        RunHistoryModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunRecord r = m_runs[0];
        r.id = 0;
        QCOMPARE(model.addRun(r), 1);
        QCOMPARE(model.addRun(r), 2);
        r.id = 2; // taken
        QCOMPARE(model.addRun(r), 3);
        QVERIFY(model.removeRun(2));
        QCOMPARE(model.addRun(m_runs[1]), 4);
        QCOMPARE(model.rowOfId(4), 2);
        QCOMPARE(model.rowOfId(3), -1);
        QCOMPARE(model.index(2, 0).data(RunHistoryModel::IdRole).toInt(), 4);

        std::vector<RunRecord> loaded { m_runs[0], m_runs[1], m_runs[2] };
        loaded[0].id = 9;
        loaded[1].id = 9;
        loaded[2].id = 0;
        model.setRuns(loaded);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.run(0).id, 9);
        QVERIFY(model.run(1).id != 9 && model.run(1).id > 0);
        QVERIFY(model.run(2).id != 9 && model.run(2).id != model.run(1).id);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void onlyTheNameIsEditable()
    {
        RunHistoryModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (const RunRecord& r : m_runs)
            model.addRun(r);
        QVERIFY(model.flags(model.index(0, RunHistoryModel::NameColumn)) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(model.index(0, RunHistoryModel::AcColumn)) & Qt::ItemIsEditable));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.setData(model.index(1, 0), u"  baseline CF  "_s));
        QCOMPARE(model.run(1).name, u"baseline CF"_s);
        QCOMPARE(changed.count(), 1);
        QVERIFY(!model.setData(model.index(1, 0), u"   "_s)); // an empty name is refused
        QCOMPARE(model.run(1).name, u"baseline CF"_s);
        QVERIFY(!model.setData(model.index(1, RunHistoryModel::AcColumn), u"99"_s));
        QVERIFY(model.renameRun(0, u"first"_s));
        QCOMPARE(names(model).first(), u"first"_s);
    }

    void scatteredRowsAreRemoved()
    {
        RunHistoryModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (const RunRecord& r : m_runs)
            model.addRun(r);
        model.removeRunRows({ 0, 2, 0 });
        QCOMPARE(names(model), (QStringList { u"b"_s, u"NMF k=5"_s }));
        QVERIFY(!model.removeRun(5));
        QVERIFY(!model.removeRows(1, 2));
    }

    // GNMF's final normalization rescales V and its graph term: the row's tooltip gives the
    // returned factors' objective too, and the CSV has it; NMF's is the last iteration's.
    void returnedObjectiveWhereItDiffers()
    {
        RunHistoryModel model;
        for (const RunRecord& r : { m_runs[0], m_runs[2] })
            model.addRun(r);
        const auto tip = [&](int row) {
            return model.data(model.index(row, RunHistoryModel::ObjectiveColumn), Qt::ToolTipRole)
                .toString();
        };
        QVERIFY(model.headerData(RunHistoryModel::ObjectiveColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(u"returned factors"_s));
        const RunSummary& gnmf = m_runs[2].summary;
        QVERIFY2(returnedObjectiveDiffers(gnmf.objective, gnmf.returnedObjective),
            qPrintable(u"%1 %2"_s.arg(gnmf.objective).arg(gnmf.returnedObjective)));
        QVERIFY2(tip(1).contains(u"%1 at the returned factors"_s.arg(
                     QString::number(gnmf.returnedObjective, 'g', 6))),
            qPrintable(tip(1)));
        QVERIFY2(!tip(0).contains(u"returned"_s), qPrintable(tip(0)));
        const QList<QByteArray> lines = runTableCsv({ m_runs[2] }).split('\n');
        QVERIFY(lines[1].contains(',' + QByteArray::number(gnmf.returnedObjective, 'g', 17) + ','));
    }

    void tableCsv()
    {
        std::vector<RunRecord> runs { m_runs[0], m_runs[1] };
        runs[0].id = 1;
        runs[0].name = u"with, comma and \"quotes\""_s;
        runs[1].id = 2;
        runs[1].summary.ac.reset();
        // Each row names the data its run factorized (issue 37: an ORL run and the att_faces
        // folder at 32 x 32 have one shape).
        const DatasetRequest request { u"builtin:bars"_s, {}, {}, {} };
        runs[0].dataset = datasetIdentity(m_data, request, dataSha256(m_data.X));
        runs[0].dataset.sampleL2 = true;
        const QList<QByteArray> lines = runTableCsv(runs).split('\n');
        QCOMPARE(lines.size(), 4); // header, two rows, empty after the last CRLF
        QVERIFY(lines[0].startsWith("id,name,dataset,dataset_source,dataset_preparation,"
                                    "dataset_sha256,sample_l2,method,rank,seed,iterations,"
                                    "stop_reason,objective,returned_objective,ac,"));
        QVERIFY2(lines[1].startsWith("1,\"with, comma and \"\"quotes\"\"\",labelled bars 8x8,"
                                     "builtin:bars,\"scaled to [0, 1]\","
                     + runs[0].dataset.sha256.toLatin1() + ",true,nmf,3,1,"),
            lines[1].constData());
        QVERIFY2(lines[2].startsWith("2,b,,,,,false,cf,"), lines[2].constData());
        QVERIFY(lines[1].contains(QByteArray::number(*m_runs[0].summary.ac, 'g', 17)));
        // An undefined AC is an empty field, and the options travel as quoted JSON.
        QVERIFY(lines[2].contains(",,"));
        QVERIFY(lines[2].contains(",\"{\"\""));
        QVERIFY(lines[2].contains("\"\"method\"\":\"\"cf\"\""));

        QTemporaryDir dir;
        const QString path = dir.filePath(u"runs.csv"_s);
        QVERIFY(writeRunTableCsv(runs, path).ok());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), runTableCsv(runs));
    }

    void factorsCsvReadBackExactly()
    {
        QTemporaryDir dir;
        const RunRecord& run = m_runs[2];
        const Result<bool> written = writeRunFactorsCsv(run, dir.path());
        QVERIFY2(written.ok(), qPrintable(written.ok() ? QString() : written.error()));
        QVERIFY(!QFile::exists(dir.filePath(u"W.csv"_s))); // gnmf has no W
        const RunRecord& cf = m_runs[1];
        QTemporaryDir cfDir;
        QVERIFY(writeRunFactorsCsv(cf, cfDir.path()).ok());
        for (const auto& [file, matrix] : { std::pair { dir.filePath(u"basis.csv"_s), &run.basis },
                 std::pair { dir.filePath(u"V.csv"_s), &run.V },
                 std::pair { cfDir.filePath(u"W.csv"_s), &cf.W } }) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
            QCOMPARE(lines.size(), int(matrix->rows()));
            for (int i = 0; i < lines.size(); ++i) {
                const QList<QByteArray> fields = lines[i].trimmed().split(',');
                QCOMPARE(fields.size(), int(matrix->cols()));
                for (int j = 0; j < fields.size(); ++j)
                    QCOMPARE(fields[j].toDouble(), double((*matrix)(i, j)));
            }
        }
        RunRecord empty = run;
        empty.basis.resize(0, 0);
        empty.V.resize(0, 0);
        const Result<bool> refused = writeRunFactorsCsv(empty, dir.path());
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().contains(u"kept no factors"_s));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestRunHistoryModel)
#include "test_run_history_model.moc"
