// `cuzk bench engine`'s report: what the engine's events showed (EngineObserver::on_event), the
// jobs' pace, and the table on stdout and the JSON.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/bench_engine.hpp"
#include "cli/bench_util.hpp"
#include "cli/host_memory.hpp"
#include "cli/options.hpp"
#include "engine/steady_rate.hpp"

namespace cuzk::cli {

using engine::EngineEvent;

void EngineObserver::on_event(const EngineEvent& e) {
  const auto now = BenchClock::now();
  std::lock_guard lock(mu);
  switch (e.type) {
    case EngineEvent::Type::proving: {
      proving[{e.job, e.partition}] = {e.device, e.worker, now};
      auto& w = workers[{e.device, e.worker}];
      if (w.last_done) w.idle_s += seconds_between(*w.last_done, now);
      break;
    }
    case EngineEvent::Type::partition_done: {
      auto it = proving.find({e.job, e.partition});
      if (it != proving.end()) {
        auto& d = devices[it->second.device];
        const double s = seconds_between(it->second.start, now);
        auto& w = workers[{it->second.device, it->second.worker}];
        ++w.proofs;
        w.last_done = now;
        if (!is_winning(e)) w.porep.emplace_back(it->second.start, now);
        if (is_winning(e)) {
          ++d.winning;
          d.winning_s += s;
        } else {
          ++d.porep;
          d.porep_s += s;
          ++d.per_worker[it->second.worker];
        }
        proving.erase(it);
      }
      ++(is_winning(e) ? winning_partitions : porep_partitions);
      break;
    }
    case EngineEvent::Type::partition_retry:
      if (auto it = proving.find({e.job, e.partition}); it != proving.end())
        workers[{it->second.device, it->second.worker}].last_done = now;
      proving.erase({e.job, e.partition});
      ++retries;
      retry_details.push_back("job " + std::to_string(e.job) + " partition " + std::to_string(e.partition) +
                              " device " + std::to_string(e.device) + ": " + e.detail);
      break;
    case EngineEvent::Type::job_failed:
    case EngineEvent::Type::job_cancelled:
      ++failures;
      failure_details.push_back("job " + std::to_string(e.job) + " " + engine::to_string(e.type) + ": " +
                                e.detail);
      [[fallthrough]];
    case EngineEvent::Type::job_done:
      if (is_winning(e)) {
        ++winning_closed;
      } else {
        ++porep_closed;
        porep_finished[e.job] = now;
      }
      break;
    case EngineEvent::Type::device_quarantined:
      failure_details.push_back("device " + std::to_string(e.device) + " quarantined: " + e.detail);
      break;
    default:
      break;
  }
  cv.notify_all();
}

namespace {

// Seconds with three decimals, for a summary line.
std::string fmt_s(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

unsigned domain_log(uint64_t domain) {
  unsigned l = 0;
  while ((uint64_t(1) << l) < domain) ++l;
  return l;
}

// The PoRep jobs' pace, from when each job ended and when each proof ran.
struct Rates {
  double wall_s = 0, per_job_s = 0;
  double steady_s = 0;  // between the first and the last job's end, per job (two jobs or more)
  double loaded_s = 0;  // the same without the last interval (three jobs or more)
  double partitions_per_min = 0;
  double steady_rate = 0, steady_window_s = 0;  // 0: no steady window
};

Rates rates_of(const EngineBenchArgs& args, const EngineBenchRun& run, EngineObserver& observed) {
  Rates r;
  std::vector<BenchClock::time_point> finished;
  for (engine::JobId id : run.porep_ids)
    finished.push_back(observed.porep_finished.count(id) ? observed.porep_finished[id] : run.awaited);
  std::sort(finished.begin(), finished.end());
  r.wall_s = seconds_between(run.start, finished.back());
  r.per_job_s = r.wall_s / args.jobs;
  r.steady_s = args.jobs >= 2 ? seconds_between(finished.front(), finished.back()) / (args.jobs - 1) : 0;
  // The same without the last interval: the last job ends with nothing queued behind it, so its
  // last proofs have the device to themselves and run faster than in a stream that goes on.
  r.loaded_s =
      args.jobs >= 3 ? seconds_between(finished.front(), finished[finished.size() - 2]) / (args.jobs - 2) : 0;
  r.partitions_per_min = r.wall_s > 0 ? double(run.porep_partitions_proved) * 60 / r.wall_s : 0;
  // The steady rate (engine/steady_rate.hpp): each proof counted for its share of time between the
  // first job's end and the last proof's start. Unlike job ends, it does not swing with which
  // worker proved a job's last partitions.
  std::vector<engine::ProofSpan> spans;
  for (const auto& [key, w] : observed.workers)
    for (const auto& [start, end] : w.porep)
      spans.push_back({seconds_between(run.start, start), seconds_between(run.start, end)});
  // 0: no steady window (fewer than two jobs, or every proof had started by the first job's end).
  if (args.jobs >= 2)
    if (const auto w = engine::steady_window(spans, seconds_between(run.start, finished.front())))
      if (const auto s = engine::steady_seconds_per_proof(spans, w->from, w->to)) {
        r.steady_rate = *s;
        r.steady_window_s = w->to - w->from;
      }
  return r;
}

// The run's figures, one line each.
void print_summary(const EngineBenchArgs& args, const EngineBenchRun& run, const EngineObserver& observed,
                   const Rates& r) {
  std::string device_list;
  for (const auto& d : run.devices) device_list += (device_list.empty() ? "" : ",") + std::to_string(d.index);
  std::printf("%-16s %s\n", "backend", run.backend.c_str());
  std::printf("%-16s %s (%u worker(s) each, budget %s each)\n", "devices", device_list.c_str(),
              args.workers_per_gpu, run.devices.empty() ? "-" : gib(run.devices[0].memory_budget).c_str());
  std::printf("%-16s %s: %zu constraints, domain 2^%u\n", "porep circuit", run.porep.name.c_str(),
              run.porep.constraints, domain_log(run.porep.domain));
  if (run.filecoin_synthesis) std::printf("%-16s %s\n", "partitions", run.filecoin_synthesis->c_str());
  std::printf("%-16s %s\n", "peak host RSS", gib(peak_rss_bytes()).c_str());
  std::printf("%-16s %u x %u partitions (%s), %u proved\n", "jobs", args.jobs, run.partitions_per_job,
              engine::to_string(run.job_kind), run.porep_partitions_proved);
  if (run.one_at_a_time) {
    std::printf("%-16s one at a time; submit to proof, ms:", "job latency");
    for (double ms : run.job_ms) std::printf(" %.1f", ms);
    if (!run.job_ms.empty()) std::printf(" (median %.1f)", median_of(run.job_ms));
    std::printf("\n");
  }
  std::printf("%-16s %.3f s\n", "wall", r.wall_s);
  std::printf("%-16s %.2f partitions/min\n", "throughput", r.partitions_per_min);
  std::printf("%-16s %.3f s", "s per job", r.per_job_s);
  if (args.jobs >= 2) std::printf(" (steady state: %.3f s", r.steady_s);
  if (args.jobs >= 3) std::printf("; each with a job behind it: %.3f s", r.loaded_s);
  if (args.jobs >= 2) std::printf(")");
  std::printf("\n");
  if (r.steady_rate > 0)
    std::printf("%-16s %.3f s a partition, %.3f s per job (over %.1f s from the first job's end)\n",
                "steady rate", r.steady_rate, r.steady_rate * run.partitions_per_job, r.steady_window_s);
  std::printf("%-16s queue %.1f s, params %.1f s, synthesis %.1f s, gpu %.1f s, verify %.1f s (summed)\n",
              "porep stages", run.porep_timings.queue_wait_ms / 1e3, run.porep_timings.param_load_ms / 1e3,
              run.porep_timings.synthesis_ms / 1e3, run.porep_timings.gpu_ms / 1e3,
              run.porep_timings.verify_ms / 1e3);
  std::printf("%-16s %llu made, %llu idle (%.1f GiB)\n", "buffer sets",
              (unsigned long long)run.status.buffer_sets_made,
              (unsigned long long)run.status.buffer_sets_idle,
              double(run.status.buffer_idle_bytes) / double(1ull << 30));
  std::printf("%-16s %llu\n", "retries", (unsigned long long)observed.retries);
  for (const auto& r : observed.retry_details) std::printf("  retry: %s\n", r.c_str());
  std::printf("%-16s %llu\n", "failures", (unsigned long long)observed.failures);
  for (const auto& f : observed.failure_details) std::printf("  failure: %s\n", f.c_str());
  if (args.winning > 0) {
    std::printf("%-16s %s, %zu of %u done; ms:", "winningpost", run.winning.name.c_str(),
                run.winning_ms.size(), args.winning);
    for (double ms : run.winning_ms) std::printf(" %.1f", ms);
    if (!run.winning_ms.empty())
      std::printf(" (min %.1f, median %.1f, max %.1f)",
                  *std::min_element(run.winning_ms.begin(), run.winning_ms.end()), median_of(run.winning_ms),
                  *std::max_element(run.winning_ms.begin(), run.winning_ms.end()));
    std::printf("\n");
    // Where each one's time went (the engine's stages; the rest is the request's checks and waits).
    std::printf("%-16s ms (queue/params/synthesis/gpu/verify):", "winning stages");
    for (const auto& t : run.winning_timings)
      std::printf(" %.0f/%.0f/%.0f/%.0f/%.0f", t.queue_wait_ms, t.param_load_ms, t.synthesis_ms, t.gpu_ms,
                  t.verify_ms);
    std::printf("\n");
  }
}

// One line per device (and one per worker) on stdout; the same as JSON, with the PoRep partitions
// the devices proved counted in `counted`.
nlohmann::json report_devices(const EngineBenchRun& run, EngineObserver& observed, uint64_t& counted) {
  std::printf("\n%-8s %10s %14s %8s %10s  %s\n", "device", "partitions", "mean prove s", "winning", "busy s",
              "per worker");
  nlohmann::json per_device = nlohmann::json::array();
  for (const auto& d : run.devices) {
    const auto& c = observed.devices[int(d.index)];
    counted += c.porep;
    double busy_s = 0;
    engine::SharedBasesStatus shared;
    for (const auto& s : run.status.devices)
      if (s.index == d.index) busy_s = s.busy_seconds, shared = s.shared_bases;
    const double mean_s = c.porep ? c.porep_s / double(c.porep) : 0;
    std::string workers;
    nlohmann::json per_worker = nlohmann::json::object();
    for (const auto& [w, n] : c.per_worker) {
      workers += (workers.empty() ? "" : " ") + std::to_string(w) + ":" + std::to_string(n);
      per_worker[std::to_string(w)] = n;
    }
    std::printf("%-8u %10llu %14.3f %8llu %10.2f  %s\n", d.index, (unsigned long long)c.porep, mean_s,
                (unsigned long long)c.winning, busy_s, workers.c_str());
    nlohmann::json worker_detail = nlohmann::json::array();
    for (const auto& [key, w] : observed.workers) {
      if (key.first != int(d.index)) continue;
      std::vector<double> porep_s;
      for (const auto& [start, end] : w.porep) porep_s.push_back(seconds_between(start, end));
      const double median = porep_s.empty() ? 0.0 : median_of(porep_s);
      const std::string porep =
          porep_s.empty() ? "no PoRep" : std::to_string(porep_s.size()) + " PoRep, median " + fmt_s(median);
      std::printf("         worker %d: %llu proofs (%s), idle between proofs %.2f s\n", key.second,
                  (unsigned long long)w.proofs, porep.c_str(), w.idle_s);
      worker_detail.push_back({{"worker", key.second},
                               {"proofs", w.proofs},
                               {"porep_proofs", porep_s.size()},
                               {"porep_median_s", median},
                               {"idle_s", w.idle_s}});
    }
    per_device.push_back({{"device", d.index},
                          {"memory_budget", d.memory_budget},
                          {"workers", d.workers},
                          {"partitions", c.porep},
                          {"mean_proving_s", mean_s},
                          {"partitions_per_worker", per_worker},
                          {"winning_partitions", c.winning},
                          {"winning_mean_proving_s", c.winning ? c.winning_s / double(c.winning) : 0.0},
                          {"busy_s", busy_s},
                          {"workers_detail", worker_detail},
                          {"shared_bases",
                           {{"capacity", shared.capacity},
                            {"bytes", shared.bytes},
                            {"arrays", shared.arrays},
                            {"uploads", shared.uploads}}}});
    if (shared.capacity)
      std::printf("         shared bases: %s of %s held, %llu arrays, %llu uploads\n",
                  gib(shared.bytes).c_str(), gib(shared.capacity).c_str(), (unsigned long long)shared.arrays,
                  (unsigned long long)shared.uploads);
  }
  return per_device;
}

// The whole result as JSON.
nlohmann::json result_json(const EngineBenchArgs& args, const EngineBenchRun& run,
                           const EngineObserver& observed, const Rates& r, nlohmann::json per_device,
                           uint64_t counted) {
  std::vector<uint32_t> device_indices;
  for (const auto& d : run.devices) device_indices.push_back(d.index);
  nlohmann::json winning = {{"jobs", args.winning},
                            {"circuit", run.winning.name},
                            {"log_domain", args.winning_log_domain},
                            {"constraints", run.winning.constraints},
                            {"domain", run.winning.domain},
                            {"latencies_ms", run.winning_ms}};
  if (!run.winning_ms.empty()) {
    winning["min_ms"] = *std::min_element(run.winning_ms.begin(), run.winning_ms.end());
    winning["median_ms"] = median_of(run.winning_ms);
    winning["max_ms"] = *std::max_element(run.winning_ms.begin(), run.winning_ms.end());
  }
  for (const auto& t : run.winning_timings) {
    nlohmann::json stages;
    for (const auto& [stage, ms] : t.named()) stages[stage] = ms;
    winning["stages_ms"].push_back(stages);
  }
  nlohmann::json result = {
      {"bench", "engine"},
      {"backend", run.backend},
      {"devices", run.devices.size()},
      {"device_indices", device_indices},
      {"workers_per_device", args.workers_per_gpu},
      {"vram_budget", run.vram_budget},
      {"host_budget", run.host_budget},
      {"synthesis_workers", args.synthesis_workers},
      {"synthesis_threads", run.synthesis_threads},
      {"synthesis_nice", args.synthesis_nice},
      {"partitions_ahead", args.partitions_ahead},
      {"release_inputs_early", args.release_inputs_early},
      {"express_synthesis_workers", args.express_synthesis_workers},
      {"express_workers_per_device", args.express_workers_per_gpu},
      {"blocking_sync", args.blocking_sync},
      {"shared_bases_fraction", args.shared_bases_fraction},
      {"resident_fraction", args.resident_fraction},
      {"msm_pass_log", args.msm_pass_log},
      {"msm_bucket_cost", args.msm_bucket_cost},
      {"msm_point_passes", args.msm_point_passes},
      {"msm_uniform_windows", args.msm_uniform_windows},
      {"lead_worker", args.lead_worker},
      {"presynthesized", args.presynthesized},
      {"c_from_ab", args.c_from_ab},
      {"full_synthesis", args.full_synthesis},
      {"host_witness", args.host_witness},
      {"log_domain", args.log_domain},
      {"circuit", run.porep.name},
      {"filecoin_synthesis",
       run.filecoin_synthesis ? nlohmann::json(*run.filecoin_synthesis) : nlohmann::json(nullptr)},
      {"fake_keys", true},
      {"peak_rss_bytes", peak_rss_bytes()},
      {"constraints", run.porep.constraints},
      {"domain", run.porep.domain},
      {"key_host_bytes", run.key_bytes},
      {"job_kind", engine::to_string(run.job_kind)},
      {"job_latencies_ms", run.job_ms},
      {"jobs", args.jobs},
      {"jobs_done", run.porep_done},
      {"run.partitions_per_job", run.partitions_per_job},
      {"partitions", uint64_t(args.jobs) * run.partitions_per_job},
      {"partitions_proved", run.porep_partitions_proved},
      {"partitions_counted_by_device", counted},
      {"wall_s", r.wall_s},
      {"partitions_per_minute", r.partitions_per_min},
      {"seconds_per_job", r.per_job_s},
      {"steady_seconds_per_job", args.jobs >= 2 ? nlohmann::json(r.steady_s) : nlohmann::json(nullptr)},
      {"loaded_seconds_per_job", args.jobs >= 3 ? nlohmann::json(r.loaded_s) : nlohmann::json(nullptr)},
      {"steady_seconds_per_partition",
       r.steady_rate > 0 ? nlohmann::json(r.steady_rate) : nlohmann::json(nullptr)},
      {"steady_rate_seconds_per_job",
       r.steady_rate > 0 ? nlohmann::json(r.steady_rate * run.partitions_per_job) : nlohmann::json(nullptr)},
      {"per_device", per_device},
      {"buffer_sets",
       {{"made", run.status.buffer_sets_made},
        {"idle", run.status.buffer_sets_idle},
        {"idle_bytes", run.status.buffer_idle_bytes}}},
      {"retries", observed.retries},
      {"retry_details", observed.retry_details},
      {"failures", observed.failures},
      {"failure_details", observed.failure_details},
      {"winning_post", winning},
      {"key_setup_s", run.key_s},
      {"machine", {{"threads", std::thread::hardware_concurrency()}}}};
  for (const auto& [stage, ms] : run.porep_timings.named()) result["porep_timings_ms"][stage] = ms;
  return result;
}

}  // namespace

int report_engine_bench(const EngineBenchArgs& args, const EngineBenchRun& run, EngineObserver& observed) {
  // A job's waiters wake before its last events reach the observer (partition_done, then the
  // job's own): wait for those, so that the counters are complete.
  std::unique_lock lock(observed.mu);
  observed.cv.wait_for(lock, std::chrono::seconds(30), [&] {
    return observed.porep_closed >= args.jobs && observed.winning_closed >= args.winning;
  });
  const Rates rates = rates_of(args, run, observed);
  print_summary(args, run, observed, rates);
  uint64_t counted = 0;
  nlohmann::json per_device = report_devices(run, observed, counted);
  const nlohmann::json result = result_json(args, run, observed, rates, std::move(per_device), counted);
  if (int rc = write_json(args.json_path, result); rc != 0) return rc;
  if (observed.failures > 0 || run.porep_done != args.jobs || run.winning_ms.size() != args.winning)
    return fail(std::to_string(observed.failures) + " job(s) failed (see the failures above)");
  return 0;
}

}  // namespace cuzk::cli
