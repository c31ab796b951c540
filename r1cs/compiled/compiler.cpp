#include "r1cs/compiled/compiler.hpp"

#include <algorithm>
#include <string>
#include <thread>
#include <utility>

#include "common/parallel_ranges.hpp"

namespace cuzk::r1cs {

namespace {

const char* side_name(size_t s) { return s == 0 ? "A" : s == 1 ? "B" : "C"; }

std::string too_many_terms(size_t s, uint64_t limit) {
  return std::string("compiled circuit: side ") + side_name(s) + " has more than " + std::to_string(limit) +
         " terms (its row offsets are 32-bit)";
}

// Variables the wire encoding (a flag bit and a 31-bit index) can number.
constexpr size_t kMaxVariables = size_t(1) << 31;

// Pieces of at least this many terms are joined with their sides copied side by side.
constexpr size_t kParallelJoinTerms = size_t(1) << 20;

}  // namespace

// ------------------------------------------------------------------------------ coefficients

CoefficientTable::CoefficientTable() : one_(Fr::one()), minus_one_(-Fr::one()) {
  values_ = {one_, minus_one_};
  slots_.assign(64, 0);
}

uint64_t CoefficientTable::hash(const Fr& c) {
  // Montgomery limbs of distinct constants differ everywhere; mixing two of them is plenty.
  return (c.l[0] ^ (c.l[1] * 0xff51afd7ed558ccdULL)) * 0x9e3779b97f4a7c15ULL;
}

uint32_t CoefficientTable::intern_other(const Fr& c) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = size_t(hash(c) >> 32) & mask;; i = (i + 1) & mask) {
    const uint32_t slot = slots_[i];
    if (slot == 0) {
      const auto index = uint32_t(values_.size());
      values_.push_back(c);
      slots_[i] = index + 1;
      if (2 * values_.size() > slots_.size()) grow();
      return index;
    }
    if (values_[slot - 1] == c) return slot - 1;
  }
}

void CoefficientTable::grow() {
  std::vector<uint32_t> slots(2 * slots_.size(), 0);
  const size_t mask = slots.size() - 1;
  for (size_t k = 2; k < values_.size(); ++k) {
    size_t i = size_t(hash(values_[k]) >> 32) & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = uint32_t(k + 1);
  }
  slots_ = std::move(slots);
}

// ------------------------------------------------------------------------------ the system

CompilingSystem::CompilingSystem(CompileOptions options) : options_(options) {
  if (options_.max_side_terms > UINT32_MAX) options_.max_side_terms = UINT32_MAX;
  if (!options_.keep_c) sides_[2].row_start.clear();
  alloc_input(Fr::one());
}

void CompilingSystem::reserve(size_t constraints, size_t aux, size_t inputs) {
  for (SideTerms& s : sides_)
    if (!s.row_start.empty()) s.row_start.reserve(constraints + 1);
  a_aux_density_.words.reserve((aux + 63) / 64);
  b_aux_density_.words.reserve((aux + 63) / 64);
  b_input_density_.words.reserve((inputs + 63) / 64);
}

void CompilingSystem::reserve_terms(const CompilingSystem& piece, size_t copies) {
  for (size_t s = 0; s < 3; ++s) {
    const size_t terms = std::min<size_t>(sides_[s].wire.size() + copies * piece.sides_[s].wire.size(),
                                          options_.max_side_terms);
    sides_[s].wire.reserve(terms);
    sides_[s].coeff.reserve(terms);
  }
}

Variable CompilingSystem::alloc(const Fr&) {
  if (finished_) misuse("alloc after finish()");
  if (aux_ >= kMaxVariables) misuse("compiled circuit: more than 2^31 auxiliary variables");
  a_aux_density_.push(false);
  b_aux_density_.push(false);
  return Variable::aux(uint32_t(aux_++));
}

Variable CompilingSystem::alloc_input(const Fr&) {
  if (finished_) misuse("alloc_input after finish()");
  if (inputs_ >= kMaxVariables) misuse("compiled circuit: more than 2^31 inputs");
  b_input_density_.push(false);
  return Variable::input(uint32_t(inputs_++));
}

void CompilingSystem::record(SideTerms& side, const LinearCombination& lc, DensityBitmap* input_density,
                             DensityBitmap* aux_density) {
  for (const Term& t : lc.terms()) {
    if (t.coeff.is_zero()) continue;
    const uint32_t i = t.var.index;
    if (t.var.is_input()) {
      side.wire.push_back(kInputWire | i);
      if (input_density != nullptr) input_density->set(i);
    } else {
      side.wire.push_back(i);
      if (aux_density != nullptr) aux_density->set(i);
    }
    side.coeff.push_back(coeffs_.intern(t.coeff));
  }
  side.row_start.push_back(uint32_t(side.wire.size()));
}

