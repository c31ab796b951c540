#include "engine/status.hpp"

#include <nlohmann/json.hpp>

#include "engine/job.hpp"

namespace cuzk::engine {

std::string status_to_json(const EngineStatus& s) {
  nlohmann::json j;
  nlohmann::json queued;
  for (size_t p = 0; p < s.queued_jobs.size(); ++p) queued[to_string(Priority(p))] = s.queued_jobs[p];
  j["queued_jobs"] = queued;
  j["running_jobs"] = s.running_jobs;
  j["partitions"] = {{"waiting_synthesis", s.partitions_waiting_synthesis},
                     {"synthesizing", s.partitions_synthesizing},
                     {"waiting_device", s.partitions_waiting_device},
                     {"proving", s.partitions_proving}};
  j["jobs"] = {{"done", s.jobs_done}, {"failed", s.jobs_failed}, {"cancelled", s.jobs_cancelled}};
  j["host_memory"] = {{"budget", s.host_budget}, {"reserved", s.host_reserved}};
  j["partition_buffers"] = {
      {"made", s.buffer_sets_made}, {"idle", s.buffer_sets_idle}, {"idle_bytes", s.buffer_idle_bytes}};
  j["paused"] = s.paused;
  j["journal"] = {{"backlog", s.journal_backlog}, {"error", s.journal_error}};
  j["devices"] = nlohmann::json::array();
  for (const auto& d : s.devices)
    j["devices"].push_back({{"index", d.index},
                            {"workers", d.workers},
                            {"express_workers", d.express_workers},
                            {"busy_workers", d.busy_workers},
                            {"memory_budget", d.memory_budget},
                            {"memory_reserved", d.memory_reserved},
                            {"reservations", d.reservations},
                            {"proofs_done", d.proofs_done},
                            {"failures", d.failures},
                            {"consecutive_failures", d.consecutive_failures},
                            {"quarantined", d.quarantined},
                            {"last_error", d.last_error},
                            {"busy_seconds", d.busy_seconds},
                            {"shared_bases",
                             {{"capacity", d.shared_bases.capacity},
                              {"bytes", d.shared_bases.bytes},
                              {"arrays", d.shared_bases.arrays},
                              {"uploads", d.shared_bases.uploads}}}});
  j["params"] = nlohmann::json::array();
  for (const auto& p : s.params)
    j["params"].push_back({{"name", p.name},
                           {"registered", p.registered},
                           {"loading", p.loading},
                           {"host_bytes", p.host_bytes},
                           {"leases", p.leases},
                           {"resident_on", p.resident_on}});
  return j.dump();
}

}  // namespace cuzk::engine
