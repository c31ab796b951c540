// The host's end of a device MSM: each bucket set's sum from what the device returned, and the sets
// combined, Σ_s 2^(start_s)·R_s with R_s = Σ_j (j + 1)·B_{s,j}. Host code built with the host's
// field arithmetic (mulx/adcx on x86-64-v3, field/mont_x86_64.hpp), which nvcc's host pass does
// not use, and tested on the CPU (tests/backend_cuda/msm_finish_test.cpp).
#pragma once

#include <cstdint>
#include <span>

#include "curve/g1.hpp"
#include "curve/g2.hpp"

namespace cuzk::cuda {

// What a set's points are. With the device's level and subset sums (bits > 0 or device_level):
// per set, bits sums of the A_t whose index t has that bit set, then Σ A_t, then Σ L_t, where
// A_t = Σ_{i<K} B_{tK+i} and L_t = Σ_{i<K} i·B_{tK+i}. Otherwise the set's H buckets themselves.
struct SetFinish {
  bool device_level = false;
  unsigned bits = 0;                // log2(T), T = H / K
  unsigned log2_run = 0;            // log2(K)
  uint32_t per_set = 0;             // points a set: bits + 2, or H
  std::span<const unsigned> start;  // each set's first bit (its lowest window's start)
};

// Σ_s 2^(start_s)·R_s as one Horner pass over the bits, top down: a set's points sit at the
// exponents start_s (Σ L_t, Σ A_t) and start_s + log2 K + k (the sum of bit k), below the next
// set's start, so the whole MSM costs one doubling a bit and one addition a point, where finishing
// each set by its own Horner and then shifting the sets into place doubles twice as often.
template <class Xyzz>
typename Xyzz::jacobian finish_sets(const Xyzz* points, const SetFinish& f);

extern template G1Jacobian finish_sets<G1Xyzz>(const G1Xyzz*, const SetFinish&);
extern template G2Jacobian finish_sets<G2Xyzz>(const G2Xyzz*, const SetFinish&);

}  // namespace cuzk::cuda
