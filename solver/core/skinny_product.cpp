// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skinny_product.h"

#include "core/openmp.h"
#include "core/packet_sum.h"

#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace facet {
namespace {

using Index = Eigen::Index;
// Eigen's SIMD register type for Scalar (8 doubles or 16 floats with AVX-512) and its
// operations; pmadd is a fused multiply-add where the CPU has one.
using Packet = Eigen::internal::packet_traits<Scalar>::type;
constexpr Index kLanes = Eigen::internal::packet_traits<Scalar>::size;
using Eigen::internal::ploadu;
using Eigen::internal::pmadd;
using Eigen::internal::pset1;
using Eigen::internal::pstoreu;

// A read prefetch into all cache levels (a hint: no fault, whatever the address).
template <class T> inline void prefetch(const T* address)
{
    __builtin_prefetch(address, 0, 3);
}

// One multiply-add of the kernels' scalar tails (rows past the last whole packet): fused where
// the target has FMA, as pmadd is. Written out because GCC may or may not contract `s += x * b`
// into an FMA, and it decided differently for rankUpdate's and stripUpdate's tails on one CPU
// (-march=native on an AMD Zen 4 host): their tail rows then differed in the last bit, although
// the two kernels add each entry's terms in the same order.
inline Scalar tailMadd(Scalar x, Scalar b, Scalar sum)
{
#ifdef __FMA__
    return std::fma(x, b, sum);
#else
    return x * b + sum;
#endif
}

// Below this many multiply-adds a product is left to Eigen on one thread (no kernel set-up, no
// thread start-up), e.g. the 2-D demo and the tests' tiny sets.
constexpr double kMinimumWork = 1 << 14;
// Products of at least this many multiply-adds are split over the threads.
constexpr double kParallelWork = 1 << 21;
// Products whose threads need not add partials afterwards are split from this many on: X^T M
// (each entry one dot product over one column of X, the threads sharing out the columns) and a
// short X M below kParallelWork (the threads sharing out P's rows, see multiplySkinny). X M
// split by X's columns adds the threads' m x k partials; on small products that costs more than
// the second thread gains (1024 x 40 x 40: 3.7 times slower on two). Measured (Intel Xeon, 2
// cores, medians of 4000 calls alternating in one process), one thread -> two: U^T U 1024 x 40 x
// 40 0.093 -> 0.048 ms, V^T V 400 x 40 x 40 0.036 -> 0.021, 1024 x 20 x 20 0.022 -> 0.013,
// 1024 x 15 x 15 0.013 -> 0.009, and 784 x 10 x 10 (78,400) 0.0041 both ways.
constexpr double kParallelSplitWork = 1 << 17;

int threadsFor(double work, double parallelFrom = kParallelWork)
{
    return work >= parallelFrom ? std::max(1, Eigen::nbThreads()) : 1;
}

// `packed`: the dimension the kernel runs along in SIMD packets (m for both products).
bool useKernels(Index packed, Index other, Index k)
{
    return k >= 1 && k <= kSkinnyMaxRank && packed >= 2 * kLanes
        && double(packed) * double(other) * double(k) >= kMinimumWork;
}

// X M as a sum of rank-J updates P += X(:, j..j+J) M(j..j+J, :), J columns of X at a time: the
// J columns stream from memory in stored order, and each loaded packet of X feeds C
// multiply-adds with the broadcast entries of Mt (k x n, M transposed so that M(j, c..c+C) is
// contiguous). P's tile is read and written once per J columns, from L1/L2 (P is m x k).
template <int J, int C>
void rankUpdate(
    const Scalar* X, Index ldx, const Scalar* Mt, Index ldm, Scalar* P, Index ldp, Index rows)
{
    Index r = 0;
    // Two row packets at a time: each broadcast of Mt feeds two multiply-adds, and the 2 C
    // accumulation chains are enough to hide the FMA latency (one packet left half the FMA
    // units idle, waiting on its chain of J dependent multiply-adds).
    for (; r + 2 * kLanes <= rows; r += 2 * kLanes) {
        Packet x[J][2];
        for (int j = 0; j < J; ++j) {
            x[j][0] = ploadu<Packet>(X + j * ldx + r);
            x[j][1] = ploadu<Packet>(X + j * ldx + r + kLanes);
        }
        for (int c = 0; c < C; ++c) {
            Packet acc0 = ploadu<Packet>(P + c * ldp + r);
            Packet acc1 = ploadu<Packet>(P + c * ldp + r + kLanes);
            for (int j = 0; j < J; ++j) {
                const Packet b = pset1<Packet>(Mt[j * ldm + c]);
                acc0 = pmadd(x[j][0], b, acc0);
                acc1 = pmadd(x[j][1], b, acc1);
            }
            pstoreu(P + c * ldp + r, acc0);
            pstoreu(P + c * ldp + r + kLanes, acc1);
        }
    }
    for (; r + kLanes <= rows; r += kLanes) {
        Packet x[J];
        for (int j = 0; j < J; ++j)
            x[j] = ploadu<Packet>(X + j * ldx + r);
        for (int c = 0; c < C; ++c) {
            Packet acc = ploadu<Packet>(P + c * ldp + r);
            for (int j = 0; j < J; ++j)
                acc = pmadd(x[j], pset1<Packet>(Mt[j * ldm + c]), acc);
            pstoreu(P + c * ldp + r, acc);
        }
    }
    for (; r < rows; ++r)
        for (int c = 0; c < C; ++c) {
            Scalar sum = P[c * ldp + r];
            for (int j = 0; j < J; ++j)
                sum = tailMadd(X[j * ldx + r], Mt[j * ldm + c], sum);
            P[c * ldp + r] = sum;
        }
}

// P += X(:, 0..cols) M(0..cols, :) for a block of X that is already in L2 (the fused pass reads
// it there right after its dot products), C columns of P at a time: a strip of two row packets
// of those C columns stays in 2 C registers while every column of the block is added in, so P
// is read and written once per block and each loaded packet of X feeds C multiply-adds.
// rankUpdate instead rereads and rewrites P's tile (from L2: m x k does not fit in L1) every J
// columns; from L2 that traffic, not the arithmetic, set its speed. Each entry is the same
// chain of multiply-adds over the columns in order as in rankUpdate, so the bits are the same.
template <int C>
void stripUpdate(const Scalar* X, Index ldx, Index cols, const Scalar* Mt, Index ldm, Scalar* P,
    Index ldp, Index rows, bool fromZero)
{
    Index r = 0;
    for (; r + 2 * kLanes <= rows; r += 2 * kLanes) {
        Packet acc[C][2];
        for (int c = 0; c < C; ++c) {
            acc[c][0] = fromZero ? pset1<Packet>(Scalar(0)) : ploadu<Packet>(P + c * ldp + r);
            acc[c][1]
                = fromZero ? pset1<Packet>(Scalar(0)) : ploadu<Packet>(P + c * ldp + r + kLanes);
        }
        for (Index j = 0; j < cols; ++j) {
            const Packet x0 = ploadu<Packet>(X + j * ldx + r);
            const Packet x1 = ploadu<Packet>(X + j * ldx + r + kLanes);
            for (int c = 0; c < C; ++c) {
                const Packet b = pset1<Packet>(Mt[j * ldm + c]);
                acc[c][0] = pmadd(x0, b, acc[c][0]);
                acc[c][1] = pmadd(x1, b, acc[c][1]);
            }
        }
        for (int c = 0; c < C; ++c) {
            pstoreu(P + c * ldp + r, acc[c][0]);
            pstoreu(P + c * ldp + r + kLanes, acc[c][1]);
        }
    }
    for (; r + kLanes <= rows; r += kLanes) {
        Packet acc[C];
        for (int c = 0; c < C; ++c)
            acc[c] = fromZero ? pset1<Packet>(Scalar(0)) : ploadu<Packet>(P + c * ldp + r);
        for (Index j = 0; j < cols; ++j) {
            const Packet x = ploadu<Packet>(X + j * ldx + r);
            for (int c = 0; c < C; ++c)
                acc[c] = pmadd(x, pset1<Packet>(Mt[j * ldm + c]), acc[c]);
        }
        for (int c = 0; c < C; ++c)
            pstoreu(P + c * ldp + r, acc[c]);
    }
    for (; r < rows; ++r)
        for (int c = 0; c < C; ++c) {
            Scalar sum = fromZero ? Scalar(0) : P[c * ldp + r];
            for (Index j = 0; j < cols; ++j)
                sum = tailMadd(X[j * ldx + r], Mt[j * ldm + c], sum);
            P[c * ldp + r] = sum;
        }
}

// Columns of P per strip: 2 C accumulators, X's two packets and the broadcast in the vector
// registers (32 with AVX-512, 16 otherwise).
#ifdef __AVX512F__
constexpr int kStripColumns = 10;
#else
constexpr int kStripColumns = 6;
#endif

// The largest block of X blockUpdate takes: what sits in L2 beside P's strips and U.
constexpr double kStripBlockBytes = 1024.0 * 1024;

// stripUpdate<C> for a run-time width in [1, C]. `fromZero`: P's strips start at 0 instead of
// being read (P need not be initialized; 0 + x b rounds as x b, so the bits are the same).
template <int C = kStripColumns>
void stripGroup(const Scalar* X, Index ldx, Index cols, const Scalar* Mt, Index ldm, Scalar* P,
    Index ldp, Index rows, Index width, bool fromZero = false)
{
    if constexpr (C >= 1) {
        if (width != C)
            stripGroup<C - 1>(X, ldx, cols, Mt, ldm, P, ldp, rows, width, fromZero);
        else
            stripUpdate<C>(X, ldx, cols, Mt, ldm, P, ldp, rows, fromZero);
    }
}

// P += X(:, j0..j1) M(j0..j1, :) for a block of X in L2 (P = ... with `fromZero`); Mt holds
// M(j0..j1, :)^T, k x (j1 - j0).
void blockUpdate(
    MatrixCRef X, const Scalar* Mt, Index k, Index j0, Index j1, Matrix& P, bool fromZero = false)
{
    const Index m = X.rows(), ldx = X.outerStride();
    for (Index c = 0; c < k; c += kStripColumns)
        stripGroup(X.data() + j0 * ldx, ldx, j1 - j0, Mt + c, k, P.data() + c * m, m, m,
            std::min<Index>(kStripColumns, k - c), fromZero);
}

// Rows of P per pass of columnRange: P's k columns of this many rows (128 KiB) stay in L2 while
// every column of the range is added in. A multiple of the two row packets of rankUpdate, so each
// row takes the same path, and the same bits, as in one pass over all m rows. Only a long X
// (a formed n x n kernel) has more rows than this: at n = 20,000, k = 10, P (1.6 MB) used to be
// read and written once per 8 columns, and cf+gaussian's iteration went from 165-169 to 131 ms.
Index rowChunk(Index k)
{
    constexpr Index kTwoPackets = 2 * kLanes;
    return std::max<Index>(256, 16384 / std::max<Index>(k, 1) / kTwoPackets * kTwoPackets);
}

// P += X(:, j0..j1) M(j0..j1, :) for one thread's column range; Mt holds M(j0..j1, :)^T, k x
// (j1 - j0), column-major.
template <int J>
void columnRange(MatrixCRef X, const Scalar* Mt, Index k, Index j0, Index j1, Matrix& P)
{
    const Index m = X.rows(), ldx = X.outerStride();
    Index r0 = 0, rows = m;
    const auto update = [&](auto width, Index j) {
        constexpr int W = decltype(width)::value;
        const Scalar* x = X.data() + j * ldx + r0;
        const Scalar* mt = Mt + (j - j0) * k;
        // Groups of 5 columns of P, then one group of the remaining 1-4: k = 10, 15, 20 and 40
        // split into whole groups, and each group re-reads the J columns of X (from L1/L2), so
        // fewer groups is less traffic. Measured against groups of 4, 2, 1 (two idle cores,
        // GFLOP/s): ORL k = 40 184 / 179, Yale k = 15 149 / 137, COIL-20 k = 20 216 / 209, 4,000 x
        // 784 k = 10 206 / 186, 20,000 x 784 k = 10 109-119 / 101-106, 70,000 x 1024 k = 10 113-116
        // / 106-107. Groups of 10 lost on m = 1024 (X's 8 columns and P's 10, all 8 KiB apart,
        // fall on the same L1 sets: 86 GFLOP/s on 70,000 x 1024).
        Index c = 0;
        for (; c + 5 <= k; c += 5)
            rankUpdate<W, 5>(x, ldx, mt + c, k, P.data() + c * m + r0, m, rows);
        switch (k - c) {
        case 4:
            rankUpdate<W, 4>(x, ldx, mt + c, k, P.data() + c * m + r0, m, rows);
            break;
        case 3:
            rankUpdate<W, 3>(x, ldx, mt + c, k, P.data() + c * m + r0, m, rows);
            break;
        case 2:
            rankUpdate<W, 2>(x, ldx, mt + c, k, P.data() + c * m + r0, m, rows);
            break;
        case 1:
            rankUpdate<W, 1>(x, ldx, mt + c, k, P.data() + c * m + r0, m, rows);
            break;
        default:
            break;
        }
    };
    const Index chunk = rowChunk(k);
    for (r0 = 0; r0 < m; r0 += chunk) {
        rows = std::min(chunk, m - r0);
        Index j = j0;
        for (; j + J <= j1; j += J)
            update(std::integral_constant<int, J> {}, j);
        for (; j < j1; ++j)
            update(std::integral_constant<int, 1> {}, j);
    }
}

// The threads' m x k partials of an X M product, added in thread order (the same bits for the
// same thread count).
Matrix sumInThreadOrder(std::vector<Matrix>& partial)
{
    Matrix sum = std::move(partial[0]);
    for (std::size_t t = 1; t < partial.size(); ++t)
        sum += partial[t];
    return sum;
}

// Q(i..i+A, c0..c0+C) = X(:, i..i+A)^T M(:, c0..c0+C): A * C dot products of length m, each
// accumulated in a packet and reduced at the end. A = 5 columns of X against groups of C = 5
// columns of M keep 25 independent accumulators in registers (31 of the 32 vector registers with
// the 5 packets of X and the one of M), so each loaded packet of X feeds 5 multiply-adds and each
// one of M feeds 5, and the common ranks 10, 15, 20 and 40 split into full groups. Measured
// (two idle cores, GFLOP/s, A x C = 5 x 5 / 6 x 4 / 4 x 5 / 3 x 8): ORL k = 40 204-212 / 184 /
// 164 / 147, Yale k = 15 212 / 171 / 168 / 170, COIL-20 k = 20 187 / 181 / 152 / 150, 4,000 x
// 784 k = 10 181 / 143 / 146 / 129, 70,000 x 1024 k = 10 120 / 110 / 106 / 88.
constexpr int kDotColumns = 5;
constexpr int kDotGroup = 5;
// From this size of X on (beyond what the caches hold), the first group of a tile prefetches the
// next tile's columns a few lines ahead of where it reads its own: X then streams from memory
// while the multiply-adds run, instead of each tile waiting for its columns (+10-15 % on 20,000 x
// 784 and 70,000 x 1024; on cache-resident sets it only cost issue slots).
constexpr double kPrefetchBytes = 16.0 * 1024 * 1024;
template <class T> constexpr Index kPrefetchAhead = 64 / sizeof(T) * 8; // 8 cache lines

// The multiply-adds of an A x C dot tile over rows r0..r1 (whole packets) into acc; with
// Prefetch, the next tile's columns (`next`) a few lines ahead of where it reads its own. Shared
// by dotTile and dotTileChunk, as is finishTile, so both add each lane's terms alike.
template <class T, int A, int C, bool Prefetch>
__attribute__((always_inline)) inline void tileRows(const T* X, Index ldx, const T* M, Index ldm,
    Index r0, Index r1, const T* next,
    typename Eigen::internal::packet_traits<T>::type (&acc)[A][C])
{
    using TPacket = typename Eigen::internal::packet_traits<T>::type;
    constexpr Index kTLanes = Eigen::internal::packet_traits<T>::size;
    for (Index r = r0; r < r1; r += kTLanes) {
        TPacket x[A];
        if constexpr (Prefetch)
            for (int a = 0; a < A; ++a)
                prefetch(next + a * ldx + r + kPrefetchAhead<T>);
        for (int a = 0; a < A; ++a)
            x[a] = ploadu<TPacket>(X + a * ldx + r);
        for (int c = 0; c < C; ++c) {
            const TPacket u = ploadu<TPacket>(M + c * ldm + r);
            for (int a = 0; a < A; ++a)
                acc[a][c] = pmadd(x[a], u, acc[a][c]);
        }
    }
}

// Each accumulator's lanes summed and the tail rows r..m added, into Q.
template <class T, int A, int C>
__attribute__((always_inline)) inline void finishTile(
    const typename Eigen::internal::packet_traits<T>::type (&acc)[A][C], const T* X, Index ldx,
    const T* M, Index ldm, Index r, Index m, T* Q, Index ldq)
{
    for (int a = 0; a < A; ++a)
        for (int c = 0; c < C; ++c) {
            T sum = sumOfLanes(acc[a][c]);
            for (Index rr = r; rr < m; ++rr)
                sum += X[a * ldx + rr] * M[c * ldm + rr];
            Q[c * ldq + a] = sum;
        }
}

// For any scalar type T (the solver's Scalar; double for k-means in both builds).
template <class T, int A, int C, bool Prefetch>
void dotTile(const T* X, Index ldx, const T* M, Index ldm, Index m, T* Q, Index ldq)
{
    using TPacket = typename Eigen::internal::packet_traits<T>::type;
    constexpr Index kTLanes = Eigen::internal::packet_traits<T>::size;
    TPacket acc[A][C];
    for (int a = 0; a < A; ++a)
        for (int c = 0; c < C; ++c)
            acc[a][c] = pset1<TPacket>(T(0));
    const Index packed = m / kTLanes * kTLanes;
    tileRows<T, A, C, Prefetch>(X, ldx, M, ldm, 0, packed, X + A * ldx, acc);
    finishTile<T, A, C>(acc, X, ldx, M, ldm, packed, m, Q, ldq);
}

// dotTile<A, width> for a run-time width in [1, C].
template <class T, int A, int C = kDotGroup>
void dotGroup(const T* X, Index ldx, const T* M, Index ldm, Index m, T* Q, Index ldq, Index width,
    bool prefetch)
{
    if constexpr (C >= 1) {
        if (width != C)
            dotGroup<T, A, C - 1>(X, ldx, M, ldm, m, Q, ldq, width, prefetch);
        else if (prefetch)
            dotTile<T, A, C, true>(X, ldx, M, ldm, m, Q, ldq);
        else
            dotTile<T, A, C, false>(X, ldx, M, ldm, m, Q, ldq);
    }
}

// Columns i..i+A of X against all of M; `prefetchNext`: the first group also fetches the next A
// columns (only when they exist).
template <int A>
void dotColumns(MatrixCRef X, const Matrix& M, Index i, Matrix& Q, bool prefetchNext)
{
    const Index m = X.rows(), k = M.cols(), ldx = X.outerStride();
    const Scalar* x = X.data() + i * ldx;
    for (Index c = 0; c < k; c += kDotGroup)
        dotGroup<Scalar, A>(x, ldx, M.data() + c * m, m, m, Q.data() + c * Q.rows() + i, Q.rows(),
            std::min<Index>(kDotGroup, k - c), prefetchNext && c == 0);
}

// Long columns: a formed n x n kernel, 20,000 rows. Running a tile down all m rows needs its A
// columns of X and C of M (m x k, 1.6 MB at k = 10) at once, and M no longer stays in L2: each
// tile reread M from L3. The dot tiles of such an X alone took 343-389 ms at 20,000 x 20,000,
// k = 10 (Intel Xeon, 2 threads), while a rank-update pass over the same X took 186 ms. There the
// tiles of a block of columns run over chunks of rows whose share of M (and of the block) stays
// in L2, each tile carrying its accumulators from chunk to chunk in memory: every lane adds the
// same terms in the same order as in dotTile, and the lanes and the tail rows are summed as
// there, so the bits are dotTile's. The fused pass (transposedUpdateProduct) of a symmetric
// n x n X, k = 10, before and after (one process, alternating, medians): n = 20,000 591 -> 399
// ms in double and 252 -> 184 in float, 10,000 125 -> 92, 6,000 39 -> 34; n = 3,000, k = 40
// 30 -> 27. Below 512 KiB chunks gained nothing or cost up to 6 % (1,024 rows, k = 40).
constexpr double kLongColumnBytes = 512.0 * 1024; // m (k + A) Scalars beyond this: long
constexpr double kChunkBytes = 512.0 * 1024; // a chunk's rows of the block and of M

bool longColumns(Index m, Index k)
{
    return double(m) * double(k + kDotColumns) * sizeof(Scalar) > kLongColumnBytes;
}

// Rows per chunk for a block of `columns` columns and rank k: whole packets, at least 4.
Index chunkRows(Index k, Index columns)
{
    const Index rows = Index(kChunkBytes / (double(k + columns) * sizeof(Scalar)));
    return std::max<Index>(4 * kLanes, rows / kLanes * kLanes);
}

// dotTile over rows r0..r1 (whole packets) with its A x C packet accumulators in `carry` (read
// unless r0 = 0); on the last chunk (r1 the end of the whole packets) the lanes and the tail rows
// r1..m are summed into Q as dotTile does.
template <int A, int C>
void dotTileChunk(const Scalar* X, Index ldx, const Scalar* M, Index ldm, Index r0, Index r1,
    Index m, Scalar* carry, Scalar* Q, Index ldq)
{
    Packet acc[A][C];
    for (int a = 0; a < A; ++a)
        for (int c = 0; c < C; ++c)
            acc[a][c]
                = r0 == 0 ? pset1<Packet>(Scalar(0)) : ploadu<Packet>(carry + (a * C + c) * kLanes);
    tileRows<Scalar, A, C, false>(X, ldx, M, ldm, r0, r1, nullptr, acc);
    if (r1 + kLanes <= m) { // more chunks follow
        for (int a = 0; a < A; ++a)
            for (int c = 0; c < C; ++c)
                pstoreu(carry + (a * C + c) * kLanes, acc[a][c]);
        return;
    }
    finishTile<Scalar, A, C>(acc, X, ldx, M, ldm, r1, m, Q, ldq);
}

// dotTileChunk<A, width> for a run-time width in [1, C].
template <int A, int C = kDotGroup>
void dotGroupChunk(const Scalar* X, Index ldx, const Scalar* M, Index ldm, Index r0, Index r1,
    Index m, Scalar* carry, Scalar* Q, Index ldq, Index width)
{
    if constexpr (C >= 1) {
        if (width != C)
            dotGroupChunk<A, C - 1>(X, ldx, M, ldm, r0, r1, m, carry, Q, ldq, width);
        else
            dotTileChunk<A, C>(X, ldx, M, ldm, r0, r1, m, carry, Q, ldq);
    }
}

// Q's rows j0..j1 = X(:, j0..j1)^T M for long columns, chunk by chunk of rows; `carry` is the
// caller's buffer (resized here).
void dotColumnsChunked(
    MatrixCRef X, const Matrix& M, Index j0, Index j1, Matrix& Q, std::vector<Scalar>& carry)
{
    const Index m = X.rows(), k = M.cols(), ldx = X.outerStride();
    const Index packed = m / kLanes * kLanes;
    const Index groups = (k + kDotGroup - 1) / kDotGroup;
    constexpr Index kSlot = kDotColumns * kDotGroup * kLanes; // Scalars per tile and group
    carry.resize(std::size_t((j1 - j0) * groups * kSlot));
    const Index chunk = chunkRows(k, j1 - j0);
    for (Index r0 = 0; r0 < packed; r0 += chunk) {
        const Index r1 = std::min(r0 + chunk, packed);
        Index i = j0, slot = 0;
        for (; i + kDotColumns <= j1; i += kDotColumns)
            for (Index c = 0; c < k; c += kDotGroup, ++slot)
                dotGroupChunk<kDotColumns>(X.data() + i * ldx, ldx, M.data() + c * m, m, r0, r1, m,
                    carry.data() + slot * kSlot, Q.data() + c * Q.rows() + i, Q.rows(),
                    std::min<Index>(kDotGroup, k - c));
        for (; i < j1; ++i)
            for (Index c = 0; c < k; c += kDotGroup, ++slot)
                dotGroupChunk<1>(X.data() + i * ldx, ldx, M.data() + c * m, m, r0, r1, m,
                    carry.data() + slot * kSlot, Q.data() + c * Q.rows() + i, Q.rows(),
                    std::min<Index>(kDotGroup, k - c));
    }
}

} // namespace

