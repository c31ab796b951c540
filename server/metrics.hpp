// The daemon's metrics, rendered as Prometheus text for GET /metrics: counters fed by the engine's
// events and by the gRPC service, histograms of per-job stage timings, and gauges read from the
// engine's status at scrape time.
//
// Stage timings are observed when the daemon hands a finished job's result to a client (Await or
// Prove), once per job: the engine's events do not carry timings, and asking the engine for a
// result would count as the client's fetch and shorten the result's lifetime.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "engine/engine.hpp"

namespace cuzk::server {

class Histogram {
 public:
  void observe(double seconds);
  // Appends the _bucket, _sum and _count lines of `name{labels}`.
  void render(std::string& out, const std::string& name, const std::string& labels) const;

  static constexpr std::array<double, 16> kBounds{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                  2.5,   5,    10,    30,   60,  120,  300, 900};

 private:
  std::array<uint64_t, kBounds.size()> counts_{};
  uint64_t count_ = 0;
  double sum_ = 0;
};

class Metrics {
 public:
  // For EngineConfig::observer (any thread).
  void on_event(const engine::EngineEvent& event);
  void on_submitted(engine::JobKind kind, engine::Priority priority);
  // A finished job's result went to a client: its timings, once per job.
  void on_result(const engine::JobResult& result);
  void on_rpc(const std::string& method, int grpc_code);

  std::string render(const engine::EngineStatus& status, bool draining) const;

 private:
  mutable std::mutex mutex_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::map<std::pair<std::string, std::string>, uint64_t> submitted_;  // (kind, priority)
  std::map<std::string, uint64_t> finished_;                           // state
  uint64_t partitions_proved_ = 0, partition_retries_ = 0, quarantines_ = 0;
  std::map<std::pair<std::string, int>, uint64_t> rpcs_;             // (method, code)
  std::map<std::pair<std::string, std::string>, Histogram> stages_;  // (stage, kind)
  std::set<engine::JobId> timed_;  // jobs whose timings are in stages_ (bounded, newest kept)
};

}  // namespace cuzk::server
