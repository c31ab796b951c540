#include "r1cs/matrices.hpp"

#include <algorithm>
#include <string>
#include <thread>

namespace cuzk::r1cs {

Status ConstraintMatrices::validate() const {
  if (num_inputs == 0) return make_error("constraint matrices: num_inputs must count ONE (>= 1)");
  if (a.size() != b.size() || a.size() != c.size())
    return make_error("constraint matrices: A, B, C have " + std::to_string(a.size()) + ", " +
                      std::to_string(b.size()) + ", " + std::to_string(c.size()) + " rows");
  const size_t wires = num_wires();
  for (const auto* mat : {&a, &b, &c}) {
    for (size_t k = 0; k < mat->size(); ++k) {
      for (const auto& [w, coeff] : (*mat)[k]) {
        if (w >= wires)
          return make_error("constraint matrices: constraint " + std::to_string(k) + " uses wire " +
                            std::to_string(w) + " of " + std::to_string(wires));
      }
    }
  }
  return Status::Ok();
}

namespace {

Status check_witness(const ConstraintMatrices& m, std::span<const Fr> witness) {
  CUZK_TRY_STATUS(m.validate());
  if (witness.size() != m.num_wires())
    return make_error("witness has " + std::to_string(witness.size()) + " values, the circuit has " +
                      std::to_string(m.num_wires()) + " wires");
  if (!witness[0].is_one()) return make_error("witness[0] (the wire ONE) is not 1");
  return Status::Ok();
}

struct Densities {
  DensityBitmap a_aux, b_input, b_aux;
};

// Rows [begin, end) of a, b, c into out[begin..end), densities into d (bits only; popcounts are
// recounted by the caller).
void evaluate_rows(const ConstraintMatrices& m, std::span<const Fr> w, size_t begin, size_t end,
                   Assignment& out, Densities& d) {
  const uint32_t ni = m.num_inputs;
  auto dot = [&](const SparseRow& row, auto&& track) {
    Fr acc = Fr::zero();
    for (const auto& [wire, coeff] : row) {
      if (coeff.is_zero()) continue;
      Fr v = w[wire];
      if (!coeff.is_one()) v *= coeff;
      acc += v;
      track(wire);
    }
    return acc;
  };
  auto set_bit = [](DensityBitmap& bm, size_t i) { bm.words[i / 64] |= uint64_t(1) << (i % 64); };
  for (size_t k = begin; k < end; ++k) {
    out.a[k] = dot(m.a[k], [&](uint32_t wire) {
      if (wire >= ni) set_bit(d.a_aux, wire - ni);
    });
    out.b[k] = dot(m.b[k], [&](uint32_t wire) {
      if (wire >= ni) {
        set_bit(d.b_aux, wire - ni);
      } else {
        set_bit(d.b_input, wire);
      }
    });
    out.c[k] = dot(m.c[k], [](uint32_t) {});
  }
}

void or_into(DensityBitmap& dst, const DensityBitmap& src) {
  for (size_t i = 0; i < dst.words.size(); ++i) dst.words[i] |= src.words[i];
}

}  // namespace

Result<Assignment> evaluate(const ConstraintMatrices& m, std::span<const Fr> witness, unsigned threads) {
  CUZK_TRY_STATUS(check_witness(m, witness));
  const size_t n = m.num_constraints();
  const size_t ni = m.num_inputs;
  Assignment out;
  out.input_assignment.assign(witness.begin(), witness.begin() + ptrdiff_t(ni));
  out.aux_assignment.assign(witness.begin() + ptrdiff_t(ni), witness.end());
  out.a.resize(n + ni);
  out.b.resize(n + ni);
  out.c.resize(n + ni);
  auto fresh = [&] {
    Densities d;
    d.a_aux.resize(m.num_aux);
    d.b_input.resize(ni);
    d.b_aux.resize(m.num_aux);
    return d;
  };

  threads = std::max(1u, std::min<unsigned>(threads, unsigned(std::max<size_t>(1, n / 4096))));
  std::vector<Densities> local(threads);
  for (auto& d : local) d = fresh();
  if (threads == 1) {
    evaluate_rows(m, witness, 0, n, out, local[0]);
  } else {
    // Densities are indexed by wire, not row, so each thread sets bits in its own bitmaps.
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      const size_t begin = n * t / threads, end = n * (t + 1) / threads;
      pool.emplace_back([&, t, begin, end] { evaluate_rows(m, witness, begin, end, out, local[t]); });
    }
    for (auto& th : pool) th.join();
    for (unsigned t = 1; t < threads; ++t) {
      or_into(local[0].a_aux, local[t].a_aux);
      or_into(local[0].b_input, local[t].b_input);
      or_into(local[0].b_aux, local[t].b_aux);
    }
  }
  out.a_aux_density = std::move(local[0].a_aux);
  out.b_input_density = std::move(local[0].b_input);
  out.b_aux_density = std::move(local[0].b_aux);
  out.a_aux_density.recount();
  out.b_input_density.recount();
  out.b_aux_density.recount();
  for (size_t i = 0; i < ni; ++i) {
    out.a[n + i] = witness[i];
    out.b[n + i] = Fr::zero();
    out.c[n + i] = Fr::zero();
  }
  return out;
}

