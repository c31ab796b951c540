#include "server/devices.hpp"

#include "engine/fault_injection.hpp"

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
      set.devices.push_back({d.index, d.vram_budget ? d.vram_budget : kCpuDefaultBudget, d.workers});
  } else if (config.backend == "cuda") {
    // The CUDA factory and planner (one CudaBackend per worker, bound to its device; the
    // backend's own memory planner) are plugged in here when the daemon is built with CUDA.
    return make_error("this cuzkd has no CUDA device factory yet; use backend = \"cpu\"");
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
