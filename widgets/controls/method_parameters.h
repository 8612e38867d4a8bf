// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFlags>
#include <QString>

namespace facet {

// The options of MethodOptions / RunOptions that a method reads, as the parameter panel shows
// them (METHODS.md gives each method's parameters; the registry validates them).
enum class Parameter : unsigned {
    Lambda = 1u << 0, // regularization weight, log scale
    Beta = 1u << 1, // CF_OGL: initial beta
    Mu = 1u << 2, // CF_OGL: weight of the CF term
    InnerSteps = 1u << 3, // CF_OGL: LCCF steps per outer iteration
    PaperVariant = 1u << 4, // CF_OGL: the paper's Q step
    Neighbours = 1u << 5, // p of the kNN (or adaptive-neighbour) graph
    GraphWeight = 1u << 6, // binary / heat (with t) / cosine
    Kernel = 1u << 7, // linear / poly (degree, offset) / gauss (sigma)
    GeneralForm = 1u << 8, // 1.4, forced even when K >= 0
    Ncw = 1u << 9, // 1.7 normalized-cut weighting
    NormalizeEach = 1u << 10, // LCF: the MATLAB code's per-iteration scaling
    Init = 1u << 11, // the start
    Labels = 1u << 12, // semi-supervised: labelled fraction or count per class
    Replicates = 1u << 13, // driver restarts
    ClusterMode = 1u << 14, // k-means or argmax on V
    Cosine = 1u << 15, // k-means on L2-normalized rows
    Algorithm = 1u << 16, // mu, hals, mu-ex, hals-ex (core/algorithm.h)
};
Q_DECLARE_FLAGS(Parameters, Parameter)

} // namespace facet

// At global scope, as Qt asks: declared inside namespace facet, this operator| would hide the
// global ones of other flag types (QCustomPlot's QCP::Interactions) from code in that namespace.
Q_DECLARE_OPERATORS_FOR_FLAGS(facet::Parameters)

namespace facet {

// What the method named in the catalog reads. A method the table does not know (one added to the
// solver later) gets what its MethodInfo flags imply: the start, restarts and clustering for a
// factorization, the kernel for the CF family, the labels for a semi-supervised method.
Parameters methodParameters(const QString& method);

// METHODS.md: lambda is 100 for LCCF, GNMF and SemiGNMF, 0.3 for LCF, 1 for CF_OGL.
double defaultLambda(const QString& method);

// The start a method uses when none is chosen: "nmf" for CCF (2.2), else "random".
QString defaultInit(const QString& method);

// CF_OGL: one driver iteration is one outer iteration (section 3), so the iteration limit is the
// number of outer iterations (default 30).
bool iterationsAreOuterIterations(const QString& method);
inline constexpr int kDefaultOuterIterations = 30;

// Whether the driver's iteration limit and tolerance stop the method: not for the baselines,
// which run outside the driver (k-means stops when no sample changes cluster, at most 100 Lloyd
// rounds per start; PCA is one solve), so the panel greys those two fields out for them.
bool stopsByIterationLimit(const QString& method);

} // namespace facet
