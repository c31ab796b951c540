// What a partition's synthesis will take, known from its input before anything is allocated: the
// rows it produces (checked against the parameter set's domain) and the host memory its synthesis
// holds. The engine refuses a job whose partition alone exceeds the host budget at submit, and
// admits each partition against the budget for the larger of this and its pooled vectors, so that
// no request can make the daemon allocate beyond its budget.
#pragma once

#include <cstdint>

#include "common/result.hpp"
#include "engine/job.hpp"

namespace cuzk::engine {

struct InputShape {
  // Constraint rows synthesis produces, the input constraints included (what must fit the domain);
  // 0 where the input does not tell (a circom witness: its .r1cs says, once read).
  uint64_t rows = 0;
  uint64_t variables = 0;  // inputs (ONE included) and aux; 0 where unknown
  // An upper bound of the host bytes synthesis holds at its peak, beyond a parameter set.
  uint64_t host_bytes = 0;
};

// Sample circuits: from the spec (merkle and sha256 by counting one and two units of the circuit,
// once per process, and extrapolating: their cost per level or per block is constant). Circom
// inputs: from the sizes of their files, which must be regular files. Synthesized inputs: nothing
// beyond the copy into the partition's pooled vectors. Filecoin partitions: the circuit's counts
// and its parallel synthesis's peak on at most `threads` threads (0: the hardware's): the joined
// system reserved to the domain, the pieces alive at once, and the circuit's witness
// (filecoin::partition_synthesis_footprint, PreparedProof::witness_bytes).
// `witness_only`: Filecoin partitions are synthesized witness-only against a compiled circuit
// (EngineConfig::compiled_circuits), which the compiled cache reserves apart.
Result<InputShape> estimate_input(const PartitionInput& input, unsigned threads = 0,
                                  bool witness_only = false);

// "4.0 GiB": for messages.
std::string format_bytes(uint64_t bytes);

}  // namespace cuzk::engine
