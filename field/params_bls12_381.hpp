// Constants of the BLS12-381 base field Fp and scalar field Fr.
//
// Limbs are 64-bit, least significant first (the layout of blst, blstrs and sppark). Values
// were derived from p and r with exact integer arithmetic; tests/field recomputes every one
// of them with GMP, so a typo here cannot survive the test suite.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/hd.hpp"

namespace cuzk::field {

// p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
struct FpParams {
  static constexpr size_t N = 6;  // 64-bit limbs
  static constexpr size_t BITS = 381;
  static constexpr uint64_t M0 = 0x89f3fffcfffcfffdull;  // -p^-1 mod 2^64
  CUZK_HD static constexpr uint64_t mod(size_t i) {
    constexpr uint64_t v[N] = {0xb9feffffffffaaabull, 0x1eabfffeb153ffffull, 0x6730d2a0f6b0f624ull,
                               0x64774b84f38512bfull, 0x4b1ba7b6434bacd7ull, 0x1a0111ea397fe69aull};
    return v[i];
  }
  // R = 2^384 mod p (Montgomery one)
  CUZK_HD static constexpr uint64_t one(size_t i) {
    constexpr uint64_t v[N] = {0x760900000002fffdull, 0xebf4000bc40c0002ull, 0x5f48985753c758baull,
                               0x77ce585370525745ull, 0x5c071a97a256ec6dull, 0x15f65ec3fa80e493ull};
    return v[i];
  }
  // R^2 mod p (to enter Montgomery form)
  CUZK_HD static constexpr uint64_t rr(size_t i) {
    constexpr uint64_t v[N] = {0xf4df1f341c341746ull, 0x0a76e6a609d104f1ull, 0x8de5476c4c95b6d5ull,
                               0x67eb88a9939d83c0ull, 0x9a793e85b519952dull, 0x11988fe592cae3aaull};
    return v[i];
  }
};

// r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
struct FrParams {
  static constexpr size_t N = 4;
  static constexpr size_t BITS = 255;
  static constexpr uint64_t M0 = 0xfffffffeffffffffull;  // -r^-1 mod 2^64
  CUZK_HD static constexpr uint64_t mod(size_t i) {
    constexpr uint64_t v[N] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                               0x73eda753299d7d48ull};
    return v[i];
  }
  CUZK_HD static constexpr uint64_t one(size_t i) {
    constexpr uint64_t v[N] = {0x00000001fffffffeull, 0x5884b7fa00034802ull, 0x998c4fefecbc4ff5ull,
                               0x1824b159acc5056full};
    return v[i];
  }
  CUZK_HD static constexpr uint64_t rr(size_t i) {
    constexpr uint64_t v[N] = {0xc999e990f3f29c6dull, 0x2b6cedcb87925c23ull, 0x05d314967254398full,
                               0x0748d9d99f59ff11ull};
    return v[i];
  }
  // Two-adicity: r - 1 = 2^S * t with t odd.
  static constexpr unsigned S = 32;
};

}  // namespace cuzk::field
