// One partition of a real Filecoin circuit built from virtual vanilla inputs, for the benchmarks
// (`cuzk bench filecoin`, `cuzk bench engine --filecoin`): sectors of any size, 32 and 64 GiB
// included, made without their data (reference/filecoin-circuits.md §6.9), checked as a storage
// provider's inputs are, and synthesized with values exactly as a proving partition is.
//   * PoRep: a virtual commit-phase-1 output (filecoin/vanilla virtual_commit_phase1), partition 0;
//   * WindowPoSt: a partition's worth of virtual sectors (2349 at 32 GiB), 10 challenges each;
//   * WinningPoSt: one virtual sector's 66 challenges;
//   * SnapDeals: a virtual updated sector (update_virtual), partition 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "filecoin/proofs/proof_request.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "r1cs/circuits/circuit.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::cli {

struct BenchPartition {
  filecoin::CircuitId id;
  std::string name;       // the circuit id, e.g. "porep-32g"
  std::string vanilla;    // what the inputs are, e.g. "virtual C1, partition 0 of 10"
  size_t partitions = 1;  // partitions of the whole proof this one belongs to
  std::shared_ptr<const r1cs::Circuit> circuit;
  std::vector<Fr> public_inputs;  // the verifier's, without ONE
  double vanilla_s = 0;           // the virtual inputs made
  // PoRep and PoSt: the request a provider would send for this proof (the virtual commit-phase-1
  // output; the PoSt sectors' vanilla proofs in bincode), which the engine prepares and synthesizes
  // itself. Unset for SnapDeals, whose bench partition is handed over synthesized.
  std::optional<filecoin::ProofRequest> request;
  double check_s = 0;  // checked as a provider's inputs are, and the circuit built
  // Synthesis on `threads` threads where the circuit splits (PoRep's and SnapDeals' challenges,
  // PoSt's circuit sectors), else on one.
  bool parallel = false;
  std::function<Result<r1cs::Assignment>(unsigned threads)> synthesize_with;

  // synthesize_with, then a check that the input variables are ONE and the public inputs.
  Result<r1cs::Assignment> synthesize(unsigned threads) const;
};

// Errors: an id that names no circuit here, or inputs the checks refuse (a bug in the virtual
// sectors, named by the check).
Result<BenchPartition> make_bench_partition(const filecoin::CircuitId& id, uint64_t seed);

}  // namespace cuzk::cli
