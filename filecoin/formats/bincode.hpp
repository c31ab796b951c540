// bincode v1 with its default options, the encoding of PoSt and SnapDeals vanilla proofs
// (reference/filecoin-circuits.md §4.1): little-endian fixed-width integers, u64 lengths before
// sequences, u32 variant indices before enum fields, 32 raw bytes per domain.
//
// The reader keeps the path of the value it is in ("sectors[0].inclusion_proofs[3]") so that every
// error names where the bytes went wrong, and checks each length against the bytes that remain
// before anything is allocated: a hostile count cannot make it reserve memory.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin::bincode {

class Reader {
 public:
  // `what` names the whole input in messages ("PoSt vanilla proof").
  Reader(std::span<const uint8_t> bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}

  size_t offset() const { return pos_; }
  size_t remaining() const { return bytes_.size() - pos_; }

  Status u32(uint32_t& out);
  Status u64(uint64_t& out);
  Status domain(Domain& out);
  // A sequence length, refused unless count × min_element_bytes bytes remain.
  Status length(uint64_t& out, size_t min_element_bytes);
  // An error unless every byte was read.
  Status finish() const;

  // The path: push a field ("sectors") or an index ([3]) on entering a value, pop on leaving.
  void enter(const char* field) { path_.push_back({field, -1}); }
  void enter_index(uint64_t i) { path_.push_back({nullptr, int64_t(i)}); }
  void leave() { path_.pop_back(); }

  // "<what>: <path>: <message> (at byte <offset>)".
  Error error(const std::string& message) const;

 private:
  struct Segment {
    const char* field;
    int64_t index;
  };
  Status need(size_t n, const char* type);

  std::span<const uint8_t> bytes_;
  std::string what_;
  size_t pos_ = 0;
  std::vector<Segment> path_;
};

// A scope that enters a path segment and leaves it at the end.
class Scope {
 public:
  Scope(Reader& r, const char* field) : r_(r) { r_.enter(field); }
  Scope(Reader& r, uint64_t index) : r_(r) { r_.enter_index(index); }
  ~Scope() { r_.leave(); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Reader& r_;
};

class Writer {
 public:
  void u32(uint32_t v);
  void u64(uint64_t v);
  void domain(const Domain& d) { bytes_.insert(bytes_.end(), d.begin(), d.end()); }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace cuzk::filecoin::bincode
