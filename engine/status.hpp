// A snapshot of the engine for operators: queues, memory budgets, devices, parameter sets.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/param_cache.hpp"

namespace cuzk::engine {

struct DeviceStatus {
  uint32_t index = 0;
  uint32_t workers = 0, busy_workers = 0;  // busy: ordinary and express
  uint32_t express_workers = 0;            // besides `workers`, for HIGH and CRITICAL partitions only
  uint64_t memory_budget = 0, memory_reserved = 0;
  uint32_t reservations = 0;  // live, parameter residencies included
  uint64_t proofs_done = 0, failures = 0;
  uint32_t consecutive_failures = 0;
  bool quarantined = false;
  std::string last_error;
  double busy_seconds = 0;         // time its workers spent proving
  SharedBasesStatus shared_bases;  // capacity 0: its workers keep their own resident bases
};

struct EngineStatus {
  std::array<uint32_t, 4> queued_jobs{};  // by Priority, not yet finished
  uint32_t running_jobs = 0;
  uint32_t partitions_waiting_synthesis = 0, partitions_synthesizing = 0, partitions_waiting_device = 0;
  uint32_t partitions_proving = 0;
  uint64_t jobs_done = 0, jobs_failed = 0, jobs_cancelled = 0;  // since start
  uint64_t host_budget = 0, host_reserved = 0;
  // Partition buffer sets (engine/partition_buffers.hpp): made since start, idle now, their bytes.
  uint64_t buffer_sets_made = 0, buffer_sets_idle = 0, buffer_idle_bytes = 0;
  bool paused = false;
  // Journal writes held in memory because the file cannot be written (a full disk), and the error;
  // while any is held the engine takes no new job and hands out no result (engine/journal.hpp).
  uint64_t journal_backlog = 0;
  std::string journal_error;
  std::vector<DeviceStatus> devices;
  std::vector<ParamSetStatus> params;
};

std::string status_to_json(const EngineStatus& status);

}  // namespace cuzk::engine
