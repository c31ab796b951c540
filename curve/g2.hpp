// G2 of BLS12-381: the sextic twist E2 / Fp2 : y^2 = x^3 + 4(u + 1).
#pragma once

#include "curve/point.hpp"
#include "field/fp2.hpp"

namespace cuzk {

struct G2Params {
  using field = Fp2;
  // Constants in Montgomery form, checked against their canonical values by tests/curve.
  CUZK_HD static constexpr Fp2 b() {  // 4 + 4u
    constexpr Fp four{{0xaa270000000cfff3ull, 0x53cc0032fc34000aull, 0x478fe97a6b0a807full,
                       0xb1d37ebee6ba24d7ull, 0x8ec9733bbf78ab2full, 0x09d645513d83de7eull}};
    return Fp2{four, four};
  }
  CUZK_HD static constexpr Fp2 generator_x() {
    return Fp2{Fp{{0xf5f28fa202940a10ull, 0xb3f5fb2687b4961aull, 0xa1a893b53e2ae580ull, 0x9894999d1a3caee9ull,
                   0x6f67b7631863366bull, 0x058191924350bcd7ull}},
               Fp{{0xa5a9c0759e23f606ull, 0xaaa0c59dbccd60c3ull, 0x3bb17e18e2867806ull, 0x1b1ab6cc8541b367ull,
                   0xc2b6ed0ef2158547ull, 0x11922a097360edf3ull}}};
  }
  CUZK_HD static constexpr Fp2 generator_y() {
    return Fp2{Fp{{0x4c730af860494c4aull, 0x597cfa1f5e369c5aull, 0xe7e6856caa0a635aull, 0xbbefb5e96e0d495full,
                   0x07d3a975f0ef25a2ull, 0x0083fd8e7e80dae5ull}},
               Fp{{0xadc0fc92df64b05dull, 0x18aa270a2b1461dcull, 0x86adac6a3be4eba0ull, 0x79495c4ec93da33aull,
                   0xe7175850a43ccaedull, 0x0b2bc2a163de1bf2ull}}};
  }
  // psi = untwist-Frobenius-twist: psi(x, y) = (cx * conj(x), cy * conj(y)) with
  // cx = 1/(u+1)^((p-1)/3) and cy = 1/(u+1)^((p-1)/2).
  CUZK_HD static constexpr Fp2 psi_cx() {
    return Fp2{Fp::zero(), Fp{{0x890dc9e4867545c3ull, 0x2af322533285a5d5ull, 0x50880866309b7e2cull,
                               0xa20d1b8c7e881024ull, 0x14e4f04fe2db9068ull, 0x14e56d3f1564853aull}}};
  }
  CUZK_HD static constexpr Fp2 psi_cy() {
    return Fp2{Fp{{0x3e2f585da55c9ad1ull, 0x4294213d86c18183ull, 0x382844c88b623732ull, 0x92ad2afd19103e18ull,
                   0x1d794e4fac7cf0b9ull, 0x0bd592fc7d825ec8ull}},
               Fp{{0x7bcfa7a25aa30fdaull, 0xdc17dec12a927e7cull, 0x2f088dd86b4ebef1ull, 0xd1ca2087da74d4a7ull,
                   0x2da2596696cebc1dull, 0x0e2b7eedbbfd87d2ull}}};
  }
  // psi on Jacobian coordinates: conjugation is a field automorphism, so it maps (X, Y, Z) to
  // (conj X, conj Y, conj Z) and the constants then scale x and y.
  template <class J>
  CUZK_HD static J endomorphism(const J& p) {
    return J(p.X.conjugate() * psi_cx(), p.Y.conjugate() * psi_cy(), p.Z.conjugate());
  }
  // Scott, "A note on group membership tests for G1, G2 and GT on BLS pairing-friendly curves"
  // (ePrint 2021/1130): P is in G2 iff psi(P) == [z]P, i.e. psi(P) == -[|z|]P.
  template <class J>
  CUZK_HD static bool in_subgroup(const J& p) {
    const uint64_t x = curve::bls_x_abs;
    return endomorphism(p) == p.mul(&x, 1).neg();
  }
};

using G2Affine = curve::affine_t<Fp2, G2Params>;
using G2Jacobian = curve::jacobian_t<Fp2, G2Params>;
using G2Xyzz = curve::xyzz_t<Fp2, G2Params>;

}  // namespace cuzk
