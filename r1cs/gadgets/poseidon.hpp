// Poseidon over BLS12-381 Fr exactly as neptune v11 builds it (argumentcomputer/neptune, the
// "Standard" strength Filecoin uses; reference/filecoin-circuits.md §2.7). The constants are
// rederived here from their definition rather than copied:
//   * width t = arity + 1, S-box x^5, R_F = 8 full rounds (4 before, 4 after the partial ones),
//     R_P partial rounds from neptune's round-number table (t = 3: 55, t = 5: 56, t = 9 and 12: 57,
//     t = 17 and 25: 59, t = 37: 60): the Poseidon paper's security inequalities for a 255-bit
//     field and 128-bit security with its margin (R_F + 2, R_P · 1.075 rounded up).
//   * raw round constants: the paper's Grain LFSR in self-shrinking mode, initialised with
//     field = 1, S-box = 1, n = 255, t, R_F, R_P and thirty 1 bits; each constant is 255 bits read
//     most significant first, rejected when ≥ r; (R_F + R_P)·t of them.
//   * MDS: the Cauchy matrix M[i][j] = 1 / (i + t + j). A state is a row vector: new_j = Σ_i s_i·M[i][j].
//   * state = [domain tag, preimage...]; the hash is element 1 after the permutation.
// From these follow neptune's optimized constants (§2.7.6): the compressed round constants
// (additions moved behind the S-boxes and through the linear layers), and the factorization of M
// over the partial rounds into one dense `pre_sparse` matrix and R_P sparse ones. The optimized
// permutation and the circuit use them; the reference permutation uses the raw ones, and both
// permutations agree.
//
// The circuit is neptune's legacy `poseidon_hash` (src/circuit.rs), row for row and column for
// column: 3(t-1) + 4t(R_F-1) + 4R_P + 1 constraints with one new aux variable each (arity 2: 311,
// 4: 377, 8: 505, 11: 598). The Filecoin parameter files fix these rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "field/dot_product.hpp"
#include "r1cs/gadgets/num.hpp"

namespace cuzk::r1cs {

// neptune's HashType as far as Filecoin uses it: what the domain tag (state element 0) is.
class PoseidonHashType {
 public:
  enum class Kind { merkle_tree, constant_length, custom };

  // A Merkle-tree node of `arity` children: tag 2^arity − 1 (3, 15, 255, 2047, ...).
  static PoseidonHashType merkle_tree() { return {Kind::merkle_tree, 0}; }
  // A preimage of `length` ≤ arity elements, zero-padded to the arity: tag length · 2^64.
  static PoseidonHashType constant_length(uint64_t length) { return {Kind::constant_length, length}; }
  // An application tag `id` in 1..256 (SnapDeals uses Custom(1)): tag id · 2^40.
  static PoseidonHashType custom(uint64_t id) { return {Kind::custom, id}; }

  Kind kind() const { return kind_; }
  uint64_t parameter() const { return param_; }  // the length or the id
  // The tag for a hash of this arity; an error for an id outside 1..256 or a length of 0 or above
  // the arity.
  Result<Fr> domain_tag(size_t arity) const;

 private:
  PoseidonHashType(Kind kind, uint64_t param) : kind_(kind), param_(param) {}
  Kind kind_;
  uint64_t param_;
};

// A partial round's matrix M″: identity except for a dense column 0 and a dense row 0.
struct PoseidonSparseMatrix {
  std::vector<Fr> w_hat;   // column 0, all t rows
  std::vector<Fr> v_rest;  // row 0 without its element 0 (t − 1)
};

struct PoseidonConstants {
  size_t arity = 0;
  size_t width = 0;  // t
  size_t full_rounds = 0;
  size_t half_full_rounds = 0;
  size_t partial_rounds = 0;
  std::vector<Fr> round_constants;             // raw: (R_F + R_P)·t, round by round
  std::vector<Fr> mds;                         // t × t, row-major
  std::vector<Fr> mds_inverse;                 // t × t, row-major
  std::vector<Fr> compressed_round_constants;  // R_F·t + R_P, in the order the optimized rounds use them
  std::vector<Fr> pre_sparse;                  // t × t: the last initial full round's matrix
  std::vector<PoseidonSparseMatrix> sparse;    // R_P, partial round p uses sparse[p]
  Fr merkle_tag;                               // 2^arity − 1

