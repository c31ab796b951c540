// Field elements as canonical little-endian 32-byte scalars: the wire form of the C ABI and of the
// daemon's messages. A PoRep partition is about 520 M of them, so both directions run on every core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk::io {

inline constexpr size_t kScalarBytes = 32;

// `n` scalars from `bytes` (n·32 bytes). An error names `what` and the first index not below the
// modulus, however the work was split.
Result<std::vector<Fr>> scalars_from_le_bytes(const uint8_t* bytes, size_t n, const std::string& what);

// values.size()·32 bytes into `out`.
void scalars_to_le_bytes(std::span<const Fr> values, uint8_t* out);

}  // namespace cuzk::io
