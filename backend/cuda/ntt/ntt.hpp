// Number-theoretic transforms over Fr on a CUDA device, in place on a buffer already there.
//
// The math is backend/cpu/ntt.hpp's, element for element: the same root conventions and default
// coset shifts (backend/domain.hpp), inverse scaled by n^-1, coset forward = scale by shift^i then
// forward, coset inverse = inverse then scale by shift^-i.
//
// Order. Gentleman–Sande (DIF) takes natural order to bit-reversed order and Cooley–Tukey (DIT)
// takes bit-reversed order to natural order, each with no permutation. Every transform here
// takes the order of its input and of its output, and picks the kernel that needs no
// permutation when one exists: a prover that chains iNTT (natural → bit-reversed), coset NTT
// (bit-reversed → natural), pointwise work, coset iNTT never pays for a bit reversal. Natural in
// and natural out is also offered; it adds one in-place bit-reversal pass over the buffer.
//
// Every call names the stream it runs on, and so the device. Nothing is global: an NttPlan holds
// the twiddles of one device and is read-only after creation, so one plan may serve concurrent
// streams of its device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "backend/cuda/ntt/passes.hpp"
#include "backend/cuda/runtime/runtime.hpp"
#include "backend/domain.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

class DeviceCache;

enum class NttOrder { natural, bit_reversed };

// Constant factors folded into a coset table (NttPlan::coset_powers): the forward tables then hold
// forward·g^i and the inverse ones inverse·g^-i. The defaults, 1 and n^-1, are the transforms' own
// definitions; a prover that runs the inverse transform without its n^-1 (NttPlan::inverse_unscaled)
// right before a coset forward folds the factor into the forward table instead, a multiplication
// per element less.
struct NttCosetFactors {
  std::optional<Fr> forward, inverse;  // unset: 1, and n^-1
};

// Powers of one coset shift g for one size 2^log_n, in two tables: g^i = lo[i mod 2^a]·hi[i >> a]
// (a = ceil(log_n / 2)), for the forward direction, and the same for n^-1·g^-i (the scaling the
// coset inverse applies) in inv_lo/inv_hi, each times its factor (NttCosetFactors). At 2^27 this is
// 4·2^14 elements (2 MiB).
struct NttCosetPowers {
  unsigned log_n = 0;
  unsigned split = 0;  // a
  Fr shift{};
  Fr forward_factor{}, inverse_factor{};  // what NttCosetFactors resolved to
  DeviceBuffer<Fr> lo, hi, inv_lo, inv_hi;
  size_t device_bytes() const { return (lo.size() + hi.size() + inv_lo.size() + inv_hi.size()) * sizeof(Fr); }
  // What coset_powers allocates for size 2^log_n (for memory planners).
  static size_t device_bytes_for(unsigned log_n) {
    const unsigned a = (log_n + 1) / 2;
    return 2 * ((size_t(1) << a) + (size_t(1) << (log_n - a))) * sizeof(Fr);
  }
};

// What NttPlan::to_coset's first pass does with each input element x_i it reads, for i < rows,
// before transforming it: out_i ← x_i, or out_i ← out_i·x_i (multiply). The prover's row check
// keeps a∘b this way (a copied, then times b, as each is taken to the coset) instead of a copy and
// a product pass of its own over 4 GiB each at 2^27.
struct NttTap {
  Fr* out = nullptr;  // none: no tap
  size_t rows = 0;
  bool multiply = false;
};

class NttPlan {
 public:
  static constexpr unsigned kMaxLogSize = 28;

  // Twiddles ω^j, j < 2^(max_log_size-1), of the convention's 2^max_log_size-th root, on the
  // stream's device, in at most 2^tuning.twiddle_log entries (NttTuning::twiddle_log: two tables
  // whose product gives the top stages' twiddles where the one table would be larger). The plan
  // serves every size up to 2^max_log_size. Ordered on `s`; the plan is usable by work queued
  // after this on `s` (other streams: synchronize `s` first). With a `cache`, the tables live in
  // blocks it lends (it must outlive the plan).
  static Result<NttPlan> create(const Stream& s, unsigned max_log_size, RootConvention convention,
                                NttTuning tuning = {}, DeviceCache* cache = nullptr);
  // Device memory a plan of this size holds (for memory planners): 16 MiB at 2^27 with the default
  // tuning (2 GiB with one table of every twiddle).
  static size_t device_bytes_for(unsigned max_log_size, const NttTuning& tuning = {});
  size_t device_bytes() const { return device_bytes_for(max_log_size_, tuning_); }

  int device() const { return twiddles_.device(); }
  unsigned max_log_size() const { return max_log_size_; }
  RootConvention convention() const { return convention_; }
  const NttTuning& tuning() const { return tuning_; }
  // ω of the domain of size 2^log_n (host value).
  Fr omega(unsigned log_n) const;
  // The convention's default coset shift for size 2^log_n: 7 (bellman) or ω_{2n} (snarkjs).
  Fr default_coset_shift(unsigned log_n) const;

