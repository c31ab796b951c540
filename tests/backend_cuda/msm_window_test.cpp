// The device MSM's window and cost rules (backend/cuda/msm/window.hpp), on the CPU: the digit
// layout against independent counts, the plain window against the CPU backend's rule, and the
// resident windows against the choices measured fastest on the H200 (docs/MSM-NOTES.md).
#include "backend/cuda/msm/window.hpp"

#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu/msm.hpp"

namespace cuzk::cuda {
namespace {

// Windows of c and c − 1 bits: the fewest of c bits covering 256 bits with `narrow` of c − 1, and
// the most narrow ones that still cover them, counted bit by bit.
TEST(MsmWindow, WindowsCoverTheScalarWithTheMostNarrowOnes) {
  for (unsigned c = 1; c <= 24; ++c) {
    const unsigned W = msm_windows(c);
    EXPECT_GE(W * c, 256u) << c;
    EXPECT_LT((W - 1) * c, 256u) << c;
    unsigned most = 0;
    for (unsigned k = 0; k < W; ++k)
      if ((W - k) * c + k * (c - 1) >= 256) most = k;
    EXPECT_EQ(msm_narrow_windows(c, 1, true), most) << c;
    EXPECT_EQ(msm_narrow_windows(c, 1, false), 0u) << c;
    EXPECT_EQ(msm_narrow_windows(c, 2, true), 0u) << c;  // tables shift by a uniform 2^c
  }
  EXPECT_EQ(msm_windows(22), 12u);
  EXPECT_EQ(msm_narrow_windows(22, 1, true), 8u);   // 4 × 22 + 8 × 21 = 256 bits
  EXPECT_EQ(msm_narrow_windows(17, 1, true), 15u);  // 272 − 256 = 16, at most W − 1
  EXPECT_EQ(msm_narrow_windows(16, 1, true), 0u);
}

// A signed window of b bits has digits of magnitude up to 2^(b−1): that many buckets a set.
TEST(MsmWindow, BucketsInUseCountEachSetsDigitMagnitudes) {
  for (unsigned c = 2; c <= 24; ++c)
    for (unsigned sets = 1; sets <= 16; ++sets)
      for (unsigned narrow = 0; narrow <= sets; ++narrow) {
        size_t count = 0;
        for (unsigned s = 0; s < sets; ++s) count += size_t(1) << ((s < sets - narrow ? c : c - 1) - 1);
        EXPECT_EQ(msm_buckets_in_use(c, sets, narrow), count) << c << " " << sets << " " << narrow;
      }
  EXPECT_EQ(msm_buckets_in_use(22, 12, 8), size_t(16777216));
  EXPECT_EQ(msm_buckets_in_use(19, 14, 10), size_t(4 * 262144 + 10 * 131072));
}

TEST(MsmWindow, SetGroupsFillAPassWithoutOverflowingIt) {
  const size_t n = size_t(1) << 27, pass = size_t(1) << 25;
  for (unsigned c = 8; c <= 24; ++c) {
    const unsigned W = msm_windows(c);
    for (unsigned m : {1u, 2u, 3u}) {
      const unsigned S = (W + m - 1) / m;
      const size_t g = msm_set_group(n, pass, W, m, S);
      if (W > 32 || S < 2) {
        EXPECT_EQ(g, 0u) << c << " " << m;
        continue;
      }
      EXPECT_LE(g, S);
      EXPECT_LE(n * m * g, pass * W) << c << " " << m;  // g sets of every point fit the entries
      if (g < S) {
        EXPECT_GT(n * m * (g + 1), pass * W) << c << " " << m;  // and one more would not
      }
    }
  }
  EXPECT_EQ(msm_set_group(n, pass, 12, 1, 12), 3u);  // the H query: four passes of three sets
  EXPECT_EQ(msm_set_group(n, n, 12, 1, 12), 0u);     // one pass of points
  EXPECT_EQ(msm_set_group(n, pass, 12, 12, 1), 0u);  // one set
  EXPECT_EQ(msm_set_group(n, pass, 37, 1, 37), 0u);  // c = 7: over 32 windows
}

TEST(MsmWindow, DigitsPerPassLeaveRoomForOneBlock) {
  EXPECT_EQ(msm_digits_per_pass(2 * kMsmDigitBlock - 1, 12), 0u);  // too small: cut by points
  EXPECT_EQ(msm_digits_per_pass(2 * kMsmDigitBlock, 12), size_t(kMsmDigitBlock) * 12);
  EXPECT_EQ(msm_digits_per_pass(size_t(1) << 25, 13), ((size_t(1) << 25) - kMsmDigitBlock) * 13);
}

// The plain rule and the CPU backend's (cpu::msm_window_bits: the same cost, full additions at 1.4
// mixed ones, windows up to 20 bits) pick the same window wherever the best is within 20 bits.
TEST(MsmWindow, PlainWindowAgreesWithTheCpuRule) {
  for (unsigned lg = 0; lg <= 26; ++lg) {
    const size_t n = size_t(1) << lg;
    const unsigned c = msm_pick_window(n, 1, 1.4);
    if (c <= 20) {
      EXPECT_EQ(c, cpu::msm_window_bits(n)) << lg;
    }
  }
  unsigned last = 1;
  for (unsigned lg = 0; lg <= 30; ++lg) {  // more points never narrow the window
    const unsigned c = msm_pick_window(size_t(1) << lg, 1);
    EXPECT_GE(c, last) << lg;
    EXPECT_LE(c, 24u);
    last = c;
  }
  // Precomputation folds the sets, so the window widens.
  for (unsigned lg = 10; lg <= 27; ++lg)
    EXPECT_GE(msm_pick_window(size_t(1) << lg, 0), msm_pick_window(size_t(1) << lg, 1)) << lg;
}

TEST(MsmWindow, StreamedWindowsGoFromThePlainChoiceDownToFour) {
  for (unsigned lg = 10; lg <= 27; ++lg) {
    const auto ws = streamed_windows(size_t(1) << lg);
    ASSERT_FALSE(ws.empty());
    EXPECT_EQ(ws.front(), msm_pick_window(size_t(1) << lg, 1));
    EXPECT_EQ(ws.back(), 4u);
    for (size_t i = 1; i < ws.size(); ++i) {
      EXPECT_LT(ws[i], ws[i - 1]);
      EXPECT_EQ(ws[i - 1] - ws[i], ws[i - 1] > 6 ? 2u : 1u);
    }
  }
}

// An MSM of a few points (a proof's input part streams when nothing may stay resident) picks a
// window below the kernels' floor; it is tried at 4, never left without one.
TEST(MsmWindow, StreamedWindowsOfAFewPointsStartAtFour) {
  for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(20), size_t(100), size_t(328), size_t(1000)}) {
    const auto ws = streamed_windows(n);
    ASSERT_FALSE(ws.empty()) << n;
    EXPECT_EQ(ws.front(), std::max(msm_pick_window(n, 1), 4u)) << n;
    EXPECT_EQ(ws.back(), 4u) << n;
  }
  EXPECT_LT(msm_pick_window(20, 1), 4u);  // the case this guards
}

