// A 2 KiB test sector for the tests that prove Filecoin requests end to end (the engine's and the
// GPU's): StackedDrg2KiBV1_1 sealed for miner f01000, sector 42, from fixed bytes, and updated with
// other data at h = 1 (2 KiB's default), made once a process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "filecoin/types/domain.hpp"
#include "filecoin/types/prover_id.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "filecoin/vanilla/update.hpp"

namespace cuzk::filecoin::test {

// A domain of bytes v with the top two bits cleared, so that it reads as a field element.
inline Domain field_domain(uint8_t v) {
  Domain d;
  d.fill(v);
  d[31] &= 0x3f;
  return d;
}

// n bytes of a fixed pattern, varied by salt.
inline std::vector<uint8_t> pattern_bytes(size_t n, uint8_t salt) {
  std::vector<uint8_t> raw(n);
  for (size_t i = 0; i < n; ++i) raw[i] = uint8_t(i * 131 + salt);
  return raw;
}

inline std::string as_string(const std::vector<uint8_t>& b) { return {b.begin(), b.end()}; }

struct Sealed2KiB {
  vanilla::TestSector sealed;
  vanilla::UpdatedSector updated;
};

inline const Sealed2KiB& sealed_2kib() {
  static const Sealed2KiB s = [] {
    Sealed2KiB x;
    x.sealed = vanilla::seal_test_sector(5, prover_id_from_actor_id(1000), 42, field_domain(2),
                                         field_domain(3), pattern_bytes(2032, 7))
                   .value();
    x.updated = vanilla::update_test_sector(x.sealed, pattern_bytes(2032, 99), 1).value();
    return x;
  }();
  return s;
}

}  // namespace cuzk::filecoin::test
