#include "server/devices.hpp"

#include <algorithm>

#include "engine/fault_injection.hpp"
#if CUZK_SERVER_CUDA
#include "engine/cuda_devices.hpp"
#endif

namespace cuzk::server {
namespace {

// A CPU "device" is a logical slot of workers; its budget only paces how many proofs overlap.
constexpr uint64_t kCpuDefaultBudget = uint64_t(4) << 30;

}  // namespace

Result<engine::DeviceSet> make_device_set(const DaemonConfig& config) {
  engine::DeviceSet set;
  if (config.backend == "cpu") {
    set = engine::cpu_devices(1, 1, kCpuDefaultBudget, config.cpu_threads_per_worker);
    set.devices.clear();
    for (const auto& d : config.devices)
      set.devices.push_back({d.index, d.vram_budget ? d.vram_budget : kCpuDefaultBudget, d.workers,
                             config.express_workers, uint64_t(1) << config.express_max_log_domain});
  } else if (config.backend == "cuda") {
#if CUZK_SERVER_CUDA
    // One CudaBackend per worker, bound to its device by index, planning within its share of the
    // device's budget (0 in the config: the device's free memory less a margin).
    engine::CudaDeviceOptions o;
    for (const auto& d : config.devices) {
      o.indices.push_back(d.index);
      o.per_device.push_back({d.index, d.vram_budget, d.workers});
    }
    o.shared_bases_fraction = config.shared_bases_fraction;
    o.express_workers = config.express_workers;
    o.blocking_sync = config.blocking_sync;
    o.lead_worker = config.lead_worker;
    o.express_max_domain = uint64_t(1) << config.express_max_log_domain;
    auto found = engine::cuda_devices(o);
    if (!found) return found.error();
    set = std::move(*found);
#else
    return make_error("this cuzkd was built without the CUDA backend; use backend = \"cpu\"");
#endif
  } else {
    return make_error("unknown device backend \"" + config.backend + "\" (cpu or cuda)");
  }
  if (config.device_delay_ms) {
    const auto delay = std::chrono::milliseconds(config.device_delay_ms);
    set.factory = engine::with_faults(set.factory, [delay](const engine::DeviceDescriptor&, uint32_t) {
      engine::FaultPlan plan;
      plan.delay = delay;
      return plan;
    });
  }
  return set;
}

}  // namespace cuzk::server
