#include "engine/synthesis.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

#include "common/parallel_ranges.hpp"
#include "groth16/prover.hpp"
#include "io/r1cs_convert.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "io/zkey_assignment.hpp"
#include "r1cs/circuits/synthetic.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::engine {
namespace {

// `out` holds lent buffers or nothing; only the synthetic circuit writes into them, leaving c out
// when the input asks (SampleInput::c_from_ab).
Status from_sample(const SampleInput& in, unsigned threads, r1cs::Assignment& out) {
  auto circuit = r1cs::make_sample_circuit(in.spec);
  if (!circuit) return circuit.error();
  if (const auto* synthetic = dynamic_cast<const r1cs::SyntheticCircuit*>(circuit->get()))
    return synthetic->synthesize_into(out, threads, in.c_from_ab);
  auto as = r1cs::synthesize_for_proving(**circuit);
  if (!as) return as.error();
  out = std::move(*as);
  return Status::Ok();
}

// dst = src on `threads` threads: at PoRep size an already-synthesized partition is 16 GiB, and
// one thread copies at a few GB/s.
void parallel_assign(std::vector<Fr>& dst, const std::vector<Fr>& src, unsigned threads) {
  dst.resize(src.size());
  (void)parallel_ranges(
      src.size(), size_t(1) << 16,
      [&](size_t b, size_t e) {
        std::memcpy(static_cast<void*>(dst.data() + b), src.data() + b, (e - b) * sizeof(Fr));
        return Status::Ok();
      },
      std::max(1u, threads));
}

// A copy of the caller's partition, into `out` (lent buffers, when they are large enough).
void from_synthesized(const r1cs::Assignment& in, unsigned threads, uint64_t domain, r1cs::Assignment& out) {
  // Room for the prover's padding (check_assignment_shape bounds the rows by the domain): the vectors
  // are copied once and never reallocated.
  // A witness has `a` alone (it receives h); the compiled circuit stands for b and c.
  out.a.reserve(domain);
  if (!in.witness_only()) out.b.reserve(domain);
  if (!in.c_from_ab && !in.witness_only()) out.c.reserve(domain);
  out.aux_assignment.reserve(in.aux_assignment.size());
  parallel_assign(out.a, in.a, threads);
  parallel_assign(out.b, in.b, threads);
  parallel_assign(out.c, in.c, threads);
  out.c_from_ab = in.c_from_ab;
  parallel_assign(out.aux_assignment, in.aux_assignment, threads);
  out.input_assignment = in.input_assignment;
  out.a_aux_density = in.a_aux_density;
  out.b_input_density = in.b_input_density;
  out.b_aux_density = in.b_aux_density;
  out.witness_rows = in.witness_rows;  // a witness stays one, against the same compiled circuit
  out.compiled = in.compiled;
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
    return assignment_from_zkey(*params.zkey_matrices, wtns->values, cs ? &*cs : nullptr);
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

SynthesizedPartition& SynthesizedPartition::operator=(SynthesizedPartition&& o) noexcept {
  if (this != &o) {
    buffers.take_back(assignment);
    assignment = std::move(o.assignment);
    public_inputs = std::move(o.public_inputs);
    buffers = std::move(o.buffers);
  }
  return *this;
}

bool writes_c(const PartitionInput& input) {
  if (const auto* s = std::get_if<SampleInput>(&input)) return !(s->c_from_ab && s->spec.kind == "synthetic");
  if (const auto* a = std::get_if<SynthesizedInput>(&input))
    return !(a->assignment && a->assignment->c_from_ab);
  return true;
}

BufferShape buffer_shape(const ParamSet& params, const PartitionInput& input, bool compiled) {
  const auto* held = std::get_if<SynthesizedInput>(&input);
  const bool witness = (compiled && std::holds_alternative<FilecoinInput>(input)) ||
                       (held && held->assignment && held->assignment->witness_only());
  if (witness) return {params.key->domain_size, params.key->num_aux, false, false};
  return {params.key->domain_size, params.key->num_aux, writes_c(input)};
}

bool uses_pooled_buffers(const PartitionInput& input, bool compiled) {
  if (const auto* s = std::get_if<SampleInput>(&input)) return s->spec.kind == "synthetic";
  if (compiled && std::holds_alternative<FilecoinInput>(input)) return true;
  return std::holds_alternative<SynthesizedInput>(input);
}

namespace {

Result<SynthesizedPartition> synthesize_or_throw(const PartitionInput& input, const ParamSet& params,
                                                 unsigned threads, PartitionBuffers buffers,
                                                 CompiledCache* compiled, bool defer_witness) {
  SynthesizedPartition out;
  out.buffers = std::move(buffers);
  out.buffers.lend_to(out.assignment);
  r1cs::Assignment& as = out.assignment;
  const auto does_not_fit = [&](const Status& st) {
    return make_error("the partition does not fit parameter set '" + params.name + "': " + st.message());
  };
  Status st = make_error("unknown partition input");
  if (const auto* s = std::get_if<SampleInput>(&input)) st = from_sample(*s, threads, as);
  if (const auto* c = std::get_if<CircomInput>(&input)) {
    auto made = from_circom(*c, params, threads);
    st = made ? (as = std::move(*made), Status::Ok()) : Status(made.error());
  }
  if (const auto* f = std::get_if<FilecoinInput>(&input)) {
    // A witness is written into the lent aux (pages mapped and pinned already) and keeps the lent
    // a, which receives h.
    std::vector<Fr> a = std::move(as.a);
    auto made = synthesize_filecoin(*f, threads, compiled, std::move(as.aux_assignment), defer_witness);
    st = made ? (as = std::move(*made), Status::Ok()) : Status(made.error());
    if (made && as.witness_only()) as.a = std::move(a);
  }
  if (const auto* a = std::get_if<SynthesizedInput>(&input)) {
    // Checked before the copy: a partition too large for the lent buffers would reallocate them.
    if (auto fits = groth16::check_assignment_shape(*params.key, *a->assignment); !fits)
      return does_not_fit(fits);
    from_synthesized(*a->assignment, threads, params.key->domain_size, as);
  } else {
    CUZK_TRY_STATUS(st);
    if (auto fits = groth16::check_assignment_shape(*params.key, as); !fits) return does_not_fit(fits);
  }
  // The prover pads a, b and c to the domain; reserving here keeps that reallocation (gigabytes at
  // PoRep size) on the synthesis worker instead of the device worker. A witness has only `a`, which
  // receives h: sized here, so that zeroing its 4 GiB is the synthesis worker's time too.
  as.a.reserve(params.key->domain_size);
  if (as.witness_only()) as.a.resize(params.key->domain_size);
  if (!as.witness_only()) as.b.reserve(params.key->domain_size);
  if (!as.c_from_ab && !as.witness_only()) as.c.reserve(params.key->domain_size);
  out.public_inputs.assign(as.input_assignment.begin() + 1, as.input_assignment.end());
  return out;
}

}  // namespace

Result<SynthesizedPartition> synthesize_partition(const PartitionInput& input, const ParamSet& params,
                                                  unsigned threads, PartitionBuffers buffers,
                                                  CompiledCache* compiled, bool defer_witness) {
  try {
    return synthesize_or_throw(input, params, threads, std::move(buffers), compiled, defer_witness);
  } catch (const std::bad_alloc&) {
    return make_error(host_out_of_memory("synthesizing a partition for '" + params.name + "'"));
  }
}

PartitionExtras partition_extras(const PartitionInput& input, const ParamSet& params, bool h_on_device,
                                 bool compiled, const DeviceSet* devices) {
  PartitionExtras e;
  e.witness_only = compiled && std::holds_alternative<FilecoinInput>(input);
  e.wire_copy =
      std::holds_alternative<CircomInput>(input) || params.key->layout != groth16::QueryLayout::compacted;
  e.h_scratch = !h_on_device;
  const groth16::ProvingKey& k = *params.key;
  e.lean_device_h = e.witness_only && h_on_device && devices && devices->lean_h_stage &&
                    devices->lean_h_stage(k.domain_size, k.num_inputs + k.num_aux);
  return e;
}

uint64_t partition_host_bytes(const ParamSet& params, const PartitionExtras& extras) {
  const groth16::ProvingKey& k = *params.key;
  const uint64_t fr = 32;
  const uint64_t wires = k.num_inputs + k.num_aux;
  // A witness holds `a` alone; on the host, the sparse product adds b and c beside the scratch; a
  // device H stage without room for a, b and c, two more (its pair or lean plan).
  const uint64_t domain_vectors =
      extras.witness_only ? 1 + 3 * extras.h_scratch + 2 * (!extras.h_scratch && extras.lean_device_h)
                          : 3 + extras.h_scratch;
  return domain_vectors * k.domain_size * fr + (1 + extras.wire_copy) * wires * fr + 3 * (wires / 8 + 64) +
         4096;
}

}  // namespace cuzk::engine
