#include "filecoin/circuits/porep_synthesis.hpp"

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk::filecoin {

using r1cs::CountingSystem;
using r1cs::ProvingAssignment;

namespace {

// The top part's counts (571 rows: counted in microseconds).
Result<r1cs::ShapeCounts> count_top(const PorepCircuit& circuit) {
  CountingSystem cs;
  auto top = circuit.synthesize_top(cs);
  if (!top) return top.error();
  return r1cs::ShapeCounts{cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
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
  const unsigned workers = plan_pieces(n, threads).workers;
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

Status synthesize_porep_pieces(const PorepCircuit& circuit, const ProvingAssignment& top_system,
                               const PorepTopVariables& top, unsigned threads, const PorepPieceSink& take) {
  auto shape = porep_challenge_shape(circuit.params());
  if (!shape) return shape.error();
  return synthesize_pieces(
      top_system, circuit.challenge_count(), *shape, threads,
      [&](r1cs::ConstraintSystem& cs, size_t i) { return circuit.synthesize_challenge(cs, top, i); }, take,
      "PoRep: challenge");
}

namespace {

template <class System, class Finish>
auto synthesize_porep(const PorepCircuit& circuit, System base, unsigned threads, const Finish& finish)
    -> decltype(finish(std::move(base), 0, r1cs::ShapeCounts{}, threads, SynthesizePiece{}, "")) {
  auto shape = porep_challenge_shape(circuit.params());
  if (!shape) return shape.error();
  auto top = count_top(circuit);
  if (!top) return top.error();
  return synthesize_whole(circuit, *top, *shape, circuit.challenge_count(), std::move(base), threads, finish,
                          "PoRep: challenge");
}

}  // namespace

Result<r1cs::Assignment> synthesize_porep_for_proving(const PorepCircuit& circuit, unsigned threads) {
  return synthesize_porep(circuit, ProvingAssignment(), threads, synthesize_joined);
}

Result<r1cs::Assignment> synthesize_porep_witness(const PorepCircuit& circuit, unsigned threads,
                                                  std::vector<Fr> storage) {
  return synthesize_porep(circuit, ProvingAssignment::witness_only(std::move(storage)), threads,
                          synthesize_joined);
}

Result<r1cs::CompiledCircuit> compile_porep(const PorepCircuit& circuit, unsigned threads,
                                            r1cs::CompileOptions options) {
  return synthesize_porep(circuit, r1cs::CompilingSystem(options), threads, compile_joined);
}

Result<SynthesisFootprint> porep_synthesis_footprint(const PorepParams& params, unsigned threads) {
  auto shape = porep_challenge_shape(params);
  if (!shape) return shape.error();
  auto circuit = PorepCircuit::blank(params);
  if (!circuit) return circuit.error();
  auto top = count_top(*circuit);
  if (!top) return top.error();
  return joined_footprint(*top, params.challenge_count, *shape, threads);
}

}  // namespace cuzk::filecoin
