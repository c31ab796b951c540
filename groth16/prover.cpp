#include "groth16/prover.hpp"

#include <string>
#include <vector>

#include "backend/cpu/msm.hpp"
#include "backend/cpu/ntt.hpp"
#include "groth16/random.hpp"

namespace cuzk::groth16 {
namespace {

// Scalars paired with compacted bases: the values of the wires whose density bit is set, in order.
std::vector<Fr> gather_dense(std::span<const Fr> values, const r1cs::DensityBitmap& density) {
  std::vector<Fr> out;
  out.reserve(density.popcount);
  for (size_t i = 0; i < values.size(); ++i)
    if (density.get(i)) out.push_back(values[i]);
  return out;
}

std::vector<Fr> concat(std::span<const Fr> x, std::span<const Fr> y) {
  std::vector<Fr> out;
  out.reserve(x.size() + y.size());
  out.insert(out.end(), x.begin(), x.end());
  out.insert(out.end(), y.begin(), y.end());
  return out;
}

unsigned log2_exact(size_t n) {
  unsigned k = 0;
  while ((size_t(1) << k) < n) ++k;
  return k;
}

}  // namespace

ProofRandomness ProofRandomness::fresh() {
  FieldRng rng;
  return {rng.next_fr(), rng.next_fr()};
}

ProofRandomness ProofRandomness::from_seed(uint64_t seed) {
  FieldRng rng(seed);
  return {rng.next_fr(), rng.next_fr()};
}

Status check_assignment(const ProvingKey& pk, const r1cs::Assignment& as) {
  CUZK_TRY_STATUS(pk.check_shape());
  const auto mismatch = [](const char* what, size_t got, size_t want) {
    return make_error(std::string("assignment: ") + what + " is " + std::to_string(got) + ", the key expects " +
                      std::to_string(want));
  };
  if (as.input_assignment.size() != pk.num_inputs)
    return mismatch("the number of public inputs (with ONE)", as.input_assignment.size(), pk.num_inputs);
  if (as.aux_assignment.size() != pk.num_aux)
    return mismatch("the number of auxiliary values", as.aux_assignment.size(), pk.num_aux);
  if (as.a.size() != as.b.size() || as.a.size() != as.c.size())
    return make_error("assignment: a, b and c have different lengths");
  if (as.a.size() > pk.domain_size) return mismatch("the number of constraints", as.a.size(), pk.domain_size);
  // R1CS satisfaction is a_j·b_j = c_j on the evaluations: checked here, before any proving work,
  // so that a bad witness is reported as such instead of as a proof that fails to verify.
  for (size_t j = 0; j < as.a.size(); ++j)
    if (as.a[j] * as.b[j] != as.c[j])
      return make_error("assignment: the witness does not satisfy constraint " + std::to_string(j) + " (a·b ≠ c)");
  if (pk.layout == QueryLayout::compacted) {
    if (as.a_aux_density.bit_len != pk.num_aux || as.b_aux_density.bit_len != pk.num_aux ||
        as.b_input_density.bit_len != pk.num_inputs)
      return make_error("assignment: density bitmaps do not cover the wires of the key");
    if (pk.num_inputs + as.a_aux_density.popcount != pk.a.size())
      return mismatch("the A density (inputs + set aux bits)", pk.num_inputs + as.a_aux_density.popcount,
                      pk.a.size());
    if (as.b_input_density.popcount + as.b_aux_density.popcount != pk.b_g1.size())
      return mismatch("the B density (set bits)", as.b_input_density.popcount + as.b_aux_density.popcount,
                      pk.b_g1.size());
  }
  return Status::Ok();
}

Result<std::vector<Fr>> compute_h_scalars(const ProvingKey& pk, r1cs::Assignment& as, cpu::ThreadPool& pool) {
  const size_t n = pk.domain_size;
  auto domain = cpu::NttDomain::create(log2_exact(n), pk.convention, pool);
  if (!domain) return domain.error();
  for (auto* v : {&as.a, &as.b, &as.c}) {
    v->resize(n, Fr::zero());
    // Evaluations on the domain → coefficients → evaluations on the coset (g·ω^j or ω_2m·ω^j).
    CUZK_TRY_STATUS(domain->inverse(*v, pool));
    CUZK_TRY_STATUS(domain->coset_forward(*v, pool));
  }
  std::vector<Fr>& q = as.a;
  if (pk.h_query == HQuery::z_over_delta) {
    // Z is constant on the coset: Z(g·ω^j) = g^n − 1.
    const Fr z_inv = (domain->coset_shift().pow(uint64_t(n)) - Fr::one()).inverse();
    pool.for_ranges(n, 4096, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) q[i] = (q[i] * as.b[i] - as.c[i]) * z_inv;
    });
    CUZK_TRY_STATUS(domain->coset_inverse(q, pool));
    q.resize(n - 1);  // deg h ≤ n − 2
  } else {
    pool.for_ranges(n, 4096, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) q[i] = q[i] * as.b[i] - as.c[i];
    });
  }
  std::vector<Fr> h = std::move(q);
  as.a.clear();
  as.b = {};
  as.c = {};
  return h;
}

