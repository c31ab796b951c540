// cuzkd: the cuzk proving daemon. See deploy/README.md for running it, deploy/cuzkd.example.toml for
// its configuration, proto/cuzk/v1/prover.proto for its API; daemon_main.hpp for its signals and
// exit status.
#include <cstdio>

#include "server/daemon_main.hpp"

using namespace cuzk::server;

int main(int argc, char** argv) {
  CLI::App app{"cuzkd: the cuzk Groth16 proving daemon (gRPC; HTTP /metrics /status /healthz)", "cuzkd"};
  app.set_version_flag("--version", "cuzkd " CUZK_VERSION);
  DaemonCommand command;
  add_daemon_flags(app, command);
  CLI11_PARSE(app, argc, argv);
  auto config = daemon_config(command);
  if (!config) {
    std::fprintf(stderr, "cuzkd: %s\n", config.message().c_str());
    return 1;
  }
  if (command.check_only) {
    std::printf("configuration OK: %zu listen address(es), %zu device(s), backend %s, journal %s\n",
                config->listen.size(), config->devices.size(), config->backend.c_str(),
                config->journal.empty() ? "(none)" : config->journal.c_str());
    return 0;
  }
  // Signals are taken by sigwait() in run_daemon, never by a handler: every thread starts with them
  // blocked.
  const sigset_t signals = block_daemon_signals();
  return run_daemon(std::move(*config), signals, "cuzkd");
}
