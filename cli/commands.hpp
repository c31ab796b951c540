// The subcommands of `cuzk`. Each lives in its own file and adds itself to the app through one
// register function, so a new command is a new file plus one line in main.cpp.
#pragma once

#include <CLI/CLI.hpp>

namespace cuzk::cli {

// A command stores its process exit status in `status` when it runs; main() returns it. (CLI11
// callbacks return void, and exit codes other than 0/1 matter to scripts, e.g. "verify failed".)
void register_selfcheck(CLI::App& app, int& status);
void register_setup(CLI::App& app, int& status);
void register_prove(CLI::App& app, int& status);
void register_verify(CLI::App& app, int& status);
void register_bench(CLI::App& app, int& status);
// `cuzk bench engine` (bench_engine.cpp), added to the `bench` command by register_bench.
void add_bench_engine(CLI::App* bench, int& status);
// `cuzk bench filecoin` (bench_filecoin.cpp), likewise.
void add_bench_filecoin(CLI::App* bench, int& status);
// Clients of the cuzkd daemon: submit, await, remote-prove, cancel (client_jobs.cpp); status,
// preload, evict (client_admin.cpp).
void register_client_jobs(CLI::App& app, int& status);
void register_client_admin(CLI::App& app, int& status);

}  // namespace cuzk::cli
