// A constraint system that only counts: constraints, inputs (ONE included) and auxiliaries, with
// nothing stored. It sizes a circuit (130 M-row PoRep and WindowPoSt partitions count in seconds)
// and answers what a parameter file's shape must be without recording its rows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "common/result.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class CountingSystem final : public ConstraintSystem {
 public:
  // ONE is input 0, as in every system the prover and the setup use.
  CountingSystem() = default;

  bool has_values() const override { return false; }
  Variable alloc(const Fr&) override { return Variable::aux(uint32_t(aux_++)); }
  Variable alloc_input(const Fr&) override { return Variable::input(uint32_t(inputs_++)); }
  void enforce(const LinearCombination&, const LinearCombination&, const LinearCombination&) override {
    ++constraints_;
  }
  bool keeps_rows() const override { return false; }
  void count_constraints(size_t n) override { constraints_ += n; }

  size_t num_inputs() const override { return inputs_; }
  size_t num_aux() const override { return aux_; }
  size_t num_constraints() const override { return constraints_; }
  // The rows the prover evaluates: the circuit's constraints and one x_i · 0 = 0 per input.
  size_t num_rows() const { return constraints_ + inputs_; }

 private:
  size_t inputs_ = 1;
  size_t aux_ = 0;
  size_t constraints_ = 0;
};

struct ShapeCounts {
  size_t constraints = 0;
  size_t inputs = 1;  // ONE included
  size_t aux = 0;
  size_t rows() const { return constraints + inputs; }
};

// Lays out pieces [begin, end) of a circuit, in order, into the system.
using SynthesizePieces = std::function<Status(ConstraintSystem& cs, size_t begin, size_t end)>;

// The counts of a circuit made of `pieces` independent pieces (each allocates its own variables
// and uses only those and ONE, like FallbackPoSt's sectors): contiguous runs of pieces are counted
// on up to `threads` threads, each in its own CountingSystem, and the counts added with ONE taken
// once. Equal to counting the pieces in order in one system, in a fraction of the time.
inline Result<ShapeCounts> count_pieces(size_t pieces, const SynthesizePieces& synthesize, unsigned threads) {
  const size_t parts = std::max<size_t>(1, std::min<size_t>(threads, pieces));
  std::vector<CountingSystem> systems(parts);
  std::vector<Status> status(parts);
  std::vector<std::thread> workers;
  for (size_t t = 0; t < parts; ++t) {
    const size_t begin = pieces * t / parts, end = pieces * (t + 1) / parts;
    workers.emplace_back([&, t, begin, end] { status[t] = synthesize(systems[t], begin, end); });
  }
  for (std::thread& w : workers) w.join();
  ShapeCounts total;
  for (size_t t = 0; t < parts; ++t) {
    if (!status[t].ok()) return status[t].error();
    total.constraints += systems[t].num_constraints();
    total.inputs += systems[t].num_inputs() - 1;
    total.aux += systems[t].num_aux();
  }
  return total;
}

}  // namespace cuzk::r1cs
