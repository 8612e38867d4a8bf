// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/run_csv.h"

#include "util/atomic_write.h"
#include "util/params_json.h"

#include <QDir>
#include <QJsonDocument>

#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QByteArray csvNumber(double v)
{
    return std::isfinite(v) ? QByteArray::number(v, 'g', 17) : QByteArray();
}

QByteArray csvNumber(const std::optional<double>& v)
{
    return v ? csvNumber(*v) : QByteArray();
}

// RFC 4180: a field with a comma, quote or line break is quoted, inner quotes doubled.
QByteArray field(const QString& text)
{
    QByteArray bytes = text.toUtf8();
    if (!bytes.contains(',') && !bytes.contains('"') && !bytes.contains('\n')
        && !bytes.contains('\r'))
        return bytes;
    bytes.replace('"', "\"\"");
    return '"' + bytes + '"';
}

} // namespace

QByteArray runTableCsv(const std::vector<RunRecord>& runs)
{
    QByteArray csv
        = "id,name,dataset,dataset_source,dataset_preparation,dataset_sha256,sample_l2,method,"
          "rank,seed,iterations,stop_reason,objective,returned_objective,ac,nmi,"
          "graph_ac,graph_nmi,reconstruction_error,sparseness,seconds,options\r\n";
    for (const RunRecord& r : runs) {
        const RunSummary& s = r.summary;
        const QByteArray options
            = QJsonDocument(runOptionsToJson(r.options)).toJson(QJsonDocument::Compact);
        const QList<QByteArray> fields {
            QByteArray::number(r.id),
            field(r.name),
            field(r.dataset.name),
            field(r.dataset.source),
            field(r.dataset.preparation),
            r.dataset.sha256.toLatin1(),
            r.dataset.sampleL2 ? "true" : "false",
            field(QString::fromStdString(r.options.method)),
            QByteArray::number(r.options.params.rank),
            QByteArray::number(quint64(r.options.driver.seed)),
            QByteArray::number(s.iterations),
            QByteArray(stopReasonName(s.stopReason).data(),
                qsizetype(stopReasonName(s.stopReason).size())),
            csvNumber(s.objective),
            csvNumber(s.returnedObjective),
            csvNumber(s.ac),
            csvNumber(s.nmi),
            csvNumber(s.graphAc),
            csvNumber(s.graphNmi),
            csvNumber(s.reconstructionError),
            csvNumber(s.sparseness),
            csvNumber(s.seconds),
            field(QString::fromUtf8(options)),
        };
        csv += fields.join(',') + "\r\n";
    }
    return csv;
}

QByteArray matrixCsv(const Matrix& matrix)
{
    QByteArray csv;
    csv.reserve(qsizetype(matrix.size()) * 12);
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
        for (Eigen::Index j = 0; j < matrix.cols(); ++j) {
            if (j > 0)
                csv += ',';
            csv += QByteArray::number(double(matrix(i, j)), 'g', 17);
        }
        csv += "\r\n";
    }
    return csv;
}

Result<bool> writeRunFactorsCsv(const RunRecord& run, const QString& dir)
{
    if (!run.hasFactors())
        return Error { u"run \"%1\" kept no factors to export"_s.arg(run.name) };
    const QDir target(dir);
    if (Result<bool> basis = writeBytesFile(target.filePath(u"basis.csv"_s), matrixCsv(run.basis));
        !basis)
        return basis;
    if (Result<bool> v = writeBytesFile(target.filePath(u"V.csv"_s), matrixCsv(run.V)); !v)
        return v;
    if (run.W.size() == 0)
        return true;
    return writeBytesFile(target.filePath(u"W.csv"_s), matrixCsv(run.W));
}

Result<bool> writeRunTableCsv(const std::vector<RunRecord>& runs, const QString& path)
{
    return writeBytesFile(path, runTableCsv(runs));
}

} // namespace facet
