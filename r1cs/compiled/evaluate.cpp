#include "r1cs/compiled/evaluate.hpp"

#include <string>
#include <thread>
#include <utility>

#include "backend/cpu/sparse_rows.hpp"
#include "common/thread_pool.hpp"

namespace cuzk::r1cs {

namespace {

std::string count_mismatch(const char* what, size_t have, size_t want) {
  return std::string(what) + " " + std::to_string(have) + ", the compiled circuit " + std::to_string(want);
}

// Resizes the vectors side by side: value-initializing gigabytes is memory-bound work.
void resize_all(std::initializer_list<std::pair<std::vector<Fr>*, size_t>> vectors) {
  std::vector<std::thread> pool;
  for (const auto& [v, n] : vectors) {
    if (v->size() == n) continue;
    pool.emplace_back([v, n] { v->resize(n); });
  }
  for (std::thread& t : pool) t.join();
}

}  // namespace

CompiledRows compiled_rows(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                           std::span<const Fr> aux) {
  CompiledRows rows;
  rows.id = circuit.id();
  CircuitMatrices& m = rows.matrices;
  m.num_inputs = circuit.num_inputs();
  m.num_aux = circuit.num_aux();
  m.num_constraints = circuit.num_constraints();
  m.coeffs = circuit.coeffs();
  for (unsigned s = 0; s < 3; ++s) {
    const CompiledSide& side = circuit.side(Side(s));
    m.sides[s] = {side.row_start, side.wire, side.coeff};
  }
  rows.inputs = inputs;
  rows.aux = aux;
  return rows;
}

Status attach_compiled(Assignment& as, std::shared_ptr<const CompiledCircuit> circuit) {
  if (circuit == nullptr) return make_error("attach_compiled: no compiled circuit");
  if (!as.witness_only())
    return make_error("attach_compiled: the assignment is not witness-only (it has its a, b, c)");
  if (as.compiled != nullptr) return make_error("attach_compiled: a compiled circuit is already attached");
  const CompiledCircuit& cc = *circuit;
  if (as.input_assignment.size() != cc.num_inputs())
    return make_input_error("witness does not fit the compiled circuit: inputs " +
                            count_mismatch("", as.input_assignment.size(), cc.num_inputs()));
  if (as.aux_assignment.size() != cc.num_aux())
    return make_input_error("witness does not fit the compiled circuit: aux " +
                            count_mismatch("", as.aux_assignment.size(), cc.num_aux()));
  if (as.witness_rows != cc.num_rows())
    return make_input_error("witness does not fit the compiled circuit: rows " +
                            count_mismatch("", as.witness_rows, cc.num_rows()));
  as.a_aux_density = cc.a_aux_density();
  as.b_input_density = cc.b_input_density();
  as.b_aux_density = cc.b_aux_density();
  as.c_from_ab = !cc.has_c();
  as.compiled = std::move(circuit);
  return Status::Ok();
}

Result<Assignment> witness_assignment(std::shared_ptr<const CompiledCircuit> circuit,
                                      std::span<const Fr> witness) {
  if (circuit == nullptr) return make_error("witness_assignment: no compiled circuit");
  if (witness.size() != circuit->num_wires())
    return make_input_error("witness has " + std::to_string(witness.size()) +
                            " values, the compiled circuit has " + std::to_string(circuit->num_wires()) +
                            " wires");
  Assignment as;
  const auto ni = ptrdiff_t(circuit->num_inputs());
  as.input_assignment.assign(witness.begin(), witness.begin() + ni);
  as.aux_assignment.assign(witness.begin() + ni, witness.end());
  as.witness_rows = circuit->num_rows();
  CUZK_TRY_STATUS(attach_compiled(as, std::move(circuit)));
  return as;
}

Status evaluate_compiled_into(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                              std::span<const Fr> aux, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                              unsigned threads) {
  const size_t rows = circuit.num_rows();
  if (inputs.size() != circuit.num_inputs())
    return make_input_error("evaluate_compiled: inputs " +
                            count_mismatch("", inputs.size(), circuit.num_inputs()));
  if (aux.size() != circuit.num_aux())
    return make_input_error("evaluate_compiled: aux " + count_mismatch("", aux.size(), circuit.num_aux()));
  if (!inputs[0].is_one()) return make_input_error("evaluate_compiled: input 0 (ONE) is not 1");
  if (a.size() != rows || b.size() != rows || c.size() != (circuit.has_c() ? rows : 0))
    return make_error("evaluate_compiled: output spans of " + std::to_string(a.size()) + ", " +
                      std::to_string(b.size()) + ", " + std::to_string(c.size()) + " for " +
                      std::to_string(rows) + " rows" + (circuit.has_c() ? "" : " (c empty: no C)"));
  ThreadPool pool(threads);
  return cpu::evaluate_rows(compiled_rows(circuit, inputs, aux), a, b, c, pool);
}

Result<CompiledEvaluation> evaluate_compiled(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                                             std::span<const Fr> aux, unsigned threads) {
  CompiledEvaluation out;
  out.c_from_ab = !circuit.has_c();
  const size_t rows = circuit.num_rows();
  // Sizes first, so that a bad witness is refused before gigabytes are allocated.
  if (inputs.size() == circuit.num_inputs() && aux.size() == circuit.num_aux())
    resize_all({{&out.a, rows}, {&out.b, rows}, {&out.c, out.c_from_ab ? 0 : rows}});
  CUZK_TRY_STATUS(evaluate_compiled_into(circuit, inputs, aux, out.a, out.b, out.c, threads));
  return out;
}

Status materialize(Assignment& as, unsigned threads) {
  if (as.compiled == nullptr)
    return make_error(as.witness_only() ? "materialize: no compiled circuit is attached (attach_compiled)"
                                        : "materialize: the assignment is not witness-only");
  const CompiledCircuit& cc = *as.compiled;
  if (as.witness_rows != cc.num_rows() || as.input_assignment.size() != cc.num_inputs() ||
      as.aux_assignment.size() != cc.num_aux())
    return make_error("materialize: the assignment no longer fits its compiled circuit");
  const size_t rows = cc.num_rows();
  if (!cc.has_c()) as.c.clear();
  resize_all({{&as.a, rows}, {&as.b, rows}, {&as.c, cc.has_c() ? rows : 0}});
  CUZK_TRY_STATUS(
      evaluate_compiled_into(cc, as.input_assignment, as.aux_assignment, as.a, as.b, as.c, threads));
  as.c_from_ab = !cc.has_c();
  as.witness_rows = 0;
  as.compiled.reset();
  return Status::Ok();
}

}  // namespace cuzk::r1cs
