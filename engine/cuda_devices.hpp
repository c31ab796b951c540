// The CUDA devices of the host as an engine DeviceSet: one CudaBackend per (device, worker), each
// pinned to its device by index (never "the current device"), each planning its stages within an
// equal share of the device's budget. The engine reserves that share before a worker touches the
// device, so the workers of one card can never exceed its budget together.
//
// With several workers on a card large enough, part of its budget is first set aside for one store
// of resident bases (backend/cuda/runtime/device_bases.hpp) that the card's workers share, and the workers
// split the rest: one copy of a 2^27 key's 56 GiB of bases serves both workers of an H200, so one
// can compute H (and upload the next partition) while the other runs its MSMs.
//
// The front ends reach it through make_device_set (engine/device_set.hpp). This header is plain C++
// in every build; only cuda_devices.cpp needs the CUDA backend.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.hpp"
#include "engine/devices.hpp"

namespace cuzk::engine {

struct CudaDeviceOptions {
  std::vector<uint32_t> indices;  // empty: every device found
  uint64_t vram_budget = 0;       // per device; 0: its free memory less `margin`
  uint64_t margin = uint64_t(1) << 30;
  uint32_t workers = 2;  // per device
  // Settings of single devices (a daemon's [[devices.device]] tables), over the two above; a 0
  // keeps the default.
  struct PerDevice {
    uint32_t index = 0;
    uint64_t vram_budget = 0;
    uint32_t workers = 0;
  };
  std::vector<PerDevice> per_device;
  // Share of each device's budget for the bases its workers share (and the compiled circuits'
  // matrices, in the room the bases leave), when it has more than one worker and every worker
  // keeps at least `min_worker_bytes` beside it; 0: no sharing (each worker keeps its own resident
  // bases and matrices within its share).
  double shared_bases_fraction = 0.6;
  uint64_t min_worker_bytes = uint64_t(20) << 30;
  // Host threads waiting for their device (stream and event synchronization) sleep instead of
  // spinning (cudaDeviceScheduleBlockingSync, set on every device used; the setting is the
  // process's). With fewer contexts than logical CPUs CUDA spins by default, so each device worker
  // holds a core through its proofs' waits (most of a proof), cores that synthesis could use. A wait
  // then costs a wake-up, tens of microseconds. Off by default: on the 2^27 job (one H200, 16
  // cores) it made no difference (22.50 against 22.42 s per job, docs/BENCHMARKS.md).
  bool blocking_sync = false;
  // Express workers per device (DeviceDescriptor::express_workers), each with a share of
  // `express_worker_bytes` (at most an eighth of the device's budget): taken from the shared
  // bases' store where there is one, so the ordinary workers keep their shares, else from the
  // budget before it is split among them.
  uint32_t express_workers = 1;
  uint64_t express_worker_bytes = uint64_t(8) << 30;
  uint64_t express_max_domain = uint64_t(1) << 24;
  // Points per pass of resident MSMs (0: the backend's default, 2^25, halved while a context
  // would not fit the worker's resident share).
  size_t resident_pass_points = 0;
  // The MSM window model's per-bucket weight (cuda::CudaBackendOptions::window_bucket_cost).
  double window_bucket_cost = 1.0;
  // Resident MSMs' passes by groups of bucket sets (cuda::CudaBackendOptions::msm_set_passes).
  bool msm_set_passes = true;
  // MSMs' windows of c − 1 bits where W·c exceeds 256 (cuda::CudaBackendOptions::msm_narrow_windows).
  bool msm_narrow_windows = true;
  // Each device's first ordinary worker runs its streams at raised priority, the others at normal
  // (express workers at high either way), so one proof goes first and the others fill the SMs it
  // leaves. Off by default: on the 2^27 job it moves the steady rate by nothing measurable while
  // each filler proof takes 8–11 s.
  bool lead_worker = false;
  // With a shared store, the share of a worker's budget its MSM work area may take
  // (CudaBackendOptions::resident_fraction); the rest holds the MSMs' scalars and h. 0.6 gives a
  // 2^27 H query's set-group plan (c = 22, a 16.1 GiB work area) room beside two workers on an
  // H200: the 10-partition job runs about 3 % faster than at 0.5, where that plan does not fit and
  // the H query falls back to passes of points.
  double resident_fraction = 0.6;
  // Without a shared store, the share of a worker's budget its own resident bases may take
  // (CudaBackendOptions::resident_fraction); 0: the backend's default.
  double own_resident_fraction = 0;
};

// The store size and per-worker budgets cuda_devices gives a device of `budget` bytes, `workers`
// ordinary workers and `express` express workers.
struct DeviceSplit {
  uint64_t shared_bases = 0;  // 0: none
  uint64_t per_worker = 0;
  uint64_t per_express_worker = 0;
};
DeviceSplit split_device_budget(uint64_t budget, uint32_t workers, const CudaDeviceOptions& options,
                                uint32_t express = 0);

// Whether a worker of `worker_budget` bytes runs the H stage of a witness partition (a domain of
// `domain_size`, a power of two, and `wires` witness values) lean: below the bytes of its resident
// plan from compiled rows (cuda::HStage::rows_resident_bytes).
bool h_stage_is_lean(uint64_t worker_budget, uint64_t domain_size, uint64_t wires);

// How a device's worker runs beside the others: an express worker's streams at the device's highest
// priority, the lead worker's one level above the rest (CudaDeviceOptions::lead_worker: the first
// ordinary worker), every other ordinary worker's at normal priority.
enum class WorkerRole { express, lead, ordinary };
WorkerRole worker_role(const DeviceDescriptor& device, uint32_t worker, const CudaDeviceOptions& options);

// Fails when no device is found or a listed index does not exist.
Result<DeviceSet> cuda_devices(const CudaDeviceOptions& options);

}  // namespace cuzk::engine
