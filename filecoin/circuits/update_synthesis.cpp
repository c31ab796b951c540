#include "filecoin/circuits/update_synthesis.hpp"

#include <mutex>
#include <utility>
#include <vector>

#include "r1cs/proving_assignment.hpp"

namespace cuzk::filecoin {

using r1cs::CountingSystem;
using r1cs::ShapeCounts;

namespace {

struct UpdateCounts {
  ShapeCounts top, challenge;
};

bool same_shape(const vanilla::UpdateShape& x, const vanilla::UpdateShape& y) {
  return x.nodes == y.nodes && x.challenges == y.challenges && x.partitions == y.partitions &&
         x.apex_leaves == y.apex_leaves && x.hs == y.hs && x.tree == y.tree;
}

// The top part's counts and one challenge's, from a blank circuit; kept per shape.
Result<UpdateCounts> update_counts(const vanilla::UpdateShape& shape) {
  static std::mutex m;
  static std::vector<std::pair<vanilla::UpdateShape, UpdateCounts>> known;
  {
    std::lock_guard lock(m);
    for (const auto& [s, counts] : known)
      if (same_shape(s, shape)) return counts;
  }
  auto circuit = UpdateCircuit::blank(shape);
  if (!circuit) return circuit.error();
  CountingSystem cs;
  auto top = circuit->synthesize_top(cs);
  if (!top) return top.error();
  UpdateCounts c;
  c.top = {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
  CUZK_TRY_STATUS(circuit->synthesize_challenge(cs, *top, 0));
  c.challenge = {cs.num_constraints() - c.top.constraints, cs.num_inputs() - c.top.inputs,
                 cs.num_aux() - c.top.aux};
  std::lock_guard lock(m);
  known.emplace_back(shape, c);
  return c;
}

}  // namespace

Result<ShapeCounts> update_challenge_shape(const vanilla::UpdateShape& shape) {
  auto c = update_counts(shape);
  if (!c) return c.error();
  return c->challenge;
}

namespace {

template <class System, class Finish>
auto synthesize_update(const UpdateCircuit& circuit, System base, unsigned threads, const Finish& finish)
    -> decltype(finish(std::move(base), 0, ShapeCounts{}, threads, SynthesizePiece{}, "")) {
  auto counts = update_counts(circuit.shape());
  if (!counts) return counts.error();
  return synthesize_whole(circuit, counts->top, counts->challenge, circuit.challenge_count(), std::move(base),
                          threads, finish, "SnapDeals: challenge");
}

}  // namespace

Result<r1cs::Assignment> synthesize_update_for_proving(const UpdateCircuit& circuit, unsigned threads) {
  return synthesize_update(circuit, r1cs::ProvingAssignment(), threads, synthesize_joined);
}

Result<r1cs::Assignment> synthesize_update_witness(const UpdateCircuit& circuit, unsigned threads,
                                                   std::vector<Fr> storage) {
  return synthesize_update(circuit, r1cs::ProvingAssignment::witness_only(std::move(storage)), threads,
                           synthesize_joined);
}

Result<r1cs::CompiledCircuit> compile_update(const UpdateCircuit& circuit, unsigned threads,
                                             r1cs::CompileOptions options) {
  return synthesize_update(circuit, r1cs::CompilingSystem(options), threads, compile_joined);
}

Result<SynthesisFootprint> update_synthesis_footprint(const vanilla::UpdateShape& shape, unsigned threads) {
  auto c = update_counts(shape);
  if (!c) return c.error();
  return joined_footprint(c->top, shape.challenges, c->challenge, threads);
}

}  // namespace cuzk::filecoin
