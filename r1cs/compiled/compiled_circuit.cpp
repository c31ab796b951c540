#include "r1cs/compiled/compiled_circuit.hpp"

#include "common/parallel_ranges.hpp"

#include <atomic>
#include <string>
#include <utility>

namespace cuzk::r1cs {

namespace {

const char* side_name(size_t s) { return s == 0 ? "A" : s == 1 ? "B" : "C"; }

// One side's offsets, wires and coefficient indices against the circuit's counts.
Status check_side(const CompiledSide& side, size_t s, uint64_t rows, size_t wires, size_t coeffs) {
  const std::string name = side_name(s);
  if (!side.present()) {
    if (!side.wire.empty() || !side.coeff.empty())
      return make_error("compiled circuit: side " + name + " has terms but no row offsets");
    return Status::Ok();
  }
  if (side.row_start.size() != rows + 1)
    return make_error("compiled circuit: side " + name + " has " + std::to_string(side.row_start.size()) +
                      " row offsets for " + std::to_string(rows) + " constraints (want one more)");
  if (side.wire.size() != side.coeff.size())
    return make_error("compiled circuit: side " + name + " has " + std::to_string(side.wire.size()) +
                      " wires but " + std::to_string(side.coeff.size()) + " coefficient indices");
  if (side.row_start.front() != 0 || side.row_start.back() != side.wire.size())
    return make_error("compiled circuit: side " + name + "'s row offsets do not run from 0 to its " +
                      std::to_string(side.wire.size()) + " terms");
  // A PoRep partition has ~720 M terms: checked on every core (a mapped file is checked on open).
  CUZK_TRY_STATUS(parallel_ranges(rows, size_t(1) << 20, [&](size_t begin, size_t end) -> Status {
    for (size_t r = begin; r < end; ++r)
      if (side.row_start[r + 1] < side.row_start[r])
        return make_error("compiled circuit: side " + name + "'s row offsets decrease at row " +
                          std::to_string(r));
    return Status::Ok();
  }));
  return parallel_ranges(side.wire.size(), size_t(1) << 20, [&](size_t begin, size_t end) -> Status {
    for (size_t k = begin; k < end; ++k) {
      if (side.wire[k] >= wires)
        return make_error("compiled circuit: side " + name + " term " + std::to_string(k) + " reads wire " +
                          std::to_string(side.wire[k]) + " of " + std::to_string(wires));
      if (side.coeff[k] >= coeffs)
        return make_error("compiled circuit: side " + name + " term " + std::to_string(k) +
                          " has coefficient " + std::to_string(side.coeff[k]) + " of " +
                          std::to_string(coeffs));
    }
    return Status::Ok();
  });
}

Status check_density(const DensityBitmap& d, size_t bits, const char* name) {
  if (d.bit_len != bits || d.words.size() != (bits + 63) / 64)
    return make_error(std::string("compiled circuit: the ") + name + " density has " +
                      std::to_string(d.bit_len) + " bits for " + std::to_string(bits) + " variables");
  DensityBitmap counted = d;
  counted.recount();
  if (counted.popcount != d.popcount)
    return make_error(std::string("compiled circuit: the ") + name + " density's count is wrong");
  return Status::Ok();
}

Status check_views(const CompiledCircuit::Views& v) {
  if (v.num_inputs == 0) return make_error("compiled circuit: no inputs (ONE is input 0)");
  if (v.coeffs.size() < 2 || v.coeffs[kCoeffOne] != Fr::one() || v.coeffs[kCoeffMinusOne] != -Fr::one())
    return make_error("compiled circuit: the coefficient table must start with 1 and −1");
  if (v.num_constraints > UINT32_MAX) return make_error("compiled circuit: more than 2^32 − 1 constraints");
  const size_t wires = size_t(v.num_inputs) + v.num_aux;
  for (size_t s = 0; s < 3; ++s)
    CUZK_TRY_STATUS(check_side(v.sides[s], s, v.num_constraints, wires, v.coeffs.size()));
  if (!v.sides[0].present() || !v.sides[1].present())
    return make_error("compiled circuit: sides A and B must be present");
  CUZK_TRY_STATUS(check_density(v.a_aux_density, v.num_aux, "A aux"));
  CUZK_TRY_STATUS(check_density(v.b_input_density, v.num_inputs, "B input"));
  CUZK_TRY_STATUS(check_density(v.b_aux_density, v.num_aux, "B aux"));
  return Status::Ok();
}

}  // namespace

Result<CompiledCircuit> CompiledCircuit::from_views(Views views, std::shared_ptr<const void> keep_alive) {
  CUZK_TRY_STATUS(check_views(views));
  CompiledCircuit out;
  out.v_ = std::move(views);
  out.storage_ = std::move(keep_alive);
  static std::atomic<uint64_t> next_id{1};
  out.id_ = next_id.fetch_add(1);
  return out;
}

Result<CompiledCircuit> CompiledCircuit::from_parts(CompiledParts parts) {
  auto owned = std::make_shared<CompiledParts>(std::move(parts));
  Views v;
  v.num_inputs = owned->num_inputs;
  v.num_aux = owned->num_aux;
  v.num_constraints = owned->num_constraints;
  v.coeffs = owned->coeffs;
  for (size_t s = 0; s < 3; ++s) v.sides[s] = {owned->row_start[s], owned->wire[s], owned->coeff[s]};
  // The densities are small (a bit a variable): the views keep copies, the parts need none.
  v.a_aux_density = std::move(owned->a_aux_density);
  v.b_input_density = std::move(owned->b_input_density);
  v.b_aux_density = std::move(owned->b_aux_density);
  return from_views(std::move(v), std::move(owned));
}

size_t CompiledCircuit::bytes() const {
  size_t n = v_.coeffs.size_bytes();
  for (const CompiledSide& s : v_.sides)
    n += s.row_start.size_bytes() + s.wire.size_bytes() + s.coeff.size_bytes();
  for (const DensityBitmap* d : {&v_.a_aux_density, &v_.b_input_density, &v_.b_aux_density})
    n += d->words.size() * sizeof(uint64_t);
  return n;
}

}  // namespace cuzk::r1cs
