// ZCash / IETF point encodings of BLS12-381 (the format of bellman .params, .vk and proofs, blst
// and blstrs):
//
//   G1 compressed 48 B = x; uncompressed 96 B = x || y.
//   G2 compressed 96 B = x.c1 || x.c0; uncompressed 192 B = x.c1 || x.c0 || y.c1 || y.c0.
//   Coordinates big-endian, canonical (< p). The 3 high bits of byte 0 are flags:
//   0x80 compressed, 0x40 infinity (everything else zero), 0x20 y is lexicographically largest
//   (compressed, finite points only). Infinity: c0 00.. compressed, 40 00.. uncompressed.
//
// Decoding takes the format from the input length and rejects, with a message naming the rule,
// anything blst would reject plus (with Check::full) points outside the prime-order subgroup.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "common/result.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"

namespace cuzk {

inline constexpr size_t G1_COMPRESSED_BYTES = 48;
inline constexpr size_t G1_UNCOMPRESSED_BYTES = 96;
inline constexpr size_t G2_COMPRESSED_BYTES = 96;
inline constexpr size_t G2_UNCOMPRESSED_BYTES = 192;

// full: on the curve and in the subgroup (blstrs from_uncompressed / from_compressed).
// curve_only: on the curve, no subgroup check (bellperson/blstrs from_*_unchecked); for trusted
// inputs such as parameter files that were checked when written.
enum class Check { full, curve_only };

std::array<uint8_t, G1_COMPRESSED_BYTES> g1_compress(const G1Affine& p);
std::array<uint8_t, G1_UNCOMPRESSED_BYTES> g1_serialize(const G1Affine& p);
std::array<uint8_t, G2_COMPRESSED_BYTES> g2_compress(const G2Affine& p);
std::array<uint8_t, G2_UNCOMPRESSED_BYTES> g2_serialize(const G2Affine& p);

// Writing forms for callers that fill big buffers: `out` must hold the encoded size.
void g1_compress(const G1Affine& p, uint8_t* out);
void g1_serialize(const G1Affine& p, uint8_t* out);
void g2_compress(const G2Affine& p, uint8_t* out);
void g2_serialize(const G2Affine& p, uint8_t* out);

// Accepts 48 (compressed) or 96 (uncompressed) bytes; the compression flag must agree with the length.
Result<G1Affine> g1_decode(std::span<const uint8_t> in, Check check = Check::full);
// Accepts 96 (compressed) or 192 (uncompressed) bytes.
Result<G2Affine> g2_decode(std::span<const uint8_t> in, Check check = Check::full);

}  // namespace cuzk