void multiplySkinny(MatrixCRef X, const Matrix& M, Matrix& out)
{
    const Index m = X.rows(), n = X.cols(), k = M.cols();
    if (!useKernels(m, n, k)) {
        out.noalias() = X * M;
        return;
    }
    const Matrix Mt = M.transpose(); // k x n
    const double work = double(m) * double(n) * double(k);
    // A short X that L2 holds whole, such as U in U (V^T V) (k columns), goes through
    // stripUpdate: each strip of P stays in registers while every column is added in, so P is
    // written once. rankUpdate rereads and rewrites P's tile every 8 columns, from L2. Each entry
    // is the same chain of multiply-adds over the columns in order either way: the same bits.
    // For U (V^T V) on one core (Intel Xeon, medians of 3000 calls): 1024 x 40 x 40 0.122 ->
    // 0.062 ms, 1024 x 15 x 15 0.044 -> 0.014, 784 x 10 x 10 0.0096 -> 0.0039.
    const bool shortX = double(m) * double(n) * sizeof(Scalar) <= kStripBlockBytes;
    if (shortX && work < kParallelWork) {
        // Below kParallelWork the threads split P's rows (whole strips), not X's columns: every
        // entry is still one chain over all the columns, so the bits are those of one thread,
        // and there are no partials to add. Two threads against one (medians of 4000 calls
        // alternating in one process): 1024 x 40 x 40 0.60 of the time, 1024 x 20 x 20 0.62,
        // 1024 x 15 x 15 0.62, 400 x 40 x 40 0.69.
        out.resize(m, k); // every strip starts from 0 (fromZero): nothing to clear first
        constexpr Index kStrip = 2 * kLanes;
        const Index strips = (m + kStrip - 1) / kStrip;
        [[maybe_unused]] const int threads
            = int(std::min<Index>(threadsFor(work, kParallelSplitWork), strips));
#pragma omp parallel num_threads(threads)
        {
            const int count = omp::numThreads();
            const int t = omp::threadNum();
            const Index r0 = std::min(m, strips * t / count * kStrip);
            const Index r1 = std::min(m, strips * (t + 1) / count * kStrip);
            for (Index c = 0; c < k && r1 > r0; c += kStripColumns)
                stripGroup(X.data() + r0, X.outerStride(), n, Mt.data() + c, k,
                    out.data() + c * m + r0, m, r1 - r0, std::min<Index>(kStripColumns, k - c),
                    true);
        }
        return;
    }
    const int threads = int(std::min<Index>(threadsFor(work), n));
    if (threads == 1) { // into out itself: no partial to allocate and move
        out.setZero(m, k);
        columnRange<8>(X, Mt.data(), k, 0, n, out);
        return;
    }
    // Each thread sums its own column range of X into its own m x k partial; the partials are
    // added in thread order afterwards (the fused pass splits and adds the same way).
    std::vector<Matrix> partial(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
    {
        const int t = omp::threadNum();
        const int count = omp::numThreads();
        const Index j0 = n * t / count, j1 = n * (t + 1) / count;
        // By its own thread, into its own cache; the strips start from 0 without it.
        Matrix& P = partial[std::size_t(t)];
        if (shortX) {
            P.resize(m, k);
            blockUpdate(X, Mt.data() + j0 * k, k, j0, j1, P, true);
        } else {
            P.setZero(m, k);
            columnRange<8>(X, Mt.data() + j0 * k, k, j0, j1, P);
        }
    }
    out = sumInThreadOrder(partial);
}

void multiplyTransposedSkinny(MatrixCRef X, const Matrix& M, Matrix& out)
{
    const Index m = X.rows(), n = X.cols(), k = M.cols();
    if (!useKernels(m, n, k)) {
        out.noalias() = X.transpose() * M;
        return;
    }
    out.resize(n, k);
    const Index blocks = n / kDotColumns;
    [[maybe_unused]] const int threads
        = threadsFor(double(m) * double(n) * double(k), kParallelSplitWork);
    const bool prefetch = double(m) * double(n) * sizeof(Scalar) >= kPrefetchBytes;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (Index b = 0; b < blocks; ++b)
        dotColumns<kDotColumns>(X, M, kDotColumns * b, out, prefetch && b + 1 < blocks);
    for (Index i = kDotColumns * blocks; i < n; ++i)
        dotColumns<1>(X, M, i, out, false);
}

int threadsForRows(double multiplyAdds)
{
    return threadsFor(multiplyAdds, kParallelSplitWork);
}

namespace {
std::atomic<bool> fusedPassesEnabled { true };
} // namespace

void setFusedPassesEnabled(bool enabled)
{
    fusedPassesEnabled.store(enabled);
}

bool pastTheCaches(double bytes)
{
    return bytes >= kPrefetchBytes;
}

bool fusesPasses(MatrixCRef X, Index k)
{
    return fusesPasses(X.rows(), X.cols(), k);
}

bool fusesPasses(Index rows, Index cols, Index k)
{
    return fusedPassesEnabled.load() && useKernels(rows, cols, k);
}

void transposedUpdateProduct(MatrixCRef X, const Matrix& U, Matrix& Q, Matrix& V,
    const std::function<void(Index, Index)>& updateRows, Matrix& P)
{
    const Index m = X.rows(), n = X.cols(), k = U.cols();
    if (V.rows() != n || V.cols() != k || U.rows() != m)
        throw std::invalid_argument("transposedUpdateProduct: U must be m x k and V n x k");
    Q.resize(n, k);
    // Columns per block: X's block (about 256 KiB) stays in L2 between its two uses; a multiple
    // of the dot tile (5) and of the rank update's width (8).
    constexpr Index kStep = 40;
    const Index block = std::max(kStep, (Index(32768) / std::max<Index>(m, 1)) / kStep * kStep);
    const int threads = int(std::min<Index>(threadsFor(double(m) * double(n) * double(k)), n));
    const bool chunked = longColumns(m, k);
    // Each thread's partial is allocated and first written by that thread, into its own cache
    // (zeroed before the region, on one thread, they took 0.05 ms of ORL's 1.0 ms pass), and its
    // first block's strips start from 0 instead of reading a cleared P.
    std::vector<Matrix> partial(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
    {
        const int t = omp::threadNum();
        const int count = omp::numThreads();
        const Index j0 = n * t / count, j1 = n * (t + 1) / count;
        Matrix& mine = partial[std::size_t(t)];
        mine.resize(m, k);
        bool written = false; // mine holds this thread's sum so far
        Matrix Mt(k, block);
        std::vector<Scalar> carry; // dotColumnsChunked's accumulators
        for (Index b0 = j0; b0 < j1; b0 += block) {
            const Index b1 = std::min(b0 + block, j1);
            // Q's rows b0..b1, X's block read from memory (the next tile's columns prefetched;
            // long columns in chunks of rows, the same bits).
            if (chunked) {
                dotColumnsChunked(X, U, b0, b1, Q, carry);
            } else {
                Index i = b0;
                for (; i + kDotColumns <= b1; i += kDotColumns)
                    dotColumns<kDotColumns>(X, U, i, Q, i + 2 * kDotColumns <= j1);
                for (; i < b1; ++i)
                    dotColumns<1>(X, U, i, Q, false);
            }
            // The caller's rule rewrites V's rows b0..b1 from Q's.
            updateRows(b0, b1 - b0);
            // P += X_b V_b with the new rows, X's block now from L2.
            Mt.leftCols(b1 - b0) = V.middleRows(b0, b1 - b0).transpose();
            // A long X's block (a formed n x n kernel: 40 columns of 20,000 rows) is not in L2;
            // there rankUpdate's row chunks, which keep P's rows in L2, stay (the same bits).
            if (double(m) * double(b1 - b0) * sizeof(Scalar) <= kStripBlockBytes) {
                blockUpdate(X, Mt.data(), k, b0, b1, mine, !written);
            } else {
                if (!written)
                    mine.setZero();
                columnRange<8>(X, Mt.data(), k, b0, b1, mine);
            }
            written = true;
        }
        if (!written)
            mine.setZero();
    }
    P = sumInThreadOrder(partial);
}

template <class T>
void dotProductBlock(const T* X, Index ldx, Index m, const T* M, Index ldm, Index k, Index count,
    T* Q, Index ldq, bool prefetch)
{
    Index i = 0;
    for (; i + kDotColumns <= count; i += kDotColumns)
        for (Index c = 0; c < k; c += kDotGroup)
            dotGroup<T, kDotColumns>(X + i * ldx, ldx, M + c * ldm, ldm, m, Q + c * ldq + i, ldq,
                std::min<Index>(kDotGroup, k - c), prefetch && c == 0);
    for (; i < count; ++i)
        for (Index c = 0; c < k; c += kDotGroup)
            dotGroup<T, 1>(X + i * ldx, ldx, M + c * ldm, ldm, m, Q + c * ldq + i, ldq,
                std::min<Index>(kDotGroup, k - c), false);
}

template void dotProductBlock<float>(
    const float*, Index, Index, const float*, Index, Index, Index, float*, Index, bool);
template void dotProductBlock<double>(
    const double*, Index, Index, const double*, Index, Index, Index, double*, Index, bool);

} // namespace facet
