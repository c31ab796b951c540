// Random curve points and keys made of them, for benchmarks at sizes where a real setup would take
// hours (`cuzk bench prove --fake-key`, `cuzk bench engine`). Such a key's proofs do not verify.
#pragma once

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "cli/random.hpp"
#include "common/thread_pool.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::cli {

// n distinct points, cheaply: a random start and random steps, P_i = P_{i-1} + Q_{i mod 16}.
template <class Affine, class Jacobian>
std::vector<Affine> random_points(size_t n, std::mt19937_64& rng, ThreadPool& pool) {
  Jacobian steps[16];
  for (auto& q : steps) q = Jacobian(Affine::generator()).mul(random_element<Fr>(rng));
  std::vector<Affine> out(n);
  const size_t chunks = std::max<size_t>(1, pool.size());
  pool.run(chunks, [&](size_t c) {
    const size_t b = n * c / chunks, e = n * (c + 1) / chunks;
    std::vector<Jacobian> tmp(e - b);
    Jacobian p = Jacobian(Affine::generator()).mul(Fr::from_u64(c + 1)).add(steps[c % 16]);
    for (size_t i = b; i < e; ++i) {
      p = p.add(steps[i % 16]);
      tmp[i - b] = p;
    }
    curve::batch_to_affine(tmp.data(), out.data() + b, tmp.size());
  });
  return out;
}

// A key of the circuit's shape made of random points (tiled from a small pool): for timing the
// prover at sizes where a real setup would take hours. Its proofs do not verify.
groth16::ProvingKey fake_key(const r1cs::Assignment& as, ThreadPool& pool);

}  // namespace cuzk::cli
