#include "cli/fake_key.hpp"

#include <thread>
#include <vector>

namespace cuzk::cli {

groth16::ProvingKey fake_key(const r1cs::Assignment& as, ThreadPool& pool) {
  std::mt19937_64 rng(std::random_device{}());
  const auto g1 = random_points<G1Affine, G1Jacobian>(size_t(1) << 14, rng, pool);
  const auto g2 = random_points<G2Affine, G2Jacobian>(size_t(1) << 12, rng, pool);
  const auto tile = [&](auto& out, size_t n, const auto& pool_points) {
    pool.for_ranges(n, 1 << 16, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) out[i] = pool_points[(i * 7919) % pool_points.size()];
    });
  };
  groth16::ProvingKey pk;
  size_t n = 1;
  while (n < as.a.size()) n *= 2;
  pk.domain_size = n;
  pk.num_inputs = as.input_assignment.size();
  pk.num_aux = as.aux_assignment.size();
  pk.vk.alpha_g1 = g1[0], pk.vk.beta_g1 = g1[1], pk.vk.delta_g1 = g1[2];
  pk.vk.beta_g2 = g2[0], pk.vk.gamma_g2 = g2[1], pk.vk.delta_g2 = g2[2];
  // The arrays are tens of GiB at 2^27; their allocation and zero-fill (page faults included) ran
  // for most of a minute on one thread, so each array is sized on its own thread first.
  const size_t nb = as.b_input_density.popcount + as.b_aux_density.popcount;
  {
    std::vector<std::thread> sizing;
    sizing.emplace_back([&] { pk.vk.ic.resize(pk.num_inputs); });
    sizing.emplace_back([&] { pk.h.resize(n - 1); });
    sizing.emplace_back([&] { pk.l.resize(pk.num_aux); });
    sizing.emplace_back([&] { pk.a.resize(pk.num_inputs + as.a_aux_density.popcount); });
    sizing.emplace_back([&] { pk.b_g1.resize(nb); });
    sizing.emplace_back([&] { pk.b_g2.resize(nb); });
    for (auto& t : sizing) t.join();
  }
  tile(pk.vk.ic, pk.vk.ic.size(), g1);
  tile(pk.h, pk.h.size(), g1);
  tile(pk.l, pk.l.size(), g1);
  tile(pk.a, pk.a.size(), g1);
  tile(pk.b_g1, pk.b_g1.size(), g1);
  tile(pk.b_g2, pk.b_g2.size(), g2);
  return pk;
}

}  // namespace cuzk::cli
