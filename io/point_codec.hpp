// Point decoding shared by the readers: ffjavascript's LEM layout (.zkey) and the checks every
// decoded point goes through, applied to whole arrays on all cores. Internal to io/.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "common/parallel_ranges.hpp"
#include "common/result.hpp"
#include "curve/encoding.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"

namespace cuzk::io {

inline constexpr size_t G1_LEM_BYTES = 2 * Fp::BYTES;
inline constexpr size_t G2_LEM_BYTES = 4 * Fp::BYTES;

// A little-endian Montgomery coordinate: the limbs of Fp as they are, if below p.
inline bool fp_from_lem(const uint8_t* in, Fp& out) {
  uint64_t v[Fp::N] = {};
  for (size_t i = 0; i < Fp::N; ++i)
    for (size_t b = 0; b < 8; ++b) v[i] |= uint64_t(in[8 * i + b]) << (8 * b);
  if (!Fp::is_canonical(v)) return false;
  for (size_t i = 0; i < Fp::N; ++i) out.l[i] = v[i];
  return true;
}
inline void fp_to_lem(const Fp& x, uint8_t* out) {
  for (size_t i = 0; i < Fp::N; ++i)
    for (size_t b = 0; b < 8; ++b) out[8 * i + b] = uint8_t(x.l[i] >> (8 * b));
}

inline bool point_from_lem(const uint8_t* in, G1Affine& p) {
  return fp_from_lem(in, p.x) && fp_from_lem(in + Fp::BYTES, p.y);
}
inline bool point_from_lem(const uint8_t* in, G2Affine& p) {  // x.c0, x.c1, y.c0, y.c1
  return fp_from_lem(in, p.x.c0) && fp_from_lem(in + Fp::BYTES, p.x.c1) &&
         fp_from_lem(in + 2 * Fp::BYTES, p.y.c0) && fp_from_lem(in + 3 * Fp::BYTES, p.y.c1);
}
inline void point_to_lem(const G1Affine& p, uint8_t* out) {
  fp_to_lem(p.x, out);
  fp_to_lem(p.y, out + Fp::BYTES);
}
inline void point_to_lem(const G2Affine& p, uint8_t* out) {
  fp_to_lem(p.x.c0, out);
  fp_to_lem(p.x.c1, out + Fp::BYTES);
  fp_to_lem(p.y.c0, out + 2 * Fp::BYTES);
  fp_to_lem(p.y.c1, out + 3 * Fp::BYTES);
}
template <class A>
constexpr size_t lem_bytes() {
  return std::is_same_v<A, G1Affine> ? G1_LEM_BYTES : G2_LEM_BYTES;
}

// Why p fails `check`, or nullptr when it passes. Infinity passes (callers decide about it).
template <class A>
const char* point_defect(const A& p, Check check) {
  if (!p.is_on_curve()) return "is not on the curve";
  if (check == Check::full && !p.is_inf() && !p.in_subgroup()) return "is not in the prime-order subgroup";
  return nullptr;
}

// Decodes `count` LEM points from `bytes` (exactly count * lem_bytes long) into `out`.
// `what` names the array in messages: "zkey: H point 17 is not on the curve".
template <class A>
Status decode_lem_array(std::span<const uint8_t> bytes, std::vector<A>& out, Check check,
                        const std::string& what) {
  constexpr size_t size = lem_bytes<A>();
  const size_t n = bytes.size() / size;
  out.resize(n);
  return parallel_ranges(n, 1024, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) {
      if (!point_from_lem(bytes.data() + i * size, out[i]))
        return make_error(what + " point " + std::to_string(i) + " has a coordinate >= p");
      if (const char* defect = point_defect(out[i], check))
        return make_error(what + " point " + std::to_string(i) + " " + defect);
    }
    return Status::Ok();
  });
}

}  // namespace cuzk::io
