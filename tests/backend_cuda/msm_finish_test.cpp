// The device MSM's host finish (backend/cuda/msm/finish.hpp), on the CPU: bucket sets with known
// discrete logs, given as the device returns them (the buckets themselves, or the level's and the
// subset sums' points), against [Σ_s 2^(start_s)·Σ_j (j + 1)·k_{s,j}]G.
#include "backend/cuda/msm/finish.hpp"

#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace cuzk::cuda {
namespace {

// Buckets B_{s,j} = [k_{s,j}]G, some infinity (k = 0) and some repeated (equal inputs to an addition).
template <class Xyzz>
struct Sets {
  std::vector<Xyzz> buckets;  // S × H
  Fr want = Fr::zero();       // the discrete log of the finish
};

template <class Xyzz>
Sets<Xyzz> random_sets(std::mt19937_64& rng, const std::vector<unsigned>& start, uint32_t H) {
  using J = typename Xyzz::jacobian;
  Sets<Xyzz> r;
  const J g = J::generator();
  for (size_t s = 0; s < start.size(); ++s) {
    Fr shift = Fr::one();
    for (unsigned d = 0; d < start[s]; ++d) shift = shift + shift;
    for (uint32_t j = 0; j < H; ++j) {
      const unsigned kind = rng() % 8;
      const uint64_t k = kind == 0 ? 0 : kind == 1 ? 7 : rng() >> 1;  // infinity, a repeat, uniform
      const Fr kf = Fr::from_u64(k);
      r.buckets.push_back(Xyzz(g.mul(kf)));
      r.want = r.want + shift * Fr::from_u64(j + 1) * kf;
    }
  }
  return r;
}

// What the device returns for one set of H buckets after its level (runs of K) and subset sums.
template <class Xyzz>
std::vector<Xyzz> subset_sums(const Xyzz* b, uint32_t H, uint32_t K) {
  const uint32_t T = H / K;
  const unsigned bits = unsigned(std::bit_width(T) - 1);
  std::vector<Xyzz> A(T, Xyzz::infinity()), L(T, Xyzz::infinity());
  for (uint32_t t = 0; t < T; ++t)
    for (uint32_t i = 0; i < K; ++i) {
      A[t] = A[t].add(b[t * K + i]);
      for (uint32_t w = 0; w < i; ++w) L[t] = L[t].add(b[t * K + i]);
    }
  std::vector<Xyzz> out(bits + 2, Xyzz::infinity());
  for (uint32_t t = 0; t < T; ++t) {
    for (unsigned k = 0; k < bits; ++k)
      if (t >> k & 1) out[k] = out[k].add(A[t]);
    out[bits] = out[bits].add(A[t]);
    out[bits + 1] = out[bits + 1].add(L[t]);
  }
  return out;
}

template <class Xyzz>
void check_buckets(unsigned seed) {
  std::mt19937_64 rng(seed);
  // Sets of 5-bit windows, the top one narrower, as the device lays them out.
  const std::vector<unsigned> start = {0, 5, 10, 15, 19};
  const uint32_t H = 16;
  const auto sets = random_sets<Xyzz>(rng, start, H);
  const SetFinish f{false, 0, 0, H, start};
  EXPECT_EQ(finish_sets(sets.buckets.data(), f), Xyzz::jacobian::generator().mul(sets.want)) << seed;
}

template <class Xyzz>
void check_subset_sums(unsigned seed, uint32_t H, uint32_t K) {
  std::mt19937_64 rng(seed);
  const unsigned c = unsigned(std::bit_width(H));  // H = 2^(c − 1)
  const std::vector<unsigned> start = {0, c, 2 * c, 3 * c - 1};
  const auto sets = random_sets<Xyzz>(rng, start, H);
  std::vector<Xyzz> points;
  for (size_t s = 0; s < start.size(); ++s) {
    const auto x = subset_sums(sets.buckets.data() + s * H, H, K);
    points.insert(points.end(), x.begin(), x.end());
  }
  const unsigned bits = unsigned(std::bit_width(H / K) - 1);
  const SetFinish f{true, bits, unsigned(std::bit_width(K) - 1), bits + 2, start};
  EXPECT_EQ(finish_sets(points.data(), f), Xyzz::jacobian::generator().mul(sets.want))
      << seed << " H " << H << " K " << K;
}

TEST(MsmFinish, BucketsSummedOnTheHost) {
  for (unsigned seed = 1; seed <= 3; ++seed) check_buckets<G1Xyzz>(seed);
  check_buckets<G2Xyzz>(4);
}

TEST(MsmFinish, LevelAndSubsetSums) {
  // T = H / K from 1 (no bit sums) to 16, runs of 1 to 16.
  for (const auto& [H, K] : {std::pair{64u, 16u}, {64u, 64u}, {128u, 8u}, {64u, 4u}, {32u, 2u}})
    check_subset_sums<G1Xyzz>(H * 100 + K, H, K);
  check_subset_sums<G2Xyzz>(7, 64, 16);
}

TEST(MsmFinish, AllInfinity) {
  const std::vector<unsigned> start = {0, 8};
  std::vector<G1Xyzz> points(2 * 6, G1Xyzz::infinity());
  const SetFinish f{true, 4, 4, 6, start};
  EXPECT_TRUE(finish_sets(points.data(), f).is_inf());
}

}  // namespace
}  // namespace cuzk::cuda
