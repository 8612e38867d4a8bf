// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_terms.h"

#include "core/openmp.h"
#include "core/packet_sum.h"
#include "graph/halo_exchange.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace facet {
namespace {

using Index = Eigen::Index;
using Packet = Eigen::internal::packet_traits<Scalar>::type;
constexpr Index kLanes = Eigen::internal::packet_traits<Scalar>::size;
using Eigen::internal::ploadu;
using Eigen::internal::pmadd;
using Eigen::internal::pmul;
using Eigen::internal::pset1;
using Eigen::internal::pstoreu;
using Eigen::internal::psub;
// kLanes packets, one per column, for Eigen's in-register transpose. (The packet's vector
// attributes do not change the template's identity; GCC warns that it ignores them.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
using PacketSquare = Eigen::internal::PacketBlock<Packet, int(kLanes)>;
#pragma GCC diagnostic pop

// These terms first ran as Eigen's S * V and a loop of Eigen column expressions on one thread,
// while the other core waited: at n = 20,000, k = 10 (135,220 stored entries) S V took 1.9 ms
// and the value 1.5 ms, a third of a GNMF iteration beyond its two big products (issue 7).
// Below this many stored entries times k, one thread.
constexpr double kParallelWork = 1 << 16;

int threadsFor(const Graph& graph, Index k)
{
    return double(graph.S.nonZeros()) * double(k) >= kParallelWork ? omp::maxThreads() : 1;
}

// V^T with each row v_i as one contiguous, aligned column of `width` = k rounded up to whole
// SIMD packets (the padding is 0): a neighbour's row is then one or two cache lines read as
// packets, instead of k reads n entries apart. Column blocks in parallel, each a run of square
// in-register transposes of one packet of each of `kLanes` columns (Eigen's ptranspose); the
// element-wise transposed copy it replaces was a quarter of the graph terms' time (float,
// n = 70,000, k = 10).
struct PaddedRows {
    PaddedRows(const Matrix& V, Index firstOwn, [[maybe_unused]] int threads)
        : self(firstOwn)
        , k(V.cols())
        , width((V.cols() + kLanes - 1) / kLanes * kLanes)
        , rows(width, V.rows())
    {
        const Index n = V.rows();
        constexpr Index block = 256;
        const Index blocks = (n + block - 1) / block;
#pragma omp parallel for schedule(static) num_threads(threads)
        for (Index b = 0; b < blocks; ++b) {
            const Index i0 = b * block, len = std::min(block, n - i0);
            Index j = 0;
            if constexpr (kLanes > 1) {
                for (; j + kLanes <= len; j += kLanes) {
                    for (Index g = 0; g < width; g += kLanes) {
                        PacketSquare t;
                        for (Index r = 0; r < kLanes; ++r)
                            t.packet[r] = g + r < k ? ploadu<Packet>(V.col(g + r).data() + i0 + j)
                                                    : pset1<Packet>(Scalar(0));
                        Eigen::internal::ptranspose(t);
                        for (Index r = 0; r < kLanes; ++r)
                            pstoreu(rows.data() + (i0 + j + r) * width + g, t.packet[r]);
                    }
                }
            }
            if (j < len) {
                rows.block(0, i0 + j, k, len - j) = V.middleRows(i0 + j, len - j).transpose();
                rows.block(k, i0 + j, width - k, len - j).setZero();
            }
        }
    }
    const Scalar* row(Index i) const
    {
        return rows.data() + i * width;
    }
    // The row of the graph's own sample i (S's column i): row i in one process, after the halo
    // rows that come before this rank's distributed.
    const Scalar* own(Index i) const
    {
        return row(self + i);
    }

