#include "engine/cuda_devices.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>

#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/runtime.hpp"

namespace cuzk::engine {

Result<DeviceSet> cuda_devices(const CudaDeviceOptions& options) {
  std::string why;
  const int count = cuda::device_count(&why);
  if (count <= 0) return make_error("cuda: no device found" + (why.empty() ? "" : ": " + why));
  std::vector<uint32_t> indices = options.indices;
  if (indices.empty())
    for (int i = 0; i < count; ++i) indices.push_back(uint32_t(i));
  if (options.workers == 0) return make_error("cuda: at least one worker per device");

  DeviceSet set;
  for (uint32_t index : indices) {
    if (index >= uint32_t(count))
      return make_error("cuda: device " + std::to_string(index) + " does not exist (" +
                        std::to_string(count) + " found)");
    auto guard = cuda::DeviceGuard::enter(int(index));
    if (!guard) return guard.error();
    size_t free_bytes = 0, total_bytes = 0;
    CUZK_TRY_STATUS(cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
    uint64_t budget = options.vram_budget;
    if (budget == 0) budget = free_bytes > options.margin ? free_bytes - options.margin : 0;
    if (budget > free_bytes)
      return make_error("cuda: device " + std::to_string(index) + " has " + std::to_string(free_bytes >> 20) +
                        " MiB free, less than the budget of " + std::to_string(budget >> 20) + " MiB");
    set.devices.push_back({index, budget, options.workers});
  }
  // Each worker plans within its share; the engine reserves exactly that share for a partition.
  set.factory = [](const DeviceDescriptor& d, uint32_t) -> Result<std::unique_ptr<ComputeBackend>> {
    cuda::CudaBackendOptions o;
    o.device = int(d.index);
    o.vram_budget = d.memory_budget / d.workers;
    auto backend = cuda::CudaBackend::create(o);
    if (!backend) return backend.error();
    return std::unique_ptr<ComputeBackend>(std::move(*backend));
  };
  set.backend_manages_residency = true;  // each CudaBackend keeps bases within its share
  set.pin_host = [](const void* p, size_t bytes) -> Result<std::shared_ptr<void>> {
    auto pinned = cuda::PinnedRange::pin(p, bytes);
    if (!pinned) return pinned.error();
    return std::shared_ptr<void>(std::make_shared<cuda::PinnedRange>(std::move(*pinned)));
  };
  const uint32_t workers = options.workers;
  set.planner = [budgets = set.devices, workers](const PlanShape&) -> uint64_t {
    uint64_t smallest = UINT64_MAX;
    for (const auto& d : budgets) smallest = std::min<uint64_t>(smallest, d.memory_budget / workers);
    return smallest;
  };
  return set;
}

}  // namespace cuzk::engine
