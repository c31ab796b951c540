// The FallbackPoSt circuit, WindowPoSt and WinningPoSt, constraint for constraint as rust-fil-proofs
// builds it (storage-proofs-post/src/fallback/circuit.rs, compound.rs; reference/filecoin-circuits.md
// §3.2). The parameter files of both proofs fix its rows and columns.
//
// The circuit is its circuit sectors in order; one circuit sector (`Sector::synthesize`) is:
//   1. alloc comm_r_last, alloc comm_c, alloc comm_r;
//   2. comm_r made a public input: input p, (p)·(ONE) = (comm_r);
//   3. h = Poseidon(comm_c, comm_r_last) (arity 2, MerkleTree tag, 311 rows); (comm_r)·(ONE) = (h);
//   4. per challenge, PoRCircuit::synthesize with the leaf allocated by value, the path through the
//      tree, root comm_r_last (the variable of step 1) and a private root: one more input, the
//      challenged leaf's index.
// Rows per circuit sector: 313 + challenges × (530 per arity-8 level, 387 per arity-4, 314 per
// arity-2, + 2). Inputs: ONE + sectors × (1 + challenges).
//
// Synthesizing the sectors in separate systems and joining them (upstream's chunked synthesis for
// the prover) gives these rows in this order; synthesize_sectors is the piece such a split calls.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/post_params.hpp"
#include "filecoin/por/por_circuit.hpp"
#include "r1cs/circuits/circuit.hpp"

namespace cuzk::filecoin {

// One circuit sector's witness: the commitments and, per challenge, the leaf value and its path
// (bottom-up, the siblings in stored order and the node's position at each level).
struct PostCircuitSector {
  Fr comm_r;
  Fr comm_c;
  Fr comm_r_last;
  std::vector<Fr> leaves;
  std::vector<std::vector<PathLevelValues>> paths;
};

class FallbackPostCircuit final : public r1cs::Circuit {
 public:
  // The shape alone, for parameter setup and counting: zeros wherever a value would be (a
  // shape-only system ignores them), the same rows as any proving instance.
  static Result<FallbackPostCircuit> blank(const FallbackPostParams& params);
  // A proving instance from 1 … params.sector_count circuit sectors. Too few sectors: the last one is
  // repeated (compound.rs `circuit`, post_util.rs `single_partition_vanilla_proofs`). Errors name a
  // sector whose challenge or path-level counts do not fit the parameters.
  static Result<FallbackPostCircuit> create(const FallbackPostParams& params,
                                            std::vector<PostCircuitSector> sectors);

  // Whether synthesis with values compares each challenge's computed root with the sector's
  // comm_r_last and fails with an input error naming the sector and challenge where they differ:
  // for paths no check has hashed (PathCheck::in_synthesis, post_vanilla.hpp). The witness hashes
  // every path anyway, so the comparison is the whole cost of the check there.
  void set_check_roots(bool check) { check_roots_ = check; }
  bool checks_roots() const { return check_roots_; }

  Status synthesize(r1cs::ConstraintSystem& cs) const override;
  size_t num_public_inputs() const override { return params_.num_public_inputs(); }

  // Circuit sectors [begin, end) in order; synthesize is synthesize_sectors(cs, 0, sector_count).
  Status synthesize_sectors(r1cs::ConstraintSystem& cs, size_t begin, size_t end) const;

  const FallbackPostParams& params() const { return params_; }
  size_t path_levels() const { return levels_.size(); }
  bool is_blank() const { return blank_; }
  // The witness of circuit sector i (a repeated sector's is the last given one's).
  const PostCircuitSector& sector(size_t i) const {
    return sectors_[i < sectors_.size() ? i : sectors_.size() - 1];
  }

 private:
  FallbackPostCircuit(FallbackPostParams params, std::vector<PathLevel> levels,
                      std::vector<PostCircuitSector> sectors, bool blank)
      : params_(params), levels_(std::move(levels)), sectors_(std::move(sectors)), blank_(blank) {}

  FallbackPostParams params_;
  std::vector<PathLevel> levels_;
  std::vector<PostCircuitSector> sectors_;  // the given ones; the last stands for the rest
  bool blank_ = false;
  bool check_roots_ = false;
};

// Sector::synthesize: one circuit sector over `levels` (poseidon_path_levels of the tree). With
// `check_roots` and values, a challenge whose path does not reach comm_r_last is an input error.
Status synthesize_post_sector(r1cs::ConstraintSystem& cs, std::span<const PathLevel> levels,
                              const PostCircuitSector& sector, bool check_roots = false);

}  // namespace cuzk::filecoin
