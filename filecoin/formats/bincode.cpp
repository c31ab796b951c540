#include "filecoin/formats/bincode.hpp"

#include <cstring>

namespace cuzk::filecoin::bincode {

Error Reader::error(const std::string& message) const {
  std::string path;
  for (const Segment& s : path_) {
    if (s.field) {
      if (!path.empty()) path += '.';
      path += s.field;
    } else {
      path += '[' + std::to_string(s.index) + ']';
    }
  }
  std::string m = what_ + ": ";
  if (!path.empty()) m += path + ": ";
  return make_input_error(m + message + " (at byte " + std::to_string(pos_) + " of " +
                          std::to_string(bytes_.size()) + ")");
}

Status Reader::need(size_t n, const char* type) {
  if (remaining() >= n) return {};
  return error(std::string("truncated: a ") + type + " needs " + std::to_string(n) + " bytes, " +
               std::to_string(remaining()) + " remain");
}

Status Reader::u32(uint32_t& out) {
  CUZK_TRY_STATUS(need(4, "u32"));
  out = 0;
  for (unsigned i = 0; i < 4; ++i) out |= uint32_t(bytes_[pos_ + i]) << (8 * i);
  pos_ += 4;
  return {};
}

Status Reader::u64(uint64_t& out) {
  CUZK_TRY_STATUS(need(8, "u64"));
  out = 0;
  for (unsigned i = 0; i < 8; ++i) out |= uint64_t(bytes_[pos_ + i]) << (8 * i);
  pos_ += 8;
  return {};
}

Status Reader::domain(Domain& out) {
  CUZK_TRY_STATUS(need(32, "32-byte domain"));
  std::memcpy(out.data(), bytes_.data() + pos_, 32);
  pos_ += 32;
  return {};
}

Status Reader::length(uint64_t& out, size_t min_element_bytes) {
  CUZK_TRY_STATUS(need(8, "u64 length"));
  uint64_t n = 0;
  for (unsigned i = 0; i < 8; ++i) n |= uint64_t(bytes_[pos_ + i]) << (8 * i);
  const uint64_t fit = min_element_bytes ? remaining() - 8 : UINT64_MAX;
  if (min_element_bytes && n > fit / min_element_bytes) {
    return error("length " + std::to_string(n) + " needs at least " + std::to_string(min_element_bytes) +
                 " bytes per element, but only " + std::to_string(fit) + " bytes remain");
  }
  pos_ += 8;
  out = n;
  return {};
}

Status Reader::finish() const {
  if (remaining() == 0) return {};
  return error(std::to_string(remaining()) + " bytes left over after the value");
}

void Writer::u32(uint32_t v) {
  for (unsigned i = 0; i < 4; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
}

void Writer::u64(uint64_t v) {
  for (unsigned i = 0; i < 8; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace cuzk::filecoin::bincode
