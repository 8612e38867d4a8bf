// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/ncw.h"

#include "core/huge_pages.h"

#include <stdexcept>
#include <string>

namespace facet {

std::shared_ptr<const NcwData> makeNcwData(
    MatrixCRef X, std::shared_ptr<const Gram> kernel, bool linearKernel)
{
    auto data = std::make_shared<NcwData>();
    const Vector ones = Vector::Ones(X.cols());
    if (linearKernel || !kernel)
        data->d = X.transpose() * (X * ones);
    else
        data->d = kernel->times(ones);
    for (Eigen::Index i = 0; i < data->d.size(); ++i)
        if (!(data->d(i) > 0))
            throw std::invalid_argument("NCW needs positive degrees d = K 1, but sample "
                + std::to_string(i + 1) + " has d = " + std::to_string(double(data->d(i)))
                + " (an all-zero sample, or data with negative entries)");
    const Vector scale = data->d.cwiseSqrt().cwiseInverse(); // Gamma^(1/2)
    // The weighted copy is streamed every iteration like X: large pages as for X.
    data->Xw.resize(X.rows(), X.cols());
    adviseHugePages(data->Xw);
    data->Xw.noalias() = X * scale.asDiagonal();
    if (kernel) {
        if (kernel->isExplicit()) {
            // Scaling the existing K costs n^2; forming X'^T X' again would cost m n^2.
            Matrix Kw(kernel->matrix().rows(), kernel->matrix().cols());
            adviseHugePages(Kw);
            Kw.noalias() = scale.asDiagonal() * kernel->matrix() * scale.asDiagonal();
            data->gram = Gram::fromMatrix(std::move(Kw));
        } else {
            data->gram = Gram::linear(data->Xw); // views data->Xw, which the NcwData owns
        }
    }
    return data;
}

std::shared_ptr<const Graph> ncwGraph(const Graph& graph, const Vector& d)
{
    if (d.size() != graph.size())
        throw std::invalid_argument("NCW: the graph has " + std::to_string(graph.size())
            + " nodes but d has " + std::to_string(d.size()) + " entries");
    auto out = std::make_shared<Graph>();
    const Vector root = d.cwiseSqrt(); // Gamma^(-1/2)
    out->S = root.asDiagonal() * graph.S * root.asDiagonal();
    out->degree = d.cwiseProduct(graph.degree);
    return out;
}

Ncw::Ncw(std::shared_ptr<const NcwData> data, std::unique_ptr<Method> inner)
    : m_data(std::move(data))
    , m_inner(std::move(inner))
{
    if (!m_data || !m_inner)
        throw std::invalid_argument("NCW needs its weights and an inner method");
}

std::vector<Matrix> Ncw::stateFromFactors(std::vector<Matrix> factors) const
{
    // Factors of another shape go on unmapped: the driver's shape check names them.
    const Eigen::Index n = m_data->d.size();
    const bool cfFamily = bool(m_data->gram); // the first factor is W, else U
    if (factors.size() == 2 && factors[1].rows() == n && (!cfFamily || factors[0].rows() == n)) {
        const Vector root = m_data->d.cwiseSqrt(); // Gamma^(-1/2)
        factors[1] = root.cwiseInverse().asDiagonal() * factors[1];
        if (cfFamily)
            factors[0] = root.asDiagonal() * factors[0];
    }
    return m_inner->stateFromFactors(std::move(factors));
}

void Ncw::exportTo(Factorization& out) const
{
    m_inner->exportTo(out);
    const Vector root = m_data->d.cwiseSqrt(); // Gamma^(-1/2)
    out.V = root.asDiagonal() * out.V;
    if (out.W.size() > 0)
        out.W = root.cwiseInverse().asDiagonal() * out.W;
}

std::vector<std::string> Ncw::notes() const
{
    std::vector<std::string> out = m_inner->notes();
    out.emplace_back(
        "NCW: the method ran on X' = X Gamma^(1/2), Gamma = diag(K 1)^(-1); the "
        "objective shown is that of the weighted problem, the factors are mapped back");
    return out;
}

} // namespace facet
