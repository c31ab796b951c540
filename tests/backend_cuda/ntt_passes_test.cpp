// The device NTT's passes (backend/cuda/ntt/passes.hpp), on the CPU: every stage run once, top
// pass first, each block within its shared memory and every pass's blocks alike.
#include "backend/cuda/ntt/passes.hpp"

#include <gtest/gtest.h>

namespace cuzk::cuda {
namespace {

TEST(NttPasses, CoverEveryStageOnceInBlocksThatFit) {
  for (unsigned pass_log = 2; pass_log <= 12; ++pass_log)
    for (unsigned coalesce = 0; coalesce + 2 <= pass_log; ++coalesce) {
      const NttTuning tuning{pass_log, coalesce, 128};
      ASSERT_TRUE(check_ntt_tuning(tuning).ok());
      for (unsigned log_n = 1; log_n <= 28; ++log_n) {
        const auto passes = plan_ntt_passes(log_n, tuning);
        ASSERT_FALSE(passes.empty());
        unsigned top = log_n, block = 0;
        for (size_t i = 0; i < passes.size(); ++i) {
          const NttPass& p = passes[i];
          SCOPED_TRACE(::testing::Message() << "2^" << log_n << " pass_log " << pass_log << " coalesce "
                                            << coalesce << " pass " << i);
          EXPECT_GE(p.k, 1u);
          EXPECT_EQ(p.s_lo + p.k, top);          // top first, no gap
          EXPECT_LE(p.c, p.s_lo);                // coalesced bits lie below the stages
          EXPECT_LE(p.s_lo + p.k + p.g, log_n);  // groups lie above them
          EXPECT_LE(p.k + p.c + p.g, pass_log);  // a block fits its shared memory
          if (i == 0) block = p.k + p.c + p.g;
          EXPECT_EQ(p.k + p.c + p.g, block);  // every pass's blocks alike
          top = p.s_lo;
        }
        EXPECT_EQ(top, 0u);  // down to the bottom bit
      }
    }
}

// 2^27 with the default tuning: four passes of 7, 7, 7 and 6 stages (docs/NTT-NOTES.md).
TEST(NttPasses, DefaultTuningAt2To27) {
  const auto passes = plan_ntt_passes(27, NttTuning{});
  ASSERT_EQ(passes.size(), 4u);
  EXPECT_EQ(passes[0].k, 7u);
  EXPECT_EQ(passes[1].k, 7u);
  EXPECT_EQ(passes[2].k, 7u);
  EXPECT_EQ(passes[3].k, 6u);
  EXPECT_EQ(ntt_shared_bytes(10), size_t(32768));
}

TEST(NttPasses, TuningOutOfRangeIsAnError) {
  EXPECT_FALSE(check_ntt_tuning({1, 0, 128}).ok());
  EXPECT_FALSE(check_ntt_tuning({13, 0, 128}).ok());
  EXPECT_FALSE(check_ntt_tuning({10, 9, 128}).ok());
  EXPECT_FALSE(check_ntt_tuning({10, 2, 16}).ok());
  EXPECT_FALSE(check_ntt_tuning({10, 2, 1024}).ok());
  EXPECT_FALSE(check_ntt_tuning({10, 2, 96}).ok());
  EXPECT_TRUE(check_ntt_tuning({10, 2, 128}).ok());
  EXPECT_TRUE(check_ntt_tuning({10, 2, 128, 0}).ok());
  EXPECT_FALSE(check_ntt_tuning({10, 2, 128, 29}).ok());
}

// The twiddles' split: none while one table of 2^twiddle_log holds them all (a plan of 2^N has
// 2^(N−1)), else the top N−1−twiddle_log stages.
TEST(NttPasses, TwiddleSplit) {
  EXPECT_EQ(ntt_twiddle_split(0, 19), 0u);
  EXPECT_EQ(ntt_twiddle_split(20, 19), 0u);
  EXPECT_EQ(ntt_twiddle_split(21, 19), 1u);
  EXPECT_EQ(ntt_twiddle_split(27, 19), 7u);
  EXPECT_EQ(ntt_twiddle_split(27, 0), 26u);
  EXPECT_EQ(ntt_twiddle_split(1, 0), 0u);
}

}  // namespace
}  // namespace cuzk::cuda
