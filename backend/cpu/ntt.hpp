// Number-theoretic transforms over Fr on the CPU: forward, inverse and coset variants on a
// power-of-two domain, in place, natural order in and out, multi-threaded.
//
// Two conventions for the domain's root of unity (formats.md §1, §4.7):
//   bellman: ω_{2^32} = 7^t, the root of bellman, bellperson, blstrs and sppark;
//   snarkjs: ω_{2^32} = 5^t, ffjavascript's root (5 is the smallest non-residue).
// A key must be used with the convention it was made with, or the proofs are invalid.
//
// The coset shift defaults to what each prover needs for its H polynomial:
//   bellman: g = 7 (evaluations at 7·ω^j, Z(7ω^j) = 7^n − 1, formats.md §3.2);
//   snarkjs: ω_{2n}, the 2n-th root of the same convention, so the coset is the odd points of the
//            2n-domain (snarkjs groth16_prove.js, formats.md §4.7).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "backend/cpu/thread_pool.hpp"
#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk::cpu {

enum class RootConvention {
  bellman,  // ω from generator 7
  snarkjs,  // ω from generator 5
};

class NttDomain {
 public:
  static constexpr unsigned kMaxLogSize = 28;

  // A domain of size 2^log_size. Precomputes ω^j for j < n/2 (16 MiB at 2^20, 2 GiB at 2^27).
  static Result<NttDomain> create(unsigned log_size, RootConvention convention,
                                  ThreadPool& pool = ThreadPool::shared());

  // ω_{2^32} of a convention (the generator raised to t = (r-1)/2^32).
  static Fr root_of_unity_2_32(RootConvention convention);

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
