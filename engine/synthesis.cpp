#include "engine/synthesis.hpp"

#include <memory>
#include <optional>

#include "groth16/prover.hpp"
#include "groth16/zkey_assignment.hpp"
#include "io/r1cs_convert.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "r1cs/circuits/synthetic.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::engine {
namespace {

Result<r1cs::Assignment> from_sample(const SampleInput& in, unsigned threads) {
  auto circuit = r1cs::make_sample_circuit(in.spec);
  if (!circuit) return circuit.error();
  if (const auto* synthetic = dynamic_cast<const r1cs::SyntheticCircuit*>(circuit->get()))
    return synthetic->synthesize_assignment(threads);
  return r1cs::synthesize_for_proving(**circuit);
}

Result<r1cs::Assignment> from_circom(const CircomInput& in, const ParamSet& params, unsigned threads) {
  auto wtns = read_wtns(in.wtns_path);
  if (!wtns) return wtns.error();
  std::optional<SnarkjsR1cs> cs;
  if (!in.r1cs_path.empty()) {
    auto parsed = read_r1cs(in.r1cs_path);
    if (!parsed) return parsed.error();
    cs = std::move(*parsed);
  }
  if (params.zkey_matrices)
    return groth16::assignment_from_zkey(*params.zkey_matrices, wtns->values, cs ? &*cs : nullptr);
  if (!cs) return make_error("a circom witness proved with bellman parameters needs the circuit's .r1cs");
  auto m = to_constraint_matrices(*cs);
  auto bad = r1cs::first_unsatisfied(m, wtns->values);
  if (!bad) return bad.error();
  if (bad->has_value())
    return make_error("the witness " + in.wtns_path + " does not satisfy constraint " +
                      std::to_string(**bad) + " of " + in.r1cs_path);
  return r1cs::evaluate(m, wtns->values, threads);
}

}  // namespace

Result<SynthesizedPartition> synthesize_partition(const PartitionInput& input, const ParamSet& params,
                                                  unsigned threads) {
  Result<r1cs::Assignment> as = make_error("unknown partition input");
  if (const auto* s = std::get_if<SampleInput>(&input)) as = from_sample(*s, threads);
  if (const auto* c = std::get_if<CircomInput>(&input)) as = from_circom(*c, params, threads);
  if (const auto* a = std::get_if<SynthesizedInput>(&input)) {
    // Room for the prover's padding first: copy-assignment keeps a large enough capacity, so the
    // caller's vectors are copied once and never reallocated.
    r1cs::Assignment copy;
    for (auto* v : {&copy.a, &copy.b, &copy.c}) v->reserve(params.key->domain_size);
    copy = *a->assignment;
    as = std::move(copy);
  }
  if (!as) return as.error();
  if (auto st = groth16::check_assignment(*params.key, *as); !st)
    return make_error("the partition does not fit parameter set '" + params.name + "': " + st.message());
  // The prover pads a, b and c to the domain; reserving here keeps that reallocation (gigabytes at
  // PoRep size) on the synthesis worker instead of the device worker.
  for (auto* v : {&as->a, &as->b, &as->c}) v->reserve(params.key->domain_size);
  SynthesizedPartition out;
  out.public_inputs.assign(as->input_assignment.begin() + 1, as->input_assignment.end());
  out.assignment = std::move(*as);
  return out;
}

uint64_t partition_host_bytes(const ParamSet& params) {
  const groth16::ProvingKey& k = *params.key;
  const uint64_t fr = 32;
  const uint64_t wires = k.num_inputs + k.num_aux;
  return 5 * k.domain_size * fr + 2 * wires * fr + 3 * (wires / 8 + 64) + 4096;
}

}  // namespace cuzk::engine
