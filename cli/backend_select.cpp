#include "cli/backend_select.hpp"

#include "backend/cpu/cpu_backend.hpp"
#if CUZK_HAVE_CUDA
#include "backend/cuda/cuda_backend.hpp"
#endif

namespace cuzk::cli {

Result<size_t> parse_bytes(const std::string& text) {
  if (text.empty()) return size_t(0);
  size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &pos);
  } catch (...) {
    return make_error("'" + text + "' is not a size (e.g. 8G, 512M)");
  }
  const std::string unit = text.substr(pos);
  const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  if (shift < 0) return make_error("unknown unit '" + unit + "' in '" + text + "' (K, M or G)");
  return size_t(v) << shift;
}

Result<std::unique_ptr<ComputeBackend>> make_backend(const std::string& which, int device,
                                                     const std::string& vram_budget, cpu::ThreadPool& pool) {
  auto budget = parse_bytes(vram_budget);
  if (!budget) return make_error("--vram-budget: " + budget.message());
#if CUZK_HAVE_CUDA
  if (which != "cpu") {
    cuda::CudaBackendOptions o;
    o.device = device;
    o.vram_budget = *budget;
    auto gpu = cuda::CudaBackend::create(o);
    if (gpu) return std::unique_ptr<ComputeBackend>(std::move(*gpu));
    if (which == "cuda") return gpu.error();
  }
#else
  (void)device;
  if (which == "cuda")
    return make_error(
        "this build of cuzk has no CUDA backend (built without nvcc or with -DCUZK_WITH_CUDA=OFF)");
#endif
  return std::unique_ptr<ComputeBackend>(new cpu::CpuBackend(pool));
}

}  // namespace cuzk::cli
