// The Filecoin circuits compiled (r1cs/compiled/): each circuit id's blank circuit recorded once as
// sparse matrices, and a partition's witness synthesized without its constraints, which the
// compiled circuit of its id then turns into the prover's a, b, c (r1cs/compiled/evaluate.hpp, or
// the device's product). PoRep's and SnapDeals' challenges and PoSt's circuit sectors compile and
// synthesize in parallel pieces.
#pragma once

#include <vector>

#include "common/result.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "r1cs/circuits/circuit.hpp"
#include "r1cs/compiled/compiler.hpp"

namespace cuzk::filecoin {

// `circuit` compiled on `threads` threads (a blank circuit or a proving instance: the same arrays).
Result<r1cs::CompiledCircuit> compile_circuit(const r1cs::Circuit& circuit, unsigned threads,
                                              r1cs::CompileOptions options = {});

// The blank circuit of `id` (blank_circuit.hpp) compiled: what every partition of the id proves
// against. An error for a kind cuzk does not build.
Result<r1cs::CompiledCircuit> compile_blank_circuit(CircuitId id, unsigned threads,
                                                    r1cs::CompileOptions options = {});

// A partition's witness (r1cs::ProvingAssignment::witness_only, finished) on `threads` threads:
// the input and aux assignments full synthesis gives, a, b, c and the densities left to the
// compiled circuit (attach_compiled).
// `storage`: where the auxiliaries go, an earlier witness's vector reused (its pages are mapped
// already, so the witness is written at memory speed); empty: fresh memory.
Result<r1cs::Assignment> synthesize_partition_witness(const r1cs::Circuit& circuit, unsigned threads,
                                                      std::vector<Fr> storage = {});

}  // namespace cuzk::filecoin
