// A Filecoin "domain" (Sha256Domain, PoseidonDomain, a commitment, a ticket): 32 bytes holding the
// little-endian canonical representation of an Fr. Values that come from SHA-256 are made canonical
// by fr32 truncation (the top two bits cleared), so every domain read from a proof must be < r.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "field/fields.hpp"

namespace cuzk::filecoin {

using Domain = std::array<uint8_t, 32>;

// The Fr whose little-endian bytes are d; nullopt when d ≥ r (not a field element).
std::optional<Fr> domain_to_fr(const Domain& d);
Domain fr_to_domain(const Fr& x);

// fr32 truncation: clears bits 254 and 255 (byte 31 &= 0x3f), which makes any 32 bytes < r.
inline Domain trim_to_fr32(Domain d) {
  d[31] &= 0x3f;
  return d;
}

}  // namespace cuzk::filecoin
