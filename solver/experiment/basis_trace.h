// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <vector>

namespace facet {

// The basis after one iteration of a run (m x k), as the run would return it had it stopped
// there: the method's finalize() (NMF: unit-norm columns of U; CF: W scaled so that
// diag(W^T K W) = 1; LCF: nothing) is applied to a copy of the state, so a frame and the final
// basis are drawn on the same scale. Iteration 0 is the start.
struct BasisFrame {
    int iteration = 0;
    Matrix basis;
};

// A factorization run together with the path its basis took (the 2-D demo's animation,
// METHODS.md section 7).
struct TracedRun {
    RunResult result;
    std::vector<BasisFrame> frames; // of the kept start, ascending iterations, the last = result
};

// Runs runAndCluster(X, truth, options, control) and, when `every` > 0, a second solve of the
// same method with the same seed whose basis is recorded at iteration 0, every `every`
// iterations, and at the last one. The driver alone owns the loop (ARCHITECTURE.md), and the
// clustering step of runAndCluster is not repeated here, so the recording wraps the method
// instead: the driver calls it exactly as it calls the method itself, hence the traced solve
// reproduces the result's factors bit for bit. Set options.clusters (c) explicitly: CF_OGL's c
// must be the same in both solves. With restarts only the kept start's frames are returned.
// Throws std::invalid_argument as runAndCluster does, and for a baseline (k-means, PCA) or a
// semi-supervised method with `every` > 0: those have no basis path or need the labelled subset
// that runAndCluster draws.
TracedRun runTraced(MatrixCRef X, const std::vector<int>& truth, const RunOptions& options,
    int every, const SolveControl& control = {});

// The basis path alone (see runTraced), for runs whose result is already known.
std::vector<BasisFrame> traceBasis(
    MatrixCRef X, const RunOptions& options, int every, const SolveControl& control = {});

} // namespace facet
