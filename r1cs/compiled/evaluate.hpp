// A witness and a compiled circuit of its shape: a = A·w, b = B·w, c = C·w on the CPU, rows split
// across threads. The rows, their order and the input rows x_i · 0 = 0 appended after the
// constraints are ProvingAssignment's, and field arithmetic is exact, so the result equals full
// synthesis bit for bit. This is the CPU fallback of the device's product and the reference the
// device is checked against.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backend/compute.hpp"
#include "common/result.hpp"
#include "r1cs/compiled/compiled_circuit.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

// The circuit's arrays with a witness, as the backends take them (HRequest::rows, the CPU's and the
// device's sparse products): views into `circuit`, which must outlive them.
CompiledRows compiled_rows(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                           std::span<const Fr> aux);

struct CompiledEvaluation {
  std::vector<Fr> a, b, c;  // num_rows() each, the constraints' rows then one per input
  bool c_from_ab = false;   // the circuit has no C: c is empty and stands for a∘b
};

// Attaches `circuit` to a witness-only assignment (ProvingAssignment::witness_only): checks that
// its inputs, aux and rows are the circuit's (an error naming the mismatch otherwise, and `as`
// unchanged), then sets as.compiled, the densities and c_from_ab (when the circuit has no C).
Status attach_compiled(Assignment& as, std::shared_ptr<const CompiledCircuit> circuit);

// A witness-only assignment of a full witness in wire order (ONE, the other inputs, then the
// aux; a snarkjs .wtns), attached to `circuit`.
Result<Assignment> witness_assignment(std::shared_ptr<const CompiledCircuit> circuit,
                                      std::span<const Fr> witness);

// a, b and (when the circuit has C) c into the given spans, each num_rows() long (c empty when
// the circuit has no C), on up to `threads` threads (0: the hardware's). Errors: a witness or
// span of the wrong length, or ONE that is not 1.
Status evaluate_compiled_into(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                              std::span<const Fr> aux, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                              unsigned threads);
// The same into fresh vectors.
Result<CompiledEvaluation> evaluate_compiled(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                                             std::span<const Fr> aux, unsigned threads);

// Turns an attached witness-only assignment into the ordinary form the CPU prover takes: a, b and
// c filled (c left out when the circuit has none, c_from_ab), witness_rows cleared and the circuit
// detached. The vectors are written in their own storage when it is large enough.
Status materialize(Assignment& as, unsigned threads);

}  // namespace cuzk::r1cs
