// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The loader's matio plumbing (mat_loader_matio.cpp): RAII handles, the variable listing and
// the conversion of one variable to doubles, with matio's logged errors turned into results.

#include "util/result.h"

#include <QString>
#include <QStringList>

#include <matio.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace facet::matio {

class MatioMessages {
public:
    MatioMessages();
    ~MatioMessages();
    MatioMessages(const MatioMessages&) = delete;
    MatioMessages& operator=(const MatioMessages&) = delete;

    qsizetype count() const { return m_messages.size(); }
    // The messages from index `first` on, joined by "; ". libhdf5's error stack (one message per
    // frame, "HDF5 error #000 in H5Dread() / file / major / minor") becomes one line: the call
    // that failed and the deepest frame's reason, "HDF5: H5Dread() failed: Address overflowed".
    QString since(qsizetype first) const;

private:
    QStringList m_messages;
    QStringList* m_previous = nullptr;
};

struct MatCloser {
    void operator()(mat_t* mat) const { Mat_Close(mat); }
};
struct VarFreer {
    void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using MatFile = std::unique_ptr<mat_t, MatCloser>;
using MatVar = std::unique_ptr<matvar_t, VarFreer>;

// What Mat_VarReadNextInfo tells about a variable, without its data.
struct VarInfo {
    QString name;
    matio_classes classType = MAT_C_EMPTY;
    bool isComplex = false;
    std::vector<std::size_t> dims;
    // Why its values cannot be read from its data element (matV5Structure's dataProblems):
    // Reader refuses to read it before matio reads anything.
    QString dataProblem;

    // Saturates at SIZE_MAX, so a header with absurd dimensions fails the memory budget
    // instead of wrapping around to a small count.
    std::size_t count() const
    {
        constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
        if (dims.empty() || std::find(dims.begin(), dims.end(), 0) != dims.end())
            return 0;
        std::size_t n = 1;
        for (std::size_t d : dims)
            n = n > kMax / d ? kMax : n * d;
        return n;
    }
    QString shape() const
    {
        QStringList parts;
        for (std::size_t d : dims)
            parts << QString::number(d);
        return parts.join(QStringLiteral(" x "));
    }
};

// A MAT-file opened by matio after the structural checks matio does not make, with its
// variables listed (and, for Level 5, each top-level element found whole, and each variable's
// data problem noted). May throw std::bad_alloc while listing. `file` names it in errors
// (fileLabel). In mat_loader_readers.cpp, as are the two below.
struct CheckedMatFile {
    MatFile mat;
    std::vector<VarInfo> vars;
};
Result<CheckedMatFile> openChecked(const QString& path, const QString& file);
// The name errors give a file: its file name, or the path when it has none.
QString fileLabel(const QString& path);

QString className(matio_classes c);
// A byte count for messages ("6.3 MiB").
QString byteSize(double bytes);
bool isNumericClass(matio_classes c);
std::vector<VarInfo> listVariables(mat_t* mat);
QStringList variableNames(const std::vector<VarInfo>& vars);
const VarInfo* findVariable(const std::vector<VarInfo>& vars, const QString& name);
// "'fea' (400 x 1024 double), 'gnd' (400 x 1 double)" for messages.
QString variableList(const std::vector<VarInfo>& vars);
// The rules every matrix we read must follow; empty when it does.
QString shapeProblem(const VarInfo& v);

// The whole variable converted to double, in the file's column-major element order.
class Reader {
public:
    Reader(mat_t* mat, QString file, MatioMessages& log)
        : m_mat(mat)
        , m_file(std::move(file))
        , m_log(log)
    {
    }

    Result<std::vector<double>> read(const VarInfo& info) const;
    // Rows first..first+count-1 of a real 2-D matrix of a MAT 7.3 file, read as one HDF5
    // hyperslab and converted to double by libhdf5: count x columns, column-major.
    Result<std::vector<double>> readRows(
        const VarInfo& info, std::size_t first, std::size_t count) const;
    // A char row vector (UTF-16 or UTF-8 units, as MATLAB and matio write them) as text.
    Result<QString> readText(const VarInfo& info) const;

private:
    mat_t* m_mat;
    QString m_file;
    MatioMessages& m_log;
};

} // namespace facet::matio
