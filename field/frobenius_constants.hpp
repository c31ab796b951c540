// Constants of the Frobenius maps x -> x^(p^k), k = 1, 2, 3, on the BLS12-381 tower
// Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi), xi = u + 1.
//
// Raising a tower element to p^k raises every Fp2 coefficient (conjugation for odd k) and moves
// the powers of the generators: v^(p^k) = v * xi^((p^k-1)/3), v^(2p^k) = v^2 * xi^(2(p^k-1)/3),
// w^(p^k) = w * xi^((p^k-1)/6). Those three factors are the constants here, in Montgomery form.
// They were computed as powers of xi with exact integer exponents; tests/field recomputes each
// one and checks every map against x^p by square-and-multiply.
#pragma once

#include "field/fp2.hpp"

namespace cuzk::frobenius {

// xi^((p^k-1)/3): the factor on the v coefficient of Fp6. k = 0 gives one.
CUZK_HD constexpr Fp2 fp6_c1(unsigned k) {
  switch (k) {
    case 1:
      return {Fp::zero(), Fp{{0xcd03c9e48671f071ull, 0x5dab22461fcda5d2ull, 0x587042afd3851b95ull,
                              0x8eb60ebe01bacb9eull, 0x03f97d6e83d050d2ull, 0x18f0206554638741ull}}};
    case 2:
      return {Fp{{0x30f1361b798a64e8ull, 0xf3b8ddab7ece5a2aull, 0x16a8ca3ac61577f7ull, 0xc26a2ff874fd029bull,
                  0x3636b76660701c6eull, 0x051ba4ab241b6160ull}},
              Fp::zero()};
    case 3:
      return {Fp::zero(), Fp::one()};  // u
    default:
      return Fp2::one();
  }
}

// xi^(2(p^k-1)/3): the factor on the v^2 coefficient of Fp6. k = 0 gives one.
CUZK_HD constexpr Fp2 fp6_c2(unsigned k) {
  switch (k) {
    case 1:
      return {Fp{{0x890dc9e4867545c3ull, 0x2af322533285a5d5ull, 0x50880866309b7e2cull, 0xa20d1b8c7e881024ull,
                  0x14e4f04fe2db9068ull, 0x14e56d3f1564853aull}},
              Fp::zero()};
    case 2:
      return {Fp{{0xcd03c9e48671f071ull, 0x5dab22461fcda5d2ull, 0x587042afd3851b95ull, 0x8eb60ebe01bacb9eull,
                  0x03f97d6e83d050d2ull, 0x18f0206554638741ull}},
              Fp::zero()};
    case 3:  // -1
      return {Fp{{0x43f5fffffffcaaaeull, 0x32b7fff2ed47fffdull, 0x07e83a49a2e99d69ull, 0xeca8f3318332bb7aull,
                  0xef148d1ea0f4c069ull, 0x040ab3263eff0206ull}},
              Fp::zero()};
    default:
      return Fp2::one();
  }
}

// xi^((p^k-1)/6): the factor on the w coefficient of Fp12. k = 0 gives one.
CUZK_HD constexpr Fp2 fp12_c1(unsigned k) {
  switch (k) {
    case 1:
      return {Fp{{0x07089552b319d465ull, 0xc6695f92b50a8313ull, 0x97e83cccd117228full, 0xa35baecab2dc29eeull,
                  0x1ce393ea5daace4dull, 0x08f2220fb0fb66ebull}},
              Fp{{0xb2f66aad4ce5d646ull, 0x5842a06bfc497cecull, 0xcf4895d42599d394ull, 0xc11b9cba40a8e8d0ull,
                  0x2e3813cbe5a0de89ull, 0x110eefda88847fafull}}};
    case 2:
      return {Fp{{0xecfb361b798dba3aull, 0xc100ddb891865a2cull, 0x0ec08ff1232bda8eull, 0xd5c13cc6f1ca4721ull,
                  0x47222a47bf7b5c04ull, 0x0110f184e51c5f59ull}},
              Fp::zero()};
    case 3:
      return {Fp{{0x3e2f585da55c9ad1ull, 0x4294213d86c18183ull, 0x382844c88b623732ull, 0x92ad2afd19103e18ull,
                  0x1d794e4fac7cf0b9ull, 0x0bd592fc7d825ec8ull}},
              Fp{{0x7bcfa7a25aa30fdaull, 0xdc17dec12a927e7cull, 0x2f088dd86b4ebef1ull, 0xd1ca2087da74d4a7ull,
                  0x2da2596696cebc1dull, 0x0e2b7eedbbfd87d2ull}}};
    default:
      return Fp2::one();
  }
}

}  // namespace cuzk::frobenius
