#include "engine/devices.hpp"

#include <algorithm>
#include <utility>

#include "backend/cpu/cpu_backend.hpp"
#include "common/thread_pool.hpp"

namespace cuzk::engine {
namespace {

constexpr uint64_t kFr = 32;
constexpr uint64_t kG1 = sizeof(G1Affine);
constexpr uint64_t kG2 = sizeof(G2Affine);

// A CpuBackend that owns its thread pool, so that each worker has its own cores.
class OwnedCpuBackend final : public ComputeBackend {
 public:
  explicit OwnedCpuBackend(unsigned threads, uint32_t device)
      : pool_(std::make_unique<ThreadPool>(threads)),
        backend_(*pool_),
        name_("cpu:" + std::to_string(device)) {}
  std::string name() const override { return name_; }
  Status compute_h(const HRequest& r) override { return backend_.compute_h(r); }
  Result<G1Jacobian> msm(const MsmRequest<G1Affine>& r) override { return backend_.msm(r); }
  Result<G2Jacobian> msm(const MsmRequest<G2Affine>& r) override { return backend_.msm(r); }

 private:
  std::unique_ptr<ThreadPool> pool_;
  cpu::CpuBackend backend_;
  std::string name_;
};

}  // namespace

uint64_t params_device_bytes(const PlanShape& s) {
  return (s.h_points + s.l_points + s.a_points + s.b_g1_points) * kG1 + s.b_g2_points * kG2;
}

uint64_t default_plan_bytes(const PlanShape& s) {
  const uint64_t ntt = 3 * s.domain_size * kFr;
  const uint64_t largest = std::max({s.h_points, s.l_points, s.a_points, s.b_g1_points});
  const uint64_t bases = s.params_resident ? 0 : largest * kG1 + s.b_g2_points * kG2;
  const uint64_t scalars = largest * kFr;
  uint64_t buckets = std::max<uint64_t>(largest / 4, 1024) * 3 * kG1;
  if (s.attempt > 0) buckets /= 2;
  return ntt + bases + scalars + buckets;
}

std::vector<DeviceDescriptor> logical_devices(uint32_t count, uint32_t workers, uint64_t memory_budget,
                                              uint32_t express_workers) {
  std::vector<DeviceDescriptor> devices;
  for (uint32_t i = 0; i < count; ++i) devices.push_back({i, memory_budget, workers, express_workers});
  return devices;
}

DeviceSet cpu_devices(std::vector<DeviceDescriptor> devices, unsigned threads_per_worker,
                      ThreadPool* shared_pool) {
  DeviceSet set;
  set.devices = std::move(devices);
  set.factory = [threads_per_worker, shared_pool](const DeviceDescriptor& d,
                                                  uint32_t) -> Result<std::unique_ptr<ComputeBackend>> {
    if (shared_pool) return std::unique_ptr<ComputeBackend>(new cpu::CpuBackend(*shared_pool));
    return std::unique_ptr<ComputeBackend>(new OwnedCpuBackend(threads_per_worker, d.index));
  };
  return set;
}

DeviceSet cpu_devices(uint32_t count, uint32_t workers, uint64_t memory_budget, unsigned threads_per_worker,
                      uint32_t express_workers) {
  return cpu_devices(logical_devices(count, workers, memory_budget, express_workers), threads_per_worker);
}

std::vector<std::shared_ptr<void>> pin_ranges(const HostPinner& pin, std::span<const HostRange> ranges,
                                              const Logger& log, const std::string& who) {
  std::vector<std::shared_ptr<void>> pins;
  if (!pin) return pins;
  for (const auto& r : ranges) {
    if (r.bytes < (size_t(1) << 20)) continue;
    auto handle = pin(r.data, r.bytes);
    if (handle)
      pins.push_back(std::move(*handle));
    else
      log->warn("{} event=pin_failed bytes={} error=\"{}\"", who, r.bytes, handle.message());
  }
  return pins;
}

}  // namespace cuzk::engine
