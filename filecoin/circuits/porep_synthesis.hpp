// The PoRep partition circuit synthesized on every core (piece_synthesis.hpp): the top part once,
// then the challenges on worker threads, each into its own system forked from the top part's,
// handed back in challenge order. A challenge reads only the top part's variables and its own, so
// joining the pieces in order gives exactly what sequential synthesis gives: the same a, b, c,
// assignments and densities, bit for bit. A 32 GiB partition's 18 challenges of
// 7.2 M rows each then take about 18/16 of one challenge's time on 16 cores, plus the joins,
// which copy the pieces into room reserved (and mapped) while they are synthesized.
#pragma once

#include <vector>

#include <cstddef>
#include <functional>

#include "common/result.hpp"
#include "filecoin/circuits/piece_synthesis.hpp"
#include "filecoin/circuits/porep_circuit.hpp"
#include "r1cs/counting_system.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {

// The counts of the whole circuit (the top part, then every challenge), with the challenges
// counted on `threads` threads; equal to counting it in one CountingSystem.
Result<r1cs::ShapeCounts> count_porep(const PorepCircuit& circuit, unsigned threads);

// The rows and variables one challenge adds after the top part: the same for every challenge of
// circuits with these parameters (nothing in its layout depends on values). Counted once per
// process and kept, so that synthesis can size every vector before it fills it.
Result<r1cs::ShapeCounts> porep_challenge_shape(const PorepParams& params);

// Receives challenge i's system, synthesized in a fork of the top part's system; called on the
// calling thread, in challenge order. An error stops the synthesis and is returned.
using PorepPieceSink = PieceSink<r1cs::ProvingAssignment>;

// Synthesizes every challenge after the top part (`top_system` holds it, `top` its variables) on
// `threads` worker threads, or one a challenge when there are fewer than 2 · threads challenges
// (18 on 16 cores finish sooner time-sliced than in two rounds). At most 2 · threads pieces are
// alive at once, so memory stays bounded whatever the sink does with them.
Status synthesize_porep_pieces(const PorepCircuit& circuit, const r1cs::ProvingAssignment& top_system,
                               const PorepTopVariables& top, unsigned threads, const PorepPieceSink& take);

// The partition for the prover, finished (input constraints appended): identical to
// ProvingAssignment + circuit.synthesize + finish, on `threads` threads.
Result<r1cs::Assignment> synthesize_porep_for_proving(const PorepCircuit& circuit, unsigned threads);

// The partition's witness alone (ProvingAssignment::witness_only, finished) on `threads` threads:
// the assignment full synthesis gives, without a, b, c and the densities.
// `storage`: where the auxiliaries go (an earlier witness's, reused without mapping pages anew).
Result<r1cs::Assignment> synthesize_porep_witness(const PorepCircuit& circuit, unsigned threads,
                                                  std::vector<Fr> storage = {});

// The circuit compiled (r1cs/compiled/compiler.hpp) on `threads` threads, the challenges in
// forked pieces: equal to compiling it sequentially. A blank circuit compiles to the same arrays as
// any proving instance of its parameters.
Result<r1cs::CompiledCircuit> compile_porep(const PorepCircuit& circuit, unsigned threads,
                                            r1cs::CompileOptions options = {});

// What synthesize_porep_for_proving holds at its peak for a partition of these parameters on at
// most `threads` threads.
Result<SynthesisFootprint> porep_synthesis_footprint(const PorepParams& params, unsigned threads);

}  // namespace cuzk::filecoin
