#include "filecoin/vanilla/fr32.hpp"

namespace cuzk::filecoin::vanilla {

std::vector<Domain> fr32_pad(std::span<const uint8_t> raw, uint64_t nodes) {
  std::vector<Domain> out(nodes);
  auto byte_at = [&](uint64_t i) -> unsigned { return i < raw.size() ? raw[i] : 0; };
  for (uint64_t j = 0; j < nodes; ++j) {
    // Node j holds stream bits [254 j, 254 j + 254): start at byte s, shifted right by sh (even).
    const uint64_t bit = 254 * j;
    const uint64_t s = bit / 8;
    const unsigned sh = unsigned(bit % 8);
    Domain& d = out[j];
    for (unsigned b = 0; b < 32; ++b) {
      const unsigned lo = byte_at(s + b) >> sh;
      const unsigned hi = sh ? byte_at(s + b + 1) << (8 - sh) : 0;
      d[b] = uint8_t(lo | hi);
    }
    d[31] &= 0x3f;
  }
  return out;
}

std::vector<uint8_t> fr32_unpad(std::span<const Domain> nodes) {
  const uint64_t bits = 254 * uint64_t(nodes.size());
  std::vector<uint8_t> out(bits / 8, 0);
  for (uint64_t i = 0; i < out.size() * 8; ++i) {
    const Domain& d = nodes[i / 254];
    const unsigned k = unsigned(i % 254);
    if ((d[k / 8] >> (k % 8)) & 1) out[i / 8] |= uint8_t(1u << (i % 8));
  }
  return out;
}

}  // namespace cuzk::filecoin::vanilla
