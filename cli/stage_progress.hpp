// The progress of one long stage (options.hpp's Stage: "  name ... 1.234 s") on stderr, through
// common/progress.hpp. On a terminal the stage's line is rewritten in place; elsewhere (a log)
// nothing is added unless CUZK_PROGRESS=1 asks for a line at each update; --quiet shows nothing.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "common/progress.hpp"

namespace cuzk::cli {

class StageProgress {
 public:
  StageProgress(const char* stage, bool quiet)
      : stage_(stage),
        terminal_(!quiet && ::isatty(2) != 0),
        lines_(!quiet && !terminal_ && forced()),
        every_(terminal_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(2000)) {}

  bool enabled() const { return terminal_ || lines_; }

  // Shows the meter, at most every 0.25 s on a terminal and every 2 s in a log (`force`: now).
  void show(const ProgressMeter& meter, bool force = false) {
    if (!enabled()) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (!force && shown_ && now - last_ < every_) return;
    shown_ = true;
    last_ = now;
    if (terminal_) {
      std::fprintf(stderr, "\r  %-28s ... %s   ", stage_, meter.describe().c_str());
    } else {
      std::fprintf(stderr, "\n    %s", meter.describe().c_str());
    }
    std::fflush(stderr);
  }

 private:
  static bool forced() {
    const char* v = std::getenv("CUZK_PROGRESS");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }

  const char* stage_;
  bool terminal_, lines_;
  std::chrono::milliseconds every_;
  std::mutex mutex_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// While it lives, shows how far the stage has read the file at `path`, which a reader maps and
// reads front to back (parameter files): its pages touched so far, every half second.
class MappedReadProgress {
 public:
  MappedReadProgress(const char* stage, const std::filesystem::path& path, bool quiet)
      : shown_(stage, quiet) {
    std::error_code ec;
    file_ = std::filesystem::canonical(path, ec).string();
    const uint64_t size = ec ? 0 : std::filesystem::file_size(path, ec);
    if (!shown_.enabled() || ec || size == 0) return;
    ticker_.emplace(std::chrono::milliseconds(500), [this, size] {
      meter_.update(double(std::min(mapped_resident_bytes(file_), size)), double(size));
      shown_.show(meter_);
    });
  }

 private:
  StageProgress shown_;
  std::string file_;
  ProgressMeter meter_{"bytes"};
  std::optional<Ticker> ticker_;  // last: stopped before the rest goes
};

}  // namespace cuzk::cli