    Index self;
    Index k;
    Index width;
    Matrix rows; // width x n, column-major: each column whole packets
};

// S's columns as raw arrays (S symmetric: column i holds row i's neighbours), compressed or not.
// (A software prefetch of the neighbour a few entries ahead was tried: no measurable gain.)
struct Stored {
    explicit Stored(const SparseMatrix& S)
        : outer(S.outerIndexPtr())
        , counts(S.innerNonZeroPtr())
        , index(S.innerIndexPtr())
        , value(S.valuePtr())
    {
    }
    Index begin(Index column) const { return outer[column]; }
    Index end(Index column) const
    {
        return counts ? outer[column] + counts[column] : outer[column + 1];
    }
    const Index* outer;
    const Index* counts; // null when compressed
    const Index* index;
    const Scalar* value;
};

// Row i of S V for P packets per row, from column `first` of the padded rows (a multiple of
// kLanes), into out[first..first + P kLanes). Each entry is one chain of multiply-adds over the
// neighbours in stored order, whatever P and `first`: the wide rows below, in groups of packets,
// give the same bits.
template <int P>
void neighbourSum(const Stored& S, const PaddedRows& V, Index i, Scalar* out, Index first = 0)
{
    Packet acc[P];
    for (int p = 0; p < P; ++p)
        acc[p] = pset1<Packet>(Scalar(0));
    for (Index e = S.begin(i); e < S.end(i); ++e) {
        const Packet w = pset1<Packet>(S.value[e]);
        const Scalar* vj = V.row(S.index[e]) + first;
        for (int p = 0; p < P; ++p)
            acc[p] = pmadd(w, ploadu<Packet>(vj + p * kLanes), acc[p]);
    }
    for (int p = 0; p < P; ++p)
        pstoreu(out + first + p * kLanes, acc[p]);
}

// sum_j s_ij |v_i - v_j|^2 over row i's neighbours (all terms >= 0).
template <int P> double pairTerm(const Stored& S, const PaddedRows& V, Index i)
{
    Packet vi[P];
    for (int p = 0; p < P; ++p)
        vi[p] = ploadu<Packet>(V.own(i) + p * kLanes);
    Packet acc = pset1<Packet>(Scalar(0));
    for (Index e = S.begin(i); e < S.end(i); ++e) {
        const Packet w = pset1<Packet>(S.value[e]);
        const Scalar* vj = V.row(S.index[e]);
        for (int p = 0; p < P; ++p) {
            const Packet d = psub(vi[p], ploadu<Packet>(vj + p * kLanes));
            acc = pmadd(pmul(w, d), d, acc);
        }
    }
    return double(sumOfLanes(acc));
}

// Both of the above in one gather of the neighbours' rows, with the same arithmetic in the same
// order (the same bits as the two separate calls): row i of S V into out[0..width), and the
// pair sum returned.
template <int P>
double neighbourSumAndPairs(const Stored& S, const PaddedRows& V, Index i, Scalar* out)
{
    Packet vi[P], acc[P];
    for (int p = 0; p < P; ++p) {
        vi[p] = ploadu<Packet>(V.own(i) + p * kLanes);
        acc[p] = pset1<Packet>(Scalar(0));
    }
    Packet pairs = pset1<Packet>(Scalar(0));
    for (Index e = S.begin(i); e < S.end(i); ++e) {
        const Packet w = pset1<Packet>(S.value[e]);
        const Scalar* vj = V.row(S.index[e]);
        for (int p = 0; p < P; ++p) {
            const Packet x = ploadu<Packet>(vj + p * kLanes);
            acc[p] = pmadd(w, x, acc[p]);
            const Packet d = psub(vi[p], x);
            pairs = pmadd(pmul(w, d), d, pairs);
        }
    }
    for (int p = 0; p < P; ++p)
        pstoreu(out + p * kLanes, acc[p]);
    return double(sumOfLanes(pairs));
}

// Rows wider than 4 packets (in double, ranks past 32 with AVX-512 and past 16 with AVX2): S V in
// groups of 4 packets and the rest, the pair sum as pairTerm's one chain over (neighbour,
// packet). These were scalar loops, whose pair sum was a chain of k dependent additions per
// neighbour: at ORL's n = 400 and rank 40 the graph terms took 0.108 ms per call, 0.065 ms now
// (both in one process, issue 7).
void neighbourSumAny(const Stored& S, const PaddedRows& V, Index i, Scalar* out)
{
    constexpr Index kGroup = 4 * kLanes;
    Index first = 0;
    for (; first + kGroup <= V.width; first += kGroup)
        neighbourSum<4>(S, V, i, out, first);
    switch ((V.width - first) / kLanes) {
    case 3:
        neighbourSum<3>(S, V, i, out, first);
        break;
    case 2:
        neighbourSum<2>(S, V, i, out, first);
        break;
    case 1:
        neighbourSum<1>(S, V, i, out, first);
        break;
    default:
        break;
    }
}

double pairTermAny(const Stored& S, const PaddedRows& V, Index i)
{
    const Scalar* vi = V.own(i);
    Packet acc = pset1<Packet>(Scalar(0));
    for (Index e = S.begin(i); e < S.end(i); ++e) {
        const Packet w = pset1<Packet>(S.value[e]);
        const Scalar* vj = V.row(S.index[e]);
        for (Index c = 0; c < V.width; c += kLanes) {
            const Packet d = psub(ploadu<Packet>(vi + c), ploadu<Packet>(vj + c));
            acc = pmadd(pmul(w, d), d, acc);
        }
    }
    return double(sumOfLanes(acc));
}

// Calls kernel(std::integral_constant<int, P>) with P = the packets per row of V, 1 to 4, or 0
// for wider rows (the generic loops).
template <class Kernel> auto byPackets(const PaddedRows& V, Kernel&& kernel)
{
    switch (V.width / kLanes) {
    case 1:
        return kernel(std::integral_constant<int, 1> {});
    case 2:
        return kernel(std::integral_constant<int, 2> {});
    case 3:
        return kernel(std::integral_constant<int, 3> {});
    case 4:
        return kernel(std::integral_constant<int, 4> {});
    default:
        return kernel(std::integral_constant<int, 0> {});
    }
}

void rowOfSV(const Stored& S, const PaddedRows& V, Index i, Scalar* out)
{
    byPackets(V, [&](auto packets) {
        if constexpr (decltype(packets)::value == 0)
            neighbourSumAny(S, V, i, out);
        else
            neighbourSum<decltype(packets)::value>(S, V, i, out);
    });
}

double rowOfSVAndPairs(const Stored& S, const PaddedRows& V, Index i, Scalar* out)
{
    return byPackets(V, [&](auto packets) {
        if constexpr (decltype(packets)::value == 0) {
            neighbourSumAny(S, V, i, out);
            return pairTermAny(S, V, i);
        } else {
            return neighbourSumAndPairs<decltype(packets)::value>(S, V, i, out);
        }
    });
}

double pairsOfRow(const Stored& S, const PaddedRows& V, Index i)
{
    return byPackets(V, [&](auto packets) {
        if constexpr (decltype(packets)::value == 0)
            return pairTermAny(S, V, i);
        else
            return pairTerm<decltype(packets)::value>(S, V, i);
    });
}

// Rows are gathered in blocks of this many: their S V rows go to a small row-major buffer, and
// the block's gradient parts are then written column by column, contiguous runs instead of 2k
// stores n apart per row.
constexpr Index kRowBlock = 64;

// Rows i0 .. i0 + len of the gradient parts, lambda S V and lambda D V, from the block's rows of
// S V (`sums`, row r at r * width).
void writeGradientBlock(const Graph& graph, const PaddedRows& V, const Scalar* sums, Scalar lambda,
    Index i0, Index len, Matrix& plus, Matrix& minus)
{
    for (Index c = 0; c < V.k; ++c) {
        Scalar* minusColumn = minus.col(c).data() + i0;
        Scalar* plusColumn = plus.col(c).data() + i0;
        for (Index r = 0; r < len; ++r) {
            minusColumn[r] = lambda * sums[r * V.width + c];
            plusColumn[r] = lambda * (graph.degree(i0 + r) * V.own(i0 + r)[c]);
        }
    }
}

// Sample i's share of Tr(V^T (D - S) V) (see graphQuadraticForm), from its pair sum.
double shareOfRow(const Graph& graph, const Stored& S, const PaddedRows& V, Index i, double pairs)
{
    double rowSum = 0;
    for (Index e = S.begin(i); e < S.end(i); ++e)
        rowSum += double(S.value[e]);
    // |v_i|^2 in packets over the padded row (its padding is 0): a chain of width / kLanes
    // multiply-adds instead of k scalar ones.
    const Scalar* vi = V.own(i);
    Packet norm = pset1<Packet>(Scalar(0));
    for (Index c = 0; c < V.width; c += kLanes) {
        const Packet x = ploadu<Packet>(vi + c);
        norm = pmadd(x, x, norm);
    }
    return (double(graph.degree(i)) - rowSum) * double(sumOfLanes(norm)) + 0.5 * pairs;
}

// The rows the gathers read: V in one process; distributed, V between the halo's rows of the
// other ranks (one exchange: every rank's graph terms call this at the same points).
const Matrix& gatherSource(const Graph& graph, const Matrix& V, Matrix& extended)
{
    if (V.rows() != graph.size())
        throw std::invalid_argument("the graph terms need one row of V per sample of the graph");
    if (!graph.halo)
        return V;
    extended = graph.halo->extend(V);
    return extended;
}

Index firstOwnRow(const Graph& graph)
{
    return graph.halo ? graph.halo->before() : 0;
}

// The shares added in sample order: the same value for any thread count.
double sumInOrder(const std::vector<double>& share)
{
    double value = 0;
    for (const double s : share)
        value += s;
    return value;
}

} // namespace

