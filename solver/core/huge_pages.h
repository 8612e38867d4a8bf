// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <cstddef>

namespace facet {

// Asks the kernel to back a large buffer with 2 MiB pages (transparent huge pages, which Debian
// enables in "madvise" mode: only for memory that asks). Call it right after allocating and
// before writing, so the first touch already gets the large pages. Worth it for the data matrix X
// of sets past the caches, which every iteration streams through once per product: with 4 KiB
// pages each column of X crosses a page every 4 KiB and the TLB misses add up; measured on the
// generated 20,000 x 784 and 70,000 x 1024 sets, NMF and CF iterations 5-10 % faster (issue 7,
// bench/RESULTS.md). Buffers under 32 MiB, and systems without madvise, are left alone; a
// refusal by the kernel changes nothing but speed.
void adviseHugePages(const void* data, std::size_t bytes);

inline void adviseHugePages(const Matrix& X)
{
    adviseHugePages(X.data(), std::size_t(X.size()) * sizeof(Scalar));
}

} // namespace facet
