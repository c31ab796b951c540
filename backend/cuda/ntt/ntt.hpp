// Number-theoretic transforms over Fr on a CUDA device, in place on a buffer already there.
//
// The math is backend/cpu/ntt.hpp's, element for element: the same two root conventions
// (bellman ω from 7, snarkjs ω from 5), the same default coset shifts (bellman g = 7, snarkjs
// ω_{2n}), inverse scaled by n^-1, coset forward = scale by shift^i then forward, coset inverse
// = inverse then scale by shift^-i.
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

#include "backend/cpu/ntt.hpp"  // RootConvention
#include "backend/cuda/runtime/runtime.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

using cpu::RootConvention;

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

// Tuning knobs of the transform kernels. The defaults are the fastest of a sweep on an H200
// (pass_log 10-12, coalesce_log 1-2, 128/256 threads: 2^27 forward 40.9-46 ms; docs/NTT-NOTES.md).
struct NttTuning {
  // Each kernel pass loads 2^pass_log elements of one block into shared memory and runs up to
  // pass_log radix-2 stages there (2^pass_log · 32 bytes of shared memory per block).
  unsigned pass_log = 10;
  // Passes over high index bits load runs of 2^coalesce_log consecutive elements.
  unsigned coalesce_log = 2;
  // Threads per block (at most; fewer when a pass has fewer butterflies per stage).
  unsigned threads = 128;
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
  // stream's device. The plan serves every size up to 2^max_log_size. Ordered on `s`; the plan
  // is usable by work queued after this on `s` (other streams: synchronize `s` first).
  // With a `cache`, the twiddles live in a block it lends (it must outlive the plan).
  static Result<NttPlan> create(const Stream& s, unsigned max_log_size, RootConvention convention,
                                NttTuning tuning = {}, DeviceCache* cache = nullptr);
  // Device memory a plan of this size holds (for memory planners): 2^(max_log_size-1) · 32 bytes.
  static size_t device_bytes_for(unsigned max_log_size);
  size_t device_bytes() const { return device_bytes_for(max_log_size_); }

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
  //   coset_inverse_of_product: data ← coset_inverse(data∘b) − sub, b in data's input order, sub
  //                             (null: zeros) in its output order, which must differ (no reversal).
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
  Fr omega_max_{};             // ω of 2^max_log_size
  DeviceBuffer<Fr> twiddles_;  // ω_max^j, j < 2^(max_log_size-1)
};

// In-place bit-reversal permutation of data[0 .. 2^log_n).
Status bit_reverse(const Stream& s, Fr* data, unsigned log_n);

// Pointwise work of the prover's H polynomial (all device pointers, n elements, queued on s).
// a_i ← (a_i·b_i − c_i)·z   (bellman's divide_by_z_on_coset folds in as z = (g^n − 1)^-1;
//                            pass z = 1 for snarkjs's A·B − C)
// A null b stands for ones and a null c for zeros: (a·b)·z and (a − c)·z are the same call.
Status mul_sub_scale(const Stream& s, Fr* a, const Fr* b, const Fr* c, const Fr& z, size_t n);
// *first ← the least j < rows with a_j·b_j ≠ c_j, or rows when there is none (R1CS satisfaction on
// the evaluations); a null b stands for ones (a holding the products); first is device memory. The host value
// it starts from crosses on s, so read *first after s has synchronized.
Status first_unsatisfied(const Stream& s, const Fr* a, const Fr* b, const Fr* c, size_t rows,
                         unsigned long long* first);
// a_i ← a_i·c
Status scale(const Stream& s, Fr* a, const Fr& c, size_t n);
// a_i ← a_i·c·g^i   (a coset shift by powers, for callers that keep it out of the transform)
Status scale_by_powers(const Stream& s, Fr* a, const Fr& c, const Fr& g, size_t n);

}  // namespace cuzk::cuda
