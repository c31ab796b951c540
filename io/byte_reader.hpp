// A bounds-checked cursor over bytes. Every read checks what is left first, and every
// "count x element size" is checked for overflow and against the bytes left before anything is
// allocated, so a hostile count in a file can never make a parser read past the end or reserve
// terabytes. Errors name the file kind and the field, e.g.
// "zkey: section 9 claims 4294967296 points of 96 bytes but has 1234 bytes left".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "common/result.hpp"

namespace cuzk::io {

// a * b, or false when it does not fit in 64 bits.
inline bool checked_mul(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_mul_overflow(a, b, out); }
inline bool checked_add(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_add_overflow(a, b, out); }

class ByteReader {
 public:
  // `what` prefixes every error message ("params", "r1cs section 2", ...).
  ByteReader(std::span<const uint8_t> bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  const std::string& what() const { return what_; }

  Result<uint32_t> u32_le(const char* field) {
    auto b = bytes(4, field);
    if (!b.ok()) return b.error();
    const uint8_t* p = b->data();
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  }
  Result<uint32_t> u32_be(const char* field) {
    auto b = bytes(4, field);
    if (!b.ok()) return b.error();
    const uint8_t* p = b->data();
    return uint32_t(p[3]) | uint32_t(p[2]) << 8 | uint32_t(p[1]) << 16 | uint32_t(p[0]) << 24;
  }
  Result<uint64_t> u64_le(const char* field) {
    auto b = bytes(8, field);
    if (!b.ok()) return b.error();
    uint64_t v = 0;
    for (size_t i = 0; i < 8; ++i) v |= uint64_t((*b)[i]) << (8 * i);
    return v;
  }

  // The next n bytes, as a view into the underlying buffer.
  Result<std::span<const uint8_t>> bytes(uint64_t n, const char* field) {
    if (n > remaining())
      return make_error(what_ + ": " + field + " needs " + std::to_string(n) + " bytes but only " +
                        std::to_string(remaining()) + " are left (file truncated?)");
    auto s = bytes_.subspan(pos_, size_t(n));
    pos_ += size_t(n);
    return s;
  }

  // The next count * elem_size bytes: an array of `count` elements whose count came from the file.
  Result<std::span<const uint8_t>> array(uint64_t count, uint64_t elem_size, const char* field) {
    uint64_t n;
    if (!checked_mul(count, elem_size, &n) || n > remaining())
      return make_error(what_ + ": " + field + " claims " + std::to_string(count) + " elements of " +
                        std::to_string(elem_size) + " bytes but only " + std::to_string(remaining()) +
                        " bytes are left");
    return bytes(n, field);
  }

  // Fails unless every byte was consumed: trailing bytes mean the file is not what we think it is.
  Status expect_end() const {
    if (at_end()) return Status::Ok();
    return make_error(what_ + ": " + std::to_string(remaining()) + " unexpected bytes after the last field");
  }

 private:
  std::span<const uint8_t> bytes_;
  std::string what_;
  size_t pos_ = 0;
};

}  // namespace cuzk::io
