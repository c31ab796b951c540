// cuzkd: the cuzk proving daemon. See deploy/README.md for running it, deploy/cuzkd.example.toml for
// its configuration, proto/cuzk/v1/prover.proto for its API.
//
// Signals: SIGTERM or SIGINT drains and stops (a second one cuts the drain short); SIGHUP is
// ignored (restart to reload the configuration). Exit status: 0 after a clean stop, 1 when the
// configuration is wrong or the daemon cannot start.
#include <signal.h>
#include <CLI/CLI.hpp>

#include <unistd.h>
#include <cstdio>
#include <thread>

#include "server/client/flag_errors.hpp"
#include "server/config.hpp"
#include "server/daemon.hpp"

using namespace cuzk;
using namespace cuzk::server;

int main(int argc, char** argv) {
  CLI::App app{"cuzkd: the cuzk Groth16 proving daemon (gRPC; HTTP /metrics /status /healthz)", "cuzkd"};
  app.set_version_flag("--version", "cuzkd " CUZK_VERSION);
  ConfigOverrides overrides;
  add_flags(app, overrides);
  bool check_only = false;
  app.add_flag("--check-config", check_only, "Read and check the configuration, print it, and exit");
  app.failure_message(cuzk::server::flag_failure_message);
  CLI11_PARSE(app, argc, argv);

  DaemonConfig config;
  if (!overrides.config_path.empty())
    if (auto st = load_config_file(overrides.config_path, config); !st) {
      std::fprintf(stderr, "cuzkd: %s\n", st.message().c_str());
      return 1;
    }
  if (auto st = apply_overrides(overrides, config); !st) {
    std::fprintf(stderr, "cuzkd: %s\n", st.message().c_str());
    return 1;
  }
  if (auto st = resolve(config); !st) {
    std::fprintf(stderr, "cuzkd: %s\n", st.message().c_str());
    return 1;
  }
  if (check_only) {
    std::printf("configuration OK: %zu listen address(es), %zu device(s), backend %s, journal %s\n",
                config.listen.size(), config.devices.size(), config.backend.c_str(),
                config.journal.empty() ? "(none)" : config.journal.c_str());
    return 0;
  }

  // Signals are taken by sigwait() below, never by a handler: every thread starts with them blocked.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  sigaddset(&signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a client that hangs up is an error value, not a death

  auto log = engine::make_stderr_logger("cuzkd");
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
    const char* name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
    if (!stopper.joinable()) {
      log->info("event=signal signal={} action=drain", name);
      stopper = std::thread([&daemon, grace] {
        (*daemon)->shutdown(grace);
        ::kill(::getpid(), SIGUSR1);
      });
      continue;
    }
    log->warn("event=signal signal={} action=stop_now", name);
    (*daemon)->hurry();
  }
  stopper.join();
  daemon->reset();
  log->info("event=exit");
  return 0;
}
