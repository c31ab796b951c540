#include "io/r1cs_convert.hpp"

namespace cuzk {

namespace {

void copy_rows(const SparseRows& from, std::vector<r1cs::SparseRow>& to) {
  to.resize(from.rows());
  for (size_t k = 0; k < from.rows(); ++k) {
    auto wires = from.row_wires(k);
    auto coeffs = from.row_coeffs(k);
    to[k].reserve(wires.size());
    for (size_t t = 0; t < wires.size(); ++t) to[k].emplace_back(wires[t], coeffs[t]);
  }
}

}  // namespace

r1cs::ConstraintMatrices to_constraint_matrices(const SnarkjsR1cs& cs) {
  r1cs::ConstraintMatrices m;
  // parse_r1cs guarantees 1 + n_public <= n_wires.
  m.num_inputs = 1 + cs.n_public();
  m.num_aux = cs.n_wires - m.num_inputs;
  copy_rows(cs.a, m.a);
  copy_rows(cs.b, m.b);
  copy_rows(cs.c, m.c);
  return m;
}

}  // namespace cuzk
