// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/gram.h"
#include "core/method.h"
#include "methods/initialization.h"
#include "methods/kernel_split.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace facet {

// How a CF-family method starts and which form of the update rules it uses; prepared once per
// data set by the registry (cf_family.h).
struct CfSettings {
    InitKind init = InitKind::Random;
    // Non-null: the general-form rules of METHODS.md 1.4 with this split of K.
    std::shared_ptr<const KernelSplit> generalForm;
    std::vector<std::string> notes; // for the run log ("general form: min(K) < 0")
};

// METHODS.md 1.2, Concept Factorization (Xu & Gong 2004):
// O = ||X - X W V^T||_F^2 = Tr(K) - 2 Tr(V^T K W) + Tr(V W^T K W V^T).
// Shapes: K n x n (an operator, see Gram), W n x k, V n x k. The basis image j is column j of
// X W (for a non-linear kernel the pre-image approximation: X W is what the model's basis
// phi(X) W would be if phi were the identity). Graph-regularized variants derive from this class
// and add their regularizer through vRegularizer() / regularizerObjective().
class Cf : public Method {
public:
    // gram: K of the data (shared, built once per data set); X (m x n) is needed only to export
    // the basis X W and for the kmeans / nmf starts, and must outlive the method. K must be
    // non-negative unless settings.generalForm is set.
    Cf(MatrixCRef X, std::shared_ptr<const Gram> gram, int rank, CfSettings settings = {});

    // For subclasses whose constructors do not forward settings: call before initialize().
    void configure(CfSettings settings);

    std::string_view name() const override { return "cf"; }
    void initialize(Rng& rng) override;
    // Starts from given factors; applies the start-up normalization.
    void initializeFrom(Matrix W, Matrix V);
    void step() override;
    double objective() const override;
    // Plain form: P and N of the rules below; N - P is half the gradient. General form: the
    // numerator (a + sqrt(a^2 + 4 P+ o P-)) / 2 and the denominator P+ of 1.4; N - P then has
    // the sign of the gradient and vanishes exactly where it does.
    UpdateTerms updateTerms(int factor) const override;
    std::vector<Matrix> state() const override { return { m_W, m_V }; }
    void saveState(std::vector<Matrix>& into) const override { assignState(into, { &m_W, &m_V }); }
    void restore(const std::vector<Matrix>& state) override;
    void finalize() override;
    void exportTo(Factorization& out) const override;
    // The settings' notes, and "fused passes: ..." when step() takes that route.
    std::vector<std::string> notes() const override;

