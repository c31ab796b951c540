// Uniform random field elements, from the OS's cryptographic source or from a seed (tests).
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "field/fields.hpp"

namespace cuzk::groth16 {

class FieldRng {
 public:
  // nullopt: every draw reads std::random_device (the OS's CSPRNG on Linux, /dev/urandom).
  explicit FieldRng(std::optional<uint64_t> seed = std::nullopt)
      : seeded_(seed.has_value()), prng_(seed.value_or(0)) {}

  // Rejection sampling of a 255-bit integer below r: uniform, no modular bias.
  Fr next_fr() {
    for (;;) {
      uint64_t v[Fr::N];
      for (auto& limb : v) limb = next_u64();
      v[Fr::N - 1] &= (uint64_t(1) << 63) - 1;  // 255 bits
      if (Fr::is_canonical(v)) return Fr::from_canonical(v);
    }
  }
  Fr next_nonzero_fr() {
    for (;;) {
      Fr x = next_fr();
      if (!x.is_zero()) return x;
    }
  }
  uint64_t next_u64() {
    if (seeded_) return prng_();
    std::random_device rd;
    return (uint64_t(rd()) << 32) | rd();
  }

 private:
  bool seeded_;
  std::mt19937_64 prng_;
};

}  // namespace cuzk::groth16
