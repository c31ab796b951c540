// G1 of BLS12-381: E1 / Fp : y^2 = x^3 + 4.
#pragma once

#include "curve/point.hpp"
#include "field/fields.hpp"

namespace cuzk {

struct G1Params {
  using field = Fp;
  // Constants in Montgomery form (x * 2^384 mod p), computed with exact integer arithmetic and
  // checked against the canonical values by tests/curve.
  CUZK_HD static constexpr Fp b() {  // 4
    return Fp{{0xaa270000000cfff3ull, 0x53cc0032fc34000aull, 0x478fe97a6b0a807full, 0xb1d37ebee6ba24d7ull,
               0x8ec9733bbf78ab2full, 0x09d645513d83de7eull}};
  }
  CUZK_HD static constexpr Fp generator_x() {
    return Fp{{0x5cb38790fd530c16ull, 0x7817fc679976fff5ull, 0x154f95c7143ba1c1ull, 0xf0ae6acdf3d0e747ull,
               0xedce6ecc21dbf440ull, 0x120177419e0bfb75ull}};
  }
  CUZK_HD static constexpr Fp generator_y() {
    return Fp{{0xbaac93d50ce72271ull, 0x8c22631a7918fd8eull, 0xdd595f13570725ceull, 0x51ac582950405194ull,
               0x0e1c8c3fad0059c0ull, 0x0bbc3efc5008a26aull}};
  }
  // beta: the cube root of unity in Fp for which phi(x, y) = (beta x, y) acts on G1 as [-z^2]
  // (canonical 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe;
  // its square, the other root, acts as [z^2 - 1]). tests/curve checks both facts.
  CUZK_HD static constexpr Fp beta() {
    return Fp{{0x30f1361b798a64e8ull, 0xf3b8ddab7ece5a2aull, 0x16a8ca3ac61577f7ull, 0xc26a2ff874fd029bull,
               0x3636b76660701c6eull, 0x051ba4ab241b6160ull}};
  }
  // phi on Jacobian coordinates: x = X/Z^2 scales by beta, y unchanged.
  template <class J>
  CUZK_HD static J endomorphism(const J& p) {
    return J(p.X * beta(), p.Y, p.Z);
  }
  // Bowe, "Faster subgroup checks for BLS12-381" (ePrint 2019/814) and Scott (ePrint 2021/1130):
  // P is in G1 iff phi(P) == [-z^2]P. Since z^2 = |z|^2, that is phi(P) == -[|z|]([|z|]P).
  template <class J>
  CUZK_HD static bool in_subgroup(const J& p) {
    const uint64_t x = curve::bls_x_abs;
    const J zzp = p.mul(&x, 1).mul(&x, 1);
    return endomorphism(p) == zzp.neg();
  }
};

using G1Affine = curve::affine_t<Fp, G1Params>;
using G1Jacobian = curve::jacobian_t<Fp, G1Params>;
using G1Xyzz = curve::xyzz_t<Fp, G1Params>;

}  // namespace cuzk
