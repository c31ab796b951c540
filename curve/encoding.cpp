// ZCash / IETF encodings of G1 and G2 points (see encoding.hpp for the format).
#include "curve/encoding.hpp"

#include <cstring>
#include <string>

#include "field/sqrt.hpp"

namespace cuzk {
namespace {

constexpr uint8_t kCompressed = 0x80;
constexpr uint8_t kInfinity = 0x40;
constexpr uint8_t kSort = 0x20;
constexpr uint8_t kFlagMask = 0xe0;

// Field element <-> big-endian bytes. Fp2 is written c1 first, then c0.
void write_coord(const Fp& a, uint8_t* out) { a.to_bytes_be(out); }
void write_coord(const Fp2& a, uint8_t* out) {
  a.c1.to_bytes_be(out);
  a.c0.to_bytes_be(out + Fp::BYTES);
}
bool read_coord(const uint8_t* in, Fp& a) { return a.from_bytes_be(in); }
bool read_coord(const uint8_t* in, Fp2& a) {
  return a.c1.from_bytes_be(in) && a.c0.from_bytes_be(in + Fp::BYTES);
}

template <class A>
constexpr size_t coord_bytes() {
  return sizeof(typename A::field) == sizeof(Fp) ? Fp::BYTES : 2 * Fp::BYTES;
}

template <class A>
void compress(const A& p, uint8_t* out) {
  constexpr size_t n = coord_bytes<A>();
  if (p.is_inf()) {
    std::memset(out, 0, n);
    out[0] = kCompressed | kInfinity;
    return;
  }
  write_coord(p.x, out);
  out[0] |= kCompressed | (lexicographically_largest(p.y) ? kSort : 0);
}

template <class A>
void serialize(const A& p, uint8_t* out) {
  constexpr size_t n = coord_bytes<A>();
  if (p.is_inf()) {
    std::memset(out, 0, 2 * n);
    out[0] = kInfinity;
    return;
  }
  write_coord(p.x, out);
  write_coord(p.y, out + n);
}

template <class A>
Result<A> decode(std::span<const uint8_t> in, Check check, const char* name) {
  using F = typename A::field;
  constexpr size_t n = coord_bytes<A>();
  const std::string who = std::string(name) + " point: ";
  if (in.size() != n && in.size() != 2 * n)
    return make_error(who + "wrong length: expected " + std::to_string(n) + " (compressed) or " +
                      std::to_string(2 * n) + " (uncompressed) bytes, got " + std::to_string(in.size()));
  const bool compressed_len = in.size() == n;
  const uint8_t flags = in[0] & kFlagMask;
  const bool c = flags & kCompressed, inf = flags & kInfinity, sort = flags & kSort;
  if (compressed_len && !c)
    return make_error(who + "compression flag (0x80) is clear on a " + std::to_string(n) +
                      "-byte encoding, which is the compressed length");
  if (!compressed_len && c)
    return make_error(who + "compression flag (0x80) is set on a " + std::to_string(2 * n) +
                      "-byte encoding, which is the uncompressed length");

  bool rest_zero = (in[0] & ~kFlagMask) == 0;
  for (size_t i = 1; i < in.size(); ++i) rest_zero = rest_zero && in[i] == 0;
  if (inf) {
    if (sort) return make_error(who + "sort flag (0x20) is set on the point at infinity");
    if (!rest_zero)
      return make_error(who + "non-canonical infinity: nonzero bytes after the infinity flag (0x40)");
    return A::infinity();
  }
  if (sort && !c) return make_error(who + "sort flag (0x20) is set on an uncompressed encoding");
  if (!c && rest_zero)
    return make_error(who + "non-canonical infinity: all-zero bytes without the infinity flag (0x40)");

  uint8_t buf[2 * n];
  std::memcpy(buf, in.data(), in.size());
  buf[0] &= static_cast<uint8_t>(~kFlagMask);
  A p;
  if (!read_coord(buf, p.x)) return make_error(who + "x coordinate is not less than p");
  if (c) {
    F y;
    if (!sqrt(p.x.sqr() * p.x + A::params::b(), y))
      return make_error(who + "not on the curve: no y exists for this x (x^3 + b is not a square)");
    p.y = lexicographically_largest(y) == sort ? y : -y;
  } else {
    if (!read_coord(buf + n, p.y)) return make_error(who + "y coordinate is not less than p");
    if (!p.is_on_curve()) return make_error(who + "not on the curve");
  }
  if (check == Check::full && !p.in_subgroup()) return make_error(who + "not in the prime-order subgroup");
  return p;
}

}  // namespace

void g1_compress(const G1Affine& p, uint8_t* out) { compress(p, out); }
void g1_serialize(const G1Affine& p, uint8_t* out) { serialize(p, out); }
void g2_compress(const G2Affine& p, uint8_t* out) { compress(p, out); }
void g2_serialize(const G2Affine& p, uint8_t* out) { serialize(p, out); }

std::array<uint8_t, G1_COMPRESSED_BYTES> g1_compress(const G1Affine& p) {
  std::array<uint8_t, G1_COMPRESSED_BYTES> out;
  compress(p, out.data());
  return out;
}
std::array<uint8_t, G1_UNCOMPRESSED_BYTES> g1_serialize(const G1Affine& p) {
  std::array<uint8_t, G1_UNCOMPRESSED_BYTES> out;
  serialize(p, out.data());
  return out;
}
std::array<uint8_t, G2_COMPRESSED_BYTES> g2_compress(const G2Affine& p) {
  std::array<uint8_t, G2_COMPRESSED_BYTES> out;
  compress(p, out.data());
  return out;
}
std::array<uint8_t, G2_UNCOMPRESSED_BYTES> g2_serialize(const G2Affine& p) {
  std::array<uint8_t, G2_UNCOMPRESSED_BYTES> out;
  serialize(p, out.data());
  return out;
}

Result<G1Affine> g1_decode(std::span<const uint8_t> in, Check check) {
  return decode<G1Affine>(in, check, "G1");
}
Result<G2Affine> g2_decode(std::span<const uint8_t> in, Check check) {
  return decode<G2Affine>(in, check, "G2");
}

}  // namespace cuzk
