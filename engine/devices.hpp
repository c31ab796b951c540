// Devices as the engine sees them: an index, a memory budget and a number of workers, plus a
// factory that makes one ComputeBackend per (device, worker) and a function that plans how much
// device memory a partition's proving stage takes.
//
// The engine knows nothing of CUDA. A GPU backend plugs in by supplying the factory (a backend
// bound to device `index`) and its planner; the CPU backend treats a "device" as a logical slot of
// workers, which is how the engine is tested without a GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/compute.hpp"
#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "engine/log.hpp"

namespace cuzk::engine {

struct DeviceDescriptor {
  uint32_t index = 0;          // the device ordinal workers are pinned to
  uint64_t memory_budget = 0;  // bytes the engine may reserve on it (may be below its real size)
  uint32_t workers = 1;        // workers pinned to it; they share the budget
  // More workers that take only HIGH and CRITICAL partitions (WindowPoSt, WinningPoSt), so that a
  // PoSt never waits for a PoRep partition's proof to end when every ordinary worker is busy (each
  // takes seconds). They prove beside the ordinary workers, within their own (smaller) share;
  // the factory and planner see them as workers `workers`, `workers + 1`, ... Idle otherwise.
  uint32_t express_workers = 0;
  bool is_express(uint32_t worker) const { return worker >= workers; }
  // The largest NTT domain an express worker takes: a WinningPoSt (2^22-2^23) is quick in its small
  // share; a 2^27 WindowPoSt partition waits for an ordinary worker, which proves it faster.
  uint64_t express_max_domain = uint64_t(1) << 24;
};

// What a partition's device stage works on, for planning its memory.
struct PlanShape {
  uint64_t domain_size = 0;  // NTT size
  uint64_t h_points = 0, l_points = 0, a_points = 0, b_g1_points = 0, b_g2_points = 0;
  bool params_resident = false;  // the parameter set's points are already on the device
  uint32_t attempt = 0;          // 0 first; a planner may choose smaller chunks on a retry
  bool express = false;          // for an express worker (DeviceDescriptor::express_workers)
};

// Peak device bytes of the stage. A GPU backend supplies its own.
using PlanEstimator = std::function<uint64_t(const PlanShape&)>;

// A stand-in plan with a GPU's shape: the a, b, c NTT buffers, the larger MSM's bases unless they
// are resident, and scratch for scalars and buckets; halved scratch on retries.
uint64_t default_plan_bytes(const PlanShape& shape);

// Bytes of a parameter set's points on a device (what keeping it resident costs).
uint64_t params_device_bytes(const PlanShape& shape);

using BackendFactory =
    std::function<Result<std::unique_ptr<ComputeBackend>>(const DeviceDescriptor& device, uint32_t worker)>;

// Pins a range of host memory for fast copies to the devices, for as long as the handle lives
// (a GPU backend supplies one; parameter sets are pinned with it when they are loaded).
using HostPinner = std::function<Result<std::shared_ptr<void>>(const void* p, size_t bytes)>;

struct HostRange {
  const void* data;
  size_t bytes;
};
// Pins each range of at least 1 MiB (smaller ones gain nothing over the backend's staging) and
// returns the handles. A pin that fails only costs speed: it is logged as `who event=pin_failed`
// and the range stays in ordinary memory.
std::vector<std::shared_ptr<void>> pin_ranges(const HostPinner& pin, std::span<const HostRange> ranges,
                                              const Logger& log, const std::string& who);

// A device's store of resident bases shared by its workers (backend/cuda/runtime/device_bases.hpp).
struct SharedBasesStatus {
  uint64_t capacity = 0, bytes = 0;  // bytes: held now
  uint64_t arrays = 0, uploads = 0;  // held now; uploaded since start
};

struct DeviceSet {
  std::vector<DeviceDescriptor> devices;
  BackendFactory factory;
  PlanEstimator planner = default_plan_bytes;
  HostPinner pin_host;  // empty: parameter sets stay in ordinary memory
  // The workers' backends keep parameter sets resident on their own, within their share of the
  // device budget (the CUDA backend does): the engine then does not reserve residency again.
  bool backend_manages_residency = false;
  // The devices compute H in device memory (the CUDA backend), so a partition needs no host scratch
  // for it (partition_host_bytes).
  bool h_on_device = false;
  // Whether a witness partition of this domain and wire count may meet a device worker whose H
  // stage cannot hold a, b and c beside the witness: it then keeps two domain vectors in host
  // memory (its pair or lean plan), which the partition's host reservation counts
  // (partition_extras). Empty: never.
  std::function<bool(uint64_t domain_size, uint64_t wires)> lean_h_stage;
  // The workers' backends compute deferred witnesses on their devices (ComputeBackend::fill_witness;
  // the CUDA backend does): synthesis may hand them a FallbackPoSt witness as its program.
  bool fills_witness_on_device = false;
  // The store of shared bases of a device (by index), for status and metrics; empty, or a zero
  // capacity, where there is none. Must not block (it is read under the engine's lock).
  std::function<SharedBasesStatus(uint32_t device)> shared_bases;
};

// `count` logical CPU devices (indices 0 .. count − 1) of `workers` workers each, each within
// `memory_budget`.
std::vector<DeviceDescriptor> logical_devices(uint32_t count, uint32_t workers, uint64_t memory_budget,
                                              uint32_t express_workers = 0);

// Logical CPU devices, every worker proving with a CpuBackend over its own pool of
// `threads_per_worker` threads (1: inline on the worker; 0: one per hardware thread), or over
// `shared_pool` when given (which must outlive the backends).
DeviceSet cpu_devices(std::vector<DeviceDescriptor> devices, unsigned threads_per_worker = 1,
                      ThreadPool* shared_pool = nullptr);
// cpu_devices over logical_devices(count, workers, memory_budget, express_workers).
DeviceSet cpu_devices(uint32_t count, uint32_t workers, uint64_t memory_budget,
                      unsigned threads_per_worker = 1, uint32_t express_workers = 0);

}  // namespace cuzk::engine
