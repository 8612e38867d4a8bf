// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/algorithm.h"
#include "core/collectives.h"
#include "core/method.h"
#include "graph/graph.h"
#include "methods/initialization.h"
#include "methods/mask.h"

#include <cstdint>
#include <functional>

namespace facet {

// METHODS.md 1.1, NMF (Lee & Seung 2001, Frobenius): O = ||X - U V^T||_F^2, U, V >= 0.
// Shapes: X m x n, U m x k, V n x k. Graph-regularized variants (GNMF) derive from this class
// and add their regularizer through vRegularizer() / regularizerObjective().
class Nmf : public Method {
public:
    // X must outlive the method and be non-negative (std::invalid_argument otherwise). `init`
    // chooses the start (METHODS.md section 0, see initialization.h).
    Nmf(MatrixCRef X, int rank, InitKind init = InitKind::Random);
    // The same, with the method's label for the refusal of negative data (GNMF, CNMF, ...).
    Nmf(MatrixCRef X, int rank, InitKind init, const char* label);

    // The route step() takes (core/algorithm.h): Mu, the default, is METHODS.md 1.1's rules; Hals
    // the accelerated coordinate descent of methods/hals.h. Set before the solve starts. The
    // extrapolated variants set their base rule here; the registry wraps the method in
    // core/extrapolation.h's ExtrapolatedMethod.
    void setAlgorithm(Algorithm algorithm) { m_algorithm = baseAlgorithm(algorithm); }
    Algorithm algorithm() const { return m_algorithm; }
    // Missing entries and weights (methods/mask.h): the data term becomes
    // sum_ij W_ij (X - U V^T)_ij^2, and step(), objective() and updateTerms() take the masked
    // routes of methods/masked_nmf.cpp. X must then be mask->filled. Set before the solve starts;
    // null (the default) is the unmasked method.
    void setMask(std::shared_ptr<const MaskedData> mask);
    const MaskedData* mask() const { return m_mask.get(); }

    std::string_view name() const override { return "nmf"; }
    void initialize(Rng& rng) override;
    // Starts from given factors (warm start, or NMF-based initialization of other methods).
    void initializeFrom(Matrix U, Matrix V);
    void step() override;
    double objective() const override;
    UpdateTerms updateTerms(int factor) const override;
    std::vector<Matrix> state() const override { return { m_U, m_V }; }
    void saveState(std::vector<Matrix>& into) const override { assignState(into, { &m_U, &m_V }); }
    void restore(const std::vector<Matrix>& state) override;
    // Without X^T U and U^T U: every route of step() forms them after its U update.
    void restoreBeforeStep(const std::vector<Matrix>& state) override;
    void finalize() override;
    void exportTo(Factorization& out) const override;
    // "fused passes: ..." when step() takes the fused route (core/skinny_product.h: fusesPasses).
    std::vector<std::string> notes() const override;
    // hals: the optimality violation its last step's first sweeps met (methods/hals.h); mu: NaN.
    double stationarity() const override { return m_stationarity; }

    const Matrix& U() const { return m_U; }
    const Matrix& V() const { return m_V; }

protected:
    // As Cf::Regularizer: `minus` joins the V numerator, `plus` its denominator.
    struct Regularizer {
        Matrix plus;
        Matrix minus;
    };
    virtual Regularizer vRegularizer() const { return {}; }
    virtual double regularizerObjective() const { return 0; }
    // The V side's graph term lambda Tr(V^T L V) for the hals route (GNMF), or null.
    struct GraphTerm {
        const Graph* graph = nullptr;
        Scalar lambda = 0;
        const Vector* majorizer = nullptr; // halsGraphMajorizer(*graph)
    };
    virtual GraphTerm halsGraphTerm() const { return {}; }
    // X^T U and U^T U for the current U. `vChanged` = false only in the middle of a step, between
    // the U rule and the V rule, where V is what it was (its graph terms stay valid).
    void refreshCache(bool vChanged = true);
    // Whether step() takes the fused route, decided on the whole X's shape (all ranks' samples):
    // the routes make different reductions, so every rank of a distributed solve must take the
    // same one (a rank of 45 samples once took the plain route beside ranks that fused).
    bool fusedRoute() const;
    // The fused route of step(). `afterRows(first, count)`, if given, runs right after the V rule
    // on those rows and before their share of X V is added (concurrently for disjoint ranges):
    // Cnmf clears its labelled rows there.
    void fusedStep(
        const std::function<void(Eigen::Index first, Eigen::Index count)>& afterRows = nullptr);
    // The hals route of step(): U's sweeps on X V and V^T V, then V's on X^T U and U^T U.
    void halsStep();

    MatrixCRef m_X;
    // A distributed solve (core/collectives.h): X holds this rank's samples, U is replicated, V
    // holds this rank's rows, and every sum over the samples is reduced. Taken at construction.
    SampleDistribution m_dist = currentDistribution();
    int m_rank;
    InitKind m_init;
    Algorithm m_algorithm = Algorithm::Mu;
    double m_xNorm2; // ||X||_F^2
    Matrix m_U;
    Matrix m_V;
    Matrix m_XtU; // X^T U for the current U (n x k)
    Matrix m_XV; // X V for the current V (m x k), kept by the fused step only
    bool m_xvValid = false;
    Matrix m_UtU; // k x k
    // Changes whenever V may have changed (refreshCache(true), the end of a step), for the caches
    // of V's graph terms (GNMF: GraphTermCache) and of V^T V.
    std::uint64_t m_vVersion = 0;

    // V^T V at the current V, computed once per version of V: the driver's objective() after a
    // step and the next step's U rule both need it (at ORL's shape, 400 x 40, each took about
    // 0.02 ms of a 1 ms iteration).
    const Matrix& vtv() const;

    // The masked routes (methods/masked_nmf.cpp). P and N of the masked rules: U's (factor 0) or
    // V's (factor 1, without the graph term).
    UpdateTerms maskedUpdateTerms(int factor) const;
    void maskedHalsStep();
    double maskedObjective() const;
    // U V^T at the current factors, formed once per change of U or V (masked mu only).
    const Matrix& maskedProduct() const;
    std::shared_ptr<const MaskedData> m_mask;
    mutable Matrix m_maskProduct;
    mutable bool m_maskProductValid = false;
    // hals's masked objective from (W o X)^T U and U^T U at the current U (masked_nmf.cpp),
    // formed by the step, or on demand after a restore.
    mutable Matrix m_maskXtU;
    mutable Matrix m_maskUtU;
    mutable bool m_maskCrossValid = false;

private:
    Matrix m_halsProduct; // X V for halsStep()
    double m_stationarity = std::numeric_limits<double>::quiet_NaN();
    mutable Matrix m_VtV;
    mutable std::uint64_t m_vtvVersion = ~std::uint64_t(0); // m_vVersion of m_VtV; none yet
};

} // namespace facet
