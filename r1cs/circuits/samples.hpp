// Sample circuits with a witness drawn from a seed: the circuits of the command line
// (`cuzk setup|prove --circuit ...`), the README's main job, the tests and the benchmarks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "r1cs/circuits/circuit.hpp"

namespace cuzk::r1cs {

struct SampleSpec {
  std::string kind = "merkle";  // "merkle", "sha256" or "synthetic"
  size_t merkle_depth = 8;      // merkle: depth of the Poseidon tree
  size_t message_bytes = 64;    // sha256: length of the preimage
  unsigned log_domain = 10;     // synthetic: the benchmark shape of this domain (constraints 0.97·2^k)
  uint64_t seed = 1;            // the witness (and, for synthetic, the circuit's constants)

  // "merkle(depth=8)", for messages and file names.
  std::string describe() const;
};

// The known kinds, for --help texts.
const std::vector<std::string>& sample_kinds();

// The circuit of `spec` with its witness. The shape of merkle and sha256 circuits does not depend
// on the seed; that of synthetic circuits does (a setup must use the prover's seed).
Result<std::unique_ptr<Circuit>> make_sample_circuit(const SampleSpec& spec);

}  // namespace cuzk::r1cs
