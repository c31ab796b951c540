// Number-theoretic transforms over Fr on the CPU: forward, inverse and coset variants on a
// power-of-two domain, in place, natural order in and out, multi-threaded.
//
// The domain's root of unity and coset shift follow its RootConvention (backend/domain.hpp).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "backend/domain.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "field/fields.hpp"

namespace cuzk::cpu {

class NttDomain {
 public:
  static constexpr unsigned kMaxLogSize = 28;

  // A domain of size 2^log_size. Precomputes ω^j for j < n/2 (16 MiB at 2^20, 2 GiB at 2^27).
  static Result<NttDomain> create(unsigned log_size, RootConvention convention,
                                  ThreadPool& pool = ThreadPool::shared());

  size_t size() const { return size_t(1) << log_size_; }
  unsigned log_size() const { return log_size_; }
  RootConvention convention() const { return convention_; }
  const Fr& omega() const { return omega_; }
  const Fr& omega_inv() const { return omega_inv_; }
  const Fr& size_inv() const { return size_inv_; }
  // The default coset shift of the convention (see the file comment).
  const Fr& coset_shift() const { return coset_shift_; }

  // a ← (Σ_i a_i ω^{ij})_j : coefficients to evaluations at ω^j.
  Status forward(std::span<Fr> a, ThreadPool& pool = ThreadPool::shared()) const;
  // a ← (n^-1 Σ_i a_i ω^{-ij})_j : evaluations at ω^j to coefficients.
  Status inverse(std::span<Fr> a, ThreadPool& pool = ThreadPool::shared()) const;
  // a_i ← a_i·shift^i, then forward: coefficients to evaluations at shift·ω^j.
  Status coset_forward(std::span<Fr> a, ThreadPool& pool = ThreadPool::shared()) const {
    return coset_forward(a, coset_shift_, pool);
  }
  Status coset_forward(std::span<Fr> a, const Fr& shift, ThreadPool& pool = ThreadPool::shared()) const;
  // inverse, then a_i ← a_i·shift^-i: evaluations at shift·ω^j to coefficients.
  Status coset_inverse(std::span<Fr> a, ThreadPool& pool = ThreadPool::shared()) const {
    return coset_inverse(a, coset_shift_, pool);
  }
  Status coset_inverse(std::span<Fr> a, const Fr& shift, ThreadPool& pool = ThreadPool::shared()) const;

 private:
  NttDomain() = default;
  Status check_size(size_t got) const;
  // The transform itself: bit-reversal, then radix-2 decimation-in-time stages.
  void transform(std::span<Fr> a, ThreadPool& pool) const;

  unsigned log_size_ = 0;
  RootConvention convention_ = RootConvention::bellman;
  Fr omega_{}, omega_inv_{}, size_inv_{}, coset_shift_{};
  std::vector<Fr> twiddles_;  // ω^j, j < n/2
};

// a_i ← a_i · c · s^i for all i (the coset shifts), in parallel.
void scale_by_powers(std::span<Fr> a, const Fr& c, const Fr& s, ThreadPool& pool = ThreadPool::shared());

}  // namespace cuzk::cpu
