// Multi-scalar multiplication on the CPU for G1 and G2: Σ s_i·P_i.
//
// Scalars are Fr in Montgomery form, the representation the prover already holds (bellperson and
// supraseal pass blst_fr limbs the same way); they are converted to canonical integers once, here.
// Bases are affine with the all-zero infinity, and may repeat or be infinity.
//
// Scalars 0 are skipped and scalars 1 go to a batch addition (affine additions sharing one
// inversion per round, Montgomery's trick); the rest go to Pippenger's bucket method with signed
// (Booth) digits of c bits, so a window needs 2^(c-1) buckets, negation being free. Large windows
// keep affine buckets and add into them in batches sharing one inversion; small ones use XYZZ
// buckets. Work is split into (window, slice of points) tasks on the ThreadPool.
//
// Density (bellperson semantics, formats.md §3.1): variable i is present iff bit i%64 of word i/64
// is set, and bases are density-compacted: the j-th present scalar pairs with bases[j].
#pragma once

#include <cstdint>
#include <span>

#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fields.hpp"

namespace cuzk::cpu {

struct MsmOptions {
  unsigned window_bits = 0;  // Pippenger window c; 0 picks one from the number of points
  bool split_binary = true;  // send scalars equal to 1 to the batch addition
  bool batch_affine = true;  // affine buckets with batched inversions (windows of >= 512 buckets)
};

// Σ scalars[i]·bases[i]; bases.size() must equal scalars.size().
template <class Affine>
Result<curve::jacobian_t<typename Affine::field, typename Affine::params>> msm(
    std::span<const Affine> bases, std::span<const Fr> scalars, ThreadPool& pool = ThreadPool::shared(),
    const MsmOptions& options = {});

// Σ over present i of scalars[i]·bases[rank(i)], where rank(i) counts the present variables below
// i. density must hold at least ceil(scalars.size() / 64) words (bits past the end are ignored) and
// bases.size() must equal the number of present variables.
template <class Affine>
Result<curve::jacobian_t<typename Affine::field, typename Affine::params>> msm(
    std::span<const Affine> bases, std::span<const Fr> scalars, std::span<const uint64_t> density,
    ThreadPool& pool = ThreadPool::shared(), const MsmOptions& options = {});

// Σ bases[i], by rounds of affine additions that share one inversion (the 0/1-scalar fast path).
template <class Affine>
curve::jacobian_t<typename Affine::field, typename Affine::params> sum_points(
    std::span<const Affine> bases, ThreadPool& pool = ThreadPool::shared());

// The window the MSM picks for n non-trivial scalars (exposed for tests and benchmarks).
unsigned msm_window_bits(size_t n);

extern template Result<G1Jacobian> msm<G1Affine>(std::span<const G1Affine>, std::span<const Fr>, ThreadPool&,
                                                 const MsmOptions&);
extern template Result<G2Jacobian> msm<G2Affine>(std::span<const G2Affine>, std::span<const Fr>, ThreadPool&,
                                                 const MsmOptions&);
extern template Result<G1Jacobian> msm<G1Affine>(std::span<const G1Affine>, std::span<const Fr>,
                                                 std::span<const uint64_t>, ThreadPool&, const MsmOptions&);
extern template Result<G2Jacobian> msm<G2Affine>(std::span<const G2Affine>, std::span<const Fr>,
                                                 std::span<const uint64_t>, ThreadPool&, const MsmOptions&);
extern template G1Jacobian sum_points<G1Affine>(std::span<const G1Affine>, ThreadPool&);
extern template G2Jacobian sum_points<G2Affine>(std::span<const G2Affine>, ThreadPool&);

}  // namespace cuzk::cpu
