#include "groth16/prover.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "groth16/random.hpp"

namespace cuzk::groth16 {
namespace {

// The first j with a_j·b_j ≠ c_j, on all cores (one multiplication per constraint: 130 M at PoRep
// size is seconds on one core, a fraction of that spread out).
std::optional<size_t> first_unsatisfied_row(const r1cs::Assignment& as) {
  const size_t n = as.a.size();
  const size_t threads =
      std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), n / 65536 + 1));
  std::vector<size_t> first(threads, n);
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (size_t j = n * t / threads, e = n * (t + 1) / threads; j < e; ++j)
        if (as.a[j] * as.b[j] != as.c[j]) {
          first[t] = j;
          return;
        }
    });
  for (auto& th : pool) th.join();
  const size_t j = *std::min_element(first.begin(), first.end());
  return j < n ? std::optional<size_t>(j) : std::nullopt;
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
    return make_error(std::string("assignment: ") + what + " is " + std::to_string(got) +
                      ", the key expects " + std::to_string(want));
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
  if (auto bad = first_unsatisfied_row(as))
    return make_error("assignment: the witness does not satisfy constraint " + std::to_string(*bad) +
                      " (a·b ≠ c)");
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

Result<std::vector<Fr>> compute_h_scalars(const ProvingKey& pk, r1cs::Assignment& as,
                                          ComputeBackend& backend) {
  const size_t n = pk.domain_size;
  for (auto* v : {&as.a, &as.b, &as.c}) v->resize(n, Fr::zero());
  HRequest rq;
  rq.a = as.a;
  rq.b = as.b;
  rq.c = as.c;
  rq.log_n = log2_exact(n);
  rq.convention = pk.convention;
  rq.mode = pk.h_query == HQuery::z_over_delta ? HMode::divide_by_z_on_coset : HMode::odd_coset;
  CUZK_TRY_STATUS(backend.compute_h(rq));
  std::vector<Fr> h = std::move(as.a);
  if (pk.h_query == HQuery::z_over_delta) h.resize(n - 1);  // deg h ≤ n − 2
  as.a = {};
  as.b = {};
  as.c = {};
  return h;
}

Result<Proof> create_proof(const ProvingKey& pk, r1cs::Assignment& as, const ProofRandomness& rs,
                           cpu::ThreadPool& pool) {
  cpu::CpuBackend backend(pool);
  return create_proof(pk, as, rs, backend);
}

Result<Proof> create_proof(const ProvingKey& pk, r1cs::Assignment& as, const ProofRandomness& rs,
                           ComputeBackend& backend) {
  CUZK_TRY_STATUS(check_assignment(pk, as));
  if (pk.vk.delta_g1.is_inf() || pk.vk.delta_g2.is_inf())
    return make_error("proving key: δ is the identity (a subverted key)");

  auto h = compute_h_scalars(pk, as, backend);
  if (!h) return h.error();

  // The five MSMs. Compacted keys pair bases with the wires whose density bit is set; per-wire
  // keys have one base per wire (inputs first), infinity where a wire is absent.
  std::span<const Fr> inputs = as.input_assignment, aux = as.aux_assignment;
  const size_t ni = pk.num_inputs;
  G1Jacobian a_acc, b1_acc;
  G2Jacobian b2_acc;
  auto h_acc = backend.msm(MsmRequest<G1Affine>{pk.h, *h, {}});
  if (!h_acc) return h_acc.error();
  auto l_acc = backend.msm(MsmRequest<G1Affine>{pk.l, aux, {}});
  if (!l_acc) return l_acc.error();
  if (pk.layout == QueryLayout::compacted) {
    const std::span<const G1Affine> a(pk.a), b1(pk.b_g1);
    const std::span<const G2Affine> b2(pk.b_g2);
    const size_t nb_in = as.b_input_density.popcount;
    auto a_in = backend.msm(MsmRequest<G1Affine>{a.first(ni), inputs, {}});
    auto a_aux = backend.msm(MsmRequest<G1Affine>{a.subspan(ni), aux, as.a_aux_density.words});
    auto b1_in = backend.msm(MsmRequest<G1Affine>{b1.first(nb_in), inputs, as.b_input_density.words});
    auto b1_aux = backend.msm(MsmRequest<G1Affine>{b1.subspan(nb_in), aux, as.b_aux_density.words});
    auto b2_in = backend.msm(MsmRequest<G2Affine>{b2.first(nb_in), inputs, as.b_input_density.words});
    auto b2_aux = backend.msm(MsmRequest<G2Affine>{b2.subspan(nb_in), aux, as.b_aux_density.words});
    for (const auto* r : {&a_in, &a_aux, &b1_in, &b1_aux})
      if (!r->ok()) return r->error();
    for (const auto* r : {&b2_in, &b2_aux})
      if (!r->ok()) return r->error();
    a_acc = a_in->add(*a_aux);
    b1_acc = b1_in->add(*b1_aux);
    b2_acc = b2_in->add(*b2_aux);
  } else {
    std::vector<Fr> wires;
    wires.reserve(inputs.size() + aux.size());
    wires.insert(wires.end(), inputs.begin(), inputs.end());
    wires.insert(wires.end(), aux.begin(), aux.end());
    auto a = backend.msm(MsmRequest<G1Affine>{pk.a, wires, {}});
    auto b1 = backend.msm(MsmRequest<G1Affine>{pk.b_g1, wires, {}});
    auto b2 = backend.msm(MsmRequest<G2Affine>{pk.b_g2, wires, {}});
    if (!a) return a.error();
    if (!b1) return b1.error();
    if (!b2) return b2.error();
    a_acc = *a;
    b1_acc = *b1;
    b2_acc = *b2;
  }

  // A = α₁ + A_acc + r·δ₁;  B = β₂ + B2_acc + s·δ₂;
  // C = s·A_acc + r·B1_acc + (r·s)·δ₁ + s·α₁ + r·β₁ + H + L.
  const G1Jacobian alpha(pk.vk.alpha_g1), beta1(pk.vk.beta_g1), delta1(pk.vk.delta_g1);
  const G2Jacobian beta2(pk.vk.beta_g2), delta2(pk.vk.delta_g2);
  const G1Jacobian A = alpha.add(a_acc).add(delta1.mul(rs.r));
  const G2Jacobian B = beta2.add(b2_acc).add(delta2.mul(rs.s));
  const G1Jacobian C = a_acc.mul(rs.s)
                           .add(b1_acc.mul(rs.r))
                           .add(delta1.mul(rs.r * rs.s))
                           .add(alpha.mul(rs.s))
                           .add(beta1.mul(rs.r))
                           .add(*h_acc)
                           .add(*l_acc);
  Proof proof{A.to_affine(), B.to_affine(), C.to_affine()};
  return proof;
}

}  // namespace cuzk::groth16