void graphGradientParts(
    const Graph& graph, const Matrix& V, Scalar lambda, Matrix& plus, Matrix& minus)
{
    const Index n = graph.size(), k = V.cols();
    const int threads = threadsFor(graph, k);
    Matrix extended;
    const PaddedRows rows(gatherSource(graph, V, extended), firstOwnRow(graph), threads);
    const Stored S(graph.S);
    plus.resize(n, k);
    minus.resize(n, k);
    // S is symmetric (the kNN graph is OR-symmetrized with one weight per edge, the label
    // constraints add both directions, NCW scales rows and columns alike, up to rounding), so
    // row i of S V is sum_j s_ji v_j over the stored column i of S, written once by one thread.
    const Index blocks = (n + kRowBlock - 1) / kRowBlock;
#pragma omp parallel num_threads(threads)
    {
        std::vector<Scalar> sums(static_cast<std::size_t>(rows.width * kRowBlock));
#pragma omp for schedule(static)
        for (Index b = 0; b < blocks; ++b) {
            const Index i0 = b * kRowBlock, len = std::min(kRowBlock, n - i0);
            for (Index r = 0; r < len; ++r)
                rowOfSV(S, rows, i0 + r, sums.data() + r * rows.width);
            writeGradientBlock(graph, rows, sums.data(), lambda, i0, len, plus, minus);
        }
    }
}

