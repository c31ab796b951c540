// The runtime's host-side rules: kernels load when a context is created, not at first launch
// (runtime.hpp, load_kernels_eagerly), unless the environment already chose; registered memory
// comes in pieces that cross no multiple of kPinPieceBytes (for_each_pin_piece).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "backend/cuda/runtime/runtime.hpp"

namespace {

TEST(CudaRuntime, TheFirstCallAsksForEagerKernelLoading) {
  const char* before = std::getenv("CUDA_MODULE_LOADING");
  const std::string chosen = before ? before : "";
  std::string why;
  (void)cuzk::cuda::device_count(&why);  // without a device: 0, and the setting is made all the same
  const char* after = std::getenv("CUDA_MODULE_LOADING");
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(std::string(after), chosen.empty() ? "EAGER" : chosen);  // a user's choice stands
}

// The pieces of a range cover it in order, end to end, and none crosses a multiple of the piece
// size: from an unaligned start, an aligned one, within one piece, and for nothing at all.
TEST(CudaRuntime, PinPiecesCoverARangeWithoutCrossingABoundary) {
  constexpr size_t P = cuzk::cuda::kPinPieceBytes;
  for (uintptr_t start : {uintptr_t(P) * 5 + 4096 + 3, uintptr_t(P) * 7, uintptr_t(P) * 9 + 100})
    for (size_t bytes : {size_t(0), size_t(1), size_t(100), P - 1, P, P + 1, 3 * P + 12345}) {
      SCOPED_TRACE(std::to_string(start) + " + " + std::to_string(bytes));
      size_t next = 0, count = 0;
      const auto st = cuzk::cuda::for_each_pin_piece(reinterpret_cast<const void*>(start), bytes,
                                                     [&](size_t off, size_t len) -> cuzk::Status {
                                                       EXPECT_EQ(off, next);
                                                       EXPECT_GT(len, 0u);
                                                       const uintptr_t a = start + off;
                                                       EXPECT_EQ(a / P, (a + len - 1) / P);  // one piece
                                                       next = off + len;
                                                       ++count;
                                                       return cuzk::Status::Ok();
                                                     });
      EXPECT_TRUE(st.ok());
      EXPECT_EQ(next, bytes);
      EXPECT_LE(count, bytes / P + 2);
    }
  // A failing step stops the walk and comes back.
  size_t calls = 0;
  const auto st = cuzk::cuda::for_each_pin_piece(reinterpret_cast<const void*>(uintptr_t(P)), 4 * P,
                                                 [&](size_t, size_t) -> cuzk::Status {
                                                   ++calls;
                                                   return cuzk::make_error("stop");
                                                 });
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(calls, 1u);
}

}  // namespace
