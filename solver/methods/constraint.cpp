// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/constraint.h"

#include <map>
#include <stdexcept>
#include <string>

namespace facet {

ConstraintMatrix::ConstraintMatrix(const std::vector<int>& knownLabels, Eigen::Index samples)
{
    if (!knownLabels.empty() && Eigen::Index(knownLabels.size()) != samples)
        throw std::invalid_argument("knownLabels has " + std::to_string(knownLabels.size())
            + " entries but the data has n = " + std::to_string(samples)
            + " samples (give one entry per sample, -1 when unknown)");
    std::map<int, Eigen::Index> classColumn; // present class -> its column, in class order
    for (std::size_t i = 0; i < knownLabels.size(); ++i) {
        if (knownLabels[i] < -1)
            throw std::invalid_argument("knownLabels[" + std::to_string(i)
                + "] = " + std::to_string(knownLabels[i])
                + ": a label is a class index >= 0, or -1 when unknown");
        if (knownLabels[i] >= 0)
            classColumn.emplace(knownLabels[i], 0);
    }
    m_classes = int(classColumn.size());
    Eigen::Index next = 0;
    for (auto& [label, column] : classColumn)
        column = next++;

    m_column.resize(std::size_t(samples));
    Eigen::Index unlabelled = 0;
    for (Eigen::Index i = 0; i < samples; ++i) {
        const int label = knownLabels.empty() ? -1 : knownLabels[std::size_t(i)];
        if (label >= 0) {
            m_column[std::size_t(i)] = classColumn.at(label);
            ++m_labelled;
        } else {
            m_column[std::size_t(i)] = m_classes + unlabelled++;
        }
    }
    m_diag = Vector::Zero(m_classes + unlabelled);
    for (const Eigen::Index column : m_column)
        m_diag(column) += 1;
}

Matrix ConstraintMatrix::times(const Matrix& Z) const
{
    if (isIdentity())
        return Z;
    Matrix V(rows(), Z.cols());
    for (Eigen::Index i = 0; i < rows(); ++i)
        V.row(i) = Z.row(m_column[std::size_t(i)]);
    return V;
}

Matrix ConstraintMatrix::transposeTimes(const Matrix& M) const
{
    if (isIdentity())
        return M;
    Matrix out = Matrix::Zero(cols(), M.cols());
    for (Eigen::Index i = 0; i < rows(); ++i)
        out.row(m_column[std::size_t(i)]) += M.row(i);
    return out;
}

Matrix ConstraintMatrix::leastSquares(const Matrix& V) const
{
    if (isIdentity())
        return V;
    return m_diag.cwiseInverse().asDiagonal() * transposeTimes(V);
}

} // namespace facet
