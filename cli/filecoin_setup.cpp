// `cuzk setup --filecoin <circuit id>`: Groth16 parameters for a Filecoin circuit, made from its
// blank circuit's recorded rows and written as `v28-<…>.params` and `.vk` into the parameter
// directory, where every Filecoin command (and rust-fil-proofs) looks for them. Parameters made
// here are for tests: only the official ceremony's files verify on chain. Existing files are kept
// unless --force: they may be the official ones.
#include <cstdio>
#include <filesystem>
#include <system_error>

#include <unistd.h>

#include "cli/filecoin_commands.hpp"
#include "cli/filecoin_test_key.hpp"
#include "cli/options.hpp"
#include "cli/setup_progress.hpp"
#include "common/thread_pool.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "io/bellman.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;

// Writes through a temporary name in the same directory and renames, so that a reader (another
// process looking for the parameters) never sees a partial file.
template <class Write>
Status write_atomically(const fs::path& path, Write&& write) {
  const fs::path tmp = path.string() + ".partial." + std::to_string(::getpid());
  if (auto st = write(tmp); !st) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return st;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return make_error("cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message());
  return Status::Ok();
}

}  // namespace

int run_filecoin_setup(const FilecoinSetupArgs& args) {
  auto id = filecoin::parse_circuit_id(args.circuit);
  if (!id) return fail(id.message());
  const fs::path dir = filecoin::resolve_parameter_directory(args.param_dir);
  auto params_path = filecoin::parameter_path(*id, filecoin::ParameterExt::params, dir);
  if (!params_path) return fail(params_path.message());
  auto vk_path = filecoin::parameter_path(*id, filecoin::ParameterExt::vk, dir);
  if (!vk_path) return fail(vk_path.message());
  std::error_code ec;
  if (!args.force && fs::exists(*params_path, ec) && fs::exists(*vk_path, ec)) {
    std::printf("setup: %s: %s exists, kept (--force remakes it)\n", args.circuit.c_str(),
                params_path->string().c_str());
    return 0;
  }
  fs::create_directories(dir, ec);
  if (ec) return fail("cannot create " + dir.string() + ": " + ec.message());

  ThreadPool pool(args.threads);
  TestKeyOptions options;
  options.toxic_seed = args.toxic_seed;
  options.backend = args.backend;
  options.device = args.device;
  options.quiet = args.quiet;
  Result<groth16::ProvingKey> pk = make_filecoin_test_key(*id, options, pool);
  if (!pk) return fail(pk.message());
  {
    Stage stage("write", args.quiet);
    auto params = to_bellman(*pk);
    if (!params) return fail(params.message());
    auto st = write_atomically(*vk_path, [&](const fs::path& p) { return write_bellman_vk(p, pk->vk); });
    if (!st) return fail(st.message());
    st = write_atomically(*params_path, [&](const fs::path& p) { return write_bellman_params(p, *params); });
    if (!st) return fail(st.message());
    stage.done();
  }
  std::printf("setup: %s, domain 2^%d, %zu public inputs -> %s (and .vk)\n", args.circuit.c_str(),
              __builtin_ctzll(pk->domain_size), size_t(pk->num_inputs - 1), params_path->string().c_str());
  std::printf("setup: these are TEST parameters: proofs made with them verify only against them\n");
  if (args.toxic_seed)
    std::printf("setup: WARNING: --toxic-seed makes the parameters insecure (tests only)\n");
  return 0;
}

}  // namespace cuzk::cli
