// Choosing the backend a command proves on: --backend cpu|cuda|auto, --device, --vram-budget.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/compute.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "groth16/keys.hpp"
#include "groth16/setup.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::cli {

// "8G" / "512M" / "1024K" / plain bytes; "" is 0 (the backend's default).
Result<size_t> parse_bytes(const std::string& text);

// CUDA when asked for (or, with "auto", when a device is present), else the CPU over `pool`.
// `msm_pass_log`: points per pass of resident GPU MSMs as a power of two (0: the backend's default);
// `resident_fraction`: the share of the budget resident bases may hold (0: the backend's default).
Result<std::unique_ptr<ComputeBackend>> make_backend(const std::string& which, int device,
                                                     const std::string& vram_budget, ThreadPool& pool,
                                                     unsigned msm_pass_log = 0, double resident_fraction = 0);

// What a device backend planned and how long each stage took since the last report (empty for
// the CPU backend): one line per stage, the peak planned device bytes and the budget.
struct DeviceReport {
  std::vector<std::string> stages;
  size_t peak_bytes = 0, budget = 0;
};
DeviceReport take_device_report(ComputeBackend& backend);

// Pins the key's large point arrays in host memory when `backend` is a GPU (copies of bases that
// do not stay on the device then run as direct DMA); the pins last as long as the handles.
// Failures are reported on stderr and leave the memory unpinned.
std::vector<std::shared_ptr<void>> pin_key_for(const ComputeBackend& backend, const groth16::ProvingKey& key);
// The same for an assignment's a, b, c and aux vectors, over their whole capacity: the caller keeps
// them from reallocating (the prover keeps their storage) and drops the pins before the vectors.
std::vector<std::shared_ptr<void>> pin_assignment_for(const ComputeBackend& backend,
                                                      const r1cs::Assignment& as);

// Points the setup's generator multiplications at a GPU when `which` asks for one (or, with
// "auto", when one is present); returns the device's name, or "cpu".
Result<std::string> attach_setup_device(const std::string& which, int device, groth16::SetupOptions& options);

}  // namespace cuzk::cli
