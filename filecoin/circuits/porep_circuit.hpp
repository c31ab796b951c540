// The StackedDRG PoRep partition circuit, constraint for constraint as rust-fil-proofs builds it
// (storage-proofs-porep/src/stacked/circuit/{proof.rs, params.rs, create_label.rs, column.rs,
// hash.rs}; reference/filecoin-circuits.md §3.1). The parameter files fix its rows and columns.
//
// Top part (StackedCircuit::synthesize), 571 rows:
//   1. alloc replica_id, made public (input p, (p)·(ONE) = (replica_id));
//   2. replica_id_bits = reverse_bit_numbering(to_bits_le(replica_id)) (256 bits, 1 constant);
//   3. alloc comm_d, made public; 4. alloc comm_r, made public;
//   5. alloc comm_r_last, alloc comm_c;
//   6. h = Poseidon2(comm_c, comm_r_last) (MerkleTree tag); (comm_r)·(ONE) = (h).
// Then per challenge (params.rs `Proof::synthesize`):
//   1. alloc data_leaf; PoR of it in tree_d (binary SHA-254) up to comm_d: 1 input;
//   2. per DRG parent, then per expander parent: alloc its column's rows (layer 1 first), the
//      column hash (Poseidon of arity `layers`), PoR of the hash in tree_c up to comm_c: 1 input;
//   3. the challenge as a UInt64 (64 allocated bits), packed into 1 input;
//   4. per layer L: each DRG parent's row L, then (L > 1) each expander parent's row L − 1,
//      decomposed afresh (reverse_bit_numbering(to_bits_le)), expanded to 37 (layer 1: the 6
//      parents six times and parent 0; later layers: the 14 twice and the first 9), and
//      label_L = create_label(replica_id_bits, expanded, constant L, challenge);
//   5. alloc enc; (label_layers + data_leaf)·(ONE) = (enc); PoR of enc in tree_r_last up to
//      comm_r_last: 1 input;
//   6. the column hash of label_1 … label_layers, PoR in tree_c up to comm_c: 1 input.
// Every PoR has a private root. A challenge reads the top part's variables and its own only, so
// challenges can be synthesized apart and joined (porep_synthesis.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/porep_params.hpp"
#include "filecoin/por/por_circuit.hpp"
#include "r1cs/circuits/circuit.hpp"

namespace cuzk::filecoin {

// One parent's column: its rows (layer 1 first) and its path in tree_c.
struct PorepColumnWitness {
  std::vector<Fr> rows;
  std::vector<PathLevelValues> path;
};

// What one challenge's synthesis reads (params.rs `Proof`): only these parts of a vanilla proof
// reach the circuit; the labels and the encoding are recomputed in it.
struct PorepChallengeWitness {
  uint64_t challenge = 0;  // labeling_proofs[0].node
  Fr data_leaf = Fr::zero();
  std::vector<PathLevelValues> comm_d_path;
  std::vector<PorepColumnWitness> drg_parents;  // 6
  std::vector<PorepColumnWitness> exp_parents;  // 8
  std::vector<PathLevelValues> comm_r_last_path;
  std::vector<PathLevelValues> comm_c_path;  // the challenged column's
};

struct PorepWitness {
  Fr replica_id = Fr::zero();
  Fr comm_d = Fr::zero();
  Fr comm_r = Fr::zero();
  Fr comm_r_last = Fr::zero();
  Fr comm_c = Fr::zero();
  std::vector<PorepChallengeWitness> challenges;
};

// The top part's variables that every challenge reads.
struct PorepTopVariables {
  std::vector<r1cs::Boolean> replica_id_bits;  // 256, SHA-256 bit order
  r1cs::Num comm_d;
  r1cs::Num comm_c;
  r1cs::Num comm_r_last;
};

class PorepCircuit final : public r1cs::Circuit {
 public:
  // The shape alone, for parameter setup and counting: zeros wherever a value would be, the same
  // rows and variables as any proving instance.
  static Result<PorepCircuit> blank(const PorepParams& params);
  // A proving instance. Errors name a challenge whose counts (columns, rows, path levels,
  // siblings, indices) do not fit the parameters; values are not checked here
  // (porep_vanilla.hpp checks a commit-phase-1 output before it gets this far).
  static Result<PorepCircuit> create(const PorepParams& params, PorepWitness witness);

  // The top part, then every challenge in order.
  Status synthesize(r1cs::ConstraintSystem& cs) const override;
  size_t num_public_inputs() const override { return params_.num_public_inputs(); }

  Result<PorepTopVariables> synthesize_top(r1cs::ConstraintSystem& cs) const;
  // Challenge i after the top part whose variables `top` holds.
  Status synthesize_challenge(r1cs::ConstraintSystem& cs, const PorepTopVariables& top, size_t i) const;

  const PorepParams& params() const { return params_; }
  size_t challenge_count() const { return params_.challenge_count; }
  bool is_blank() const { return blank_; }
  const PorepWitness& witness() const { return witness_; }
  // Challenge i's witness (a blank circuit's one zero witness stands for all).
  const PorepChallengeWitness& challenge(size_t i) const {
    return witness_.challenges[i < witness_.challenges.size() ? i : witness_.challenges.size() - 1];
  }

 private:
  PorepCircuit(PorepParams params, PorepTreeLevels levels, PorepWitness witness, bool blank);

  PorepParams params_;
  std::vector<PathLevel> tree_d_levels_;   // binary SHA-254
  std::vector<PathLevel> tree_cr_levels_;  // Poseidon: base, sub, top
  const r1cs::PoseidonConstants* column_hash_ = nullptr;
  PorepWitness witness_;
  bool blank_ = false;
};

}  // namespace cuzk::filecoin