Result<Proof> create_proof(const ProvingKey& pk, r1cs::Assignment& as, const ProofRandomness& rs,
                           cpu::ThreadPool& pool) {
  CUZK_TRY_STATUS(check_assignment(pk, as));
  if (pk.vk.delta_g1.is_inf() || pk.vk.delta_g2.is_inf())
    return make_error("proving key: δ is the identity (a subverted key)");

  auto h = compute_h_scalars(pk, as, pool);
  if (!h) return h.error();

  // Scalars for the A and B queries, in the order of their bases.
  std::vector<Fr> a_scalars, b_scalars;
  if (pk.layout == QueryLayout::compacted) {
    a_scalars = concat(as.input_assignment, gather_dense(as.aux_assignment, as.a_aux_density));
    b_scalars = concat(gather_dense(as.input_assignment, as.b_input_density),
                       gather_dense(as.aux_assignment, as.b_aux_density));
  } else {
    a_scalars = concat(as.input_assignment, as.aux_assignment);
    b_scalars = a_scalars;
  }

  auto h_acc = cpu::msm_g1(pk.h, *h, pool);
  auto l_acc = cpu::msm_g1(pk.l, as.aux_assignment, pool);
  auto a_acc = cpu::msm_g1(pk.a, a_scalars, pool);
  auto b1_acc = cpu::msm_g1(pk.b_g1, b_scalars, pool);
  auto b2_acc = cpu::msm_g2(pk.b_g2, b_scalars, pool);
  for (const Status* st : {&h_acc.status, &l_acc.status, &a_acc.status, &b1_acc.status, &b2_acc.status})
    if (!st->ok()) return st->error();

  // A = α₁ + A_acc + r·δ₁;  B = β₂ + B2_acc + s·δ₂;
  // C = s·A_acc + r·B1_acc + (r·s)·δ₁ + s·α₁ + r·β₁ + H + L.
  const G1Jacobian alpha(pk.vk.alpha_g1), beta1(pk.vk.beta_g1), delta1(pk.vk.delta_g1);
  const G2Jacobian beta2(pk.vk.beta_g2), delta2(pk.vk.delta_g2);
  const G1Jacobian A = alpha.add(a_acc.point).add(delta1.mul(rs.r));
  const G2Jacobian B = beta2.add(b2_acc.point).add(delta2.mul(rs.s));
  const G1Jacobian C = a_acc.point.mul(rs.s)
                           .add(b1_acc.point.mul(rs.r))
                           .add(delta1.mul(rs.r * rs.s))
                           .add(alpha.mul(rs.s))
                           .add(beta1.mul(rs.r))
                           .add(h_acc.point)
                           .add(l_acc.point);
  Proof proof{A.to_affine(), B.to_affine(), C.to_affine()};
  return proof;
}

}  // namespace cuzk::groth16
