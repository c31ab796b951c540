// Parallel synthesis of a circuit made of a top part and pieces of one shape that each read only
// the top part's variables and their own: PoRep's challenges, SnapDeals' challenges. The top part
// is synthesized once; each piece into its own system forked from the top part's, on worker
// threads; the pieces are handed back and joined in piece order (ProvingAssignment::extend,
// bellperson's extend generalized from ONE to the top part; reference/filecoin-circuits.md §1.6).
// That gives exactly what sequential synthesis gives: the same a, b, c, assignments and
// densities, bit for bit. The same split serves witness-only synthesis (a witness-only
// ProvingAssignment) and the compiler (r1cs::CompilingSystem, whose extend renumbers a piece's
// own variables): System is either.
//
// Also what such a synthesis holds at its peak, so that a caller (the engine's admission) can
// reserve it before anything is allocated (SynthesisFootprint).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>

#include "common/result.hpp"
#include "r1cs/compiled/compiler.hpp"
#include "r1cs/counting_system.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {

// How `pieces` equal pieces run on `threads` cores: the worker threads, and the most pieces alive
// at once (synthesized or being synthesized, not yet joined). A little more pieces than cores (a
// 32 GiB PoRep partition's 18 challenges on 16) get a thread each: time-sliced, they finish in
// 18/16 of one piece's time, where rounds of `threads` take two.
struct PiecePlan {
  unsigned workers = 1;
  size_t window = 2;
};
PiecePlan plan_pieces(size_t pieces, unsigned threads);

// Maps a prover's reserved room on a helper thread while pieces are synthesized (a system without
// prefault(), the compiler's, starts none); joined before the first join or on destruction.
class PrefaultThread {
 public:
  template <class System>
  explicit PrefaultThread(System& base) {
    if constexpr (requires { base.prefault(); }) thread_ = std::thread([&base] { base.prefault(); });
  }
  ~PrefaultThread() { join(); }
  PrefaultThread(const PrefaultThread&) = delete;
  PrefaultThread& operator=(const PrefaultThread&) = delete;
  void join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
};

// The counts of `n` pieces of shape `piece` after a top part of shape `top` (ONE counted once).
r1cs::ShapeCounts whole_counts(const r1cs::ShapeCounts& top, size_t n, const r1cs::ShapeCounts& piece);

// Lays out piece i after the top part into `cs` (a fork of the top part's system).
using SynthesizePiece = std::function<Status(r1cs::ConstraintSystem& cs, size_t i)>;
// Receives piece i's system; called on the calling thread, in piece order. An error stops the
// synthesis and is returned.
template <class System>
using PieceSink = std::function<Status(size_t i, System&& piece)>;

// Synthesizes pieces 0 … n − 1 after the top part (`top_system` holds it), each reserved for
// `piece` (its own rows and variables), as plan_pieces(n, threads) says, and hands them to `take`.
// `what` prefixes a piece's error ("PoRep: challenge 3: …"). Instantiated for
// r1cs::ProvingAssignment and r1cs::CompilingSystem.
template <class System>
Status synthesize_pieces(const System& top_system, size_t n, const r1cs::ShapeCounts& piece, unsigned threads,
                         const SynthesizePiece& synthesize,
                         const std::type_identity_t<PieceSink<System>>& take, const char* what);

// Reserves room in `base` (a fresh system, before its top part of shape `top`) for the top part
// and n pieces, so that the top part is written where it stays: vectors grown by doubling and
// then moved would hold their old copies meanwhile.
template <class System>
void reserve_whole(System& base, const r1cs::ShapeCounts& top, size_t n, const r1cs::ShapeCounts& piece) {
  const r1cs::ShapeCounts whole = whole_counts(top, n, piece);
  base.reserve(whole.constraints, whole.aux, whole.inputs);
}

// The whole circuit for the prover, finished (input constraints appended; a witness-only base
// gives the witness alone): `base` holds the top part (best synthesized after reserve_whole), and
// pieces 0 … n − 1 are synthesized as synthesize_pieces does and joined into it, in room reserved
// for the whole circuit and mapped by a helper thread meanwhile (touching gigabytes of fresh
// memory one page fault at a time costs more than synthesizing them).
Result<r1cs::Assignment> synthesize_joined(r1cs::ProvingAssignment base, size_t n,
                                           const r1cs::ShapeCounts& piece, unsigned threads,
                                           const SynthesizePiece& synthesize, const char* what);

// The whole circuit compiled the same way (`base` a CompilingSystem holding the top part).
Result<r1cs::CompiledCircuit> compile_joined(r1cs::CompilingSystem base, size_t n,
                                             const r1cs::ShapeCounts& piece, unsigned threads,
                                             const SynthesizePiece& synthesize, const char* what);

// A circuit of a top part and `n` pieces (PoRep's and SnapDeals' challenges: Circuit has
// synthesize_top(cs), giving the top part's variables, and synthesize_challenge(cs, top, i)) put
// through `finish` (synthesize_joined or compile_joined): the top part into `base`, reserved for
// the whole circuit first, then the pieces in forks of it, joined in order.
template <class Circuit, class System, class Finish>
auto synthesize_whole(const Circuit& circuit, const r1cs::ShapeCounts& top, const r1cs::ShapeCounts& piece,
                      size_t n, System base, unsigned threads, const Finish& finish, const char* what)
    -> decltype(finish(std::move(base), n, piece, threads, SynthesizePiece{}, what)) {
  reserve_whole(base, top, n, piece);
  auto vars = circuit.synthesize_top(base);
  if (!vars) return vars.error();
  return finish(
      std::move(base), n, piece, threads,
      [&](r1cs::ConstraintSystem& cs, size_t i) { return circuit.synthesize_challenge(cs, *vars, i); }, what);
}

// What a partition's synthesis for the prover holds at its peak: the joined system, reserved for
// the whole circuit and its padding to the domain (the next power of two of its rows), plus the
// pieces alive at once, each with a copy of the variables it was forked with.
struct SynthesisFootprint {
  r1cs::ShapeCounts whole;   // the circuit: its rows are whole.rows() (input constraints included)
  r1cs::ShapeCounts prefix;  // the variables a piece is forked with (and held once more, the top's copy)
  r1cs::ShapeCounts piece;   // one piece's own rows and variables
  size_t pieces_alive = 0;   // 0: synthesized in one system
  size_t forking = 0;        // pieces forked at once (the workers)

  // Host bytes: 32 per Fr of a, b, c (the domain), the assignment and every piece's vectors, the
  // density bitmaps, a huge page a vector (reserved room is advised for them), and the forks'
  // first copies of the prefix.
  uint64_t peak_bytes() const;
  // The same for witness-only synthesis (ProvingAssignment::witness_only): the system's variables
  // (its pieces write theirs in place and copy only the inputs) and one vector of the domain (`a`,
  // which receives the prover's h); no b, c and no densities (the compiled circuit holds those,
  // reserved apart).
  uint64_t witness_peak_bytes() const;
};

// The footprint of synthesize_joined over a top part of shape `top`, on at most `threads` threads
// (the pieces alive at once do not decrease as threads are added).
SynthesisFootprint joined_footprint(const r1cs::ShapeCounts& top, size_t n, const r1cs::ShapeCounts& piece,
                                    unsigned threads);

}  // namespace cuzk::filecoin