void CompilingSystem::enforce(const LinearCombination& a, const LinearCombination& b,
                              const LinearCombination& c) {
  ++constraints_;
  if (finished_) misuse("enforce after finish()");
  if (!error_.empty()) return;  // nothing more is recorded once the system is broken
  const LinearCombination* lcs[3] = {&a, &b, &c};
  for (size_t s = 0; s < 3; ++s) {
    if (sides_[s].row_start.empty()) continue;
    if (sides_[s].wire.size() + lcs[s]->size() <= options_.max_side_terms) continue;
    // Near the limit: count exactly (terms with a zero coefficient are not recorded).
    const auto terms = lcs[s]->terms();
    const auto kept =
        size_t(std::count_if(terms.begin(), terms.end(), [](const Term& t) { return !t.coeff.is_zero(); }));
    if (sides_[s].wire.size() + kept > options_.max_side_terms)
      return misuse(too_many_terms(s, options_.max_side_terms));
  }
  record(sides_[0], a, nullptr, &a_aux_density_);
  record(sides_[1], b, &b_input_density_, &b_aux_density_);
  if (!sides_[2].row_start.empty()) record(sides_[2], c, nullptr, nullptr);
}

CompilingSystem CompilingSystem::fork() const {
  CompilingSystem piece(options_);
  piece.inputs_ = inputs_;
  piece.aux_ = aux_;
  piece.prefix_inputs_ = inputs_;
  piece.prefix_aux_ = aux_;
  piece.b_input_density_.resize(inputs_);
  piece.a_aux_density_.resize(aux_);
  piece.b_aux_density_.resize(aux_);
  if (finished_) piece.misuse("fork of a finished system");
  return piece;
}

Status CompilingSystem::extend(CompilingSystem&& piece) {
  if (finished_) return make_error("CompilingSystem::extend on a finished system");
  if (piece.finished_) return make_error("CompilingSystem::extend with a finished piece");
  if (!error_.empty()) return make_error("CompilingSystem::extend: " + error_);
  if (!piece.error_.empty()) return make_error("CompilingSystem::extend: piece: " + piece.error_);
  if (!(piece.options_ == options_))
    return make_error("CompilingSystem::extend: the piece was compiled with other options");
  const size_t pin = piece.prefix_inputs_, paux = piece.prefix_aux_;
  if (pin > inputs_ || paux > aux_)
    return make_error("CompilingSystem::extend: the piece was forked from " + std::to_string(pin) +
                      " inputs and " + std::to_string(paux) + " aux, more than this system's " +
                      std::to_string(inputs_) + " inputs and " + std::to_string(aux_) + " aux");
  const size_t new_inputs = inputs_ + (piece.inputs_ - pin), new_aux = aux_ + (piece.aux_ - paux);
  if (new_inputs > kMaxVariables || new_aux > kMaxVariables)
    return make_error("CompilingSystem::extend: more than 2^31 inputs or auxiliary variables");
  for (size_t s = 0; s < 3; ++s)
    if (sides_[s].wire.size() + piece.sides_[s].wire.size() > options_.max_side_terms)
      return make_error("CompilingSystem::extend: " + too_many_terms(s, options_.max_side_terms));

  std::vector<uint32_t> remap(piece.coeffs_.size());
  for (size_t k = 0; k < remap.size(); ++k) remap[k] = coeffs_.intern(piece.coeffs_.values()[k]);
  // The piece's own variables follow this system's; prefix variables keep their numbers.
  const uint32_t input_shift = uint32_t(inputs_ - pin), aux_shift = uint32_t(aux_ - paux);
  const auto append_side = [&, pin = uint32_t(pin), paux = uint32_t(paux)](SideTerms& dst,
                                                                           const SideTerms& src) {
    if (dst.row_start.empty()) return;
    const auto base = uint32_t(dst.wire.size());
    for (size_t r = 1; r < src.row_start.size(); ++r) dst.row_start.push_back(base + src.row_start[r]);
    const size_t from = dst.wire.size();
    dst.wire.resize(from + src.wire.size());
    dst.coeff.resize(from + src.coeff.size());
    for (size_t k = 0; k < src.wire.size(); ++k) {
      const uint32_t w = src.wire[k];
      if (w & kInputWire) {
        dst.wire[from + k] = (w & ~kInputWire) < pin ? w : w + input_shift;
      } else {
        dst.wire[from + k] = w < paux ? w : w + aux_shift;
      }
      dst.coeff[from + k] = remap[src.coeff[k]];
    }
  };
  std::vector<std::thread> pool;
  for (size_t s = 1; s < 3; ++s) {
    if (piece.sides_[s].wire.size() >= kParallelJoinTerms) {
      pool.emplace_back([&, s] { append_side(sides_[s], piece.sides_[s]); });
    } else {
      append_side(sides_[s], piece.sides_[s]);
    }
  }
  append_side(sides_[0], piece.sides_[0]);
  a_aux_density_.join(piece.a_aux_density_, paux);
  b_input_density_.join(piece.b_input_density_, pin);
  b_aux_density_.join(piece.b_aux_density_, paux);
  for (std::thread& t : pool) t.join();
  inputs_ = new_inputs;
  aux_ = new_aux;
  constraints_ += piece.constraints_;
  piece = CompilingSystem(options_);  // its memory goes now, not when the caller drops it
  return Status::Ok();
}

