// "SHA-254": SHA-256 whose digest, read as a little-endian integer, has its top two bits cleared
// so that it is a field element (rust-fil-proofs: filecoin-hashers/src/sha256.rs, Sha256Function;
// reference/filecoin-circuits.md §2.6). It hashes the nodes of tree_d (comm_d), SnapDeals' apex
// trees, and, through create_label, SDR labels.
//
// Out of circuit the result is a Domain (32 little-endian bytes). In circuit it is one aux variable
// holding the same field element: SHA-256 of the preimage bits, the digest's bits reversed inside
// each byte (little-endian bit order), the first 254 of them packed (pack_bits).
#pragma once

#include <initializer_list>

#include <span>

#include "filecoin/types/domain.hpp"
#include "r1cs/gadgets/num.hpp"

namespace cuzk::filecoin {

// trim_to_fr32(sha256(data)): Sha256Function::hash.
Domain sha254(std::span<const uint8_t> data);
// trim(sha256(the concatenation of the parts)).
Domain sha254(std::initializer_list<std::span<const uint8_t>> parts);
// trim_to_fr32(sha256(left ‖ right)): Sha256Function::hash2 and the Merkle node of tree_d.
Domain sha254_node(const Domain& left, const Domain& right);

// hash_circuit: SHA-256 of `bits` (SHA-256 bit order, a multiple of 8 long), the digest's bits
// reversed inside each byte, the first 254 packed: the SHA-256 rows, then one packing row.
r1cs::AllocatedNum sha254_circuit(r1cs::ConstraintSystem& cs, std::span<const r1cs::Boolean> bits);

// hash2_circuit, the node hash of two field elements: to_bits_le of a, then of b (256 rows each),
// each padded with one constant false and reversed inside each byte, then sha254_circuit of the
// 512 bits. 45,379 rows and 45,331 aux per node.
r1cs::AllocatedNum sha254_node_circuit(r1cs::ConstraintSystem& cs, const r1cs::Num& a, const r1cs::Num& b);

// hash_multi_leaf_circuit (what PoRCircuit calls for the binary tree_d): for each leaf in order,
// to_bits_le, pad, reverse inside bytes; then sha254_circuit. With two leaves it is
// sha254_node_circuit, row for row.
r1cs::AllocatedNum sha254_multi_leaf_circuit(r1cs::ConstraintSystem& cs, std::span<const r1cs::Num> leaves);

// hash_leaf_bits_circuit, for leaves already decomposed into little-endian bits: each side padded
// with constant false to a multiple of 8 and reversed inside bytes, then sha254_circuit.
r1cs::AllocatedNum sha254_leaf_bits_circuit(r1cs::ConstraintSystem& cs, std::span<const r1cs::Boolean> left,
                                            std::span<const r1cs::Boolean> right);

}  // namespace cuzk::filecoin
