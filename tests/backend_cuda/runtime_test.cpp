// The runtime's process-wide setting: kernels load when a context is created, not at first launch
// (runtime.hpp, load_kernels_eagerly), unless the environment already chose.
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

}  // namespace
