// SHA-256 (FIPS 180-4): a plain native implementation, the reference for the circuit, and the
// circuit itself. Bits are in SHA-256's order: bytes in sequence, each most significant bit first.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "r1cs/gadgets/uint32.hpp"

namespace cuzk::r1cs {

using Sha256State = std::array<uint32_t, 8>;

inline constexpr Sha256State kSha256Iv = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// One compression of a 64-byte block into the state.
void sha256_compress(Sha256State& state, const uint8_t block[64]);
// SHA-256 through OpenSSL; sha256_compress is the plain reference the circuit is checked against.
std::array<uint8_t, 32> sha256(std::span<const uint8_t> message);
// SHA-256 of the concatenation of the parts.
std::array<uint8_t, 32> sha256(std::initializer_list<std::span<const uint8_t>> parts);

// The circuit, as bellperson's sha256 gadget builds it (reference/filecoin-circuits.md §2.5).
//
// The IV as 8 constant words.
std::array<UInt32, 8> sha256_iv_circuit();
// One compression of 512 block bits (SHA-256 order) into `state`, inside its own MultiEq whose
// pending row is emitted at the end: the message schedule, 64 rounds with a and e kept as
// deferred sums until a round reads them, and the output words h0 … h7 added in that order.
// Constants fold: a constant block under a constant state costs nothing.
std::array<UInt32, 8> sha256_compression_circuit(ConstraintSystem& cs, std::span<const Boolean, 512> block,
                                                 const std::array<UInt32, 8>& state);
// SHA-256 of a message of any bit length: the padding is constant bits (a true, falses up to 448
// mod 512, the 64-bit big-endian length), then one compression per block from the IV. Returns the
// 256 digest bits, each word most significant bit first.
std::vector<Boolean> sha256_circuit(ConstraintSystem& cs, std::span<const Boolean> message_bits);

// Bytes to bits and back, most significant bit of each byte first.
std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes);
std::vector<uint8_t> bits_to_bytes(std::span<const Boolean> bits);

}  // namespace cuzk::r1cs
