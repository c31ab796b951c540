// The EmptySectorUpdate (SnapDeals) circuit of one partition, constraint for constraint as
// rust-fil-proofs builds it (storage-proofs-update/src/circuit.rs `EmptySectorUpdateCircuit`;
// reference/filecoin-circuits.md §3.3). The parameter files fix its rows and columns.
//
// Synthesis order:
//   1. alloc k_and_h_select, made public (input p, (p)·(ONE) = (x));
//   2. its partition_bits + 6 low bits allocated, (Σ 2^i·bit_i)·(ONE) = (k_and_h_select);
//   3. partition = pack_bits(partition bits);
//   4. alloc and make public, in order: comm_r_old, comm_d_new, comm_r_new;
//   5. φ = H_Custom(1)(comm_d_new, comm_r_old);
//   6. alloc comm_c, root_r_old, root_r_new, the apex leaves, the partition path's siblings
//      (challenge 0's top partition_bits tree_d siblings);
//   7. Poseidon2(comm_c, root_r_old)·(ONE) = (comm_r_old), and the same for new;
//   8. apex_por; 9. gen_challenge_bits;
//  10. per challenge: c_bits = its random bits then the partition bits; c_high; ρ = H_Custom(1)(φ,
//      c_high); alloc leaf_r_old, leaf_d_new; label_r_new; alloc path_r_old's siblings, PoR to
//      root_r_old over c_bits; the same for path_r_new from label_r_new to root_r_new; the apex
//      leaf selected by c_bits' apex bits; alloc the apex_height tree_d siblings, PoR from
//      leaf_d_new to that apex leaf over the low c_bits.
// Steps 1–9 are the top part; a challenge (step 10) reads only the top part's variables and its
// own, so challenges can be synthesized apart and joined (update_synthesis.hpp).
// Public inputs (after ONE): k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
// Rows: 1,705,039 at 2 KiB, 10,007,503 at 8 MiB, 57,450,479 at 512 MiB, 81,049,499 at 32 GiB,
// 85,006,101 at 64 GiB, plus 5 input rows.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "filecoin/por/por_circuit.hpp"
#include "filecoin/vanilla/update_shape.hpp"
#include "r1cs/circuits/circuit.hpp"
#include "r1cs/gadgets/boolean.hpp"
#include "r1cs/gadgets/num.hpp"

namespace cuzk::filecoin {

// One challenge's witness: the three leaves and the siblings of each path, bottom-up (TreeR: the
// arity − 1 siblings of each level; tree_d: one sibling per level, log2(nodes) levels). The
// paths' positions are not part of the witness: the circuit takes them from the challenge's bits.
struct UpdateChallengeWitness {
  Fr leaf_r_old = Fr::zero();
  Fr leaf_d_new = Fr::zero();
  // What label_r_new computes in circuit: kept for the record, not read by synthesis (upstream
  // asserts the equality; check_update_partition checks it before a circuit is made).
  Fr leaf_r_new = Fr::zero();
  std::vector<std::vector<Fr>> path_r_old;
  std::vector<Fr> path_d_new;
  std::vector<std::vector<Fr>> path_r_new;
};

struct UpdateWitness {
  // Public.
  Fr k_and_h_select = Fr::zero();
  Fr comm_r_old = Fr::zero();
  Fr comm_d_new = Fr::zero();
  Fr comm_r_new = Fr::zero();
  // Private.
  Fr comm_c = Fr::zero();
  Fr root_r_old = Fr::zero();  // challenge 0's proof_r_old root
  Fr root_r_new = Fr::zero();
  std::vector<Fr> apex_leaves;
  std::vector<UpdateChallengeWitness> challenges;
};

// The top part's variables that every challenge reads.
struct UpdateTopVariables {
  std::vector<r1cs::AllocatedBit> partition_bits, h_select_bits;
  r1cs::AllocatedNum phi, root_r_old, root_r_new;
  std::vector<r1cs::AllocatedNum> apex_leaves;
  // Each challenge's random bits (gen_challenge_bits), without the partition bits.
  std::vector<std::vector<r1cs::AllocatedBit>> challenge_bits;
};

class UpdateCircuit final : public r1cs::Circuit {
 public:
  // The shape alone (setup, counting): zeros wherever a value would be, the same rows as any
  // proving instance.
  static Result<UpdateCircuit> blank(const vanilla::UpdateShape& shape);
  // A proving instance. Errors for what upstream asserts before synthesis: counts and path
  // lengths that do not fit the shape, a k_and_h_select whose k is not a partition or whose h
  // select bits are not exactly one of the 6, challenges whose partition paths differ.
  static Result<UpdateCircuit> create(const vanilla::UpdateShape& shape, UpdateWitness witness);

  // The top part, then every challenge in order.
  Status synthesize(r1cs::ConstraintSystem& cs) const override;
  size_t num_public_inputs() const override { return 4; }

  // Steps 1–9.
  Result<UpdateTopVariables> synthesize_top(r1cs::ConstraintSystem& cs) const;
  // Challenge i (step 10) after the top part whose variables `top` holds.
  Status synthesize_challenge(r1cs::ConstraintSystem& cs, const UpdateTopVariables& top, size_t i) const;
  size_t challenge_count() const { return shape_.challenges; }

  const vanilla::UpdateShape& shape() const { return shape_; }
  const UpdateWitness& witness() const { return witness_; }
  bool is_blank() const { return blank_; }
  // [k_and_h_select, comm_r_old, comm_d_new, comm_r_new]: the input variables after ONE.
  std::vector<Fr> public_inputs() const;

 private:
  UpdateCircuit(const vanilla::UpdateShape& shape, std::vector<PathLevel> levels_r, UpdateWitness witness,
                bool blank)
      : shape_(shape), levels_r_(std::move(levels_r)), witness_(std::move(witness)), blank_(blank) {}

  vanilla::UpdateShape shape_;
  std::vector<PathLevel> levels_r_;  // TreeR
  UpdateWitness witness_;
  bool blank_ = false;
};

}  // namespace cuzk::filecoin
