// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/components.h"

#include <numeric>
#include <stdexcept>

namespace facet {
namespace {

using Index = Eigen::Index;

// Union-find with path halving and union by smaller root index (keeps roots deterministic).
Index findRoot(std::vector<Index>& parent, Index i)
{
    while (parent[std::size_t(i)] != i) {
        parent[std::size_t(i)] = parent[std::size_t(parent[std::size_t(i)])];
        i = parent[std::size_t(i)];
    }
    return i;
}

} // namespace

Components connectedComponents(const SparseMatrix& A)
{
    if (A.rows() != A.cols())
        throw std::invalid_argument("connected components need a square matrix, got "
            + std::to_string(A.rows()) + " x " + std::to_string(A.cols()));
    const Index n = A.rows();
    std::vector<Index> parent(static_cast<std::size_t>(n));
    std::iota(parent.begin(), parent.end(), Index(0));
    for (Index j = 0; j < A.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(A, j); it; ++it) {
            if (!(it.value() > 0) || it.row() == it.col())
                continue;
            const Index a = findRoot(parent, it.row());
            const Index b = findRoot(parent, it.col());
            if (a < b)
                parent[std::size_t(b)] = a;
            else if (b < a)
                parent[std::size_t(a)] = b;
        }
    Components result;
    result.labels.assign(std::size_t(n), -1);
    std::vector<int> rootLabel(std::size_t(n), -1);
    for (Index i = 0; i < n; ++i) {
        const Index root = findRoot(parent, i);
        int& label = rootLabel[std::size_t(root)];
        if (label < 0)
            label = result.count++;
        result.labels[std::size_t(i)] = label;
    }
    return result;
}

} // namespace facet
