#include "groth16/prover.hpp"

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cpu/sparse_rows.hpp"
#include "groth16/random.hpp"
#include "r1cs/compiled/evaluate.hpp"

namespace cuzk::groth16 {

Status check_assignment_shape(const ProvingKey& pk, const r1cs::Assignment& as) {
  CUZK_TRY_STATUS(pk.check_shape());
  const auto mismatch = [](const char* what, size_t got, size_t want) {
    return make_error(std::string("assignment: ") + what + " is " + std::to_string(got) +
                      ", the key expects " + std::to_string(want));
  };
  if (as.input_assignment.size() != pk.num_inputs)
    return mismatch("the number of public inputs (with ONE)", as.input_assignment.size(), pk.num_inputs);
  if (as.aux_assignment.size() != pk.num_aux)
    return mismatch("the number of auxiliary values", as.aux_assignment.size(), pk.num_aux);
  if (as.witness_only()) {
    if (!as.compiled)
      return make_error("assignment: a witness without the compiled circuit that gives its a, b, c");
    // `a` may be sized already: it only receives h.
    if (!as.b.empty() || !as.c.empty() || as.a.size() > pk.domain_size)
      return make_error("assignment: a witness-only assignment holds b or c, or an a larger than the domain");
    if (as.compiled->num_rows() != as.witness_rows ||
        as.compiled->num_inputs() != as.input_assignment.size() ||
        as.compiled->num_aux() != as.aux_assignment.size())
      return make_error("assignment: the witness does not have its compiled circuit's shape");
  } else {
    if (as.a.size() != as.b.size()) return make_error("assignment: a and b have different lengths");
    if (as.c_from_ab ? !as.c.empty() : as.c.size() != as.a.size())
      return make_error(as.c_from_ab ? "assignment: c is given but marked as formed from a·b"
                                     : "assignment: c's length differs from a's and b's");
  }
  if (as.num_constraints() > pk.domain_size)
    return mismatch("the number of constraints", as.num_constraints(), pk.domain_size);
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

namespace {

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

Status fill_deferred_witness(r1cs::Assignment& as, ComputeBackend& backend) {
  if (!as.deferred) return Status::Ok();
  if (!as.witness_only()) return make_error("assignment: a deferred witness in an assignment with its rows");
  if (as.aux_assignment.size() != as.deferred->num_aux())
    return make_error("assignment: " + std::to_string(as.aux_assignment.size()) + " aux values for " +
                      as.deferred->describe() + " of " + std::to_string(as.deferred->num_aux()));
  CUZK_TRY_STATUS(backend.fill_witness(*as.deferred, as.input_assignment, as.aux_assignment));
  as.deferred.reset();
  return Status::Ok();
}

Status compute_h_in_place(const ProvingKey& pk, r1cs::Assignment& as, ComputeBackend& backend,
                          size_t check_rows, bool keep_on_device) {
  const size_t n = pk.domain_size;
  CUZK_TRY_STATUS(fill_deferred_witness(as, backend));
  std::optional<CompiledRows> rows;
  if (as.witness_only()) {
    if (!as.compiled) return make_error("assignment: a witness without its compiled circuit");
    rows = r1cs::compiled_rows(*as.compiled, as.input_assignment, as.aux_assignment);
    as.a.resize(n);
    if (backend.evaluates_compiled_rows()) {
      check_rows = 0;
    } else {
      // A backend without the sparse product: a, b (and c) formed here first.
      as.b.resize(n);
      as.c_from_ab = !rows->matrices.has_c();
      as.c.resize(as.c_from_ab ? 0 : n);
      CUZK_TRY_STATUS(cpu::evaluate_rows(*rows, as.a, as.b, as.c, ThreadPool::shared()));
      rows.reset();
    }
  } else {
    for (auto* v : {&as.a, &as.b}) v->resize(n, Fr::zero());
    if (!as.c_from_ab) as.c.resize(n, Fr::zero());
  }
  HRequest rq;
  rq.rows = rows ? &*rows : nullptr;
  rq.a = as.a;
  rq.b = as.b;
  rq.c = as.c;
  rq.c_from_ab = as.c_from_ab;
  if (as.c_from_ab || rows) check_rows = 0;  // c is a∘b, or the rows are formed by the backend
  rq.log_n = log2_exact(n);
  rq.convention = pk.convention;
  rq.mode = pk.h_query == HQuery::z_over_delta ? HMode::divide_by_z_on_coset : HMode::odd_coset;
  rq.check_rows = check_rows;
  rq.keep_on_device = keep_on_device;
  CUZK_TRY_STATUS(backend.compute_h(rq));
  if (pk.h_query == HQuery::z_over_delta) as.a.resize(n - 1);  // deg h ≤ n − 2
  as.b.clear();
  as.c.clear();
  return Status::Ok();
}

Result<Proof> create_proof(const ProvingKey& pk, r1cs::Assignment& as, const ProofRandomness& rs,
                           ThreadPool& pool) {
  cpu::CpuBackend backend(pool);
  return create_proof(pk, as, rs, backend);
}

Result<Proof> create_proof(const ProvingKey& pk, r1cs::Assignment& as, const ProofRandomness& rs,
                           ComputeBackend& backend, const ProveOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto t_start = clock::now();
  auto t_stage = t_start;
  ProofTimings local;
  ProofTimings& tm = options.timings ? *options.timings : local;
  tm = {};
  const auto lap = [&](double& into) {
    const auto now = clock::now();
    into = std::chrono::duration<double, std::milli>(now - t_stage).count();
    t_stage = now;
  };
  CUZK_TRY_STATUS(check_assignment_shape(pk, as));
  if (pk.vk.delta_g1.is_inf() || pk.vk.delta_g2.is_inf())
    return make_error("proving key: δ is the identity (a subverted key)");
  lap(tm.check_ms);
  // a·b = c is checked by the backend before it transforms the vectors (on the device where it has
  // them there), unless the caller has checked the rows already.
  const size_t rows = as.num_constraints();
  // The H query is the next call (msm_batch's first request), so h may stay on the device.
  const Status h = compute_h_in_place(pk, as, backend, options.rows_checked ? 0 : rows, true);
  CUZK_TRY_STATUS(h);
  lap(tm.h_ms);

  // The five MSMs. Compacted keys pair bases with the wires whose density bit is set; per-wire
  // keys have one base per wire (inputs first), infinity where a wire is absent.
  std::span<const Fr> inputs = as.input_assignment, aux = as.aux_assignment;
  const size_t ni = pk.num_inputs;
  MsmBatch batch;
  batch.g1.push_back({pk.h, as.a, {}});
  batch.g1.push_back({pk.l, aux, {}});
  std::vector<Fr> wires;  // per-wire keys: inputs then aux, one scalar per base
  if (pk.layout == QueryLayout::compacted) {
    const std::span<const G1Affine> a(pk.a), b1(pk.b_g1);
    const std::span<const G2Affine> b2(pk.b_g2);
    const size_t nb_in = as.b_input_density.popcount;
    batch.g1.push_back({a.first(ni), inputs, {}});
    batch.g1.push_back({a.subspan(ni), aux, as.a_aux_density.words});
    batch.g1.push_back({b1.first(nb_in), inputs, as.b_input_density.words});
    batch.g1.push_back({b1.subspan(nb_in), aux, as.b_aux_density.words});
    batch.g2.push_back({b2.first(nb_in), inputs, as.b_input_density.words});
    batch.g2.push_back({b2.subspan(nb_in), aux, as.b_aux_density.words});
  } else {
    wires.reserve(inputs.size() + aux.size());
    wires.insert(wires.end(), inputs.begin(), inputs.end());
    wires.insert(wires.end(), aux.begin(), aux.end());
    batch.g1.push_back({pk.a, wires, {}});
    batch.g1.push_back({pk.b_g1, wires, {}});
    batch.g2.push_back({pk.b_g2, wires, {}});
  }
  // a, b and c were spent by compute_h (h is on the device, or in a, which is the H query's
  // scalars); aux feeds the other queries. So once the batch has read its host scalars, none of
  // the four is read again. (The per-wire layout copied the wires into `wires`.)
  batch.host_scalars_read = options.inputs_consumed;
  auto msms = backend.msm_batch(batch);
  if (!msms) return msms.error();
  lap(tm.msm_ms);
  const auto& g1 = msms->g1;
  const auto& g2 = msms->g2;
  if (g1.size() != batch.g1.size() || g2.size() != batch.g2.size())
    return make_error(backend.name() + ": msm_batch returned " + std::to_string(g1.size() + g2.size()) +
                      " results for " + std::to_string(batch.g1.size() + batch.g2.size()) + " requests");
  const G1Jacobian h_acc = g1[0], l_acc = g1[1];
  G1Jacobian a_acc, b1_acc;
  G2Jacobian b2_acc;
  if (pk.layout == QueryLayout::compacted) {
    a_acc = g1[2].add(g1[3]);
    b1_acc = g1[4].add(g1[5]);
    b2_acc = g2[0].add(g2[1]);
  } else {
    a_acc = g1[2];
    b1_acc = g1[3];
    b2_acc = g2[0];
  }

  // A = α₁ + A_acc + r·δ₁;  B = β₂ + B2_acc + s·δ₂;
  // C = s·A_acc + r·B1_acc + (r·s)·δ₁ + s·α₁ + r·β₁ + H + L = s·A + r·(B1_acc + β₁) + H + L,
  // which takes three G1 scalar multiplications instead of five (the host's share of a small
  // proof, such as a WinningPoSt's, where it is a few percent of the whole).
  const G1Jacobian alpha(pk.vk.alpha_g1), beta1(pk.vk.beta_g1), delta1(pk.vk.delta_g1);
  const G2Jacobian beta2(pk.vk.beta_g2), delta2(pk.vk.delta_g2);
  const G1Jacobian A = alpha.add(a_acc).add(delta1.mul(rs.r));
  const G2Jacobian B = beta2.add(b2_acc).add(delta2.mul(rs.s));
  const G1Jacobian C = A.mul(rs.s).add(b1_acc.add(beta1).mul(rs.r)).add(h_acc).add(l_acc);
  Proof proof{A.to_affine(), B.to_affine(), C.to_affine()};
  lap(tm.assemble_ms);
  tm.total_ms = std::chrono::duration<double, std::milli>(clock::now() - t_start).count();
  return proof;
}

}  // namespace cuzk::groth16
