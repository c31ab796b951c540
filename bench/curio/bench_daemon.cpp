// cuzkd-bench: cuzkd for a benchmark at sizes whose official parameters cannot be on the machine
// (a 32 GiB PoRep's file is 47 GB). The same daemon (server/daemon_main.hpp: configuration file,
// flags, listeners, both APIs, journal, signals) with one difference, which cuzkd itself cannot be
// configured to have:
//
//   --fake-key CIRCUIT_ID   a key of random points of that circuit's exact shape, made at start
//                           from one synthesis of a virtual sector (as `cuzk bench engine
//                           --filecoin` makes it), held in memory under the official file's path
//                           in the parameter directory (curio.param_dir, else
//                           $FIL_PROOFS_PARAMETER_CACHE): both APIs find it by that name.
//
// Proofs made with such a key do not verify, so the engine accepts them unchecked (the pairing
// check still runs, its time counts) and the daemon reports every result FAILED, "NOT VALID: a
// benchmark daemon ...", its proofs attached only for their size. The program is built beside the
// benchmarks, never installed, and refuses to start without --fake-key.
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "cli/bench_engine_filecoin.hpp"
#include "common/thread_pool.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "server/daemon_main.hpp"

using namespace cuzk;
using namespace cuzk::server;

namespace {

uint64_t key_bytes(const groth16::ProvingKey& k) {
  return (k.h.size() + k.l.size() + k.a.size() + k.b_g1.size() + k.vk.ic.size()) * sizeof(G1Affine) +
         k.b_g2.size() * sizeof(G2Affine);
}

// The engine's default (3/4 of RAM) assumes the keys are inside its budget; the fake key is not.
uint64_t budget_beside(uint64_t key) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  const uint64_t ram = uint64_t(pages) * uint64_t(page);
  return std::min(ram / 4 * 3, ram > key ? (ram - key) / 10 * 9 : 0);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzkd-bench: cuzkd with a fake key for benchmarks; every result is reported NOT VALID",
               "cuzkd-bench"};
  DaemonCommand command;
  add_daemon_flags(app, command);
  std::string circuit;
  app.add_option("--fake-key", circuit, "The circuit id whose fake key the daemon holds (porep-32g, ...)")
      ->required();
  CLI11_PARSE(app, argc, argv);
  auto config = daemon_config(command);
  if (!config) {
    std::fprintf(stderr, "cuzkd-bench: %s\n", config.message().c_str());
    return 1;
  }
  auto id = filecoin::parse_circuit_id(circuit);
  if (!id) return std::fprintf(stderr, "cuzkd-bench: --fake-key: %s\n", id.message().c_str()), 1;
  const auto dir = filecoin::resolve_parameter_directory(config->curio_param_dir);
  auto name = filecoin::parameter_path(*id, filecoin::ParameterExt::params, dir);
  if (!name) return std::fprintf(stderr, "cuzkd-bench: --fake-key: %s\n", name.message().c_str()), 1;
  if (command.check_only) {
    std::printf("configuration OK; fake key of %s as %s\n", circuit.c_str(), name->c_str());
    return 0;
  }
  const sigset_t signals = block_daemon_signals();  // before the key's threads start

  std::fprintf(stderr, "cuzkd-bench: a fake key of %s (a virtual sector's synthesis, random points) ...\n",
               circuit.c_str());
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  ThreadPool pool(threads);
  auto made = cli::filecoin_engine_circuit(circuit, 1, threads, pool);
  if (!made) return std::fprintf(stderr, "cuzkd-bench: %s: %s\n", circuit.c_str(), made.message().c_str()), 1;
  const uint64_t bytes = key_bytes(*made->key);
  std::fprintf(stderr, "cuzkd-bench: %s: %zu constraints, key of %.1f GiB made in %.1f s, held as %s\n",
               circuit.c_str(), made->constraints, double(bytes) / double(uint64_t(1) << 30), made->key_s,
               name->c_str());
  config->benchmark_keys[name->string()] = made->key;
  config->benchmark_unverified_proofs = true;
  if (config->host_memory_budget == 0) config->host_memory_budget = budget_beside(bytes);
  return run_daemon(std::move(*config), signals, "cuzkd-bench");
}
