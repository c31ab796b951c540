// cuzkd-bench: cuzkd for a benchmark at sizes whose official parameters cannot be on the machine
// (a 32 GiB PoRep's file is 47 GB). The same daemon (server/daemon_main.hpp: configuration file,
// flags, listeners, both APIs, journal, signals) with one difference, which cuzkd itself cannot be
// configured to have: a key made at start and held in memory under the official file's path in the
// parameter directory (curio.param_dir, else $FIL_PROOFS_PARAMETER_CACHE), where both APIs find it
// by that name. One of:
//
//   --fake-key CIRCUIT_ID   random points of that circuit's exact shape, from one synthesis of a
//                           virtual sector (as `cuzk bench engine --filecoin` makes it), in seconds.
//                           Proofs made with it do not verify, so the engine accepts them unchecked
//                           (the pairing check still runs, its time counts) and the daemon reports
//                           every result FAILED, "NOT VALID: a benchmark daemon ...", its proofs
//                           attached only for their size.
//   --test-key CIRCUIT_ID   a real Groth16 setup of that circuit (`cuzk setup --filecoin`'s, with
//                           --toxic-seed and --backend), in minutes at 32 GiB: its proofs verify, and
//                           results are reported as cuzkd reports them.
//
// The program is built beside the benchmarks and never installed.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/bench_engine_filecoin.hpp"
#include "cli/filecoin_test_key.hpp"
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

// The key of `circuit` as the flags ask: fake (random points) or a test setup.
Result<std::shared_ptr<const groth16::ProvingKey>> make_key(const std::string& circuit, bool fake,
                                                            const cli::TestKeyOptions& test, ThreadPool& pool,
                                                            unsigned threads) {
  if (fake) {
    auto made = cli::filecoin_engine_circuit(circuit, 1, threads, pool);
    if (!made) return made.error();
    return made->key;
  }
  auto id = filecoin::parse_circuit_id(circuit);
  if (!id) return id.error();
  auto pk = cli::make_filecoin_test_key(*id, test, pool);
  if (!pk) return pk.error();
  return std::make_shared<const groth16::ProvingKey>(std::move(*pk));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "cuzkd-bench: cuzkd holding a key made at start (fake: results reported NOT VALID; or a test "
      "setup)",
      "cuzkd-bench"};
  DaemonCommand command;
  add_daemon_flags(app, command);
  std::string fake_circuit, test_circuit;
  cli::TestKeyOptions test;
  auto* fake_opt = app.add_option("--fake-key", fake_circuit,
                                  "The circuit id whose fake key the daemon holds (porep-32g, ...)");
  auto* test_opt =
      app.add_option("--test-key", test_circuit,
                     "The circuit id whose test parameters the daemon makes and holds (porep-32g, ...)");
  fake_opt->excludes(test_opt);
  app.add_option("--toxic-seed", test.toxic_seed, "--test-key: a seed for the setup's randomness (insecure)");
  app.add_option("--setup-backend", test.backend, "--test-key: where the generator multiples are made")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const bool fake = !fake_circuit.empty();
  const std::string circuit = fake ? fake_circuit : test_circuit;
  if (circuit.empty()) return std::fprintf(stderr, "cuzkd-bench: --fake-key or --test-key is required\n"), 1;
  auto config = daemon_config(command);
  if (!config) {
    std::fprintf(stderr, "cuzkd-bench: %s\n", config.message().c_str());
    return 1;
  }
  auto id = filecoin::parse_circuit_id(circuit);
  if (!id) return std::fprintf(stderr, "cuzkd-bench: %s: %s\n", circuit.c_str(), id.message().c_str()), 1;
  const auto dir = filecoin::resolve_parameter_directory(config->curio_param_dir);
  auto name = filecoin::parameter_path(*id, filecoin::ParameterExt::params, dir);
  if (!name) return std::fprintf(stderr, "cuzkd-bench: %s: %s\n", circuit.c_str(), name.message().c_str()), 1;
  const char* kind = fake ? "fake key" : "test key";
  if (command.check_only) {
    std::printf("configuration OK; %s of %s as %s\n", kind, circuit.c_str(), name->c_str());
    return 0;
  }
  const sigset_t signals = block_daemon_signals();  // before the key's threads start

  std::fprintf(stderr, "cuzkd-bench: a %s of %s (%s) ...\n", kind, circuit.c_str(),
               fake ? "a virtual sector's synthesis, random points" : "a setup of its blank circuit");
  const auto t0 = std::chrono::steady_clock::now();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  ThreadPool pool(threads);
  auto key = make_key(circuit, fake, test, pool, threads);
  if (!key) return std::fprintf(stderr, "cuzkd-bench: %s: %s\n", circuit.c_str(), key.message().c_str()), 1;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t bytes = key_bytes(**key);
  std::fprintf(stderr, "cuzkd-bench: %s: %s of %.1f GiB (domain %llu) made in %.1f s, held as %s\n",
               circuit.c_str(), kind, double(bytes) / double(uint64_t(1) << 30),
               (unsigned long long)(*key)->domain_size, seconds, name->c_str());
  config->benchmark_keys[name->string()] = *key;
  config->benchmark_unverified_proofs = fake;
  if (config->host_memory_budget == 0) config->host_memory_budget = budget_beside(bytes);
  return run_daemon(std::move(*config), signals, "cuzkd-bench");
}
