// The FallbackPoSt partition synthesized on every core: the circuit sectors in contiguous chunks,
// each chunk into its own fork of a fresh system (a circuit sector reads only ONE and its own
// variables), joined in order with ProvingAssignment::extend. That is upstream's chunked synthesis
// for the prover (post_circuit.hpp): the same a, b, c, assignments and densities as sequential
// synthesis, bit for bit. A 32 GiB WindowPoSt partition (2349 sectors, 125 M rows) then takes about
// a sixteenth of its sequential time on 16 cores.
#pragma once

#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/piece_synthesis.hpp"
#include "filecoin/circuits/post_circuit.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin {

// The partition for the prover, finished (input constraints appended), on `threads` threads
// (0: the hardware's). Chunks run in rounds of `threads`, so the pieces alive at once hold about
// a quarter of the partition besides the joined system.
Result<r1cs::Assignment> synthesize_post_for_proving(const FallbackPostCircuit& circuit, unsigned threads);

// The partition's witness alone (ProvingAssignment::witness_only, finished), the same way.
// `storage`: where the auxiliaries go (an earlier witness's, reused without mapping pages anew).
Result<r1cs::Assignment> synthesize_post_witness(const FallbackPostCircuit& circuit, unsigned threads,
                                                 std::vector<Fr> storage = {});

// The circuit compiled (r1cs/compiled/compiler.hpp) the same way: equal to compiling it
// sequentially.
Result<r1cs::CompiledCircuit> compile_post(const FallbackPostCircuit& circuit, unsigned threads,
                                           r1cs::CompileOptions options = {});

// What synthesize_post_for_proving holds at its peak for a partition of these parameters on at
// most `threads` threads (0: the hardware's).
Result<SynthesisFootprint> post_synthesis_footprint(const FallbackPostParams& params, unsigned threads);

}  // namespace cuzk::filecoin
