// Rank-1 constraint systems: variables, linear combinations and the interface circuits are written
// against. Semantics follow bellperson (reference/formats.md §3.1): input 0 is the constant ONE,
// a linear combination keeps one merged coefficient per variable, and a constraint says
// <a, w> * <b, w> = <c, w>.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "backend/deferred_witness.hpp"
#include "field/fields.hpp"

namespace cuzk::r1cs {

class CompiledCircuit;  // r1cs/compiled/compiled_circuit.hpp

// A wire of the circuit: an input (public, index 0 is ONE) or an auxiliary (private) variable.
struct Variable {
  enum class Kind : uint32_t { input = 0, aux = 1 };

  uint32_t index = 0;
  Kind kind = Kind::input;

  static constexpr Variable one() { return {0, Kind::input}; }
  static constexpr Variable input(uint32_t i) { return {i, Kind::input}; }
  static constexpr Variable aux(uint32_t i) { return {i, Kind::aux}; }
  constexpr bool is_input() const { return kind == Kind::input; }
  // Inputs order before auxiliaries, then by index: the order bellperson iterates an LC in.
  constexpr uint64_t key() const { return (uint64_t(kind) << 32) | index; }
  friend constexpr bool operator==(Variable x, Variable y) { return x.key() == y.key(); }
};

struct Term {
  Variable var;
  Fr coeff;
};

// Σ coeff_k · var_k with at most one term per variable, sorted by Variable::key(). Adding a variable
// that is already present adds to its coefficient, so a term whose coefficients cancel stays with a
// zero coefficient, exactly like bellperson's Indexer; evaluation and density tracking skip it.
// Up to three terms live inline: most constraints of real circuits have 1–3 terms per side, and
// synthesis creates hundreds of millions of these.
class LinearCombination {
 public:
  LinearCombination() = default;
  LinearCombination(Variable v) { add(v, Fr::one()); }  // NOLINT(google-explicit-constructor)
  LinearCombination(Variable v, const Fr& coeff) { add(v, coeff); }

  static LinearCombination zero() { return {}; }
  // c · ONE; the empty combination when c is zero.
  static LinearCombination constant(const Fr& c) {
    LinearCombination lc;
    if (!c.is_zero()) lc.add(Variable::one(), c);
    return lc;
  }

  LinearCombination& add(Variable v, const Fr& coeff);
  LinearCombination& add(const LinearCombination& other, const Fr& scale);
  LinearCombination& add(const LinearCombination& other);
  LinearCombination& sub(const LinearCombination& other);
  LinearCombination& scale(const Fr& s);

  LinearCombination& operator+=(const LinearCombination& o) { return add(o); }
  LinearCombination& operator-=(const LinearCombination& o) { return sub(o); }
  friend LinearCombination operator+(LinearCombination x, const LinearCombination& y) { return x.add(y); }
  friend LinearCombination operator-(LinearCombination x, const LinearCombination& y) { return x.sub(y); }
  friend LinearCombination operator*(LinearCombination x, const Fr& s) { return x.scale(s); }
  friend LinearCombination operator*(const Fr& s, LinearCombination x) { return x.scale(s); }

  std::span<const Term> terms() const {
    return big_.empty() ? std::span<const Term>(small_.data(), size_) : std::span<const Term>(big_);
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // <lc, w>; every variable must be within the assignments.
  Fr evaluate(std::span<const Fr> inputs, std::span<const Fr> aux) const;

 private:
  static constexpr size_t kInline = 3;
  std::array<Term, kInline> small_{};
  std::vector<Term> big_;  // all terms once there are more than kInline
  uint32_t size_ = 0;
};

// A bitmap over variables, bit i in bit i%64 of word i/64 (bitvec Lsb0 over u64, as supraseal
// reads it), with the number of set bits kept alongside.
struct DensityBitmap {
  std::vector<uint64_t> words;
  size_t bit_len = 0;
  size_t popcount = 0;

