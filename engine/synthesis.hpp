// Synthesis: a partition's input (sample circuit, circom witness, or an assignment the caller made)
// turned into what the prover consumes, checked against the parameter set before any device time
// is spent on it.
#pragma once

#include <vector>

#include "common/result.hpp"
#include "engine/job.hpp"
#include "engine/param_cache.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::engine {

struct SynthesizedPartition {
  r1cs::Assignment assignment;
  std::vector<Fr> public_inputs;  // without ONE
};

// `threads`: for the synthesis paths that run in parallel (synthetic circuits, r1cs evaluation).
Result<SynthesizedPartition> synthesize_partition(const PartitionInput& input, const ParamSet& params,
                                                  unsigned threads);

// Host bytes a partition holds from admission until its proof: the a, b, c vectors, the H scalars,
// the assignment and the densities, with room for the prover's own copies.
uint64_t partition_host_bytes(const ParamSet& params);

}  // namespace cuzk::engine
