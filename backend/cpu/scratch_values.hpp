// Field values in host memory that are written in full before they are read (a, b, c formed by a
// backend for its H stage). Left uninitialized: a zero-filled 4 GiB vector costs one thread seconds
// of page faults and stores, where the threads that fill the values touch their own pages anyway.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <string>

#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk::cpu {

class ScratchValues {
 public:
  // n values (their previous ones, if any, are dropped); `what` names them in the error when the
  // host cannot hold them.
  Status allocate(size_t n, const std::string& what) {
    values_.reset();
    size_ = 0;
    try {
      values_ = std::make_unique_for_overwrite<Fr[]>(n);
    } catch (const std::bad_alloc&) {
      return make_error("compute_h: host out of memory for " + what + " (" + std::to_string(n) + " values)");
    }
    size_ = n;
    return Status::Ok();
  }
  std::span<Fr> span() const { return {values_.get(), size_}; }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<Fr[]> values_;
  size_t size_ = 0;
};

}  // namespace cuzk::cpu
