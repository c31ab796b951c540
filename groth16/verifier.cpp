#include "groth16/verifier.hpp"

#include <string>

#include "backend/cpu/msm.hpp"
#include "curve/pairing/pairing.hpp"
#include "groth16/random.hpp"

namespace cuzk::groth16 {
namespace {

template <class A>
bool valid_point(const A& p) {
  return p.is_on_curve() && p.in_subgroup();
}

Status check_proof_points(const Proof& proof) {
  if (proof.a.is_inf() || proof.b.is_inf() || proof.c.is_inf())
    return make_error("verify: proof has a point at infinity");
  if (!valid_point(proof.a) || !valid_point(proof.c))
    return make_error("verify: proof G1 point is not in G1");
  if (!valid_point(proof.b)) return make_error("verify: proof G2 point is not in G2");
  return Status::Ok();
}

// IC_0 + Σ x_i·IC_{i+1}, by the CPU's MSM: a WindowPoSt partition has 25,840 inputs, which one
// scalar multiplication at a time would take seconds, longer than its proof.
Result<G1Jacobian> input_commitment(const VerifyingKey& vk, std::span<const Fr> inputs) {
  if (inputs.size() + 1 != vk.ic.size())
    return make_error("verify: the key takes " + std::to_string(vk.ic.size() - 1) + " public inputs, got " +
                      std::to_string(inputs.size()));
  auto sum = cpu::msm<G1Affine>(std::span<const G1Affine>(vk.ic).subspan(1), inputs);
  if (!sum) return sum.error();
  return sum->add(G1Jacobian(vk.ic[0]));
}

}  // namespace

Result<PreparedVerifyingKey> prepare_verifying_key(const VerifyingKey& vk) {
  if (vk.ic.empty()) return make_error("verifying key: no IC points");
  // δ₁ and β₁ play no part in verification (a snarkjs verification_key.json does not even carry
  // them); γ₂ and δ₂ must not be the identity, or any proof would pass.
  if (vk.gamma_g2.is_inf() || vk.delta_g2.is_inf()) return make_error("verifying key: γ₂ or δ₂ is the identity");
  const bool g1_ok = valid_point(vk.alpha_g1) && valid_point(vk.beta_g1) && valid_point(vk.delta_g1);
  const bool g2_ok = valid_point(vk.beta_g2) && valid_point(vk.gamma_g2) && valid_point(vk.delta_g2);
  if (!g1_ok || !g2_ok) return make_error("verifying key: a point is not in its group");
  for (const auto& p : vk.ic)
    if (!valid_point(p)) return make_error("verifying key: an IC point is not in G1");
  PreparedVerifyingKey pvk;
  pvk.vk = vk;
  pvk.alpha_beta = pairing(vk.alpha_g1, vk.beta_g2);
  pvk.neg_gamma_g2 = vk.gamma_g2.neg();
  pvk.neg_delta_g2 = vk.delta_g2.neg();
  return pvk;
}

Result<bool> verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> inputs) {
  CUZK_TRY_STATUS(check_proof_points(proof));
  auto acc = input_commitment(pvk.vk, inputs);
  if (!acc) return acc.error();
  const PairingInput pairs[] = {
      {proof.a, proof.b}, {acc->to_affine(), pvk.neg_gamma_g2}, {proof.c, pvk.neg_delta_g2}};
  return final_exponentiation(multi_miller_loop(pairs)) == pvk.alpha_beta;
}

Result<bool> verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                                 std::span<const std::vector<Fr>> inputs, std::optional<uint64_t> seed) {
  if (proofs.size() != inputs.size())
    return make_error("verify: " + std::to_string(proofs.size()) + " proofs but " +
                      std::to_string(inputs.size()) + " input sets");
  if (proofs.empty()) return true;
  if (proofs.size() == 1) return verify_proof(pvk, proofs[0], inputs[0]);

  FieldRng rng(seed);
  std::vector<PairingInput> pairs;
  pairs.reserve(proofs.size() + 3);
  G1Jacobian acc_sum = G1Jacobian::infinity(), c_sum = G1Jacobian::infinity();
  Fr z_sum = Fr::zero();
  for (size_t j = 0; j < proofs.size(); ++j) {
    CUZK_TRY_STATUS(check_proof_points(proofs[j]));
    auto acc = input_commitment(pvk.vk, inputs[j]);
    if (!acc) return acc.error();
    uint64_t z_limbs[Fr::N] = {rng.next_u64(), rng.next_u64() | 1, 0, 0};  // 128-bit, nonzero
    const Fr z = Fr::from_canonical(z_limbs);
    z_sum += z;
    pairs.push_back({G1Jacobian(proofs[j].a).mul(z_limbs, 2).to_affine(), proofs[j].b.neg()});
    acc_sum = acc_sum.add(acc->mul(z_limbs, 2));
    c_sum = c_sum.add(G1Jacobian(proofs[j].c).mul(z_limbs, 2));
  }
  // Π e(z_j·A_j, −B_j) · e(Σ z_j·acc_j, γ) · e(Σ z_j·C_j, δ) · e((Σ z_j)·α, β) = 1.
  pairs.push_back({acc_sum.to_affine(), pvk.vk.gamma_g2});
  pairs.push_back({c_sum.to_affine(), pvk.vk.delta_g2});
  pairs.push_back({G1Jacobian(pvk.vk.alpha_g1).mul(z_sum).to_affine(), pvk.vk.beta_g2});
  return pairing_product_is_one(pairs);
}

}  // namespace cuzk::groth16
