#include "server/param_progress.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace cuzk::server {

ParamLoadLog::ParamLoadLog(StatusFn status, engine::Logger log, std::chrono::milliseconds interval,
                           bool start, ProbeFn probe)
    : status_(std::move(status)), log_(std::move(log)), probe_(std::move(probe)) {
  if (start) ticker_ = std::make_unique<Ticker>(interval, [this] { tick(); });
}

ParamLoadLog::~ParamLoadLog() { ticker_.reset(); }

std::optional<ParamLoadLog::Read> ParamLoadLog::mapped_file_probe(const std::string& name) {
  std::error_code ec;
  const auto file = std::filesystem::canonical(name, ec);
  if (ec) return std::nullopt;
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (ec || size == 0) return std::nullopt;
  return Read{std::min(mapped_resident_bytes(file.string()), size), size};
}

void ParamLoadLog::tick() {
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  std::set<std::string> seen;
  for (const auto& p : status_().params) {
    if (!p.loading) continue;
    seen.insert(p.name);
    auto [it, fresh] = loading_.try_emplace(p.name);
    if (fresh) it->second.since = now;
    const auto read = probe_(p.name);
    if (!read) {
      log_->info("event=params_loading name={} elapsed_s={:.0f}", p.name,
                 std::chrono::duration<double>(now - it->second.since).count());
      continue;
    }
    it->second.meter.update(double(read->bytes), double(read->size), now);
    log_->info("event=params_loading name={} read=\"{}\" elapsed_s={:.0f}", p.name,
               it->second.meter.describe(), std::chrono::duration<double>(now - it->second.since).count());
  }
  for (auto it = loading_.begin(); it != loading_.end();) {
    if (seen.count(it->first)) {
      ++it;
      continue;
    }
    log_->info("event=params_load_ended name={} seconds_seen={:.0f}", it->first,
               std::chrono::duration<double>(now - it->second.since).count());
    it = loading_.erase(it);
  }
}

}  // namespace cuzk::server
