// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/constraint.h"

#include "core/update.h"
#include "methods/initialization.h"

#include <map>
#include <stdexcept>
#include <string>

namespace facet {

ConstraintMatrix::ConstraintMatrix(const std::vector<int>& knownLabels, Eigen::Index samples,
    const SampleDistribution& distribution)
    : m_dist(distribution)
{
    // Distributed: the labels of every rank's samples, of which this rank's start at firstSample.
    const Eigen::Index all = m_dist.active() ? m_dist.totalSamples : samples;
    const Eigen::Index first = m_dist.active() ? m_dist.firstSample : 0;
    if (!knownLabels.empty() && Eigen::Index(knownLabels.size()) != all)
        throw std::invalid_argument("knownLabels has " + std::to_string(knownLabels.size())
            + " entries but the data has n = " + std::to_string(all)
            + " samples (give one entry per sample, -1 when unknown)");
    if (first < 0 || first + samples > all)
        throw std::invalid_argument("ConstraintMatrix: this rank's samples lie outside the data");
    std::map<int, Eigen::Index> classColumn; // present class -> its column, in class order
    std::map<int, Eigen::Index> classSize;
    for (std::size_t i = 0; i < knownLabels.size(); ++i) {
        if (knownLabels[i] < -1)
            throw std::invalid_argument("knownLabels[" + std::to_string(i)
                + "] = " + std::to_string(knownLabels[i])
                + ": a label is a class index >= 0, or -1 when unknown");
        if (knownLabels[i] >= 0) {
            classColumn.emplace(knownLabels[i], 0);
            ++classSize[knownLabels[i]];
        } else {
            ++m_unlabelledTotal;
            if (Eigen::Index(i) < first)
                ++m_unlabelledBefore;
        }
    }
    m_classes = int(classColumn.size());
    Eigen::Index next = 0;
    for (auto& [label, column] : classColumn)
        column = next++;

    m_column.resize(std::size_t(samples));
    Eigen::Index unlabelled = 0;
    for (Eigen::Index i = 0; i < samples; ++i) {
        const int label = knownLabels.empty() ? -1 : knownLabels[std::size_t(first + i)];
        if (label >= 0) {
            m_column[std::size_t(i)] = classColumn.at(label);
            m_labelledSamples.push_back(i);
            ++m_labelled;
        } else {
            m_column[std::size_t(i)] = m_classes + unlabelled++;
        }
    }
    if (knownLabels.empty()) { // every sample unlabelled
        m_unlabelledTotal = all;
        m_unlabelledBefore = first;
    }
    m_diag = Vector::Ones(m_classes + unlabelled);
    for (const auto& [label, size] : classSize) // every rank's samples of the class
        m_diag(classColumn.at(label)) = Scalar(size);
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
    reduceClassRows(out);
    return out;
}

void ConstraintMatrix::reduceClassRows(Matrix& M) const
{
    if (!m_dist.active() || m_classes == 0)
        return;
    Matrix classRows = M.topRows(m_classes);
    sumOverSamples(m_dist, classRows);
    M.topRows(m_classes) = classRows;
}

Matrix ConstraintMatrix::uniformStart(Rng& rng, Eigen::Index k) const
{
    if (!m_dist.active())
        return rng.uniformMatrix(cols(), k);
    const Eigen::Index c = m_classes;
    return uniformRows(
        rng, c + m_unlabelledTotal, k, { { 0, c }, { c + m_unlabelledBefore, cols() - c } });
}

Matrix ConstraintMatrix::leastSquares(const Matrix& V) const
{
    if (isIdentity())
        return V;
    return m_diag.cwiseInverse().asDiagonal() * transposeTimes(V);
}

std::vector<Matrix> ConstraintMatrix::stateFromFactors(
    std::vector<Matrix> factors, std::string_view method) const
{
    if (factors.size() != 2)
        throw std::invalid_argument(std::string(method) + " starts from 2 factors, "
            + std::to_string(factors.size()) + " were given");
    if (factors[1].rows() != rows())
        throw std::invalid_argument("factor 2 of the given start (V) has "
            + std::to_string(factors[1].rows()) + " rows, " + std::string(method) + " needs "
            + std::to_string(rows()) + ", one per sample");
    factors[1] = leastSquares(factors[1]);
    return factors;
}

Matrix ConstraintMatrix::classSums(MatrixCRef X) const
{
    if (X.cols() != rows())
        throw std::invalid_argument("classSums: X has " + std::to_string(X.cols())
            + " columns, the constraint " + std::to_string(rows()) + " samples");
    Matrix S = Matrix::Zero(X.rows(), m_classes);
    for (const Eigen::Index i : m_labelledSamples)
        S.col(m_column[std::size_t(i)]) += X.col(i);
    return S;
}

void ConstraintMatrix::clearLabelledRows(Matrix& V, Eigen::Index first, Eigen::Index count) const
{
    for (Eigen::Index i = first; i < first + count; ++i)
        if (m_column[std::size_t(i)] < m_classes)
            V.row(i).setZero();
}

void ConstraintMatrix::finishFusedRule(const Matrix& G, const Matrix& H, Matrix& Z, Matrix& V) const
{
    const Eigen::Index n = rows(), k = V.cols(), c = m_classes;
    if (G.rows() != n || V.rows() != n || G.cols() != k || Z.rows() != cols() || Z.cols() != k
        || H.rows() != k || H.cols() != k)
        throw std::invalid_argument("finishFusedRule: G, V n x k, Z (c + n - l) x k, H k x k");
    if (c > 0) {
        // Plain rule: A^T (V H) sums |j| equal rows V_i H = Z_j H; here |j| (Z_j H).
        Matrix numerator = Matrix::Zero(c, k);
        for (const Eigen::Index i : m_labelledSamples)
            numerator.row(m_column[std::size_t(i)]) += G.row(i);
        reduceClassRows(numerator); // a class's samples on every rank
        const Matrix denominator = m_diag.head(c).asDiagonal() * (Z.topRows(c) * H);
        Z.topRows(c)
            = (Z.topRows(c).array() * numerator.array() / denominator.array().max(kUpdateEps))
                  .max(kPositiveFloor);
    }
    for (Eigen::Index j = 0; j < k; ++j)
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::Index column = m_column[std::size_t(i)];
            if (column >= c)
                Z(column, j) = V(i, j);
            else
                V(i, j) = Z(column, j);
        }
}

} // namespace facet
