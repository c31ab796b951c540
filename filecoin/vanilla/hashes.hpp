// The byte hashes of the vanilla (out-of-circuit) side of Filecoin's proofs:
//   * SHA-256 and SHA-254 (SHA-256 with the fr32 truncation, reference/filecoin-circuits.md §0),
//     brought in from their single definitions;
//   * BLAKE2b (RFC 7693) with any output length 1…64 and an optional key of up to 64 bytes: the
//     Feistel round function of the expander graph takes BLAKE2b-512 of 16 bytes millions of times
//     per sector, so the compression runs here rather than behind OpenSSL's per-call EVP setup;
//     tests check it against OpenSSL's BLAKE2b-512 and BLAKE2BMAC.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "filecoin/gadgets/sha254.hpp"
#include "filecoin/types/domain.hpp"
#include "r1cs/gadgets/sha256.hpp"

namespace cuzk::filecoin::vanilla {

using Digest32 = std::array<uint8_t, 32>;

// SHA-256 and SHA-254 have one definition each (r1cs/gadgets/sha256.hpp, filecoin/gadgets/sha254.hpp).
using r1cs::sha256;

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
