// Progress of long work for the people waiting on it: items done of a total, the percentage, and an
// estimate of the time left from the pace so far. `cuzk await` (partitions proved), the local
// `cuzk prove-*` (partitions), `cuzk setup` (curve points of the parameters) and the daemon's log of
// parameter loading (bytes of the file read) all print it through this one class.
//
// The pace is measured from the first update, counting only what was done since then: a job
// already half done when a wait begins does not make the rest look fast.
#pragma once

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace cuzk {

class ProgressMeter {
 public:
  using Clock = std::chrono::steady_clock;

  // `unit` names the items in descriptions ("partitions", "points"); "bytes" prints GiB.
  explicit ProgressMeter(std::string unit) : unit_(std::move(unit)) {}

  // `done` of `total` items at `now`; the first call sets where the pace is measured from.
  void update(double done, double total, Clock::time_point now = Clock::now()) {
    if (!started_) first_done_ = done, first_at_ = now, started_ = true;
    done_ = done, total_ = total, at_ = now;
  }

  bool started() const { return started_; }
  double done() const { return done_; }
  double total() const { return total_; }
  // Whole percent done, 0 to 100.
  int percent() const {
    if (total_ <= 0) return 0;
    const double p = std::floor(100.0 * done_ / total_);
    return p < 0 ? 0 : p > 100 ? 100 : int(p);
  }
  double elapsed_s() const { return std::chrono::duration<double>(at_ - first_at_).count(); }
  // Seconds left at the pace since the first update; none before any progress was seen, or from
  // less than a second of it (a pace that short says little).
  std::optional<double> eta_s() const {
    const double progressed = done_ - first_done_;
    if (!started_ || progressed <= 0 || total_ <= 0 || elapsed_s() < 1.0) return std::nullopt;
    const double left = total_ > done_ ? total_ - done_ : 0;
    return elapsed_s() / progressed * left;
  }

  // "3/10 partitions (30%), about 42 s left"; bytes as "1.5/47.0 GiB (3%), about 5 min left"; no
  // unit: "30%, about 42 s left".
  std::string describe() const {
    char buf[160];
    if (unit_.empty()) {
      std::snprintf(buf, sizeof buf, "%d%%", percent());
    } else if (unit_ == "bytes") {
      std::snprintf(buf, sizeof buf, "%.1f/%.1f GiB (%d%%)", done_ / kGiB, total_ / kGiB, percent());
    } else {
      std::snprintf(buf, sizeof buf, "%.0f/%.0f %s (%d%%)", done_, total_, unit_.c_str(), percent());
    }
    std::string out = buf;
    if (auto eta = eta_s(); eta && done_ < total_) out += ", about " + format_duration(*eta) + " left";
    return out;
  }

  // "42 s", "3 min 20 s", "1 h 05 min".
  static std::string format_duration(double seconds) {
    const long s = std::lround(seconds < 0 ? 0 : seconds);
    char buf[48];
    if (s < 60) {
      std::snprintf(buf, sizeof buf, "%ld s", s);
    } else if (s < 3600) {
      std::snprintf(buf, sizeof buf, "%ld min %02ld s", s / 60, s % 60);
    } else {
      std::snprintf(buf, sizeof buf, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
    }
    return buf;
  }

 private:
  static constexpr double kGiB = double(uint64_t(1) << 30);
  std::string unit_;
  bool started_ = false;
  double first_done_ = 0, done_ = 0, total_ = 0;
  Clock::time_point first_at_{}, at_{};
};

// Calls `tick` every `interval` on a thread of its own until it is destroyed (the destructor
// wakes it at once): for showing the progress of a call that reports none while it runs.
class Ticker {
 public:
  Ticker(std::chrono::milliseconds interval, std::function<void()> tick)
      : thread_([this, interval, tick = std::move(tick)] {
          std::unique_lock lock(mutex_);
          while (!cv_.wait_for(lock, interval, [this] { return stop_; })) {
            lock.unlock();
            tick();
            lock.lock();
          }
        }) {}
  ~Ticker() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Ticker(const Ticker&) = delete;
  Ticker& operator=(const Ticker&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;  // last: it starts once the rest is made
};

// Bytes of the file at `path` (as the kernel names it: an absolute, canonical path) that this
// process has mapped and touched (resident, /proc/self/smaps): how far a reader that maps the file
// and reads it front to back (io/file.hpp's MappedFile: parameter files) has come. 0 when the file
// is not mapped, or on a system without /proc.
inline uint64_t mapped_resident_bytes(const std::string& path) {
  std::ifstream smaps("/proc/self/smaps");
  uint64_t total = 0;
  bool ours = false;
  for (std::string line; std::getline(smaps, line);) {
    // A mapping's header: "start-end perms offset dev inode   pathname"; its fields: "Name:  value".
    const auto colon = line.find(':');
    const bool field = colon != std::string::npos && colon > 0 && line.find(' ') > colon;
    if (!field) {
      ours = line.size() >= path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0 &&
             line.size() > path.size() && line[line.size() - path.size() - 1] == ' ';
      continue;
    }
    if (ours && line.rfind("Rss:", 0) == 0) total += std::stoull(line.substr(4)) * 1024;  // "Rss: N kB"
  }
  return total;
}

}  // namespace cuzk
