// Lower-case hexadecimal of bytes, two digits a byte in order: digests in file names and logs,
// Filecoin domains in messages.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace cuzk {

inline std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

}  // namespace cuzk
