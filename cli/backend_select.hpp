// Choosing the backend a command proves on: --backend cpu|cuda|auto, --device, --vram-budget.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/compute.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "engine/devices.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::cli {

// "8G" / "512M" / "1024K" / plain bytes; "" is 0 (the backend's default).
Result<size_t> parse_bytes(const std::string& text);

// The backend a command proves on and, for a GPU, how to pin host memory for it (empty for the CPU).
struct SelectedBackend {
  std::unique_ptr<ComputeBackend> backend;
  engine::HostPinner pin_host;
};

// CUDA when asked for (or, with "auto", when a device is present), else the CPU over `pool`: one
// device of one worker from engine::make_device_set. `msm_pass_log`: points per pass of resident GPU
// MSMs as a power of two (0: the backend's default); `resident_fraction`: the share of the budget
// resident bases may hold (0: the backend's default).
Result<SelectedBackend> make_backend(const std::string& which, int device, const std::string& vram_budget,
                                     ThreadPool& pool, unsigned msm_pass_log = 0,
                                     double resident_fraction = 0);

// What a device backend planned and how long each stage took since the last report (empty for
// the CPU backend): one line per stage, the peak planned device bytes and the budget.
struct DeviceReport {
  std::vector<std::string> stages;
  size_t peak_bytes = 0, budget = 0;
};
DeviceReport take_device_report(ComputeBackend& backend);

// Pins the key's large point arrays in host memory when the backend is a GPU (copies of bases that
// do not stay on the device then run as direct DMA); the pins last as long as the handles.
// Failures are reported on stderr and leave the memory unpinned.
std::vector<std::shared_ptr<void>> pin_key_for(const SelectedBackend& selected,
                                               const groth16::ProvingKey& key);
// The same for an assignment's a, b, c and aux vectors, over their whole capacity: the caller keeps
// them from reallocating (the prover keeps their storage) and drops the pins before the vectors.
std::vector<std::shared_ptr<void>> pin_assignment_for(const SelectedBackend& selected,
                                                      const r1cs::Assignment& as);

}  // namespace cuzk::cli
