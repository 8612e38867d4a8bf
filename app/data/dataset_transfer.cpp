// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/dataset_transfer.h"

#include <QDataStream>
#include <QFile>

#include <algorithm>
#include <limits>

namespace facet {
namespace {

constexpr quint32 kMagic = 0x46445331; // "FDS1"
constexpr QDataStream::Version kStreamVersion = QDataStream::Qt_6_0;

} // namespace

Result<bool> writeDatasetTransfer(const Dataset& data, const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Error { QStringLiteral("cannot write %1: %2").arg(path, file.errorString()) };
    QDataStream out(&file);
    out.setVersion(kStreamVersion);
    out << kMagic << quint32(sizeof(Scalar)) << data.name << data.source << data.classNames
        << data.notes << qint32(data.height) << qint32(data.width) << qint64(data.X.rows())
        << qint64(data.X.cols()) << qint64(data.labels.size());
    for (int label : data.labels)
        out << qint32(label);
    const qint64 bytes = qint64(data.X.size()) * qint64(sizeof(Scalar));
    const char* raw = reinterpret_cast<const char*>(data.X.data());
    for (qint64 done = 0; done < bytes && out.status() == QDataStream::Ok;) {
        const int chunk = int(std::min<qint64>(bytes - done, qint64(1) << 30));
        if (out.writeRawData(raw + done, chunk) != chunk)
            break;
        done += chunk;
    }
    if (out.status() != QDataStream::Ok || !file.flush())
        return Error { QStringLiteral("cannot write %1: %2").arg(path, file.errorString()) };
    return true;
}

Result<Dataset> readDatasetTransfer(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error { QStringLiteral("cannot read %1: %2").arg(path, file.errorString()) };
    const auto broken = [&path] {
        return Error { QStringLiteral("%1: the helper's dataset is incomplete").arg(path) };
    };
    QDataStream in(&file);
    in.setVersion(kStreamVersion);
    quint32 magic = 0, scalarSize = 0;
    in >> magic >> scalarSize;
    if (magic != kMagic || scalarSize != sizeof(Scalar))
        return broken();
    Dataset data;
    qint32 height = 0, width = 0;
    qint64 rows = 0, cols = 0, labelCount = 0;
    in >> data.name >> data.source >> data.classNames >> data.notes >> height >> width >> rows
        >> cols >> labelCount;
    if (in.status() != QDataStream::Ok || rows < 0 || cols < 0 || labelCount < 0
        || (rows > 0 && cols > std::numeric_limits<qint64>::max() / rows / qint64(sizeof(Scalar))))
        return broken();
    const qint64 bytes = rows * cols * qint64(sizeof(Scalar));
    if (file.size() - file.pos() != labelCount * qint64(sizeof(qint32)) + bytes)
        return broken();
    data.height = height;
    data.width = width;
    data.labels.resize(std::size_t(labelCount));
    for (int& label : data.labels) {
        qint32 value = 0;
        in >> value;
        label = value;
    }
    data.X.resize(Eigen::Index(rows), Eigen::Index(cols));
    char* raw = reinterpret_cast<char*>(data.X.data());
    for (qint64 done = 0; done < bytes;) {
        const int chunk = int(std::min<qint64>(bytes - done, qint64(1) << 30));
        if (in.readRawData(raw + done, chunk) != chunk)
            return broken();
        done += chunk;
    }
    if (in.status() != QDataStream::Ok)
        return broken();
    return data;
}

} // namespace facet