    const Matrix& W() const { return m_W; }
    const Matrix& V() const { return m_V; }
    bool usesGeneralForm() const { return m_settings.generalForm != nullptr; }

protected:
    // A rule M <- M o P / N split into the parts of the gradient, grad / c = plus - minus - linear:
    // `linear` (K V or K W) may have either sign in the general form, plus and minus are >= 0.
    // Plain rule P = linear + minus, N = plus; general rule as in updateTerms().
    struct RuleParts {
        Matrix linear;
        Matrix plus;
        Matrix minus; // empty: 0
    };
    // W: linear = K V, plus = K+ W V^T V, minus = K- W V^T V (K+ = K, K- = 0 in the plain form).
    RuleParts wParts() const;
    // V: linear = K W, plus = V W^T K+ W + R.plus, minus = V W^T K- W + R.minus.
    RuleParts vParts() const;
    UpdateTerms combine(RuleParts parts) const;
    // W <- W o (K V) / (K W V^T V) and V <- V o (K W) / (V W^T K W) in the plain form.
    virtual UpdateTerms wTerms() const { return combine(wParts()); }
    UpdateTerms vTerms() const { return combine(vParts()); }
    // A graph regularizer lambda Tr(V^T L V) = lambda Tr(V^T D V) - lambda Tr(V^T S V) enters
    // the V rule through its two non-negative gradient parts: `minus` = lambda S V joins the
    // numerator, `plus` = lambda D V the denominator (and Q-/Q+ of the general form, 1.4).
    // Empty matrices: no regularizer (plain CF).
    struct Regularizer {
        Matrix plus;
        Matrix minus;
    };
    virtual Regularizer vRegularizer() const { return {}; }
    // The regularizer's value at the current V (0 for plain CF).
    virtual double regularizerObjective() const { return 0; }
    // The reconstruction part ||X - X W V^T||^2 from the cached products.
    double reconstructionObjective() const;
    // With d = diag(W^T K W): W <- W d^(-1/2), V <- V d^(1/2) (METHODS.md 1.2).
    virtual void normalize();
    // K W and W^T K W for the current W. `vChanged` = false only in the middle of a step, between
    // the W rule and the V rule, where V is what it was (its graph terms stay valid).
    void refreshCache(bool vChanged = true);
    // The plain rules on X (implicit linear kernel) or a formed K, fused: two passes over
    // X instead of four, or one over K instead of two (see fusedStep()). A subclass with other
    // rules either describes them through the hooks below (LCF) or returns false.
    virtual bool fusesPasses() const;
    // `afterVRows`: as CfFusedRules::afterVRows (Ccf clears its labelled rows there).
    void fusedStep(
        const std::function<void(Eigen::Index first, Eigen::Index count)>& afterVRows = nullptr);
    // W <- W o (s K V) / ((K W) M): s and M for the fused W rule (CF: 1 and V^T V).
    virtual Scalar fusedKVScale() const { return 1; }
    virtual Matrix fusedWInner(const Matrix& VtV) const { return VtV; }
    // The V rule's regularizer for rows first..first+count, added to the numerator (K W's rows,
    // K W of the new W) and to the denominator (V W^T K W's rows). `before`: vRegularizer()
    // evaluated once before the pass (CF: nothing; LCCF: lambda S V, lambda D V of the old V).
    virtual bool regularizerBeforePass() const { return true; }
    virtual void addFusedVRegularizer(Eigen::Index first, Eigen::Index count,
        const Regularizer& before, Matrix& numerator, Matrix& denominator) const;
    // K+ W and W^T K+ W (the cached K W, W^T K W unless the split is explicit).
    const Matrix& kPlusW() const { return explicitSplit() ? m_KpW : m_KW; }
    const Matrix& wtKPlusW() const { return explicitSplit() ? m_WtKpW : m_WtKW; }
    bool explicitSplit() const
    {
        return m_settings.generalForm && !m_settings.generalForm->trivial();
    }

    MatrixCRef m_X;
    // A distributed solve (core/collectives.h): X holds this rank's samples, W and V their rows,
    // the gram reduces K M, and every other sum over the samples is reduced here. Taken at
    // construction.
    SampleDistribution m_dist = currentDistribution();
    std::shared_ptr<const Gram> m_gram;
    int m_rank;
    CfSettings m_settings;
    Matrix m_W;
    Matrix m_V;
    Matrix m_KW; // K W for the current W (n x k)
    Matrix m_WtKW; // W^T K W (k x k)
    Matrix m_XW, m_XV; // X W, X V (m x k) of the implicit kernel's X, kept by the fused step only
    // Changes whenever V may have changed (refreshCache(true), the end of a step), for the caches
    // of V's graph terms (LCCF: GraphTermCache) and of V^T V.
    std::uint64_t m_vVersion = 0;
    bool m_xProductsValid = false;
    Matrix m_KpW, m_KmW; // K+ W, K- W (explicit split only)
    Matrix m_WtKpW, m_WtKmW; // W^T K+ W, W^T K- W (explicit split only)

    // V^T V at the current V, computed once per version of V: the driver's objective() after a
    // step and the next step's W rule both need it (at ORL's shape, 400 x 40, each took about
    // 0.02 ms of CF's 0.5 ms iteration).
    const Matrix& vtv() const;

private:
    mutable Matrix m_VtV;
    mutable std::uint64_t m_vtvVersion = ~std::uint64_t(0); // m_vVersion of m_VtV; none yet
};

} // namespace facet
