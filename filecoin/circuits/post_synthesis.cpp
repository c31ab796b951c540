#include "filecoin/circuits/post_synthesis.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "r1cs/counting_system.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {

using r1cs::ProvingAssignment;

Result<r1cs::Assignment> synthesize_post_for_proving(const FallbackPostCircuit& circuit, unsigned threads) {
  const size_t n = circuit.params().sector_count;
  const size_t workers =
      std::clamp<size_t>(threads ? threads : std::max(1u, std::thread::hardware_concurrency()), 1, n);
  // Every circuit sector has the same rows and variables: count one, size the whole.
  r1cs::CountingSystem one;
  CUZK_TRY_STATUS(circuit.synthesize_sectors(one, 0, 1));
  ProvingAssignment base;
  base.reserve(n * one.num_constraints(), n * one.num_aux(), 1 + n * (one.num_inputs() - 1));
  if (workers == 1) {
    CUZK_TRY_STATUS(circuit.synthesize(base));
    return base.finish();
  }
  std::thread prefault([&base] { base.prefault(); });
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
    std::vector<std::optional<ProvingAssignment>> pieces(count);
    std::vector<Status> status(count);
    std::vector<std::thread> pool;
    for (size_t k = 0; k < count; ++k)
      pool.emplace_back([&, k] {
        ProvingAssignment piece;  // a fork of ONE alone
        status[k] = circuit.synthesize_sectors(piece, chunk_begin(first + k), chunk_begin(first + k + 1));
        if (status[k].ok()) pieces[k].emplace(std::move(piece));
      });
    for (std::thread& t : pool) t.join();
    if (prefault.joinable()) prefault.join();
    for (size_t k = 0; k < count; ++k) {
      if (!status[k].ok()) return status[k].error();
      CUZK_TRY_STATUS(base.extend(std::move(*pieces[k])));
      pieces[k].reset();
    }
  }
  return base.finish();
}

}  // namespace cuzk::filecoin
