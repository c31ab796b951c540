// Field values in host memory that are written in full before they are read (a, b, c formed by a
// backend for its H stage). Left uninitialized: a zero-filled 4 GiB vector costs one thread seconds
// of page faults and stores, where the threads that fill the values touch their own pages anyway.
// Large arrays are aligned to 2 MiB and offered to the kernel as huge pages (madvise), so that
// filling 4 GiB (a device-to-host copy through the stager's threads) takes 2 048 page faults
// instead of a million.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

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
    if (n == 0) return Status::Ok();
    if (n > (size_t(PTRDIFF_MAX) - kHugePage) / sizeof(Fr)) return out_of_memory(n, what);
    const bool huge = n * sizeof(Fr) >= kHugePage;
    const size_t bytes = huge ? (n * sizeof(Fr) + kHugePage - 1) / kHugePage * kHugePage : n * sizeof(Fr);
    void* p = std::aligned_alloc(huge ? kHugePage : alignof(Fr), bytes);
    if (!p) return out_of_memory(n, what);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) (void)madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without huge pages, ordinary ones
#endif
    values_.reset(static_cast<Fr*>(p));
    size_ = n;
    return Status::Ok();
  }
  std::span<Fr> span() const { return {values_.get(), size_}; }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kHugePage = size_t(2) << 20;
  struct Free {
    void operator()(Fr* p) const { std::free(p); }
  };
  static Status out_of_memory(size_t n, const std::string& what) {
    return make_error("compute_h: host out of memory for " + what + " (" + std::to_string(n) + " values)");
  }
  std::unique_ptr<Fr, Free> values_;
  size_t size_ = 0;
};

}  // namespace cuzk::cpu