ConstraintMatrices with_input_constraints(ConstraintMatrices m) {
  for (uint32_t i = 0; i < m.num_inputs; ++i) {
    m.a.push_back({{i, Fr::one()}});
    m.b.emplace_back();
    m.c.emplace_back();
  }
  return m;
}

Result<std::optional<size_t>> first_unsatisfied(const ConstraintMatrices& m, std::span<const Fr> witness) {
  CUZK_TRY_STATUS(check_witness(m, witness));
  auto dot = [&](const SparseRow& row) {
    Fr acc = Fr::zero();
    for (const auto& [wire, coeff] : row) acc += witness[wire] * coeff;
    return acc;
  };
  for (size_t k = 0; k < m.num_constraints(); ++k) {
    if (dot(m.a[k]) * dot(m.b[k]) != dot(m.c[k])) return std::optional<size_t>(k);
  }
  return std::optional<size_t>();
}

// ------------------------------------------------------------------------------------ recording

RecordingSystem::RecordingSystem(bool with_values) : with_values_(with_values) { alloc_input(Fr::one()); }

Variable RecordingSystem::alloc(const Fr& value) {
  aux_.push_back(with_values_ ? value : Fr::zero());
  return Variable::aux(uint32_t(aux_.size() - 1));
}

Variable RecordingSystem::alloc_input(const Fr& value) {
  // ONE is 1 even in a shape-only system, so that its constraints evaluate as the circuit means.
  inputs_.push_back(with_values_ || inputs_.empty() ? value : Fr::zero());
  return Variable::input(uint32_t(inputs_.size() - 1));
}

void RecordingSystem::enforce(const LinearCombination& a, const LinearCombination& b,
                              const LinearCombination& c) {
  for (const LinearCombination* lc : {&a, &b, &c}) {
    for (const Term& t : lc->terms()) terms_.push_back(t);
    starts_.push_back(terms_.size());
  }
}

ConstraintMatrices RecordingSystem::matrices() const {
  ConstraintMatrices m;
  m.num_inputs = uint32_t(inputs_.size());
  m.num_aux = uint32_t(aux_.size());
  const size_t n = num_constraints();
  std::vector<SparseRow>* sides[3] = {&m.a, &m.b, &m.c};
  for (auto* s : sides) s->resize(n);
  for (size_t k = 0; k < n; ++k) {
    for (size_t s = 0; s < 3; ++s) {
      SparseRow& row = (*sides[s])[k];
      for (const Term& t : side(k, s)) {
        // A cancelled term carries no information (and sets no density bit): drop it.
        if (t.coeff.is_zero()) continue;
        row.emplace_back(t.var.is_input() ? t.var.index : m.num_inputs + t.var.index, t.coeff);
      }
    }
  }
  return m;
}

std::vector<Fr> RecordingSystem::witness() const {
  std::vector<Fr> w(inputs_);
  w.insert(w.end(), aux_.begin(), aux_.end());
  return w;
}

std::optional<size_t> RecordingSystem::first_unsatisfied() const {
  auto dot = [&](std::span<const Term> terms) {
    Fr acc = Fr::zero();
    for (const Term& t : terms)
      acc += (t.var.is_input() ? inputs_[t.var.index] : aux_[t.var.index]) * t.coeff;
    return acc;
  };
  for (size_t k = 0; k < num_constraints(); ++k) {
    if (dot(side(k, 0)) * dot(side(k, 1)) != dot(side(k, 2))) return k;
  }
  return std::nullopt;
}

}  // namespace cuzk::r1cs
