#include "backend/cpu/msm.hpp"

#include <algorithm>
#include <bit>
#include <mutex>
#include <string>
#include <vector>

namespace cuzk::cpu {
namespace {

template <class A>
using XyzzOf = curve::xyzz_t<typename A::field, typename A::params>;
template <class A>
using JacobianOf = curve::jacobian_t<typename A::field, typename A::params>;

struct Scalar {
  uint64_t l[Fr::N];  // canonical, little-endian
};

// Below this many points a round of batch additions costs more in its inversion than it saves.
constexpr size_t kMinBatch = 32;
// Affine buckets pay off once a window has enough buckets for large conflict-free batches.
constexpr size_t kMinAffineBuckets = 512;

// Bits [pos, pos + len) of a 256-bit integer, zero past the top; len <= 32.
inline uint32_t get_bits(const uint64_t* s, unsigned pos, unsigned len) {
  if (pos >= 64 * Fr::N) return 0;
  const unsigned limb = pos / 64, off = pos % 64;
  uint64_t v = s[limb] >> off;
  if (off + len > 64 && limb + 1 < Fr::N) v |= s[limb + 1] << (64 - off);
  return uint32_t(v & ((uint64_t(1) << len) - 1));
}

// Booth digit of window w: d_w = x_w + b_{cw-1} − 2^c·b_{cw+c-1}, where x_w is the window's c bits.
// The sum Σ d_w 2^(cw) telescopes back to the scalar as long as bit cW−1 is zero, which holds with
// W = ceil(256 / c) for scalars < r < 2^255, and |d_w| <= 2^(c-1).
inline int32_t booth_digit(const uint64_t* s, unsigned w, unsigned c) {
  const unsigned pos = w * c;
  const uint32_t x = get_bits(s, pos, c);
  const uint32_t b = pos == 0 ? 0 : get_bits(s, pos - 1, 1);
  const int32_t top = int32_t(x >> (c - 1));
  return int32_t(x + b) - (top << c);
}

// Sums the points in pts (affine, infinities allowed) and leaves pts scrambled. Each round adds
// disjoint pairs in affine coordinates, λ = (y2 − y1)/(x2 − x1), with all the round's inversions
// done as one (Montgomery's trick): about 6 multiplications an addition against 10 for an XYZZ
// mixed addition. Pairs with equal x (a doubling or P + (−P)) are settled on the side.
template <class A>
XyzzOf<A> sum_affine_in_place(std::vector<A>& pts) {
  using F = typename A::field;
  using X = XyzzOf<A>;
  X side = X::infinity();
  size_t n = 0;
  for (const A& p : pts)
    if (!p.is_inf()) pts[n++] = p;
  std::vector<F> scratch;
  while (n >= kMinBatch) {
    const size_t pairs = n / 2;
    scratch.resize(pairs);
    // Forward: scratch[k] = product of the earlier pairs' dx (zero marks a pair settled aside).
    F acc = F::one();
    for (size_t k = 0; k < pairs; ++k) {
      const A& p = pts[2 * k];
      const A& q = pts[2 * k + 1];
      const F dx = q.x - p.x;
      if (dx.is_zero()) {
        if (p.y == q.y) side = side.add(X::dbl_affine(p));  // else p + q is infinity
        scratch[k] = F::zero();
        continue;
      }
      scratch[k] = acc;
      acc *= dx;
    }
    // Backward: scratch[k] = 1 / dx_k.
    F inv = acc.inverse();
    for (size_t k = pairs; k-- > 0;) {
      if (scratch[k].is_zero()) continue;
      const F dx = pts[2 * k + 1].x - pts[2 * k].x;
      scratch[k] *= inv;
      inv *= dx;
    }
    // Forward again, writing sums to the front: slot m <= k never holds an unread input.
    size_t m = 0;
    for (size_t k = 0; k < pairs; ++k) {
      if (scratch[k].is_zero()) continue;
      const A p = pts[2 * k];
      const A q = pts[2 * k + 1];
      const F lambda = (q.y - p.y) * scratch[k];
      const F x3 = lambda.sqr() - p.x - q.x;
      pts[m++] = A{x3, lambda * (p.x - x3) - p.y};
    }
    if (n % 2) pts[m++] = pts[n - 1];
    n = m;
  }
  for (size_t i = 0; i < n; ++i) side = side.add_mixed(pts[i]);
  return side;
}

// One window of Pippenger over points [begin, end): XYZZ buckets, one mixed addition a point.
template <class A>
XyzzOf<A> window_sum_xyzz(std::span<const A> bases, const std::vector<Scalar>& scalars,
                          const std::vector<uint32_t>& base_index, size_t begin, size_t end, unsigned w,
                          unsigned c) {
  using X = XyzzOf<A>;
  const size_t buckets = size_t(1) << (c - 1);
  std::vector<X> bucket(buckets, X::infinity());
  for (size_t i = begin; i < end; ++i) {
    const int32_t d = booth_digit(scalars[i].l, w, c);
    if (d > 0) {
      bucket[d - 1] = bucket[d - 1].add_mixed(bases[base_index[i]]);
    } else if (d < 0) {
      bucket[-d - 1] = bucket[-d - 1].add_mixed(bases[base_index[i]].neg());
    }
  }
  // Σ_b (b+1)·bucket[b] as a running sum of running sums.
  X running = X::infinity(), sum = X::infinity();
  for (size_t b = buckets; b-- > 0;) {
    running = running.add(bucket[b]);
    sum = sum.add(running);
  }
  return sum;
}

// The same window with affine buckets: additions are queued, a bucket at most once per batch, and
// each batch shares one inversion (Montgomery's trick), about 6 multiplications an addition
// against 10 for XYZZ. A point whose bucket already waits in the batch, or whose addition is a
// doubling or a cancellation (equal x), goes to a side array of XYZZ buckets instead, so skewed
// scalars (many equal digits) cost no more than the XYZZ method. Bases must not be infinity.
template <class A>
XyzzOf<A> window_sum_batch_affine(std::span<const A> bases, const std::vector<Scalar>& scalars,
                                  const std::vector<uint32_t>& base_index, size_t begin, size_t end,
                                  unsigned w, unsigned c) {
  using F = typename A::field;
  using X = XyzzOf<A>;
  const size_t buckets = size_t(1) << (c - 1);
  // A batch of buckets/8 keeps conflicts near 6% while the inversion (~570 multiplications with
  // Fermat) is spread over hundreds of additions.
  const size_t batch = std::min<size_t>(2048, buckets / 8);
  // Bucket states live in their own byte array so that sorting a point touches one byte, not
  // the 96-byte (G1) or 192-byte (G2) bucket, which is read only when its batch is flushed.
  enum : uint8_t { kEmpty = 0, kFilled = 1, kPending = 2 };
  std::vector<A> bucket(buckets);
  std::vector<uint8_t> state(buckets, kEmpty);
  std::vector<X> side;  // allocated on the first conflict
  struct Pending {
    uint32_t bucket;
    A point;
  };
  std::vector<Pending> pending;
  pending.reserve(batch);
  std::vector<F> scratch(batch);
  auto to_side = [&](size_t b, const A& p) {
    if (side.empty()) side.assign(buckets, X::infinity());
    side[b] = side[b].add_mixed(p);
  };
  auto flush = [&] {
    F acc = F::one();
    for (size_t k = 0; k < pending.size(); ++k) {
      const A& p = pending[k].point;
      const F dx = p.x - bucket[pending[k].bucket].x;
      if (dx.is_zero()) {
        to_side(pending[k].bucket, p);
        scratch[k] = F::zero();
        continue;
      }
      scratch[k] = acc;
      acc *= dx;
    }
    F inv = acc.inverse();
    for (size_t k = pending.size(); k-- > 0;) {
      if (scratch[k].is_zero()) continue;
      const F dx = pending[k].point.x - bucket[pending[k].bucket].x;
      scratch[k] *= inv;
      inv *= dx;
    }
    for (size_t k = 0; k < pending.size(); ++k) {
      const uint32_t b = pending[k].bucket;
      state[b] = kFilled;
      if (scratch[k].is_zero()) continue;
      const A& p = pending[k].point;
      A& q = bucket[b];
      const F lambda = (p.y - q.y) * scratch[k];
      const F x3 = lambda.sqr() - q.x - p.x;
      q.y = lambda * (q.x - x3) - q.y;
      q.x = x3;
    }
    pending.clear();
  };
  for (size_t i = begin; i < end; ++i) {
    const int32_t d = booth_digit(scalars[i].l, w, c);
    if (d == 0) continue;
    const uint32_t b = uint32_t(d > 0 ? d - 1 : -d - 1);
    const A& base = bases[base_index[i]];
    const A p = d > 0 ? base : base.neg();
    if (state[b] == kPending) {
      to_side(b, p);
    } else if (state[b] == kEmpty) {
      bucket[b] = p;
      state[b] = kFilled;
    } else {
      state[b] = kPending;
      pending.push_back({b, p});
      if (pending.size() == batch) flush();
    }
  }
  flush();
  X running = X::infinity(), sum = X::infinity();
  for (size_t b = buckets; b-- > 0;) {
    if (state[b] == kFilled) running = running.add_mixed(bucket[b]);
    if (!side.empty()) running = running.add(side[b]);
    sum = sum.add(running);
  }
  return sum;
}

// Σ d_i·P_i over the scalars with Booth windows of c bits.
template <class A>
XyzzOf<A> pippenger(std::span<const A> bases, const std::vector<Scalar>& scalars,
                    const std::vector<uint32_t>& base_index, unsigned c, bool batch_affine,
                    ThreadPool& pool) {
  using X = XyzzOf<A>;
  const size_t n = scalars.size();
  if (n == 0) return X::infinity();
  const unsigned windows = (64 * Fr::N + c - 1) / c;
  const size_t buckets = size_t(1) << (c - 1);
  // Enough tasks to keep every thread busy: split the points too when there are fewer windows
  // than about two per thread, as long as each slice still outweighs its bucket reduction.
  size_t slices = 1;
  if (windows < 2 * pool.size()) {
    slices = (2 * pool.size() + windows - 1) / windows;
    slices = std::max<size_t>(1, std::min(slices, n / (4 * buckets)));
  }
  const size_t slice_len = (n + slices - 1) / slices;
  std::vector<X> partial(size_t(windows) * slices, X::infinity());
  const bool use_affine = batch_affine && buckets >= kMinAffineBuckets;
  pool.run(partial.size(), [&](size_t task) {
    const unsigned w = unsigned(task / slices);
    const size_t begin = (task % slices) * slice_len;
    const size_t end = std::min(n, begin + slice_len);
    partial[task] = use_affine ? window_sum_batch_affine(bases, scalars, base_index, begin, end, w, c)
                               : window_sum_xyzz(bases, scalars, base_index, begin, end, w, c);
  });
  X acc = X::infinity();
  for (unsigned w = windows; w-- > 0;) {
    for (unsigned i = 0; i < c && !acc.is_inf(); ++i) acc = acc.dbl();
    for (size_t s = 0; s < slices; ++s) acc = acc.add(partial[size_t(w) * slices + s]);
  }
  return acc;
}

// Per slice of the scalars: the non-trivial ones (canonical) with their base, and the bases of
// the ones equal to 1.
struct Classified {
  std::vector<Scalar> scalars;
  std::vector<uint32_t> base_index;
  std::vector<uint32_t> unit_base_index;
};

template <class A>
Result<JacobianOf<A>> msm_impl(std::span<const A> bases, std::span<const Fr> scalars, const uint64_t* density,
                               ThreadPool& pool, const MsmOptions& options) {
  using X = XyzzOf<A>;
  const size_t n = scalars.size();
  if (bases.size() >= (size_t(1) << 32)) return make_error("MSM: more than 2^32 bases");
  if (options.window_bits > 24) return make_error("MSM: window_bits above 24");
  if (!density && bases.size() != n) {
    return make_error("MSM: " + std::to_string(bases.size()) + " bases for " + std::to_string(n) +
                      " scalars");
  }

  // Slices of whole density words, and the first base of each slice (a prefix popcount).
  const size_t words = (n + 63) / 64;
  const size_t slice_words = std::max<size_t>(1, (words + 4 * pool.size() - 1) / (4 * pool.size()));
  const size_t slices = words == 0 ? 0 : (words + slice_words - 1) / slice_words;
  auto present_in_word = [&](size_t word) -> uint64_t {
    const uint64_t valid = (word + 1) * 64 <= n ? ~uint64_t(0) : (uint64_t(1) << (n % 64)) - 1;
    return (density ? density[word] : ~uint64_t(0)) & valid;
  };
  std::vector<size_t> first_base(slices + 1, 0);
  for (size_t s = 0; s < slices; ++s) {
    size_t count = 0;
    for (size_t wd = s * slice_words; wd < std::min(words, (s + 1) * slice_words); ++wd)
      count += size_t(std::popcount(present_in_word(wd)));
    first_base[s + 1] = first_base[s] + count;
  }
  if (density && first_base[slices] != bases.size()) {
    return make_error("MSM: the density has " + std::to_string(first_base[slices]) +
                      " variables present but " + std::to_string(bases.size()) + " bases were given");
  }

  std::vector<Classified> parts(slices);
  const bool split = options.split_binary;
  pool.run(slices, [&](size_t s) {
    Classified& part = parts[s];
    size_t base = first_base[s];
    for (size_t wd = s * slice_words; wd < std::min(words, (s + 1) * slice_words); ++wd) {
      for (uint64_t bits = present_in_word(wd); bits != 0; bits &= bits - 1) {
        const Fr& x = scalars[wd * 64 + size_t(std::countr_zero(bits))];
        const uint32_t b = uint32_t(base++);
        if (x.is_zero() || bases[b].is_inf()) continue;
        if (split && x == Fr::one()) {
          part.unit_base_index.push_back(b);
          continue;
        }
        Scalar sc;
        x.to_canonical(sc.l);
        part.scalars.push_back(sc);
        part.base_index.push_back(b);
      }
    }
  });

  // Gather the slices (in order, so the work split below is deterministic).
  Classified all;
  for (auto& p : parts) {
    all.scalars.insert(all.scalars.end(), p.scalars.begin(), p.scalars.end());
    all.base_index.insert(all.base_index.end(), p.base_index.begin(), p.base_index.end());
    all.unit_base_index.insert(all.unit_base_index.end(), p.unit_base_index.begin(), p.unit_base_index.end());
    p = Classified{};
  }

  std::mutex mutex;
  X total = X::infinity();
  pool.for_ranges(all.unit_base_index.size(), 4096, [&](size_t begin, size_t end) {
    std::vector<A> pts(end - begin);
    for (size_t i = begin; i < end; ++i) pts[i - begin] = bases[all.unit_base_index[i]];
    const X part = sum_affine_in_place(pts);
    std::lock_guard<std::mutex> lock(mutex);
    total = total.add(part);
  });
  const unsigned c = options.window_bits ? options.window_bits : msm_window_bits(all.scalars.size());
  total = total.add(pippenger(bases, all.scalars, all.base_index, c, options.batch_affine, pool));
  return total.to_jacobian();
}

}  // namespace

unsigned msm_window_bits(size_t n) {
  // Cost in additions: ceil(256/c) windows × (n bucket additions + 2·2^(c-1) reduction additions,
  // weighted 1.4 for full versus mixed additions).
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= 20; ++c) {
    const double cost = double((256 + c - 1) / c) * (double(n) + 1.4 * double(size_t(1) << c));
    if (c == 1 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

template <class Affine>
Result<JacobianOf<Affine>> msm(std::span<const Affine> bases, std::span<const Fr> scalars, ThreadPool& pool,
                               const MsmOptions& options) {
  return msm_impl<Affine>(bases, scalars, nullptr, pool, options);
}

template <class Affine>
Result<JacobianOf<Affine>> msm(std::span<const Affine> bases, std::span<const Fr> scalars,
                               std::span<const uint64_t> density, ThreadPool& pool,
                               const MsmOptions& options) {
  if (density.size() < (scalars.size() + 63) / 64) {
    return make_error("MSM: density of " + std::to_string(density.size()) + " words for " +
                      std::to_string(scalars.size()) + " scalars");
  }
  return msm_impl<Affine>(bases, scalars, density.data(), pool, options);
}

template <class Affine>
JacobianOf<Affine> sum_points(std::span<const Affine> bases, ThreadPool& pool) {
  using X = XyzzOf<Affine>;
  std::mutex mutex;
  X total = X::infinity();
  pool.for_ranges(bases.size(), 4096, [&](size_t begin, size_t end) {
    std::vector<Affine> pts(bases.begin() + begin, bases.begin() + end);
    const X part = sum_affine_in_place(pts);
    std::lock_guard<std::mutex> lock(mutex);
    total = total.add(part);
  });
  return total.to_jacobian();
}

template Result<G1Jacobian> msm<G1Affine>(std::span<const G1Affine>, std::span<const Fr>, ThreadPool&,
                                          const MsmOptions&);
template Result<G2Jacobian> msm<G2Affine>(std::span<const G2Affine>, std::span<const Fr>, ThreadPool&,
                                          const MsmOptions&);
template Result<G1Jacobian> msm<G1Affine>(std::span<const G1Affine>, std::span<const Fr>,
                                          std::span<const uint64_t>, ThreadPool&, const MsmOptions&);
template Result<G2Jacobian> msm<G2Affine>(std::span<const G2Affine>, std::span<const Fr>,
                                          std::span<const uint64_t>, ThreadPool&, const MsmOptions&);
template G1Jacobian sum_points<G1Affine>(std::span<const G1Affine>, ThreadPool&);
template G2Jacobian sum_points<G2Affine>(std::span<const G2Affine>, ThreadPool&);

}  // namespace cuzk::cpu
