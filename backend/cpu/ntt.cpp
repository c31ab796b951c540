#include "backend/cpu/ntt.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace cuzk::cpu {
namespace {

// The first kBlockLog stages touch only 2^kBlockLog consecutive elements (128 KiB), so they run
// block by block while the block sits in L2; later stages stream over the whole array.
constexpr unsigned kBlockLog = 12;

uint64_t reverse_bits(uint64_t x, unsigned bits) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  x = __builtin_bswap64(x);
  return x >> (64 - bits);
}

void bit_reverse_permute(std::span<Fr> a, unsigned log_n, ThreadPool& pool) {
  if (log_n < 2) return;
  pool.for_ranges(a.size(), size_t(1) << 12, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const size_t j = reverse_bits(i, log_n);
      if (i < j) std::swap(a[i], a[j]);
    }
  });
}

inline void butterfly(Fr& x, Fr& y, const Fr& w) {
  const Fr t = y * w;
  y = x - t;
  x = x + t;
}

}  // namespace

Result<NttDomain> NttDomain::create(unsigned log_size, RootConvention convention, ThreadPool& pool) {
  if (log_size > kMaxLogSize) {
    return make_error("NTT domain 2^" + std::to_string(log_size) + " is larger than the supported 2^" +
                      std::to_string(kMaxLogSize));
  }
  NttDomain d;
  d.log_size_ = log_size;
  d.convention_ = convention;
  d.omega_ = domain_root(convention, log_size);
  d.omega_inv_ = d.omega_.inverse();
  d.size_inv_ = Fr::from_u64(uint64_t(1) << log_size).inverse();
  d.coset_shift_ = default_coset_shift(convention, log_size);
  const size_t half = d.size() / 2;
  d.twiddles_.resize(half);
  const Fr omega = d.omega_;
  std::span<Fr> tw(d.twiddles_);
  pool.for_ranges(half, size_t(1) << 12, [&](size_t begin, size_t end) {
    Fr w = omega.pow(begin);
    for (size_t j = begin; j < end; ++j) {
      tw[j] = w;
      w *= omega;
    }
  });
  return d;
}

Status NttDomain::check_size(size_t got) const {
  if (got == size()) return Status::Ok();
  return make_error("NTT input has " + std::to_string(got) + " elements; the domain has " +
                    std::to_string(size()));
}

void NttDomain::transform(std::span<Fr> a, ThreadPool& pool) const {
  const unsigned log_n = log_size_;
  const size_t n = size();
  if (log_n == 0) return;
  bit_reverse_permute(a, log_n, pool);
  const Fr* tw = twiddles_.data();

  // Stages with half-size h = 2^s < block, block by block.
  const unsigned block_log = std::min(log_n, kBlockLog);
  const size_t block = size_t(1) << block_log;
  pool.for_ranges(n >> block_log, 1, [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; ++b) {
      Fr* x = a.data() + b * block;
      for (size_t i = 0; i < block; i += 2) {  // h = 1: the twiddle is 1
        const Fr t = x[i + 1];
        x[i + 1] = x[i] - t;
        x[i] = x[i] + t;
      }
      for (unsigned s = 1; s < block_log; ++s) {
        const size_t h = size_t(1) << s;
        const size_t stride = n >> (s + 1);
        for (size_t start = 0; start < block; start += 2 * h)
          for (size_t j = 0; j < h; ++j) butterfly(x[start + j], x[start + j + h], tw[j * stride]);
      }
    }
  });

  // Remaining stages over the whole array, each split into contiguous runs of butterflies.
  for (unsigned s = block_log; s < log_n; ++s) {
    const size_t h = size_t(1) << s;
    const size_t stride = n >> (s + 1);
    pool.for_ranges(n / 2, size_t(1) << 11, [&](size_t b0, size_t b1) {
      for (size_t b = b0; b < b1; ++b) {
        const size_t j = b & (h - 1);
        const size_t i = ((b >> s) << (s + 1)) + j;
        butterfly(a[i], a[i + h], tw[j * stride]);
      }
    });
  }
}

Status NttDomain::forward(std::span<Fr> a, ThreadPool& pool) const {
  CUZK_TRY_STATUS(check_size(a.size()));
  transform(a, pool);
  return Status::Ok();
}

// The inverse transform is the forward one read backwards: Σ_i a_i ω^{-ij} is entry (n − j) mod n
// of the forward transform, so one twiddle table serves both.
Status NttDomain::inverse(std::span<Fr> a, ThreadPool& pool) const {
  return coset_inverse(a, Fr::one(), pool);
}

Status NttDomain::coset_forward(std::span<Fr> a, const Fr& shift, ThreadPool& pool) const {
  CUZK_TRY_STATUS(check_size(a.size()));
  scale_by_powers(a, Fr::one(), shift, pool);
  transform(a, pool);
  return Status::Ok();
}

Status NttDomain::coset_inverse(std::span<Fr> a, const Fr& shift, ThreadPool& pool) const {
  CUZK_TRY_STATUS(check_size(a.size()));
  transform(a, pool);
  const size_t n = size();
  if (n > 2) std::reverse(a.begin() + 1, a.end());
  scale_by_powers(a, size_inv_, shift.is_one() ? shift : shift.inverse(), pool);
  return Status::Ok();
}

void scale_by_powers(std::span<Fr> a, const Fr& c, const Fr& s, ThreadPool& pool) {
  const bool plain = s.is_one();
  if (plain && c.is_one()) return;
  pool.for_ranges(a.size(), size_t(1) << 12, [&](size_t begin, size_t end) {
    Fr p = plain ? c : c * s.pow(begin);
    for (size_t i = begin; i < end; ++i) {
      a[i] *= p;
      if (!plain) p *= s;
    }
  });
}

}  // namespace cuzk::cpu
