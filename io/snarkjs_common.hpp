// Pieces shared by the snarkjs readers and writers: the field-modulus checks and a writer for the
// iden3 container. Internal to io/.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "field/fields.hpp"
#include "io/byte_reader.hpp"

namespace cuzk::io {

// The modulus of F as little-endian bytes (F::BYTES long).
template <class F>
std::array<uint8_t, F::BYTES> modulus_le() {
  std::array<uint8_t, F::BYTES> out{};
  const F m = F::modulus_limbs();
  for (size_t i = 0; i < F::N; ++i)
    for (size_t b = 0; b < 8; ++b) out[8 * i + b] = uint8_t(m.l[i] >> (8 * b));
  return out;
}

// Reads "u32 n8 ; prime[n8] LE" and checks it is F's modulus. `name` is the field's role in the
// message ("prime", "q", "r").
template <class F>
Status expect_modulus(ByteReader& r, const char* name) {
  auto n8 = r.u32_le("field size");
  if (!n8.ok()) return n8.error();
  if (*n8 != F::BYTES)
    return make_error(r.what() + ": " + name + " is " + std::to_string(*n8) + " bytes, expected " +
                      std::to_string(F::BYTES) +
                      " (the file is for another curve; compile with -p bls12381)");
  auto p = r.bytes(F::BYTES, name);
  if (!p.ok()) return p.error();
  const auto want = modulus_le<F>();
  for (size_t i = 0; i < F::BYTES; ++i)
    if ((*p)[i] != want[i])
      return make_error(r.what() + ": " + name +
                        " is not BLS12-381's (the file is for another curve; compile with -p bls12381)");
  return Status::Ok();
}

// Appends little-endian values and iden3 sections to a byte vector.
class BinWriter {
 public:
  BinWriter(const char* magic, uint32_t version, uint32_t n_sections) {
    bytes_.insert(bytes_.end(), magic, magic + 4);
    u32_le(version);
    u32_le(n_sections);
  }
  void u32_le(uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void u64_le(uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void raw(std::span<const uint8_t> b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }
  template <class F>
  void canonical_le(const F& x) {
    uint8_t b[F::BYTES];
    x.to_bytes_le(b);
    raw(b);
  }
  template <class F>
  void modulus() {
    u32_le(F::BYTES);
    raw(modulus_le<F>());
  }
  void begin_section(uint32_t type) {
    u32_le(type);
    size_at_ = bytes_.size();
    u64_le(0);
  }
  void end_section() {
    const uint64_t size = bytes_.size() - size_at_ - 8;
    for (int i = 0; i < 8; ++i) bytes_[size_at_ + i] = uint8_t(size >> (8 * i));
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<uint8_t> bytes_;
  size_t size_at_ = 0;
};

}  // namespace cuzk::io
