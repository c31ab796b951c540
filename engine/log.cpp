#include "engine/log.hpp"

#include <spdlog/sinks/null_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

namespace cuzk::engine {

Logger make_stderr_logger(const std::string& name) {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>(name, std::move(sink));
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %l %n %v");
  logger->set_level(spdlog::level::info);
  return logger;
}

Logger make_null_logger() {
  return std::make_shared<spdlog::logger>("cuzk-null", std::make_shared<spdlog::sinks::null_sink_mt>());
}

std::string job_context(uint64_t job, int partition) {
  std::string s = "job=" + std::to_string(job);
  if (partition >= 0) s += " part=" + std::to_string(partition);
  return s;
}

}  // namespace cuzk::engine