  void push(bool bit);
  // Sets bit i (< bit_len), counting it once however often it is set.
  void set(size_t i) {
    const uint64_t m = uint64_t(1) << (i % 64);
    uint64_t& w = words[i / 64];
    popcount += (w & m) == 0;
    w |= m;
  }
  bool get(size_t i) const { return (words[i / 64] >> (i % 64)) & 1; }
  void resize(size_t bits);  // new bits are clear
  void recount();            // popcount from the words
  // Joins the bitmap of a piece synthesized after this one's first `prefix` bits (a fork's, see
  // ProvingAssignment::extend): its bits [0, prefix) OR-ed into this one's, the rest appended.
  void join(const DensityBitmap& piece, size_t prefix);
  friend bool operator==(const DensityBitmap&, const DensityBitmap&) = default;
};

// What synthesis hands the prover: evaluations of the three sides at every constraint (the
// circuit's constraints, then one x_i · 0 = 0 per input), the assignment and the densities.
// A has full density on inputs, so there is no A-input bitmap.
//
// c may be left out (`c_from_ab`, c empty): a satisfied circuit's C evaluations are a_j·b_j, so the
// prover forms them, on the device where it computes H. That saves synthesis a third of its
// vectors (4 GiB at PoRep size, written once and read once) and the prover their upload. The rows
// then cannot be checked: a witness that does not satisfy the circuit gives a proof that fails
// verification (the engine checks every proof) instead of an error naming its first bad row.
struct Assignment {
  std::vector<Fr> a, b, c;
  bool c_from_ab = false;            // c is empty and every c_j is a_j·b_j
  std::vector<Fr> input_assignment;  // [0] = ONE
  std::vector<Fr> aux_assignment;
  DensityBitmap a_aux_density;
  DensityBitmap b_input_density;
  DensityBitmap b_aux_density;
  // Witness-only synthesis (ProvingAssignment::witness_only) leaves a, b, c and the densities empty
  // and records how many rows they would have (constraints and input constraints) in
  // witness_rows. Attaching a compiled circuit of the same shape (r1cs/compiled/evaluate.hpp) sets
  // `compiled` and its densities: a, b, c then stand for the compiled matrices times the witness,
  // which the prover forms (on the device where there is one) and the CPU can evaluate.
  size_t witness_rows = 0;
  std::shared_ptr<const CompiledCircuit> compiled;
  // Set: aux_assignment is storage of the right size whose values the prover's backend fills from
  // this program first (backend/deferred_witness.hpp, ComputeBackend::fill_witness); they are
  // unspecified until then. Only with a witness-only assignment.
  std::shared_ptr<const DeferredWitness> deferred;

  bool witness_only() const { return witness_rows != 0; }
  size_t num_constraints() const { return witness_only() ? witness_rows : a.size(); }
};

// The C evaluations of `as`: as.c, or a∘b formed into `scratch` when c was left out (c_from_ab),
// for whoever hands an assignment on (the C ABI, the gRPC service).
const std::vector<Fr>& c_values(const Assignment& as, std::vector<Fr>& scratch);

// What circuits and gadgets are written against. Allocation and enforcement cannot fail: a system
// that cannot honour a call (used after it was finished, say) keeps the error and reports it when
// its result is taken.
class ConstraintSystem {
 public:
  virtual ~ConstraintSystem() = default;

  // False when only the shape of the circuit is wanted (setup): values given to alloc are then
  // ignored, and gadgets may skip computing them.
  virtual bool has_values() const = 0;
  virtual Variable alloc(const Fr& value) = 0;
  virtual Variable alloc_input(const Fr& value) = 0;
  virtual void enforce(const LinearCombination& a, const LinearCombination& b,
                       const LinearCombination& c) = 0;
  // False when enforce() only counts (witness-only synthesis, counting): the hot gadgets (bits,
  // SHA-256's sums) then skip building their linear combinations, which is most of a witness's
  // cost, and call count_constraints instead.
  virtual bool keeps_rows() const { return true; }
  // `n` constraints whose rows are not wanted: only where keeps_rows() is false. A system that
  // keeps rows has no row to keep; by default it then records n rows 0·0 = ONE, which no witness
  // satisfies, so the misuse fails loudly instead of leaving a circuit short of rows.
  virtual void count_constraints(size_t n) {
    for (size_t i = 0; i < n; ++i) enforce({}, {}, Variable::one());
  }

  virtual size_t num_inputs() const = 0;  // including ONE
  virtual size_t num_aux() const = 0;
  virtual size_t num_constraints() const = 0;  // so far, without the input constraints
};

}  // namespace cuzk::r1cs