  // The circuit's linear forms over the partial rounds, fixed by the matrices. Write z_0..z_{t-1}
  // for the S-box outputs of the last initial full round and w_p for that of partial round p. The
  // S-box input of partial round p is Σ_k partial_form(p)[k]·(z ‖ w)_k, over t + p variables; the
  // state element j entering the first final full round is Σ_k final_forms[j·(t + R_P) + k]·(z ‖ w)_k.
  std::vector<Fr> partial_forms;  // partial round p's form at offset p·t + p(p−1)/2
  std::vector<Fr> final_forms;    // t × (t + R_P)

  const Fr& m(size_t i, size_t j) const { return mds[i * width + j]; }
  std::span<const Fr> partial_form(size_t p) const {
    const size_t offset = p * width + (p > 0 ? p * (p - 1) / 2 : 0);
    return std::span<const Fr>(partial_forms).subspan(offset, width + p);
  }

  // Derives neptune's Standard constants of this arity (2, 4, 8, 11, 16, 24 or 36).
  static Result<PoseidonConstants> derive(size_t arity);
};

// neptune's constants for `arity`, derived once per process on first use (thread-safe) and kept;
// an error for an arity neptune has no round numbers for.
Result<const PoseidonConstants*> poseidon_constants(size_t arity);
// The arities Filecoin uses (they cannot fail).
const PoseidonConstants& poseidon_constants_2();
const PoseidonConstants& poseidon_constants_4();
const PoseidonConstants& poseidon_constants_8();
const PoseidonConstants& poseidon_constants_11();

// The permutation of neptune's `hash_correct`: each round adds its raw constants, applies the
// S-box (every element in full rounds, element 0 in partial ones) and multiplies by M.
// state.size() must be c.width.
void poseidon_permute_reference(const PoseidonConstants& c, std::span<Fr> state);
// The same permutation computed as neptune's `hash_optimized_static`, with the compressed
// constants and the sparse matrices (about half the multiplications). state.size() must be c.width.
void poseidon_permute(const PoseidonConstants& c, std::span<Fr> state);

// The hash of `preimage`: state [tag, preimage, zero padding] permuted, element 1. MerkleTree and
// Custom need exactly c.arity elements, ConstantLength(L) exactly L. An error names a mismatch.
Result<Fr> poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage,
                         const PoseidonHashType& type = PoseidonHashType::merkle_tree());
// A Merkle-tree node from exactly c.arity children (the caller guarantees the count): the hot path
// of tree building, with no checks and no allocation.
Fr poseidon_merkle_node(const PoseidonConstants& c, const Fr* children);

// neptune's legacy circuit for the same hash. The preimage elements are what neptune receives as
// allocated numbers: each should be a single variable with coefficient 1 for the rows to be
// neptune's (any linear combination is accepted and gives a correct circuit). ConstantLength
// needs L = arity here, as in neptune's legacy circuit. The result is a new variable
// (ensure_allocated of element 1). Values are computed only when cs.has_values().
Result<Num> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonConstants& c,
                                  std::span<const Num> preimage,
                                  const PoseidonHashType& type = PoseidonHashType::merkle_tree());

// Σ_{i<n} a_i·b_{i·stride}, the rows and columns of the permutation's matrices (the native
// permutation's and the circuit's values): one reduction for the whole sum where n allows
// (field/dot_product.hpp; a width-9 MDS product 14 % faster than by products and sums, a
// 2349-sector WindowPoSt witness about 12 %).
inline Fr poseidon_dot(const Fr* a, const Fr* b, size_t stride, size_t n) {
  if (n <= field::kMaxDotTerms) return field::dot_product(a, 1, b, stride, n);
  Fr acc = Fr::zero();
  for (size_t i = 0; i < n; ++i) acc += a[i] * b[i * stride];
  return acc;
}

// Constraints of one circuit hash: 3(t−1) + 4t(R_F−1) + 4R_P + 1, each with one aux variable.
size_t poseidon_circuit_constraints(const PoseidonConstants& c);

}  // namespace cuzk::r1cs
