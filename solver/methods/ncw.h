// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/gram.h"
#include "core/method.h"
#include "graph/graph.h"

#include <memory>
#include <string>

namespace facet {

// METHODS.md 1.7, normalized-cut weighting (NCW; Xu & Gong 2004 for CF, Xu, Liu & Gong 2003
// for NMF): with d = K 1 and Gamma = diag(d)^(-1), the method runs on the weighted data
//   X' = X Gamma^(1/2)   (m x n), whose linear kernel is K' = Gamma^(1/2) K Gamma^(1/2),
// and its factors are mapped back:
//   NMF: X' ~ U V'^T  =>  X ~ U (Gamma^(-1/2) V')^T,               V = Gamma^(-1/2) V'
//   CF:  X' ~ X' W' V'^T => X ~ X (Gamma^(1/2) W') (Gamma^(-1/2) V')^T,
//                                        W = Gamma^(1/2) W', V = Gamma^(-1/2) V'.
// The basis images are unchanged (U, and X W = X' W'). LCCF's Laplacian becomes
// L' = Gamma^(-1/2) L Gamma^(-1/2) (see ncwGraph), so lambda Tr(V'^T L' V') = lambda Tr(V^T L V).
// The shared pieces, computed once per data set.
struct NcwData {
    Vector d; // K 1 (n), every entry > 0
    Matrix Xw; // X' = X diag(d)^(-1/2) (m x n)
    std::shared_ptr<const Gram> gram; // K' (CF family); null for NMF
};

// d = K 1 without forming K for the linear kernel (K 1 = X^T (X 1)); `kernel` null means the
// linear kernel and no K' (NMF). A non-linear (explicit) kernel gives the explicit K'
// = Gamma^(1/2) K Gamma^(1/2); the linear one K' = X'^T X' through Gram::linear(X'). Throws
// std::invalid_argument when some d_i <= 0 (an all-zero sample, or signed data).
std::shared_ptr<const NcwData> makeNcwData(
    MatrixCRef X, std::shared_ptr<const Gram> kernel, bool linearKernel);

// L' = Gamma^(-1/2) L Gamma^(-1/2) = Gamma^(-1) D - Gamma^(-1/2) S Gamma^(-1/2), L = D - S: the
// graph for LCCF-NCW, S' = diag(d)^(1/2) S diag(d)^(1/2) and degree' = d o degree (not the row
// sums of S'). lccfFactory (cf_family.h) applies it when options.ncw is set.
std::shared_ptr<const Graph> ncwGraph(const Graph& graph, const Vector& d);

// The wrapper: runs `inner` (built on data->Xw, and for the CF family on data->gram) and maps
// the exported factors back. The objective, history and update terms are the inner method's,
// i.e. those of the weighted problem: for NMF ||X' - U V'^T||^2 = ||(X - U V^T) Gamma^(1/2)||^2,
// a weighted reconstruction error of the original factors (likewise for CF).
class Ncw : public Method {
public:
    Ncw(std::shared_ptr<const NcwData> data, std::unique_ptr<Method> inner);

    std::string_view name() const override { return m_inner->name(); }
    void initialize(Rng& rng) override { m_inner->initialize(rng); }
    void step() override { m_inner->step(); }
    double objective() const override { return m_inner->objective(); }
    UpdateTerms updateTerms(int factor) const override { return m_inner->updateTerms(factor); }
    std::vector<Matrix> state() const override { return m_inner->state(); }
    void saveState(std::vector<Matrix>& into) const override { m_inner->saveState(into); }
    void restore(const std::vector<Matrix>& state) override { m_inner->restore(state); }
    void restoreBeforeStep(const std::vector<Matrix>& state) override
    {
        m_inner->restoreBeforeStep(state);
    }
    // The inverse of exportTo's mapping (V' = Gamma^(1/2) V, W' = Gamma^(-1/2) W, U as is), then
    // the inner method's own mapping: exported factors continue the weighted run.
    std::vector<Matrix> stateFromFactors(std::vector<Matrix> factors) const override;
    void finalize() override { m_inner->finalize(); }
    void exportTo(Factorization& out) const override;
    std::vector<std::string> notes() const override;
    bool startedNewSegment() override { return m_inner->startedNewSegment(); }
    double stationarity() const override { return m_inner->stationarity(); }

private:
    std::shared_ptr<const NcwData> m_data; // declared first: outlives m_inner, which views Xw
    std::unique_ptr<Method> m_inner;
};

} // namespace facet
