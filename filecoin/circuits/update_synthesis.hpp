// The EmptySectorUpdate (SnapDeals) partition synthesized on every core (piece_synthesis.hpp):
// the top part (public inputs, φ, comm_r, the apex PoR and every challenge's random bits) once,
// then the challenges on worker threads, each into its own system forked from the top part's,
// joined in challenge order. A challenge reads only the top part's variables and its own
// (storage-proofs-update circuit.rs: the loop over `generated_bits` uses partition_bits,
// h_select_bits, phi, root_r_old, root_r_new and apex_leafs, and allocates the rest), so the result
// equals sequential synthesis: the same a, b, c, assignments and densities, bit for bit. A 32 GiB
// partition's 86 challenges of about 0.94 M rows each then run 16 at a time on 16 cores.
#pragma once

#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/piece_synthesis.hpp"
#include "filecoin/circuits/update_circuit.hpp"
#include "r1cs/counting_system.hpp"

namespace cuzk::filecoin {

// The rows and variables one challenge adds after the top part: the same for every challenge of
// one shape. Counted once per process and shape, and kept.
Result<r1cs::ShapeCounts> update_challenge_shape(const vanilla::UpdateShape& shape);

// The partition for the prover, finished (input constraints appended): identical to
// ProvingAssignment + circuit.synthesize + finish, on `threads` threads.
Result<r1cs::Assignment> synthesize_update_for_proving(const UpdateCircuit& circuit, unsigned threads);

// The partition's witness alone (ProvingAssignment::witness_only, finished), the same way.
Result<r1cs::Assignment> synthesize_update_witness(const UpdateCircuit& circuit, unsigned threads,
                                                   std::vector<Fr> storage = {});

// The circuit compiled (r1cs/compiled/compiler.hpp) the same way: equal to compiling it
// sequentially, and a blank circuit compiles to the arrays of any instance of its shape.
Result<r1cs::CompiledCircuit> compile_update(const UpdateCircuit& circuit, unsigned threads,
                                             r1cs::CompileOptions options = {});

// What synthesize_update_for_proving holds at its peak for a partition of this shape on at most
// `threads` threads.
Result<SynthesisFootprint> update_synthesis_footprint(const vanilla::UpdateShape& shape, unsigned threads);

}  // namespace cuzk::filecoin
