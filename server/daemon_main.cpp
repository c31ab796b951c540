#include "server/daemon_main.hpp"

#include <unistd.h>

#include <cstdio>
#include <thread>

#include "server/daemon.hpp"
#include "server/client/flag_errors.hpp"

namespace cuzk::server {

void add_daemon_flags(CLI::App& app, DaemonCommand& command) {
  add_flags(app, command.overrides);
  app.add_flag("--check-config", command.check_only, "Read and check the configuration, print it, and exit");
  app.failure_message(flag_failure_message);
}

Result<DaemonConfig> daemon_config(const DaemonCommand& command) {
  DaemonConfig config;
  if (!command.overrides.config_path.empty())
    CUZK_TRY_STATUS(load_config_file(command.overrides.config_path, config));
  CUZK_TRY_STATUS(apply_overrides(command.overrides, config));
  CUZK_TRY_STATUS(resolve(config));
  return config;
}

sigset_t block_daemon_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  sigaddset(&signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a client that hangs up is an error value, not a death
  return signals;
}

int run_daemon(DaemonConfig config, const sigset_t& signals, const char* name) {
  auto log = engine::make_stderr_logger(name);
  log->set_level(spdlog::level::from_str(config.log_level));
  const auto grace = std::chrono::seconds(config.shutdown_grace_s);
  auto daemon = Daemon::start(std::move(config), log);
  if (!daemon) {
    log->critical("event=start_failed error=\"{}\"", daemon.message());
    return 1;
  }
  // The drain runs on its own thread so that a second signal can hurry it; it wakes this loop with
  // SIGUSR1 when it is over.
  std::thread stopper;
  for (;;) {
    int sig = 0;
    if (sigwait(&signals, &sig) != 0) continue;
    if (sig == SIGHUP) {
      log->info("event=sighup note=\"ignored: restart the daemon to change its configuration\"");
      continue;
    }
    if (sig == SIGUSR1) {
      if (stopper.joinable()) break;
      continue;
    }
    const char* signal_name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
    if (!stopper.joinable()) {
      log->info("event=signal signal={} action=drain", signal_name);
      stopper = std::thread([&daemon, grace] {
        (*daemon)->shutdown(grace);
        ::kill(::getpid(), SIGUSR1);
      });
      continue;
    }
    log->warn("event=signal signal={} action=stop_now", signal_name);
    (*daemon)->hurry();
  }
  stopper.join();
  daemon->reset();
  log->info("event=exit");
  return 0;
}

}  // namespace cuzk::server
