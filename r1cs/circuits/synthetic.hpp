// A satisfiable circuit of any size and shape, for benchmarks: it reaches Filecoin's PoRep shape
// (130 M constraints, domain 2^27) in seconds, where real circuits of that size take minutes to
// synthesize.
//
// Constraint j allocates one auxiliary z_j (so aux = constraints) and reads
//     A_j = (z_j if j ∈ A-set, else ONE) [+ x_{j+1} for the first num_public_inputs constraints]
//     B_j = (z_j if j ∈ B-set, else ONE)
//     C_j = [z_j if j is in neither set] + k_j·ONE,  k_j chosen so that A_j·B_j = C_j.
// Membership of z_j in the A- and B-sets is drawn with probability a_density and b_density, and
// z_j's value is 0, 1 or uniform with the given fractions, all from a hash of (seed, j): the
// circuit (constants k_j included) and its witness are one function of the parameters, so a setup
// and a proof made from the same parameters agree, and any range of constraints can be generated
// independently — which is what lets synthesize_assignment run on many threads.
#pragma once

#include <cstdint>

#include "r1cs/circuits/circuit.hpp"

namespace cuzk::r1cs {

struct SyntheticParams {
  uint64_t num_constraints = 1024;  // without the input constraints synthesis appends
  uint32_t num_public_inputs = 19;  // without ONE
  double a_density = 1.0;           // fraction of aux variables in A
  double b_density = 0.6;           // fraction of aux variables in B
  double zero_fraction = 0.4;       // of aux values
  double one_fraction = 0.4;        // of aux values; the rest are uniform
  uint64_t seed = 0;

  // The benchmark shape: constraints = 0.97 · 2^log_domain, 20 inputs counting ONE (bellperson's
  // num_inputs), A density 100 %, B density 60 %, aux values 40 % zero, 40 % one, 20 % random.
  static SyntheticParams benchmark_shape(unsigned log_domain, uint64_t seed);
  Status validate() const;
};

class SyntheticCircuit final : public Circuit {
 public:
  static Result<SyntheticCircuit> create(const SyntheticParams& params);

  Status synthesize(ConstraintSystem& cs) const override;
  size_t num_public_inputs() const override { return params_.num_public_inputs; }
  const SyntheticParams& params() const { return params_; }
  std::vector<Fr> public_inputs() const;

  // Exactly what synthesize into a ProvingAssignment followed by finish() produces, written straight
  // into the output vectors on `threads` threads (0: hardware concurrency).
  Result<Assignment> synthesize_assignment(unsigned threads) const;
  // The same into `out`: its a, b, c and aux vectors are written in their own storage when that is
  // large enough (an engine lends pooled, pinned buffers this way), whatever they held before: each
  // is resized and every element overwritten, never filled first. The rest of `out` is replaced.
  // With `c_from_ab` c is left out (Assignment::c_from_ab), for a prover that forms it.
  Status synthesize_into(Assignment& out, unsigned threads, bool c_from_ab = false) const;

 private:
  explicit SyntheticCircuit(const SyntheticParams& p);
  struct Row {
    bool in_a, in_b;
    Fr value;
  };
  Row row(uint64_t j) const;
  Fr input_value(uint32_t i) const;  // public input i ≥ 1

  SyntheticParams params_;
  uint64_t a_threshold_, b_threshold_, zero_threshold_, one_threshold_;  // fractions of 2^64
};

}  // namespace cuzk::r1cs
