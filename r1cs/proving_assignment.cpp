#include "r1cs/proving_assignment.hpp"

#include <bit>

namespace cuzk::r1cs {

namespace {

// <lc, w>, setting the density bit of every variable whose merged coefficient is non-zero
// (bellperson's lc::eval_with_trackers). Null trackers are not tracked.
Fr eval_tracked(const LinearCombination& lc, DensityBitmap* input_density, DensityBitmap* aux_density,
                const std::vector<Fr>& inputs, const std::vector<Fr>& aux) {
  Fr acc = Fr::zero();
  for (const Term& t : lc.terms()) {
    if (t.coeff.is_zero()) continue;
    const uint32_t i = t.var.index;
    const Fr& v = t.var.is_input() ? inputs[i] : aux[i];
    // Most variables of real circuits are bits: skip the product for 0 and 1.
    if (t.coeff.is_one()) {
      acc += v;
    } else if (v.is_one()) {
      acc += t.coeff;
    } else if (!v.is_zero()) {
      acc += v * t.coeff;
    }
    DensityBitmap* d = t.var.is_input() ? input_density : aux_density;
    if (d != nullptr) d->set(i);
  }
  return acc;
}

}  // namespace

ProvingAssignment::ProvingAssignment() { alloc_input(Fr::one()); }

void ProvingAssignment::reserve(size_t constraints, size_t aux, size_t inputs) {
  // Room for the prover's zero padding to the domain size, so that it does not reallocate.
  const size_t domain = std::bit_ceil(constraints + inputs);
  out_.a.reserve(domain);
  out_.b.reserve(domain);
  out_.c.reserve(domain);
  out_.aux_assignment.reserve(aux);
  out_.input_assignment.reserve(inputs);
  out_.a_aux_density.words.reserve((aux + 63) / 64);
  out_.b_aux_density.words.reserve((aux + 63) / 64);
}

Variable ProvingAssignment::alloc(const Fr& value) {
  if (finished_ && misuse_.empty()) misuse_ = "alloc after finish()";
  const auto index = uint32_t(out_.aux_assignment.size());
  out_.aux_assignment.push_back(value);
  out_.a_aux_density.push(false);
  out_.b_aux_density.push(false);
  return Variable::aux(index);
}

Variable ProvingAssignment::alloc_input(const Fr& value) {
  if (finished_ && misuse_.empty()) misuse_ = "alloc_input after finish()";
  const auto index = uint32_t(out_.input_assignment.size());
  out_.input_assignment.push_back(value);
  out_.b_input_density.push(false);
  return Variable::input(index);
}

void ProvingAssignment::enforce(const LinearCombination& a, const LinearCombination& b,
                                const LinearCombination& c) {
  if (finished_ && misuse_.empty()) misuse_ = "enforce after finish()";
  const auto& in = out_.input_assignment;
  const auto& aux = out_.aux_assignment;
  out_.a.push_back(eval_tracked(a, nullptr, &out_.a_aux_density, in, aux));
  out_.b.push_back(eval_tracked(b, &out_.b_input_density, &out_.b_aux_density, in, aux));
  out_.c.push_back(eval_tracked(c, nullptr, nullptr, in, aux));
}

Result<Assignment> ProvingAssignment::finish() {
  if (finished_) return make_error("ProvingAssignment::finish called twice");
  if (!misuse_.empty()) return make_error("ProvingAssignment misused: " + misuse_);
  // x_i · 0 = 0: a_j = x_i, b_j = c_j = 0. No density bit changes (A-input density is full).
  for (const Fr& x : out_.input_assignment) {
    out_.a.push_back(x);
    out_.b.push_back(Fr::zero());
    out_.c.push_back(Fr::zero());
  }
  finished_ = true;
  return std::move(out_);
}

}  // namespace cuzk::r1cs
