#include "filecoin/formats/base64.hpp"

#include <array>

namespace cuzk::filecoin {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> decode_table() {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[uint8_t(kAlphabet[i])] = int8_t(i);
  return t;
}
constexpr std::array<int8_t, 256> kDecode = decode_table();

std::string describe(char c) {
  const auto u = uint8_t(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

}  // namespace

std::string base64_encode(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(v >> s) & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest) {
    uint32_t v = uint32_t(bytes[i]) << 16;
    if (rest == 2) v |= uint32_t(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

Result<std::vector<uint8_t>> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0)
    return make_input_error("base64: length " + std::to_string(text.size()) +
                            " is not a multiple of 4 (padded standard encoding)");
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (size_t q = 0; q < text.size(); q += 4) {
    const bool last = q + 4 == text.size();
    // Padding: only in the last quantum, only in its last one or two places.
    size_t pad = 0;
    if (last) pad = text[q + 3] == '=' ? (text[q + 2] == '=' ? 2 : 1) : 0;
    uint32_t v = 0;
    for (size_t k = 0; k < 4 - pad; ++k) {
      const char c = text[q + k];
      const int8_t d = kDecode[uint8_t(c)];
      if (d < 0)
        return make_input_error(
            "base64: " + describe(c) + " at offset " + std::to_string(q + k) +
            (c == '=' ? " is padding before the end" : " is not in the standard alphabet"));
      v |= uint32_t(d) << (18 - 6 * k);
    }
    out.push_back(uint8_t(v >> 16));
    if (pad < 2) out.push_back(uint8_t(v >> 8));
    if (pad < 1) out.push_back(uint8_t(v));
    const uint32_t unused = pad == 2 ? (v & 0xffff) : pad == 1 ? (v & 0xff) : 0;
    if (unused)
      return make_input_error("base64: non-zero bits after the data in the quantum at offset " +
                              std::to_string(q) + " (not a canonical encoding)");
  }
  return out;
}

}  // namespace cuzk::filecoin
