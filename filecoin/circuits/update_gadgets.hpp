// The gadgets of the EmptySectorUpdate circuit, row for row as rust-fil-proofs builds them
// (storage-proofs-update/src/gadgets.rs; reference/filecoin-circuits.md §3.3). Poseidon here is
// neptune's arity 2 with the Custom(1) tag (POSEIDON_CONSTANTS_GEN_RANDOMNESS) unless it hashes a
// tree node; SHA-254 nodes are hash2_circuit / hash_multi_leaf_circuit (45,379 rows each).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "filecoin/por/por_circuit.hpp"
#include "r1cs/gadgets/boolean.hpp"
#include "r1cs/gadgets/num.hpp"

namespace cuzk::filecoin {

// neptune's poseidon_hash of arity 2 with the Custom(1) tag: 311 rows, a new variable.
Result<r1cs::AllocatedNum> gen_randomness_circuit(r1cs::ConstraintSystem& cs, const r1cs::AllocatedNum& a,
                                                  const r1cs::AllocatedNum& b);

// apex_por: the apex tree over `apex_leaves` built with hash2 row by row, left to right
// (apex_leaves − 1 hashes), then por_no_challenge_input over tree_d from its root up one level per
// partition bit (siblings `partition_path`) to comm_d. apex_leaves.size() must be a power of two.
Status apex_por(r1cs::ConstraintSystem& cs, std::span<const r1cs::AllocatedNum> apex_leaves,
                std::span<const r1cs::AllocatedBit> partition_bits,
                std::span<const r1cs::AllocatedNum> partition_path, const r1cs::AllocatedNum& comm_d);

// gen_challenge_bits: per digest j < D = ceil(challenges / (254 div bits_per_challenge)):
// alloc idx; (D·partition + j·ONE)·(ONE) = (idx); digest = H_Custom(1)(comm_r_new, idx); its 255
// bits allocated with (Σ 2^i·bit_i)·(ONE) = (digest); then consecutive chunks of
// bits_per_challenge bits, at most 254 div bits_per_challenge per digest, until `challenges`.
// 568 rows per digest.
Result<std::vector<std::vector<r1cs::AllocatedBit>>> gen_challenge_bits(r1cs::ConstraintSystem& cs,
                                                                        const r1cs::AllocatedNum& comm_r_new,
                                                                        const r1cs::AllocatedNum& partition,
                                                                        size_t challenges,
                                                                        size_t bits_per_challenge);

// get_challenge_high_bits: for each (h, select bit) in order, packed = pack_bits(top h bits of
// c_bits), alloc z; (packed)·(select bit) = (z); then alloc the sum; (Σ z)·(ONE) = (sum).
// 13 rows. hs.size() must equal h_select_bits.size() and every h ≤ c_bits.size().
Result<r1cs::AllocatedNum> get_challenge_high_bits(r1cs::ConstraintSystem& cs,
                                                   std::span<const r1cs::AllocatedBit> c_bits,
                                                   std::span<const r1cs::AllocatedBit> h_select_bits,
                                                   std::span<const unsigned> hs);

// label_r_new: m = leaf_d_new·rho (mul), alloc r; (leaf_r_old + m)·(ONE) = (r). 2 rows.
r1cs::AllocatedNum label_r_new(r1cs::ConstraintSystem& cs, const r1cs::AllocatedNum& leaf_r_old,
                               const r1cs::AllocatedNum& leaf_d_new, const r1cs::AllocatedNum& rho);

}  // namespace cuzk::filecoin
