// The engine's structured logs: spdlog loggers owned by the engine (never the global registry), and
// one "key=value" context per line so that an operator can follow a job, a partition, a worker or a
// device through an incident with grep.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace cuzk::engine {

using Logger = std::shared_ptr<spdlog::logger>;

// A logger writing to stderr, named `name`, not registered anywhere.
Logger make_stderr_logger(const std::string& name = "cuzk-engine");
// A logger that drops everything (for tests that do not want the noise).
Logger make_null_logger();

// "job=12 part=3" ... the context prefix every line about a partition carries.
std::string job_context(uint64_t job, int partition = -1);

}  // namespace cuzk::engine
