#include "engine/cuda_devices.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/h_stage.hpp"
#include "backend/cuda/runtime/device_bases.hpp"
#include "backend/cuda/runtime/runtime.hpp"

namespace cuzk::engine {

DeviceSplit split_device_budget(uint64_t budget, uint32_t workers, const CudaDeviceOptions& options,
                                uint32_t express) {
  DeviceSplit d;
  const uint32_t w = std::max<uint32_t>(1, workers);
  d.per_express_worker = express ? std::min(options.express_worker_bytes, budget / 8 / express) : 0;
  const uint64_t for_express = uint64_t(express) * d.per_express_worker;
  d.per_worker = (budget - for_express) / w;
  if (w < 2 || options.shared_bases_fraction <= 0 || options.shared_bases_fraction >= 1) return d;
  const uint64_t store = uint64_t(double(budget) * options.shared_bases_fraction);
  const uint64_t each = (budget - store) / w;
  if (each < options.min_worker_bytes || store <= 2 * for_express) return d;
  d.shared_bases = store - for_express;  // the express shares come out of the store
  d.per_worker = each;
  return d;
}

bool h_stage_is_lean(uint64_t worker_budget, uint64_t domain_size, uint64_t wires) {
  const unsigned log_n = unsigned(std::bit_width(domain_size) - 1);
  return worker_budget < cuda::HStage::rows_resident_bytes(log_n, size_t(wires));
}

WorkerRole worker_role(const DeviceDescriptor& device, uint32_t worker, const CudaDeviceOptions& options) {
  if (device.is_express(worker)) return WorkerRole::express;
  return options.lead_worker && worker == 0 ? WorkerRole::lead : WorkerRole::ordinary;
}

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
    if (options.blocking_sync)
      CUZK_TRY_STATUS(cuda::check(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync),
                                  "cudaSetDeviceFlags (blocking sync)"));
    size_t free_bytes = 0, total_bytes = 0;
    CUZK_TRY_STATUS(cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
    uint64_t budget = options.vram_budget;
    uint32_t workers = options.workers;
    for (const auto& p : options.per_device)
      if (p.index == index) {
        if (p.vram_budget) budget = p.vram_budget;
        if (p.workers) workers = p.workers;
      }
    if (budget == 0) budget = free_bytes > options.margin ? free_bytes - options.margin : 0;
    if (budget > free_bytes)
      return make_error("cuda: device " + std::to_string(index) + " has " + std::to_string(free_bytes >> 20) +
                        " MiB free, less than the budget of " + std::to_string(budget >> 20) + " MiB");
    set.devices.push_back({index, budget, workers, options.express_workers, options.express_max_domain});
  }
  // Each worker plans within its share; the engine reserves exactly that share for a partition.
  // A device's shared store is made with its first worker's backend.
  struct Stores {
    std::mutex mu;
    std::map<uint32_t, std::shared_ptr<cuda::DeviceBases>> by_device;
  };
  auto stores = std::make_shared<Stores>();
  set.factory = [options, stores](const DeviceDescriptor& d,
                                  uint32_t worker) -> Result<std::unique_ptr<ComputeBackend>> {
    const DeviceSplit split = split_device_budget(d.memory_budget, d.workers, options, d.express_workers);
    cuda::CudaBackendOptions o;
    o.device = int(d.index);
    // An express worker proves a WinningPoSt beside PoRep proofs: its kernels go first on the SMs.
    // The lead worker's go next; the other ordinary workers fill the SMs they leave.
    const WorkerRole role = worker_role(d, worker, options);
    if (role == WorkerRole::express) o.priority = cuda::StreamPriority::high;
    if (role == WorkerRole::lead) o.priority = cuda::StreamPriority::raised;
    o.vram_budget = role == WorkerRole::express ? split.per_express_worker : split.per_worker;
    o.resident_pass_points = options.resident_pass_points;
    o.window_bucket_cost = options.window_bucket_cost;
    o.msm_set_passes = options.msm_set_passes;
    o.msm_narrow_windows = options.msm_narrow_windows;
    if (split.shared_bases) {
      std::lock_guard lock(stores->mu);
      auto& store = stores->by_device[d.index];
      if (!store) store = std::make_shared<cuda::DeviceBases>(int(d.index), split.shared_bases);
      o.shared_bases = store;
      // A worker's share holds its work area and its stages, not bases. The H stage borrows the
      // work area (idle while H is computed), so passes of the backend's default size (2^25, the
      // fastest that fits: a 16.1 GiB work area for a 2^27 H query by set groups) leave it room
      // for a, b, c.
      o.resident_fraction = options.resident_fraction;
    } else if (options.own_resident_fraction > 0) {
      o.resident_fraction = options.own_resident_fraction;
    }
    auto backend = cuda::CudaBackend::create(o);
    if (!backend) return backend.error();
    return std::unique_ptr<ComputeBackend>(std::move(*backend));
  };
  set.h_on_device = true;
  set.fills_witness_on_device = true;
  uint64_t smallest = UINT64_MAX;
  for (const auto& d : set.devices)
    smallest = std::min<uint64_t>(
        smallest, split_device_budget(d.memory_budget, d.workers, options, d.express_workers).per_worker);
  set.lean_h_stage = [smallest](uint64_t domain_size, uint64_t wires) {
    return h_stage_is_lean(smallest, domain_size, wires);
  };
  set.shared_bases = [stores](uint32_t device) {
    SharedBasesStatus st;
    std::lock_guard lock(stores->mu);  // held only while a store is made
    auto it = stores->by_device.find(device);
    if (it == stores->by_device.end() || !it->second) return st;
    st.capacity = it->second->capacity();
    st.bytes = it->second->bytes();
    st.arrays = it->second->arrays();
    st.uploads = it->second->uploads();
    return st;
  };
  set.backend_manages_residency = true;  // each CudaBackend keeps bases within its share (or the store)
  set.pin_host = [](const void* p, size_t bytes) -> Result<std::shared_ptr<void>> {
    auto pinned = cuda::PinnedRange::pin(p, bytes);
    if (!pinned) return pinned.error();
    return std::shared_ptr<void>(std::make_shared<cuda::PinnedRange>(std::move(*pinned)));
  };
  set.planner = [budgets = set.devices, options](const PlanShape& shape) -> uint64_t {
    uint64_t smallest = UINT64_MAX;
    for (const auto& d : budgets) {
      const DeviceSplit split = split_device_budget(d.memory_budget, d.workers, options, d.express_workers);
      smallest = std::min<uint64_t>(smallest, shape.express ? split.per_express_worker : split.per_worker);
    }
    return smallest;
  };
  return set;
}

}  // namespace cuzk::engine
