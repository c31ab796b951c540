#include "filecoin/circuits/post_synthesis.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "r1cs/counting_system.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {

using r1cs::CompilingSystem;
using r1cs::ProvingAssignment;

namespace {

// The circuit sectors into `base` (fresh: ONE only), in chunks synthesized in forks of it.
template <class System>
Status synthesize_joined(const FallbackPostCircuit& circuit, System& base, unsigned threads) {
  const size_t n = circuit.params().sector_count;
  const size_t workers =
      std::clamp<size_t>(threads ? threads : std::max(1u, std::thread::hardware_concurrency()), 1, n);
  // Every circuit sector has the same rows and variables: count one, size the whole.
  r1cs::CountingSystem one;
  CUZK_TRY_STATUS(circuit.synthesize_sectors(one, 0, 1));
  base.reserve(n * one.num_constraints(), n * one.num_aux(), 1 + n * (one.num_inputs() - 1));
  if (workers == 1) return circuit.synthesize(base);
  const System fresh = base.fork();
  std::thread prefault;
  if constexpr (requires { base.prefault(); }) prefault = std::thread([&base] { base.prefault(); });
  struct Joined {
    std::thread& t;
    ~Joined() {
      if (t.joinable()) t.join();
    }
  } joined{prefault};

  // Four rounds of `workers` chunks: the pieces alive at once are a quarter of the partition.
  const size_t chunks = std::min(n, 4 * workers);
  const auto chunk_begin = [&](size_t c) { return n * c / chunks; };
  for (size_t first = 0; first < chunks; first += workers) {
    const size_t count = std::min(workers, chunks - first);
    std::vector<std::optional<System>> pieces(count);
    std::vector<Status> status(count);
    std::vector<std::thread> pool;
    for (size_t k = 0; k < count; ++k)
      pool.emplace_back([&, k] {
        System piece = fresh.fork();  // ONE alone
        status[k] = circuit.synthesize_sectors(piece, chunk_begin(first + k), chunk_begin(first + k + 1));
        if (status[k].ok()) pieces[k].emplace(std::move(piece));
      });
    for (std::thread& t : pool) t.join();
    if (prefault.joinable()) prefault.join();
    for (size_t k = 0; k < count; ++k) {
      if (!status[k].ok()) return status[k].error();
      if constexpr (requires { base.reserve_terms(*pieces[k], n); }) {
        // Chunks differ by at most one sector: the first, scaled, sizes the whole.
        if (first == 0 && k == 0) {
          const size_t sectors = chunk_begin(1);
          base.reserve_terms(*pieces[k], (n + sectors - 1) / sectors);
        }
      }
      CUZK_TRY_STATUS(base.extend(std::move(*pieces[k])));
      pieces[k].reset();
    }
  }
  return Status::Ok();
}

}  // namespace

Result<r1cs::Assignment> synthesize_post_for_proving(const FallbackPostCircuit& circuit, unsigned threads) {
  ProvingAssignment base;
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

Result<r1cs::Assignment> synthesize_post_witness(const FallbackPostCircuit& circuit, unsigned threads) {
  ProvingAssignment base = ProvingAssignment::witness_only();
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

Result<r1cs::CompiledCircuit> compile_post(const FallbackPostCircuit& circuit, unsigned threads,
                                           r1cs::CompileOptions options) {
  CompilingSystem base(options);
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

}  // namespace cuzk::filecoin