// The resident window follows the scalars: uniform scalars keep the dense choice, a witness of mostly
// 0 and 1 gets fewer buckets, and more zeros or ones never widen the window. The expected windows
// are the fastest measured on the H200 at a 2^27 proof's shapes (cuzk_bench_msm sweeps).
TEST(MsmWindow, ResidentWindowFollowsTheScalarMix) {
  const size_t n = size_t(1) << 27, pass = size_t(1) << 25;
  const auto pick = [&](size_t points, ScalarMix mix, bool set_passes = true, bool g2 = false) {
    return pick_resident_window({.n = points, .pass = pass, .mix = mix, .g2 = g2, .set_passes = set_passes});
  };
  // Uniform scalars in passes of set groups: each bucket once, so a wider window (12 windows).
  EXPECT_EQ(pick(n, {}).c, 22u);
  EXPECT_TRUE(pick(n, {}).by_sets);
  EXPECT_EQ(pick(n, {}, false).c, 20u);  // passes of points
  EXPECT_FALSE(pick(n, {}, false).by_sets);
  // A witness: one pass of digits. On G1 (L, A) c = 20 beats 19 (2^27 witness scalars: 215.2 ms
  // against 220.2).
  EXPECT_EQ(pick(n, {0.4, 0.4}).c, 20u);
  EXPECT_FALSE(pick(n, {0.4, 0.4}).by_sets);
  // B's 60 % of the variables, as its density-form request samples them (absent ones count as
  // zero): c = 19 on both curves (10 of its 14 windows narrow, 2.4 M buckets in use; 2^26 witness
  // scalars: G2 346.6 ms against 352.4 at c = 18 and 363.1 at 16; G1 116.7 against 120.2 and 124.2).
  for (bool g2 : {false, true}) {
    EXPECT_EQ(pick(n, {0.64, 0.24}, true, g2).c, 19u) << g2;
    EXPECT_EQ(pick(size_t(0.6 * double(n)), {0.4, 0.4}, true, g2).c, 19u) << g2;
  }
  unsigned last = 99;
  for (double sparse = 0; sparse <= 1.0; sparse += 0.125) {
    const unsigned c = pick(n, {sparse / 2, sparse / 2}).c;
    EXPECT_LE(c, last) << sparse;
    EXPECT_GE(c, 8u);
    last = c;
  }
  // Small contexts (one pass): narrow windows, as the bucket work dominates.
  EXPECT_LE(pick(size_t(1) << 14, {}).c, 12u);
}

