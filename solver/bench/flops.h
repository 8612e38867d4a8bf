// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <string>
#include <vector>

namespace facet {

// What one driver iteration (step + objective + the driver's copy of the factors) of a method
// costs, counted from the code as written (methods/*.cpp), for the roofline of the benchmark.
// Shapes: X m x n, rank k, graph S with nnz stored entries.
struct CostInputs {
    std::string method;
    Eigen::Index m = 0;
    Eigen::Index n = 0;
    Eigen::Index k = 0;
    bool explicitKernel = false; // CF family: K (n x n) is formed (Gram::isExplicit, n <= m)
    Eigen::Index graphNonZeros = 0; // nnz(S), graph-regularized methods
    int scalarBytes = 8; // sizeof(Scalar)
};

struct IterationCost {
    double flops = 0; // floating-point operations, a multiply-add counted as 2
    double bytes = 0; // memory traffic model (see flops.cpp): the large operands once per pass
};

// The methods with a cost model: nmf, gnmf, semignmf, cnmf, cf, lccf, lcf, ccf.
const std::vector<std::string>& modelledMethods();
bool hasCostModel(const std::string& method);

// Throws std::invalid_argument for a method without a model or non-positive sizes.
IterationCost iterationCost(const CostInputs& inputs);

} // namespace facet
