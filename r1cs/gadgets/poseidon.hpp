// Poseidon over BLS12-381 Fr with Filecoin's parameters, those of the neptune crate
// (argumentcomputer/neptune, "Standard" strength), rederived here from their definition rather
// than copied:
//   * width t = arity + 1, S-box x^5, R_F = 8 full rounds (4 before, 4 after the partial ones),
//     R_P partial rounds from neptune's round-number table (t = 3: 55, t = 5: 56, t = 9: 57, ...),
//     which is the Poseidon paper's security inequalities for a 256-bit field and 128-bit security
//     with its margin (R_F + 2, R_P · 1.075 rounded up).
//   * round constants: the Poseidon paper's Grain LFSR in self-shrinking mode, initialised with
//     field = 1 (prime), S-box = 1 (as neptune passes it), n = 255, t, R_F, R_P and thirty 1 bits;
//     each constant is 255 bits read most significant first, rejected when ≥ r.
//     (R_F + R_P)·t constants, t added per round to every element, partial rounds included.
//   * MDS: the Cauchy matrix M[i][j] = 1 / (x_i + y_j) with x_i = i, y_j = t + j.
//   * state = [domain tag, preimage...]; the hash is element 1 after the permutation. The tag of a
//     Merkle-tree node is 2^arity - 1 (3 for the binary trees of Filecoin's column/tree-r hashing).
// Each round adds its constants, applies the S-box (all elements in full rounds, element 0 in
// partial rounds) and multiplies the state by M (new_j = Σ_i M[i][j]·s_i). neptune's own test
// vector for arity 2, hash(0, 1), checks all of this end to end (tests/r1cs).
#pragma once

#include <span>
#include <vector>

#include "common/result.hpp"
#include "r1cs/gadgets/num.hpp"

namespace cuzk::r1cs {

struct PoseidonParams {
  size_t arity = 0;
  size_t width = 0;
  size_t full_rounds = 0;
  size_t partial_rounds = 0;
  std::vector<Fr> round_constants;  // (full + partial) · width, round by round
  std::vector<Fr> mds;              // width × width, row-major
  Fr merkle_tag;                    // 2^arity - 1

  // neptune's Standard parameters for this arity (2, 4, 8, 11, 16, 24 or 36).
  static Result<PoseidonParams> neptune(size_t arity);
  const Fr& m(size_t i, size_t j) const { return mds[i * width + j]; }
};

// The arity-2 parameters, derived once.
const PoseidonParams& poseidon_arity2();

void poseidon_permute(const PoseidonParams& p, std::span<Fr> state);
// Merkle-tree hash of exactly `arity` elements (domain tag 2^arity - 1). An error on a wrong count.
Result<Fr> poseidon_hash(const PoseidonParams& p, std::span<const Fr> preimage);

// The same hash in a circuit: 3 constraints per S-box, (R_F · t + R_P) S-boxes (237 constraints
// for arity 2); the linear layers are free. preimage.size() must be arity.
Result<Num> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonParams& p,
                                  std::span<const Num> preimage);

}  // namespace cuzk::r1cs
