// The byte hashes of the vanilla (out-of-circuit) side of Filecoin's proofs:
//   * SHA-256 (OpenSSL libcrypto), and SHA-254 = SHA-256 with the fr32 truncation (bits 254, 255
//     cleared) that makes a digest a canonical Fr (reference/filecoin-circuits.md §0);
//   * BLAKE2b (RFC 7693) with any output length 1…64 and an optional key of up to 64 bytes: the
//     Feistel round function of the expander graph takes BLAKE2b-512 of 16 bytes millions of times
//     per sector, so the compression runs here rather than behind OpenSSL's per-call EVP setup;
//     tests check it against OpenSSL's BLAKE2b-512 and BLAKE2BMAC.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin::vanilla {

using Digest32 = std::array<uint8_t, 32>;

Digest32 sha256(std::span<const uint8_t> message);
// SHA-256 of the concatenation of the parts.
Digest32 sha256(std::initializer_list<std::span<const uint8_t>> parts);
// trim_to_fr32(sha256(parts)).
Domain sha254(std::initializer_list<std::span<const uint8_t>> parts);

// The Merkle node hash of the binary SHA-254 tree (tree_d): trim(sha256(left ‖ right)).
Domain sha254_node(const Domain& left, const Domain& right);

// BLAKE2b with an out_len-byte digest (1…64) and an optional key (≤ 64 bytes).
void blake2b(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> key = {});

inline std::array<uint8_t, 64> blake2b_512(std::span<const uint8_t> message) {
  std::array<uint8_t, 64> out;
  blake2b(out, message);
  return out;
}

// Keyed BLAKE2b with a 32-byte digest over the concatenation of the parts (the synthetic-PoRep
// key derivation).
Digest32 blake2b_256_keyed(std::string_view key, std::initializer_list<std::span<const uint8_t>> parts);

inline std::span<const uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace cuzk::filecoin::vanilla
