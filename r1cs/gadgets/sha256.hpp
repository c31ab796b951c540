// SHA-256 (FIPS 180-4): a plain native implementation, the reference for the circuit, and the
// circuit itself. Bits are in SHA-256's order: bytes in sequence, each most significant bit first.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "r1cs/gadgets/uint32.hpp"

namespace cuzk::r1cs {

using Sha256State = std::array<uint32_t, 8>;

inline constexpr Sha256State kSha256Iv = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// One compression of a 64-byte block into the state.
void sha256_compress(Sha256State& state, const uint8_t block[64]);
std::array<uint8_t, 32> sha256(std::span<const uint8_t> message);

// The compression function in the circuit: 512 block bits in, the new 8 words out.
std::array<UInt32, 8> sha256_compress_circuit(ConstraintSystem& cs, const std::array<UInt32, 8>& state,
                                              std::span<const Boolean> block_bits);
// SHA-256 of a message of any bit length (padding is constant bits, fixed by the length), returns
// the 256 digest bits.
std::vector<Boolean> sha256_circuit(ConstraintSystem& cs, std::span<const Boolean> message_bits);

// Bytes to bits and back, most significant bit of each byte first.
std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes);
std::vector<uint8_t> bits_to_bytes(std::span<const Boolean> bits);

}  // namespace cuzk::r1cs