Result<CompiledParts> CompilingSystem::finish_parts() {
  if (finished_) return make_error("CompilingSystem::finish called twice");
  if (!error_.empty()) return make_error(error_);
  finished_ = true;
  CompiledParts out;
  out.num_inputs = uint32_t(inputs_);
  out.num_aux = uint32_t(aux_);
  out.num_constraints = constraints_;
  out.coeffs = coeffs_.values();
  const auto inputs = uint32_t(inputs_);
  for (size_t s = 0; s < 3; ++s) {
    std::vector<uint32_t>& wire = sides_[s].wire;
    // Wire numbers: input i is i, aux j is num_inputs + j.
    (void)parallel_ranges(wire.size(), size_t(1) << 20, [&](size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k)
        wire[k] = (wire[k] & kInputWire) ? wire[k] & ~kInputWire : wire[k] + inputs;
      return Status::Ok();
    });
    out.row_start[s] = std::move(sides_[s].row_start);
    out.wire[s] = std::move(wire);
    out.coeff[s] = std::move(sides_[s].coeff);
  }
  out.a_aux_density = std::move(a_aux_density_);
  out.b_input_density = std::move(b_input_density_);
  out.b_aux_density = std::move(b_aux_density_);
  return out;
}

Result<CompiledCircuit> CompilingSystem::finish() {
  auto parts = finish_parts();
  if (!parts) return parts.error();
  return CompiledCircuit::from_parts(std::move(*parts));
}

Result<CompiledCircuit> compile(const Circuit& circuit, CompileOptions options) {
  CompilingSystem cs(options);
  CUZK_TRY_STATUS(circuit.synthesize(cs));
  return cs.finish();
}

// ------------------------------------------------------------------------------ matrices

Result<CompiledCircuit> compile(const ConstraintMatrices& m, CompileOptions options) {
  CUZK_TRY_STATUS(m.validate());
  if (m.num_wires() > UINT32_MAX) return make_error("compiled circuit: more than 2^32 − 1 wires");
  const uint64_t limit = std::min<uint64_t>(options.max_side_terms, UINT32_MAX);
  const uint32_t ni = m.num_inputs;
  CompiledParts out;
  out.num_inputs = ni;
  out.num_aux = m.num_aux;
  out.num_constraints = m.num_constraints();
  out.a_aux_density.resize(m.num_aux);
  out.b_input_density.resize(ni);
  out.b_aux_density.resize(m.num_aux);
  CoefficientTable coeffs;
  const std::vector<SparseRow>* rows[3] = {&m.a, &m.b, &m.c};
  const size_t sides = options.keep_c ? 3 : 2;
  for (size_t s = 0; s < sides; ++s) {
    out.row_start[s].reserve(m.num_constraints() + 1);
    out.row_start[s].push_back(0);
  }
  // Row by row, each side in turn: the coefficients appear in the order the compiling system
  // meets them, so both routes give the same table.
  for (size_t k = 0; k < m.num_constraints(); ++k) {
    for (size_t s = 0; s < sides; ++s) {
      std::vector<uint32_t>& wire = out.wire[s];
      for (const auto& [w, c] : (*rows[s])[k]) {
        if (c.is_zero()) continue;
        if (wire.size() == limit) return make_error(too_many_terms(s, limit));
        wire.push_back(w);
        out.coeff[s].push_back(coeffs.intern(c));
        if (s == 0 && w >= ni) out.a_aux_density.set(w - ni);
        if (s == 1) {
          if (w >= ni) {
            out.b_aux_density.set(w - ni);
          } else {
            out.b_input_density.set(w);
          }
        }
      }
      out.row_start[s].push_back(uint32_t(wire.size()));
    }
  }
  out.coeffs = coeffs.values();
  return CompiledCircuit::from_parts(std::move(out));
}

}  // namespace cuzk::r1cs
