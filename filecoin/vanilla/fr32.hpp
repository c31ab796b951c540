// fr32 padding (reference/filecoin-circuits.md §6.1; rust-fil-proofs: fr32/src/padding.rs): the
// raw bytes form one bit stream, least significant bit of each byte first; every 254 bits become
// one 32-byte node with its two top bits zero, so 127 raw bytes fill 128 padded bytes (4 nodes)
// and every node is a canonical Fr.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin::vanilla {

// Raw bytes that fill `padded_bytes` of padded space (a multiple of 128): padded_bytes / 128 · 127.
constexpr uint64_t fr32_unpadded_size(uint64_t padded_bytes) { return padded_bytes / 128 * 127; }

// The `nodes` padded nodes of `raw`, which is zero-extended to nodes · 254 bits (raw may be
// shorter than that; longer input is the caller's error and is cut off).
std::vector<Domain> fr32_pad(std::span<const uint8_t> raw, uint64_t nodes);

// The inverse: the raw bytes (nodes · 254 / 8 of them, rounded down) carried by padded nodes.
std::vector<uint8_t> fr32_unpad(std::span<const Domain> nodes);

}  // namespace cuzk::filecoin::vanilla
