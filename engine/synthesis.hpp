// Synthesis: a partition's input (sample circuit, circom witness, or an assignment the caller made)
// turned into what the prover consumes, checked against the parameter set before any device time
// is spent on it.
#pragma once

#include <vector>

#include "common/result.hpp"
#include "engine/compiled_cache.hpp"
#include "engine/job.hpp"
#include "engine/param_cache.hpp"
#include "engine/partition_buffers.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::engine {

struct SynthesizedPartition {
  r1cs::Assignment assignment;
  std::vector<Fr> public_inputs;  // without ONE
  // When pooled: the set whose storage assignment's a, b, c and aux vectors use. It is handed back
  // to its pool when the partition is dropped.
  PartitionBuffers buffers;

  SynthesizedPartition() = default;
  SynthesizedPartition(SynthesizedPartition&&) = default;
  SynthesizedPartition& operator=(SynthesizedPartition&& o) noexcept;
  ~SynthesizedPartition() { buffers.take_back(assignment); }
  // Hands the set back to its pool now (the prover has read the vectors for the last time:
  // groth16::ProveOptions::inputs_consumed); the assignment keeps its densities and inputs.
  void release_buffers() {
    buffers.take_back(assignment);
    buffers = PartitionBuffers();
  }
};

// Whether this input's partition carries c, or leaves it to the prover (r1cs::Assignment::c_from_ab:
// a synthetic sample that asks for it, an already-synthesized partition made so).
bool writes_c(const PartitionInput& input);
// The shape of pooled buffers for this input's partitions of this parameter set. A witness's set
// holds aux and a alone: a synthesized witness's, and with `compiled` (the engine synthesizes
// Filecoin partitions witness-only) a Filecoin partition's.
BufferShape buffer_shape(const ParamSet& params, const PartitionInput& input, bool compiled = false);
// Whether synthesis of this input writes into pooled buffers (the synthetic circuit, already-
// synthesized partitions and, with `compiled`, Filecoin witnesses do; the other inputs make their
// own vectors).
bool uses_pooled_buffers(const PartitionInput& input, bool compiled = false);

// `threads`: for the synthesis paths that run in parallel (synthetic circuits, r1cs evaluation,
// copies of an already-synthesized partition). `buffers`, when held, receive the vectors.
// `compiled`, when given, is where Filecoin partitions find their compiled circuits: they are then
// synthesized witness-only (r1cs::Assignment::witness_only, attached to the circuit). With
// `defer_witness` too, a FallbackPoSt partition's auxiliaries are left to the prover's backend
// (r1cs::Assignment::deferred): only for a prover that fills them (the engine's device workers).
Result<SynthesizedPartition> synthesize_partition(const PartitionInput& input, const ParamSet& params,
                                                  unsigned threads, PartitionBuffers buffers = {},
                                                  CompiledCache* compiled = nullptr,
                                                  bool defer_witness = false);

// What a partition needs beyond its a, b, c and wire vectors.
struct PartitionExtras {
  bool wire_copy = true;  // a second wire vector: the prover's per-wire scalars for snarkjs keys,
                          // or a circom witness during synthesis
  bool h_scratch = true;  // a domain vector of scratch for the H stage on the host (the CPU backend)
  // A witness against a compiled circuit: one domain vector (`a`, for h) instead of a, b and c; the
  // host's sparse product (without a device that forms them) holds b and c in its scratch.
  bool witness_only = false;
  // A witness whose device H stage cannot hold a, b and c: its pair or lean plan keeps two domain
  // vectors in host memory (b and c, or b and c's transform).
  bool lean_device_h = false;
};
// The extras of this input on these devices: a synthetic or already-synthesized partition with a
// bellman (compacted) key needs no wire copy; a device that computes H needs no host scratch; a
// Filecoin partition with compiled circuits (`compiled`) is a witness, whose H stage is lean where
// `devices` says so (DeviceSet::lean_h_stage).
PartitionExtras partition_extras(const PartitionInput& input, const ParamSet& params, bool h_on_device,
                                 bool compiled = false, const DeviceSet* devices = nullptr);

// Host bytes a partition holds from admission until its proof: the a, b and c vectors (the H scalars
// are computed in place in a), the wire assignment and the densities, and the extras. The default
// counts every extra (the most any input or backend needs). c is counted also when the input leaves
// it out (writes_c): the CPU backend, and a device plan too small to hold the H stage's three
// vectors, form it in host memory.
uint64_t partition_host_bytes(const ParamSet& params, const PartitionExtras& extras = {});

}  // namespace cuzk::engine
