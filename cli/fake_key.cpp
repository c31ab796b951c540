#include "cli/fake_key.hpp"

namespace cuzk::cli {

groth16::ProvingKey fake_key(const r1cs::Assignment& as, cpu::ThreadPool& pool) {
  std::mt19937_64 rng(std::random_device{}());
  const auto g1 = random_points<G1Affine, G1Jacobian>(size_t(1) << 14, rng, pool);
  const auto g2 = random_points<G2Affine, G2Jacobian>(size_t(1) << 12, rng, pool);
  const auto tile = [&](auto& out, size_t n, const auto& pool_points) {
    out.resize(n);
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
  tile(pk.vk.ic, pk.num_inputs, g1);
  tile(pk.h, n - 1, g1);
  tile(pk.l, pk.num_aux, g1);
  tile(pk.a, pk.num_inputs + as.a_aux_density.popcount, g1);
  tile(pk.b_g1, as.b_input_density.popcount + as.b_aux_density.popcount, g1);
  tile(pk.b_g2, pk.b_g1.size(), g2);
  return pk;
}

}  // namespace cuzk::cli
