// The SDR label hash (rust-fil-proofs: storage-proofs-porep/src/stacked/circuit/create_label.rs,
// vanilla/create_label/single.rs; reference/filecoin-circuits.md §3.1.3):
//
//   label = trim_to_fr32(sha256(replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 20 zero bytes ‖ parents))
//
// with the 37 parent labels, 32 little-endian bytes each: a 1,248-byte preimage, 20 SHA-256 blocks
// with the padding. Node 0 has no parents (a 64-byte preimage), and is never challenged.
#pragma once

#include <cstdint>
#include <span>

#include "common/result.hpp"
#include "filecoin/gadgets/uint64.hpp"
#include "filecoin/types/domain.hpp"
#include "r1cs/gadgets/num.hpp"
#include "r1cs/gadgets/uint32.hpp"

namespace cuzk::filecoin {

inline constexpr size_t kLabelParents = 37;  // TOTAL_PARENTS: 6 DRG + 8 expander, expanded

// Out of circuit: the label of `node` in `layer` (1-based) from its parents' labels, in their
// expanded order (37, or none for node 0).
Domain label_hash(const Domain& replica_id, uint32_t layer, uint64_t node, std::span<const Domain> parents);

// create_label_circuit: the preimage bits are replica_id padded with constant false to 256,
// layer's 32 bits and node's 64 bits most significant first, constant false to 512, then each
// parent padded with constant false to 256 bits; SHA-256 of them, the digest's bits reversed inside
// each byte, the first 254 packed (pack_bits). The bits are in SHA-256 order (each 32-byte value
// as reverse_bit_numbering of its to_bits_le, in the PoRep circuit).
//
// With the replica id and parents decomposed as the PoRep circuit decomposes them (255 allocated
// bits and one constant false each), a constant layer and an allocated node: 522,269 rows and
// 521,749 aux, whatever the layer. An error, and nothing synthesized, when the replica id has
// fewer than 32 or more than 256 bits, a parent none or more than 256, or the parents are not 37.
Result<r1cs::AllocatedNum> create_label_circuit(r1cs::ConstraintSystem& cs,
                                                std::span<const r1cs::Boolean> replica_id,
                                                std::span<const std::span<const r1cs::Boolean>> parents,
                                                const r1cs::UInt32& layer, const UInt64& node);

}  // namespace cuzk::filecoin
