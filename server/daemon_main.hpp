// cuzkd's command line and its life until a signal, as one piece that cuzkd (main.cpp) and the
// benchmark daemon (bench/curio/cuzkd-bench) share: the flags and the configuration file read into
// a resolved DaemonConfig, the signals taken by sigwait(), the drain on SIGTERM or SIGINT.
//
// Signals: SIGTERM or SIGINT drains and stops (a second one cuts the drain short); SIGHUP is
// ignored (restart to reload the configuration). Exit status: 0 after a clean stop, 1 when the
// configuration is wrong or the daemon cannot start.
#pragma once

#include <signal.h>
#include <CLI/CLI.hpp>

#include "common/result.hpp"
#include "server/config.hpp"

namespace cuzk::server {

struct DaemonCommand {
  ConfigOverrides overrides;
  bool check_only = false;  // --check-config
};
void add_daemon_flags(CLI::App& app, DaemonCommand& command);

// The file, then the flags, then resolve(); errors name the file or flag.
Result<DaemonConfig> daemon_config(const DaemonCommand& command);

// Blocks the daemon's signals in the calling thread, so that every thread started after inherits
// the mask and only run_daemon's sigwait() takes them. Call first in main().
sigset_t block_daemon_signals();

// Starts the daemon and serves until a signal stops it; the exit status. `name` is the logger's.
int run_daemon(DaemonConfig config, const sigset_t& signals, const char* name);

}  // namespace cuzk::server
