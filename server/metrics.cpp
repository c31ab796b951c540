#include "server/metrics.hpp"

#include <fmt/format.h>

#include "server/client/client.hpp"

namespace cuzk::server {
namespace {

constexpr size_t kTimedJobsKept = 65536;

void line(std::string& out, const std::string& name, const std::string& labels, double value) {
  out += labels.empty() ? fmt::format("{} {}\n", name, value)
                        : fmt::format("{}{{{}}} {}\n", name, labels, value);
}

void header(std::string& out, const char* name, const char* type, const char* help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

const char* code_name(int code) {
  const char* name = status_code_name(code);
  return name ? name : "UNKNOWN";
}

}  // namespace

void Histogram::observe(double seconds) {
  for (size_t i = 0; i < kBounds.size(); ++i)
    if (seconds <= kBounds[i]) ++counts_[i];
  ++count_;
  sum_ += seconds;
}

void Histogram::render(std::string& out, const std::string& name, const std::string& labels) const {
  const std::string sep = labels.empty() ? "" : ",";
  for (size_t i = 0; i < kBounds.size(); ++i)
    out += fmt::format("{}_bucket{{{}{}le=\"{}\"}} {}\n", name, labels, sep, kBounds[i], counts_[i]);
  out += fmt::format("{}_bucket{{{}{}le=\"+Inf\"}} {}\n", name, labels, sep, count_);
  line(out, name + "_sum", labels, sum_);
  line(out, name + "_count", labels, double(count_));
}

void Metrics::on_event(const engine::EngineEvent& e) {
  using T = engine::EngineEvent::Type;
  std::lock_guard lock(mutex_);
  switch (e.type) {
    case T::partition_done:
      ++partitions_proved_;
      break;
    case T::partition_retry:
      ++partition_retries_;
      break;
    case T::device_quarantined:
      ++quarantines_;
      break;
    case T::job_done:
      ++finished_["done"];
      break;
    case T::job_failed:
      ++finished_["failed"];
      break;
    case T::job_cancelled:
      ++finished_["cancelled"];
      break;
    default:
      break;
  }
}

void Metrics::on_submitted(engine::JobKind kind, engine::Priority priority) {
  std::lock_guard lock(mutex_);
  ++submitted_[{engine::to_string(kind), engine::to_string(priority)}];
}

void Metrics::on_result(const engine::JobResult& r) {
  if (!engine::is_terminal(r.state)) return;
  std::lock_guard lock(mutex_);
  if (!timed_.insert(r.id).second) return;
  if (timed_.size() > kTimedJobsKept) timed_.erase(timed_.begin());  // ids grow: the oldest go
  const std::string kind = engine::to_string(r.kind);
  for (const auto& [stage, ms] : r.timings.named()) stages_[{stage, kind}].observe(ms / 1000.0);
}

void Metrics::on_rpc(const std::string& method, int code) {
  std::lock_guard lock(mutex_);
  ++rpcs_[{method, code}];
}

std::string Metrics::render(const engine::EngineStatus& s, bool draining) const {
  std::string out;
  std::lock_guard lock(mutex_);
  header(out, "cuzk_up", "gauge", "1 while the daemon serves (0 while it drains for shutdown)");
  line(out, "cuzk_up", "", draining ? 0 : 1);
  header(out, "cuzk_uptime_seconds", "gauge", "Seconds since the daemon started");
  line(out, "cuzk_uptime_seconds", "",
       std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());

  header(out, "cuzk_jobs_submitted_total", "counter", "Jobs accepted, by kind and priority");
  for (const auto& [k, n] : submitted_)
    line(out, "cuzk_jobs_submitted_total", fmt::format("kind=\"{}\",priority=\"{}\"", k.first, k.second),
         double(n));
  header(out, "cuzk_jobs_finished_total", "counter", "Jobs that reached an end, by state");
  for (const char* st : {"done", "failed", "cancelled"}) {
    auto it = finished_.find(st);
    line(out, "cuzk_jobs_finished_total", fmt::format("state=\"{}\"", st),
         it == finished_.end() ? 0 : double(it->second));
  }
  header(out, "cuzk_partitions_proved_total", "counter", "Partition proofs made and pairing-checked");
  line(out, "cuzk_partitions_proved_total", "", double(partitions_proved_));
  header(out, "cuzk_partition_retries_total", "counter", "Device stages that failed and were retried");
  line(out, "cuzk_partition_retries_total", "", double(partition_retries_));
  header(out, "cuzk_device_quarantines_total", "counter", "Devices taken out of service");
  line(out, "cuzk_device_quarantines_total", "", double(quarantines_));

  header(out, "cuzk_job_stage_seconds", "histogram",
         "Per-job stage times (queue_wait, param_load, synthesis, gpu, verify, total), by kind; stage "
         "times are summed over a job's partitions");
  for (const auto& [key, h] : stages_)
    h.render(out, "cuzk_job_stage_seconds", fmt::format("stage=\"{}\",kind=\"{}\"", key.first, key.second));

  header(out, "cuzk_grpc_requests_total", "counter", "gRPC calls answered, by method and status code");
  for (const auto& [key, n] : rpcs_)
    line(out, "cuzk_grpc_requests_total",
         fmt::format("method=\"{}\",code=\"{}\"", key.first, code_name(key.second)), double(n));

  header(out, "cuzk_queued_jobs", "gauge", "Jobs not yet admitted, by priority");
  for (size_t p = 0; p < s.queued_jobs.size(); ++p)
    line(out, "cuzk_queued_jobs", fmt::format("priority=\"{}\"", engine::to_string(engine::Priority(p))),
         s.queued_jobs[p]);
  header(out, "cuzk_running_jobs", "gauge", "Jobs with partitions admitted");
  line(out, "cuzk_running_jobs", "", s.running_jobs);
  header(out, "cuzk_partitions", "gauge", "Partitions in each stage");
  line(out, "cuzk_partitions", "stage=\"waiting_synthesis\"", s.partitions_waiting_synthesis);
  line(out, "cuzk_partitions", "stage=\"synthesizing\"", s.partitions_synthesizing);
  line(out, "cuzk_partitions", "stage=\"waiting_device\"", s.partitions_waiting_device);
  line(out, "cuzk_partitions", "stage=\"proving\"", s.partitions_proving);
  header(out, "cuzk_host_memory_bytes", "gauge", "Host memory budget and reservations");
  line(out, "cuzk_host_memory_bytes", "kind=\"budget\"", double(s.host_budget));
  line(out, "cuzk_host_memory_bytes", "kind=\"reserved\"", double(s.host_reserved));
  line(out, "cuzk_host_memory_bytes", "kind=\"idle_partition_buffers\"", double(s.buffer_idle_bytes));
  header(out, "cuzk_partition_buffer_sets", "gauge", "Pooled partition buffer sets no partition holds now");
  line(out, "cuzk_partition_buffer_sets", "state=\"idle\"", double(s.buffer_sets_idle));
  header(out, "cuzk_partition_buffer_sets_made_total", "counter",
         "Partition buffer sets allocated (and pinned)");
  line(out, "cuzk_partition_buffer_sets_made_total", "", double(s.buffer_sets_made));
  header(out, "cuzk_device_memory_bytes", "gauge", "Device memory budget and reservations");
  for (const auto& d : s.devices) {
    line(out, "cuzk_device_memory_bytes", fmt::format("device=\"{}\",kind=\"budget\"", d.index),
         double(d.memory_budget));
    line(out, "cuzk_device_memory_bytes", fmt::format("device=\"{}\",kind=\"reserved\"", d.index),
         double(d.memory_reserved));
  }
  header(out, "cuzk_device_shared_bases_bytes", "gauge",
         "The store of resident bases a device's workers share: its capacity and what it holds");
  for (const auto& d : s.devices) {
    if (!d.shared_bases.capacity) continue;
    line(out, "cuzk_device_shared_bases_bytes", fmt::format("device=\"{}\",kind=\"capacity\"", d.index),
         double(d.shared_bases.capacity));
    line(out, "cuzk_device_shared_bases_bytes", fmt::format("device=\"{}\",kind=\"held\"", d.index),
         double(d.shared_bases.bytes));
  }
  header(out, "cuzk_device_shared_bases_uploads_total", "counter",
         "Base arrays uploaded into a device's shared store (again after an eviction)");
  for (const auto& d : s.devices)
    if (d.shared_bases.capacity)
      line(out, "cuzk_device_shared_bases_uploads_total", fmt::format("device=\"{}\"", d.index),
           double(d.shared_bases.uploads));
  header(out, "cuzk_device_workers_busy", "gauge", "Device workers proving now");
  for (const auto& d : s.devices)
    line(out, "cuzk_device_workers_busy", fmt::format("device=\"{}\"", d.index), d.busy_workers);
  header(out, "cuzk_device_quarantined", "gauge", "1 while the device is out of service");
  for (const auto& d : s.devices)
    line(out, "cuzk_device_quarantined", fmt::format("device=\"{}\"", d.index), d.quarantined ? 1 : 0);
  header(out, "cuzk_device_proofs_total", "counter", "Partition proofs made on the device");
  for (const auto& d : s.devices)
    line(out, "cuzk_device_proofs_total", fmt::format("device=\"{}\"", d.index), double(d.proofs_done));
  header(out, "cuzk_device_failures_total", "counter", "Failed device stages on the device");
  for (const auto& d : s.devices)
    line(out, "cuzk_device_failures_total", fmt::format("device=\"{}\"", d.index), double(d.failures));
  header(out, "cuzk_device_busy_seconds_total", "counter", "Time the device's workers spent proving");
  for (const auto& d : s.devices)
    line(out, "cuzk_device_busy_seconds_total", fmt::format("device=\"{}\"", d.index), d.busy_seconds);
  header(out, "cuzk_params_loaded", "gauge", "Parameter sets in memory");
  line(out, "cuzk_params_loaded", "", double(s.params.size()));
  return out;
}

}  // namespace cuzk::server
