#include "filecoin/circuits/post_synthesis.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "r1cs/counting_system.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {

using r1cs::ProvingAssignment;

namespace {

// Chunks of circuit sectors synthesized in rounds of `workers`: four rounds, so that the pieces
// alive at once are a quarter of the partition.
struct PostPlan {
  size_t workers = 1, chunks = 1;
};

PostPlan plan_post(size_t sectors, unsigned threads) {
  PostPlan p;
  p.workers = std::clamp<size_t>(threads ? threads : std::max(1u, std::thread::hardware_concurrency()), 1,
                                 std::max<size_t>(1, sectors));
  p.chunks = std::min(sectors, 4 * p.workers);
  return p;
}

// Every circuit sector has the same rows and variables: one counted.
Result<r1cs::ShapeCounts> one_sector(const FallbackPostCircuit& circuit) {
  r1cs::CountingSystem one;
  CUZK_TRY_STATUS(circuit.synthesize_sectors(one, 0, 1));
  return r1cs::ShapeCounts{one.num_constraints(), one.num_inputs() - 1, one.num_aux()};
}

}  // namespace

Result<SynthesisFootprint> post_synthesis_footprint(const FallbackPostParams& params, unsigned threads) {
  auto circuit = FallbackPostCircuit::blank(params);
  if (!circuit) return circuit.error();
  auto one = one_sector(*circuit);
  if (!one) return one.error();
  const size_t n = params.sector_count;
  SynthesisFootprint f;
  f.whole = whole_counts(r1cs::ShapeCounts{}, n, *one);
  f.prefix = r1cs::ShapeCounts{};  // ONE
  // The sectors alive in pieces at once, w · ⌈n / chunks⌉, is not monotonic in the workers w (66
  // sectors: 32 on 16 threads, 17 on 17): the most over every count up to `threads`.
  size_t most = 0;
  for (size_t w = 2; w <= plan_post(n, threads).workers; ++w) {
    const PostPlan plan = plan_post(n, unsigned(w));
    const size_t per_chunk = (n + plan.chunks - 1) / plan.chunks;
    if (plan.workers * per_chunk <= most) continue;
    most = plan.workers * per_chunk;
    f.piece = whole_counts(r1cs::ShapeCounts{}, per_chunk, *one);
    f.piece.inputs -= 1;  // ONE is the prefix's
    f.pieces_alive = plan.workers;
  }
  f.forking = 0;  // forks of ONE alone
  return f;
}

namespace {

// The circuit sectors into `base` (fresh: ONE only), in chunks synthesized in forks of it, rounds
// of plan_post's workers. System: a ProvingAssignment (full or witness-only) or the compiler.
template <class System>
Status synthesize_joined(const FallbackPostCircuit& circuit, System& base, unsigned threads) {
  const size_t n = circuit.params().sector_count;
  const PostPlan plan = plan_post(n, threads);
  const size_t workers = plan.workers;
  auto one = one_sector(circuit);
  if (!one) return one.error();
  const r1cs::ShapeCounts whole = whole_counts(r1cs::ShapeCounts{}, n, *one);
  base.reserve(whole.constraints, whole.aux, whole.inputs);
  if (workers == 1) return circuit.synthesize(base);
  const System fresh = base.fork();  // ONE alone
  PrefaultThread prefault(base);

  const size_t chunks = plan.chunks;
  const auto chunk_begin = [&](size_t c) { return n * c / chunks; };
  for (size_t first = 0; first < chunks; first += workers) {
    const size_t count = std::min(workers, chunks - first);
    std::vector<std::optional<System>> pieces(count);
    std::vector<Status> status(count);
    // A witness's chunks write their variables where they end up (ProvingAssignment::fork_into).
    std::vector<std::span<Fr>> rooms(count);
    if constexpr (std::is_same_v<System, ProvingAssignment>) {
      for (size_t k = 0; base.is_witness_only() && k < count; ++k) {
        const size_t b = chunk_begin(first + k), e = chunk_begin(first + k + 1);
        rooms[k] = base.aux_room(b * one->aux, (e - b) * one->aux);
      }
    }
    std::vector<std::thread> pool;
    for (size_t k = 0; k < count; ++k)
      pool.emplace_back([&, k] {
        const size_t b = chunk_begin(first + k), e = chunk_begin(first + k + 1);
        const auto fork = [&]() -> System {
          if constexpr (std::is_same_v<System, ProvingAssignment>) {
            if (rooms[k].data() != nullptr) return fresh.fork_into(rooms[k]);
          }
          System piece = fresh.fork();  // sized for its sectors (no growth by doubling)
          const r1cs::ShapeCounts mine = whole_counts(r1cs::ShapeCounts{}, e - b, *one);
          piece.reserve(mine.constraints, mine.aux, mine.inputs);
          return piece;
        };
        System piece = fork();
        status[k] = circuit.synthesize_sectors(piece, b, e);
        if (status[k].ok()) pieces[k].emplace(std::move(piece));
      });
    for (std::thread& t : pool) t.join();
    prefault.join();
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

Result<r1cs::Assignment> synthesize_post_witness(const FallbackPostCircuit& circuit, unsigned threads,
                                                 std::vector<Fr> storage) {
  ProvingAssignment base = ProvingAssignment::witness_only(std::move(storage));
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

Result<r1cs::CompiledCircuit> compile_post(const FallbackPostCircuit& circuit, unsigned threads,
                                           r1cs::CompileOptions options) {
  r1cs::CompilingSystem base(options);
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

}  // namespace cuzk::filecoin
