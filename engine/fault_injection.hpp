// A ComputeBackend that wraps another and injects the faults a GPU has in production: allocation
// failures, kernel errors, wrong results (caught by the pairing check) and slowness. The engine's
// tests drive retries and quarantine with it; an operator can use it for a drill.
//
// Faults come by probability (a seeded generator, so a run can be replayed) or by schedule (these
// call numbers fail), per backend instance.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>

#include "backend/compute.hpp"
#include "engine/devices.hpp"

namespace cuzk::engine {

struct FaultPlan {
  // Probabilities per call (compute_h or msm), each in [0, 1].
  double allocation_failure = 0;
  double kernel_error = 0;
  double wrong_result = 0;  // an MSM returns a different point: the proof will not verify
  // Every call sleeps this long first (a slow or throttled device).
  std::chrono::milliseconds delay{0};
  // Call numbers (0-based, counted per backend) that fail with a kernel error whatever the odds.
  std::set<uint64_t> failing_calls;
  uint64_t seed = 1;
};

struct FaultCounters {
  std::atomic<uint64_t> calls{0}, allocation_failures{0}, kernel_errors{0}, wrong_results{0};
};

class FaultInjectingBackend final : public ComputeBackend {
 public:
  FaultInjectingBackend(std::unique_ptr<ComputeBackend> inner, FaultPlan plan,
                        std::shared_ptr<FaultCounters> counters = nullptr);

  std::string name() const override { return "faulty(" + inner_->name() + ")"; }
  Status compute_h(const HRequest& request) override;
  Result<G1Jacobian> msm(const MsmRequest<G1Affine>& request) override;
  Result<G2Jacobian> msm(const MsmRequest<G2Affine>& request) override;
  std::vector<DeviceStage> take_stage_log() override { return inner_->take_stage_log(); }

 private:
  enum class Fault { none, allocation, kernel, wrong };
  Fault next_fault();
  Status fault_status(Fault f) const;

  std::unique_ptr<ComputeBackend> inner_;
  FaultPlan plan_;
  std::shared_ptr<FaultCounters> counters_;
  std::mutex mutex_;
  std::mt19937_64 rng_;
  uint64_t call_ = 0;
};

// A factory whose backends are `inner`'s wrapped in faults: plan_for(device, worker) decides each
// backend's plan (return a default FaultPlan for a healthy one).
BackendFactory with_faults(BackendFactory inner,
                           std::function<FaultPlan(const DeviceDescriptor&, uint32_t worker)> plan_for,
                           std::shared_ptr<FaultCounters> counters = nullptr);

}  // namespace cuzk::engine
