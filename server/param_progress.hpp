// The daemon's log of parameter sets while they load (at start, by PreloadSRS, or for a job): every
// `interval`, each set the engine is loading, with how much of its file has been read and an ETA
// (common/progress.hpp; the loader maps the file and reads it front to back, so the file's pages
// touched so far are its progress), then how long the load took. A 32 GiB PoRep's file is 47 GB:
// minutes that the log would otherwise pass in silence.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common/progress.hpp"
#include "engine/log.hpp"
#include "engine/status.hpp"

namespace cuzk::server {

class ParamLoadLog {
 public:
  struct Read {
    uint64_t bytes = 0, size = 0;
  };
  using StatusFn = std::function<engine::EngineStatus()>;
  // How far the file of a parameter set (as the engine names it) has been read; none when it is
  // not a file.
  using ProbeFn = std::function<std::optional<Read>(const std::string& name)>;

  // `start`: the first tick comes after one interval; tick() is public for tests.
  ParamLoadLog(StatusFn status, engine::Logger log, std::chrono::milliseconds interval, bool start = true,
               ProbeFn probe = mapped_file_probe);
  ~ParamLoadLog();

  void tick();

  // The file's size and its pages this process has touched.
  static std::optional<Read> mapped_file_probe(const std::string& name);

 private:
  struct Loading {
    ProgressMeter meter{"bytes"};
    std::chrono::steady_clock::time_point since;
  };
  StatusFn status_;
  engine::Logger log_;
  ProbeFn probe_;
  std::mutex mutex_;  // one tick at a time
  std::map<std::string, Loading> loading_;
  std::unique_ptr<Ticker> ticker_;  // last: stopped first
};

}  // namespace cuzk::server
