// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_writer.h"

#include "data/image_set.h"
#include "data/mat_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <matio.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace facet {
namespace {

struct MatCloser {
    void operator()(mat_t* mat) const { Mat_Close(mat); }
};

// Writes one n x m double matrix given in MATLAB's column-major element order.
Result<bool> writeVariable(
    mat_t* mat, const char* name, std::size_t rows, std::size_t cols, std::vector<double>& values)
{
    std::size_t dims[2] = { rows, cols };
    matvar_t* var = Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, values.data(), 0);
    if (!var)
        return Error {
            QStringLiteral("could not create the variable '%1'").arg(QLatin1String(name))
        };
    const int failed = Mat_VarWrite(mat, var, MAT_COMPRESSION_ZLIB);
    Mat_VarFree(var);
    if (failed)
        return Error { QStringLiteral("could not write the variable '%1' (disk full?)")
                           .arg(QLatin1String(name)) };
    return true;
}

Result<bool> writeAll(mat_t* mat, const Dataset& data)
{
    const auto n = std::size_t(data.samples()), m = std::size_t(data.features());
    const int h = data.height, w = data.width;
    const bool image = h > 1 && std::size_t(h) * std::size_t(w) == m;
    // fea(i, p) sits at p * n + i; file pixel p = c * h + r (column-major) is X's r * w + c.
    std::vector<double> fea(n * m);
    for (std::size_t p = 0; p < m; ++p) {
        const std::size_t r = image ? p % std::size_t(h) : 0, c = image ? p / std::size_t(h) : p;
        const auto feature = Eigen::Index(image ? r * std::size_t(w) + c : p);
        for (std::size_t i = 0; i < n; ++i)
            fea[p * n + i] = double(data.X(feature, Eigen::Index(i)));
    }
    if (auto r = writeVariable(mat, "fea", n, m, fea); !r)
        return r;
    fea = {};

    if (data.hasLabels()) {
        std::vector<double> gnd(n);
        const bool numeric = classNamesAreNumbers(data.classNames);
        for (std::size_t i = 0; i < n; ++i) {
            const int label = data.labels[i];
            gnd[i] = numeric ? data.classNames[label].trimmed().toDouble() : double(label + 1);
        }
        if (auto r = writeVariable(mat, "gnd", n, 1, gnd); !r)
            return r;
    }
    if (image && h != w) {
        std::vector<double> height { double(h) }, width { double(w) };
        if (auto r = writeVariable(mat, "im_height", 1, 1, height); !r)
            return r;
        if (auto r = writeVariable(mat, "im_width", 1, 1, width); !r)
            return r;
    }
    return true;
}

} // namespace

Result<bool> writeDatasetMat(const QString& path, const Dataset& data)
{
    if (data.samples() == 0 || data.features() == 0)
        return Error { QStringLiteral("%1: nothing to write, the dataset is empty").arg(path) };
    const QFileInfo info(path);
    if (info.isDir())
        return Error {
            QStringLiteral("%1: is a folder; give a file name ending in .mat").arg(path)
        };
    if (!info.absoluteDir().exists())
        return Error {
            QStringLiteral("%1: the folder %2 does not exist").arg(path, info.absolutePath())
        };

    QTemporaryFile temp(info.absoluteDir().filePath(
        QStringLiteral(".") + info.fileName() + QStringLiteral(".XXXXXX")));
    if (!temp.open())
        return Error { QStringLiteral("%1: cannot write in %2 (%3)")
                           .arg(path, info.absolutePath(), temp.errorString()) };
    const QString tempPath = temp.fileName();
    temp.close(); // matio opens the file by name; QTemporaryFile still removes it on failure
    const QByteArray encoded = QFile::encodeName(tempPath);
    {
        std::unique_ptr<mat_t, MatCloser> mat(Mat_CreateVer(
            encoded.constData(), "Written by Facet (facet-cli export-dataset)", MAT_FT_MAT5));
        if (!mat)
            return Error { QStringLiteral("%1: matio could not create the file").arg(path) };
        if (auto r = writeAll(mat.get(), data); !r)
            return Error { QStringLiteral("%1: %2").arg(path, r.error()) };
    }
    // matio does not check its fwrite calls: on a full disk (or past a file-size limit) it closes
    // a cut-off file without a word. Reading the file back through the loader, which checks every
    // size against the bytes present, catches that before the old file is replaced.
    if (const Result<Dataset> check = loadMat(tempPath);
        !check || check->samples() != data.samples() || check->features() != data.features())
        return Error { QStringLiteral("%1: the file could not be written completely (disk full?)%2")
                           .arg(path, check ? QString() : QStringLiteral(": ") + check.error()) };
    // rename(2) replaces the target in one step, so readers see the old or the new file.
    if (std::rename(encoded.constData(), QFile::encodeName(info.absoluteFilePath()).constData())
        != 0)
        return Error { QStringLiteral("%1: could not replace the file (%2)")
                           .arg(path, QString::fromLocal8Bit(std::strerror(errno))) };
    temp.setAutoRemove(false);
    return true;
}

} // namespace facet
