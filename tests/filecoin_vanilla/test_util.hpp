// Helpers shared by the vanilla-side tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin::vanilla::test {

inline std::vector<uint8_t> from_hex(const std::string& hex) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(uint8_t(std::stoul(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// A domain from four u64 limbs, least significant first (blstrs' Fr::from_u64s_le).
inline Domain domain_from_u64s_le(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  Domain out;
  const uint64_t limbs[4] = {a, b, c, d};
  for (int i = 0; i < 32; ++i) out[i] = uint8_t(limbs[i / 8] >> (8 * (i % 8)));
  return out;
}

inline Domain filled(uint8_t v) {
  Domain d;
  d.fill(v);
  return d;
}

}  // namespace cuzk::filecoin::vanilla::test