double graphQuadraticForm(const Graph& graph, const Matrix& V)
{
    // Tr(V^T D V) - Tr(V^T S V) is a difference of two nearly equal sums: in single precision it
    // lost every digit and came out negative (LCCF on a generated set, issue 7). With S symmetric,
    //   Tr(V^T (D - S) V) = sum_i (d_i - (S 1)_i) |v_i|^2 + (1/2) sum_ij s_ij |v_i - v_j|^2,
    // whose first sum is 0 for a kNN graph (kept for the NCW graph, whose D is not S 1) and whose
    // second has only terms >= 0: nothing cancels. Each sample's share is summed in double (its
    // few neighbour terms in Scalar first, all >= 0), in parallel, and the shares are added in
    // sample order, so the value does not depend on the thread count.
    const Index n = graph.size();
    const int threads = threadsFor(graph, V.cols());
    Matrix extended;
    const PaddedRows rows(gatherSource(graph, V, extended), firstOwnRow(graph), threads);
    const Stored S(graph.S);
    std::vector<double> share(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) num_threads(threads)
    for (Index i = 0; i < n; ++i)
        share[std::size_t(i)] = shareOfRow(graph, S, rows, i, pairsOfRow(S, rows, i));
    return sumInOrder(share);
}

double graphTermsAndValue(
    const Graph& graph, const Matrix& V, Scalar lambda, Matrix& plus, Matrix& minus)
{
    const Index n = graph.size(), k = V.cols();
    const int threads = threadsFor(graph, k);
    Matrix extended;
    const PaddedRows rows(gatherSource(graph, V, extended), firstOwnRow(graph), threads);
    const Stored S(graph.S);
    plus.resize(n, k);
    minus.resize(n, k);
    std::vector<double> share(static_cast<std::size_t>(n));
    const Index blocks = (n + kRowBlock - 1) / kRowBlock;
#pragma omp parallel num_threads(threads)
    {
        std::vector<Scalar> sums(static_cast<std::size_t>(rows.width * kRowBlock));
#pragma omp for schedule(static)
        for (Index b = 0; b < blocks; ++b) {
            const Index i0 = b * kRowBlock, len = std::min(kRowBlock, n - i0);
            for (Index r = 0; r < len; ++r) {
                const Index i = i0 + r;
                const double pairs = rowOfSVAndPairs(S, rows, i, sums.data() + r * rows.width);
                share[std::size_t(i)] = shareOfRow(graph, S, rows, i, pairs);
            }
            writeGradientBlock(graph, rows, sums.data(), lambda, i0, len, plus, minus);
        }
    }
    return sumInOrder(share);
}

double GraphTermCache::value(
    const Graph& graph, const Matrix& V, Scalar lambda, std::uint64_t version)
{
    if (!holds(V, lambda, version)) {
        m_value = graphTermsAndValue(graph, V, lambda, m_plus, m_minus);
        m_hasParts = true;
        m_version = version;
        m_lambda = lambda;
        m_rows = V.rows();
        m_valid = true;
    }
    return m_value;
}

void GraphTermCache::parts(const Graph& graph, const Matrix& V, Scalar lambda,
    std::uint64_t version, Matrix& plus, Matrix& minus)
{
    if (holds(V, lambda, version) && m_hasParts) {
        plus = std::move(m_plus);
        minus = std::move(m_minus);
        m_hasParts = false; // the caller's rule is about to change V
        return;
    }
    graphGradientParts(graph, V, lambda, plus, minus);
}

bool GraphTermCache::holds(const Matrix& V, Scalar lambda, std::uint64_t version) const
{
    return m_valid && m_version == version && m_lambda == lambda && m_rows == V.rows();
}

} // namespace facet