// Every window is a candidate, cheapest first, and the first is the pick.
TEST(MsmWindow, ResidentWindowsAreEveryWindowCheapestFirst) {
  for (ScalarMix mix : {ScalarMix{}, ScalarMix{0.4, 0.4}})
    for (bool g2 : {false, true})
      for (size_t n : {size_t(1) << 14, size_t(91925766), size_t(1) << 27}) {
        const ResidentWindowQuery q{.n = n, .pass = size_t(1) << 24, .mix = mix, .g2 = g2};
        const auto ws = resident_windows(q);
        ASSERT_EQ(ws.size(), 15u);
        std::vector<bool> seen(23, false);
        for (size_t i = 0; i < ws.size(); ++i) {
          ASSERT_GE(ws[i].c, 8u);
          ASSERT_LE(ws[i].c, 22u);
          EXPECT_FALSE(seen[ws[i].c]) << ws[i].c;
          seen[ws[i].c] = true;
          if (i > 0) {
            EXPECT_LE(ws[i - 1].cost, ws[i].cost);
          }
        }
        EXPECT_EQ(ws.front().c, pick_resident_window(q).c);
        EXPECT_EQ(ws.front().by_sets, pick_resident_window(q).by_sets);
      }
}

// The choice over pass sizes and windows is the cheapest of the plans that fit, found by brute
// force over the same candidates; where the model's first choice fits, it is the choice.
TEST(MsmWindow, ResidentChoiceIsTheCheapestThatFits) {
  const size_t largest = size_t(1) << 25, smallest = size_t(1) << 22;
  // A stand-in for a plan's bytes: digits of a pass (by points) or of a set group, and buckets.
  const auto bytes = [](size_t n, size_t pass, const ResidentWindow& w) {
    const double W = std::ceil(256.0 / w.c), buckets = W * std::ldexp(1.0, int(w.c) - 1);
    return (w.by_sets ? 2.0 * double(n) : double(std::min(n, pass)) * W) * 16 +
           buckets * (w.by_sets ? 60 : 200);
  };
  for (bool g2 : {false, true})
    for (ScalarMix mix : {ScalarMix{}, ScalarMix{0.4, 0.4}})
      for (size_t n : {size_t(91925766), size_t(1) << 27})
        for (double cap : {1e9, 3e9, 6e9, 9e9, 14e9, 1e12}) {
          const ResidentWindowQuery q{.n = n, .pass = largest, .mix = mix, .g2 = g2};
          const auto fits = [&](size_t pass, const ResidentWindow& w) { return bytes(n, pass, w) <= cap; };
          const ResidentChoice got = choose_resident_window(q, smallest, fits);
          std::optional<ResidentChoice> want;
          for (size_t pass = largest; pass >= smallest; pass /= 2)
            for (bool allowed : {true, false}) {
              ResidentWindowQuery at = q;
              at.pass = pass;
              at.set_passes = allowed;
              for (const ResidentWindow& w : resident_windows(at))
                if (fits(pass, w) && (!want || w.cost < want->window.cost))
                  want = ResidentChoice{pass, w, true};
            }
          const std::string where =
              "g2 " + std::to_string(g2) + " n " + std::to_string(n) + " cap " + std::to_string(cap);
          if (!want) {
            EXPECT_FALSE(got.fits) << where;
            EXPECT_EQ(got.pass, smallest) << where;
            ResidentWindowQuery at = q;
            at.pass = smallest;
            EXPECT_EQ(got.window.cost, resident_windows(at).front().cost) << where;
            continue;
          }
          ASSERT_TRUE(got.fits) << where;
          EXPECT_TRUE(fits(got.pass, got.window)) << where;
          EXPECT_DOUBLE_EQ(got.window.cost, want->window.cost) << where;
          if (cap >= 1e12) {  // everything fits: the first choice at the largest pass
            EXPECT_EQ(got.pass, largest);
            EXPECT_EQ(got.window.c, pick_resident_window(q).c);
            EXPECT_EQ(got.window.by_sets, pick_resident_window(q).by_sets);
          }
        }
}

// The first choice refused, the choice stays at the largest pass when a plan there fits and is
// cheaper than any at smaller passes (uniform scalars at 2^27: every c = 22 plan refused, c = 20
// at 2^25 beats halving).
TEST(MsmWindow, ResidentChoiceTriesOtherWindowsBeforeHalving) {
  const size_t n = size_t(1) << 27, largest = size_t(1) << 25;
  const ResidentWindowQuery q{.n = n, .pass = largest};
  const ResidentWindow top = pick_resident_window(q);
  ASSERT_EQ(top.c, 22u);
  ASSERT_TRUE(top.by_sets);
  const ResidentChoice got = choose_resident_window(q, size_t(1) << 22, [&](size_t, const ResidentWindow& w) {
    return w.c != top.c;  // every plan of that window too large
  });
  ASSERT_TRUE(got.fits);
  EXPECT_EQ(got.pass, largest);
  EXPECT_EQ(got.window.c, 20u);
}

}  // namespace
}  // namespace cuzk::cuda
