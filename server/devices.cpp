#include "server/devices.hpp"

#include <chrono>
#include <utility>

#include "engine/device_set.hpp"
#include "engine/fault_injection.hpp"

namespace cuzk::server {
namespace {

// A CPU "device" is a logical slot of workers; its budget only paces how many proofs overlap.
constexpr uint64_t kCpuDefaultBudget = uint64_t(4) << 30;

}  // namespace

Result<engine::DeviceSet> make_device_set(const DaemonConfig& config) {
  if (config.backend != "cpu" && config.backend != "cuda")
    return make_error("unknown device backend \"" + config.backend + "\" (cpu or cuda)");
  engine::DeviceSetOptions o;
  o.backend = config.backend;
  o.cpu.threads_per_worker = config.cpu_threads_per_worker;
  const uint64_t express_max_domain = uint64_t(1) << config.express_max_log_domain;
  for (const auto& d : config.devices)
    o.cpu.devices.push_back({d.index, d.vram_budget ? d.vram_budget : kCpuDefaultBudget, d.workers,
                             config.express_workers, express_max_domain});
  // CUDA: one CudaBackend per worker, bound to its device by index, planning within its share of
  // the device's budget (0 in the config: the device's free memory less a margin).
  for (const auto& d : config.devices) {
    o.cuda.indices.push_back(d.index);
    o.cuda.per_device.push_back({d.index, d.vram_budget, d.workers});
  }
  o.cuda.shared_bases_fraction = config.shared_bases_fraction;
  o.cuda.express_workers = config.express_workers;
  o.cuda.blocking_sync = config.blocking_sync;
  o.cuda.lead_worker = config.lead_worker;
  o.cuda.express_max_domain = express_max_domain;
  auto chosen = engine::make_device_set(o);
  if (!chosen) return chosen.error();
  engine::DeviceSet set = std::move(chosen->set);
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
