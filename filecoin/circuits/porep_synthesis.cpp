#include "filecoin/circuits/porep_synthesis.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace cuzk::filecoin {

using r1cs::CompilingSystem;
using r1cs::CountingSystem;
using r1cs::ProvingAssignment;

namespace {

// Threads for `pieces` equal pieces on `threads` cores. A little more pieces than cores (a 32 GiB
// partition's 18 challenges on 16) get a thread each: time-sliced, they finish in 18/16 of one
// piece's time, where rounds of `threads` take two.
unsigned worker_count(unsigned threads, size_t pieces) {
  const size_t t = std::max(1u, threads);
  return unsigned(std::max<size_t>(1, pieces < 2 * t ? pieces : t));
}

}  // namespace

Result<r1cs::ShapeCounts> porep_challenge_shape(const PorepParams& params) {
  static std::mutex m;
  static std::vector<std::pair<PorepParams, r1cs::ShapeCounts>> known;
  {
    std::lock_guard lock(m);
    for (const auto& [p, shape] : known)
      if (p == params) return shape;
  }
  PorepParams one = params;
  one.challenge_count = 1;
  auto circuit = PorepCircuit::blank(one);
  if (!circuit) return circuit.error();
  CountingSystem cs;
  auto top = circuit->synthesize_top(cs);
  if (!top) return top.error();
  const r1cs::ShapeCounts before{cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
  CUZK_TRY_STATUS(circuit->synthesize_challenge(cs, *top, 0));
  const r1cs::ShapeCounts shape{cs.num_constraints() - before.constraints, cs.num_inputs() - before.inputs,
                                cs.num_aux() - before.aux};
  std::lock_guard lock(m);
  known.emplace_back(params, shape);
  return shape;
}

Result<r1cs::ShapeCounts> count_porep(const PorepCircuit& circuit, unsigned threads) {
  CountingSystem base;
  auto top = circuit.synthesize_top(base);
  if (!top) return top.error();
  const size_t n = circuit.challenge_count();
  const unsigned workers = worker_count(threads, n);
  std::vector<CountingSystem> systems(workers, base);  // each continues the top part
  std::vector<Status> status(workers);
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < workers; ++t)
    pool.emplace_back([&, t] {
      for (size_t i = next++; i < n && status[t].ok(); i = next++)
        status[t] = circuit.synthesize_challenge(systems[t], *top, i);
    });
  for (std::thread& th : pool) th.join();
  r1cs::ShapeCounts total{base.num_constraints(), base.num_inputs(), base.num_aux()};
  for (unsigned t = 0; t < workers; ++t) {
    if (!status[t].ok()) return status[t].error();
    total.constraints += systems[t].num_constraints() - base.num_constraints();
    total.inputs += systems[t].num_inputs() - base.num_inputs();
    total.aux += systems[t].num_aux() - base.num_aux();
  }
  return total;
}

template <class System>
Status synthesize_porep_pieces(const PorepCircuit& circuit, const System& top_system,
                               const PorepTopVariables& top, unsigned threads,
                               const std::type_identity_t<PorepPieceSink<System>>& take) {
  auto shape = porep_challenge_shape(circuit.params());
  if (!shape) return shape.error();
  const size_t n = circuit.challenge_count();
  const unsigned workers = worker_count(threads, n);
  const size_t window = 2 * size_t(workers);  // pieces alive at once

  struct Slot {
    std::optional<System> piece;
    Status status;
    bool done = false;
  };
  std::vector<Slot> slots(n);
  std::mutex m;
  std::condition_variable cv;
  size_t next = 0, taken = 0;
  bool stop = false;

  auto work = [&] {
    for (;;) {
      size_t i;
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stop || next >= n || next < taken + window; });
        if (stop || next >= n) return;
        i = next++;
      }
      System piece = top_system.fork();
      piece.reserve(shape->constraints, top_system.num_aux() + shape->aux,
                    top_system.num_inputs() + shape->inputs);
      Status s = circuit.synthesize_challenge(piece, top, i);
      std::lock_guard lock(m);
      slots[i].status = std::move(s);
      if (slots[i].status.ok()) slots[i].piece.emplace(std::move(piece));
      slots[i].done = true;
      cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < workers; ++t) pool.emplace_back(work);

  Status result;
  for (size_t i = 0; i < n && result.ok(); ++i) {
    std::optional<System> piece;
    {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return slots[i].done; });
      if (!slots[i].status.ok()) {
        result = make_error("PoRep: challenge " + std::to_string(i) + ": " + slots[i].status.message());
        break;
      }
      piece = std::move(slots[i].piece);
      slots[i].piece.reset();
    }
    result = take(i, std::move(*piece));
    std::lock_guard lock(m);
    taken = i + 1;
    cv.notify_all();
  }
  {
    std::lock_guard lock(m);
    stop = true;
    cv.notify_all();
  }
  for (std::thread& th : pool) th.join();
  return result;
}

template Status synthesize_porep_pieces<ProvingAssignment>(const PorepCircuit&, const ProvingAssignment&,
                                                           const PorepTopVariables&, unsigned,
                                                           const PorepPieceSink<ProvingAssignment>&);
template Status synthesize_porep_pieces<CompilingSystem>(const PorepCircuit&, const CompilingSystem&,
                                                         const PorepTopVariables&, unsigned,
                                                         const PorepPieceSink<CompilingSystem>&);

namespace {

// The top part in `base`, then the challenges in forks of it, joined in order.
template <class System>
Status synthesize_joined(const PorepCircuit& circuit, System& base, unsigned threads) {
  auto shape = porep_challenge_shape(circuit.params());
  if (!shape) return shape.error();
  auto top = circuit.synthesize_top(base);
  if (!top) return top.error();
  const System top_system = base.fork();
  // Sized for the whole partition and (for the prover's system) mapped by a helper thread while
  // the challenges are synthesized, so that the joins copy at memory speed: touching 17 GB of
  // fresh memory one page fault at a time costs more than synthesizing it.
  const size_t n = circuit.challenge_count();
  base.reserve(base.num_constraints() + n * shape->constraints, base.num_aux() + n * shape->aux,
               base.num_inputs() + n * shape->inputs);
  std::thread prefault;
  if constexpr (requires { base.prefault(); }) prefault = std::thread([&base] { base.prefault(); });
  Status s =
      synthesize_porep_pieces<System>(circuit, top_system, *top, threads, [&](size_t i, System&& piece) {
        if (prefault.joinable()) prefault.join();
        if constexpr (requires { base.reserve_terms(piece); }) {
          if (i == 0) base.reserve_terms(piece, n);  // every challenge has the first one's terms
        }
        return base.extend(std::move(piece));
      });
  if (prefault.joinable()) prefault.join();
  return s;
}

}  // namespace

Result<r1cs::Assignment> synthesize_porep_for_proving(const PorepCircuit& circuit, unsigned threads) {
  ProvingAssignment base;
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

Result<r1cs::Assignment> synthesize_porep_witness(const PorepCircuit& circuit, unsigned threads) {
  ProvingAssignment base = ProvingAssignment::witness_only();
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

Result<r1cs::CompiledCircuit> compile_porep(const PorepCircuit& circuit, unsigned threads,
                                            r1cs::CompileOptions options) {
  CompilingSystem base(options);
  CUZK_TRY_STATUS(synthesize_joined(circuit, base, threads));
  return base.finish();
}

}  // namespace cuzk::filecoin
