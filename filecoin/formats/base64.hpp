// Base64 with the standard alphabet (RFC 4648 §4) and `=` padding, as Go's
// encoding/base64.StdEncoding writes it. The decoder is strict: no whitespace, no missing or extra
// padding, no non-zero bits in the last character's unused part; each error names the offset.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace cuzk::filecoin {

std::string base64_encode(std::span<const uint8_t> bytes);
Result<std::vector<uint8_t>> base64_decode(std::string_view text);

}  // namespace cuzk::filecoin