  // Powers of `shift` for coset transforms of size 2^log_n (device memory, ordered on s; in blocks
  // of `cache` when one is given).
  Result<NttCosetPowers> coset_powers(const Stream& s, unsigned log_n, const Fr& shift,
                                      DeviceCache* cache = nullptr,
                                      const NttCosetFactors& factors = {}) const;
  Result<NttCosetPowers> coset_powers(const Stream& s, unsigned log_n, DeviceCache* cache = nullptr) const {
    return coset_powers(s, log_n, default_coset_shift(log_n), cache);
  }

  // data[0 .. 2^log_n) ← its transform, in place, queued on s (data must be memory of s's device).
  //   forward:        a ← (Σ_i a_i ω^{ij})_j
  //   inverse:        a ← (n^-1 Σ_i a_i ω^{-ij})_j
  //   coset_forward:  a_i ← a_i·g^i, then forward
  //   coset_inverse:  inverse, then a_i ← a_i·g^-i
  Status forward(const Stream& s, Fr* data, unsigned log_n, NttOrder in = NttOrder::natural,
                 NttOrder out = NttOrder::natural) const;
  Status inverse(const Stream& s, Fr* data, unsigned log_n, NttOrder in = NttOrder::natural,
                 NttOrder out = NttOrder::natural) const;
  //   inverse_unscaled: n·inverse, a ← (Σ_i a_i ω^{-ij})_j (the caller folds n^-1 in elsewhere)
  //   inverse_scaled:   a ← (factor·Σ_i a_i ω^{-ij})_j (the factor in the last pass's stores)
  Status inverse_unscaled(const Stream& s, Fr* data, unsigned log_n, NttOrder in = NttOrder::natural,
                          NttOrder out = NttOrder::natural) const;
  Status inverse_scaled(const Stream& s, Fr* data, unsigned log_n, const Fr& factor,
                        NttOrder in = NttOrder::natural, NttOrder out = NttOrder::natural) const;
  Status coset_forward(const Stream& s, Fr* data, const NttCosetPowers& g, NttOrder in = NttOrder::natural,
                       NttOrder out = NttOrder::natural) const;
  Status coset_inverse(const Stream& s, Fr* data, const NttCosetPowers& g, NttOrder in = NttOrder::natural,
                       NttOrder out = NttOrder::natural) const;

  // The prover's H stage, with its pointwise passes folded into the transforms' first and last
  // passes (each such pass over a 2^27 vector moves 12 GiB):
  //   to_coset:                 inverse_unscaled (natural → bit-reversed), then coset_forward
  //                             (→ natural); the inverse's last pass and the forward's first,
  //                             over the same index bits, run as one kernel. With a tap, its
  //                             first pass also copies or multiplies the input into tap.out.
  //   coset_inverse_of_product: data ← coset_inverse(data∘b) − sub, b (null: ones) in data's input
  //                             order, sub (null: zeros) in its output order, which must differ
  //                             (no reversal).
  Status to_coset(const Stream& s, Fr* data, const NttCosetPowers& g, const NttTap& tap = {}) const;
  Status coset_inverse_of_product(const Stream& s, Fr* data, const Fr* b, const Fr* sub,
                                  const NttCosetPowers& g, NttOrder in, NttOrder out) const;

  NttPlan(NttPlan&&) noexcept = default;
  NttPlan& operator=(NttPlan&&) noexcept = default;

 private:
  NttPlan() = default;
  Status check_call(const Stream& s, const Fr* data, unsigned log_n) const;
  // inverse_factor: the plain inverse's scaling (ignored with a coset, whose tables carry it);
  // pre_mul: data∘pre_mul before the first pass; post_sub: data − post_sub after the last.
  Status transform(const Stream& s, Fr* data, unsigned log_n, bool inverse, NttOrder in, NttOrder out,
                   const NttCosetPowers* coset, const Fr& inverse_factor, const Fr* pre_mul = nullptr,
                   const Fr* post_sub = nullptr) const;

  unsigned max_log_size_ = 0;
  RootConvention convention_ = RootConvention::bellman;
  NttTuning tuning_{};
  Fr omega_max_{};  // ω of 2^max_log_size
  // With d = ntt_twiddle_split(max_log_size, tuning.twiddle_log): ω_max^(i·2^d), i < 2^(max_log_size-1-d),
  // and (d > 0) ω_max^e, e < 2^d; ω_max^j = twiddles_[j >> d]·twiddles_lo_[j mod 2^d].
  DeviceBuffer<Fr> twiddles_, twiddles_lo_;
};

// In-place bit-reversal permutation of data[0 .. 2^log_n).
Status bit_reverse(const Stream& s, Fr* data, unsigned log_n);

}  // namespace cuzk::cuda
