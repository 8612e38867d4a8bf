// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

namespace facet {

// The sum of a SIMD packet's lanes, for the dot and graph kernels' accumulators: Eigen's predux,
// and for the 512-bit packets a fold to half width (one extract and one add) before it. This
// replaced a store of the lanes and a scalar loop over them (16 dependent adds for 16 floats),
// which took a fifth of the float dot kernel's time on cache-resident sets (k = 10-40, one thread:
// X^T M at 153-187 -> 168-209 GFLOP/s; double unchanged within the noise). It also stays clear of
// the AVX-512 form of predux, which trips GCC 12's -Wuninitialized inside avx512fintrin.h. The
// lanes are added in one fixed order, so a kernel's result is still the same for the same input.
template <class Packet>
typename Eigen::internal::unpacket_traits<Packet>::type sumOfLanes(const Packet& p)
{
    return Eigen::internal::predux(p);
}

#ifdef EIGEN_VECTORIZE_AVX512
// The AVX-512 packets, folded with the zero-masked extract for both halves: the unmasked one
// (Eigen's predux_half_dowto4, and GCC 12's own cast to the low half) has an "undefined"
// pass-through operand that GCC 12 reports as uninitialized.
inline double sumOfLanes(const Eigen::internal::Packet8d& p)
{
    const __m256d low = _mm512_maskz_extractf64x4_pd(0xFF, p, 0);
    const __m256d high = _mm512_maskz_extractf64x4_pd(0xFF, p, 1);
    return Eigen::internal::predux(Eigen::internal::Packet4d(_mm256_add_pd(low, high)));
}

inline float sumOfLanes(const Eigen::internal::Packet16f& p)
{
    const __m512d bits = _mm512_castps_pd(p);
    const __m256 low = _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xFF, bits, 0));
    const __m256 high = _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xFF, bits, 1));
    return Eigen::internal::predux(Eigen::internal::Packet8f(_mm256_add_ps(low, high)));
}
#endif

} // namespace facet
