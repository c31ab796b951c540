// `cuzk`: the command line of the cuzk Groth16 prover.
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/filecoin_commands.hpp"
#include "server/client/flag_errors.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: Groth16 prover over BLS12-381 (GPU and CPU)", "cuzk"};
  app.set_version_flag("--version", "cuzk " CUZK_VERSION);
  app.require_subcommand(1);

  int status = 0;
  cuzk::cli::register_selfcheck(app, status);
  cuzk::cli::register_setup(app, status);
  cuzk::cli::register_prove(app, status);
  cuzk::cli::register_verify(app, status);
  cuzk::cli::register_bench(app, status);
  cuzk::cli::register_filecoin_seal(app, status);
  cuzk::cli::register_filecoin_prove(app, status);
  cuzk::cli::register_filecoin_verify(app, status);
  cuzk::cli::register_client_jobs(app, status);
  cuzk::cli::register_client_admin(app, status);

  app.failure_message(cuzk::server::flag_failure_message);
  CLI11_PARSE(app, argc, argv);
  return status;
}
