// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a MAT-file after the structural checks (openChecked, for loadMat too) and the warm
// start's readers of named matrices and of text (readMatMatrices, readMatText).
#include "data/mat_loader.h"

#include "data/mat_loader_matio.h"
#include "data/mat_loader_structure.h"
#include "data/mat_reader_process.h"
#include "util/input_file.h"

#include <QFile>
#include <QFileInfo>

#include <matio.h>

#include <algorithm>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace facet {
namespace matio {

Result<CheckedMatFile> openChecked(const QString& path, const QString& file)
{
    const QFileInfo fileInfo(path);
    if (!fileInfo.exists())
        return Error { QStringLiteral("%1: file not found").arg(path) };
    if (fileInfo.isDir())
        return Error { QStringLiteral("%1: is a folder, not a MAT-file").arg(path) };
    if (const QString problem = inputFileProblem(path); !problem.isEmpty())
        return Error { problem };
    if (fileInfo.size() == 0)
        return Error {
            QStringLiteral("%1: the file is empty (0 bytes), not a MAT-file").arg(file)
        };
    // matio trusts a version 4 header's sizes and allocates what it says before reading.
    if (const QString problem = matV4StructureProblem(path); !problem.isEmpty())
        return Error { QStringLiteral("%1: %2").arg(file, problem) };
    // Likewise a Level 5 variable's dimensions, name and nested cells, read when matio lists it.
    const MatV5Structure structure = matV5Structure(path);
    if (!structure.problem.isEmpty())
        return Error { QStringLiteral("%1: %2").arg(file, structure.problem) };
    CheckedMatFile checked;
    checked.mat.reset(Mat_Open(QFile::encodeName(path).constData(), MAT_ACC_RDONLY));
    // matio's own complaint here only repeats the path, so it is left out.
    if (!checked.mat)
        return Error { QStringLiteral("%1: not a MATLAB MAT-file (no valid version 4, 5 or "
                                      "7.3 header)")
                           .arg(file) };
    checked.vars = listVariables(checked.mat.get());
    // A variable whose data element cannot give its values is refused when it is read.
    for (VarInfo& v : checked.vars)
        v.dataProblem = structure.dataProblems.value(v.name);
    if (Mat_GetVersion(checked.mat.get()) == MAT_FT_MAT5)
        if (const QString problem = matV5TruncationProblem(path, variableNames(checked.vars));
            !problem.isEmpty())
            return Error { QStringLiteral("%1: %2").arg(file, problem) };
    return checked;
}

// The name errors give a file: its file name, or the path when it has none.
QString fileLabel(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    return name.isEmpty() ? path : name;
}

} // namespace matio

namespace {

using namespace matio;

// openChecked for the readers that always read in this process (the warm start's): a MAT 7.3
// file, which only the helper process reads, is refused.
Result<CheckedMatFile> openInProcess(const QString& path, const QString& file)
{
    if (QFileInfo(path).isFile() && isHdf5MatFile(path))
        return Error { QStringLiteral("%1: a MAT 7.3 (HDF5) file; save it with -v7").arg(file) };
    return openChecked(path, file);
}

} // namespace

Result<std::vector<Eigen::MatrixXd>> readMatMatrices(const QString& path, const QStringList& names,
    qint64 memoryBudgetBytes, const QStringList& ifPresent)
{
    const QString file = fileLabel(path);
    try {
        MatioMessages log;
        Result<CheckedMatFile> opened = openInProcess(path, file);
        if (!opened)
            return Error { opened.error() };
        const MatFile& mat = opened->mat;
        const std::vector<VarInfo>& vars = opened->vars;
        std::vector<const VarInfo*> chosen;
        double bytes = 0;
        for (const QString& name : names + ifPresent) {
            const VarInfo* v = findVariable(vars, name);
            if (!v && ifPresent.contains(name)) {
                chosen.push_back(nullptr);
                continue;
            }
            if (!v)
                return Error {
                    QStringLiteral("%1: no variable '%2'; the file has %3")
                        .arg(file, name, vars.empty() ? QStringLiteral("none") : variableList(vars))
                };
            if (const QString problem = shapeProblem(*v); !problem.isEmpty())
                return Error { QStringLiteral("%1: variable '%2' %3").arg(file, name, problem) };
            if (!v->dataProblem.isEmpty())
                return Error { QStringLiteral("%1: %2").arg(file, v->dataProblem) };
            bytes += double(v->count())
                * double(sizeof(double) + std::max(Mat_SizeOfClass(v->classType), sizeof(double)));
            chosen.push_back(v);
        }
        if (bytes > double(memoryBudgetBytes))
            return Error { QStringLiteral("%1: reading %2 would need %3, above the budget of %4")
                               .arg(file, names.join(QStringLiteral(", ")), byteSize(bytes),
                                   byteSize(double(memoryBudgetBytes))) };
        const Reader reader(mat.get(), file, log);
        std::vector<Eigen::MatrixXd> out;
        for (const VarInfo* v : chosen) {
            if (!v) {
                out.emplace_back();
                continue;
            }
            Result<std::vector<double>> values = reader.read(*v);
            if (!values)
                return Error { values.error() };
            out.push_back(Eigen::Map<const Eigen::MatrixXd>(
                values->data(), Eigen::Index(v->dims[0]), Eigen::Index(v->dims[1])));
        }
        return out;
    } catch (const std::bad_alloc&) {
        return Error { QStringLiteral("%1: not enough memory to read the matrices").arg(file) };
    }
}

Result<std::optional<QString>> readMatText(
    const QString& path, const QString& name, qint64 maxCharacters)
{
    const QString file = fileLabel(path);
    try {
        MatioMessages log;
        Result<CheckedMatFile> opened = openInProcess(path, file);
        if (!opened)
            return Error { opened.error() };
        const VarInfo* v = findVariable(opened->vars, name);
        if (!v)
            return std::optional<QString>();
        if (double(v->count()) > double(maxCharacters))
            return Error { QStringLiteral("%1: variable '%2' has %3 characters, more than %4")
                               .arg(file, name)
                               .arg(double(v->count()))
                               .arg(maxCharacters) };
        const Reader reader(opened->mat.get(), file, log);
        Result<QString> text = reader.readText(*v);
        if (!text)
            return Error { text.error() };
        return std::optional<QString>(std::move(*text));
    } catch (const std::bad_alloc&) {
        return Error { QStringLiteral("%1: not enough memory to read '%2'").arg(file, name) };
    }
}

} // namespace facet
