// neptune's legacy Poseidon circuit (src/circuit.rs `PoseidonCircuit`), reference §2.7.7.
//
// neptune keeps each state element as an allocated number or as a running linear combination and
// multiplies them through the matrices term by term. The combinations that reach a constraint are
// fixed linear forms in the S-box outputs, so this builds each one directly from its coefficients:
// the M columns in the full rounds, and the forms PoseidonConstants derives for the partial rounds
// and the first final round. A variable's coefficient is the same field element either way, and
// terms with a zero coefficient are left out (bellperson's density tracking and matrix extraction
// skip them), so the rows are neptune's. The values follow the optimized native permutation, whose
// intermediate states are exactly the values of these combinations.
#include <array>
#include <string>

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::r1cs {

namespace {

constexpr size_t kMaxWidth = 37;

void add_term(LinearCombination& lc, Variable v, const Fr& coeff) {
  if (!coeff.is_zero()) lc.add(v, coeff);
}

// y − post·ONE, or y when there is no post key.
LinearCombination minus_constant(Variable y, const Fr* post) {
  LinearCombination lc;
  if (post) add_term(lc, Variable::one(), -*post);
  lc.add(y, Fr::one());
  return lc;
}

class Synthesizer {
 public:
  Synthesizer(ConstraintSystem& cs, const PoseidonConstants& c)
      : cs_(cs), c_(c), t_(c.width), values_(cs.has_values()), rows_(cs.keeps_rows()) {}

  Num run(std::span<const Num> preimage, const Fr& tag) {
    const size_t t = t_, hf = c_.half_full_rounds;
    const Fr* k = c_.compressed_round_constants.data();
    std::array<Variable, kMaxWidth> ys{};

    // First full round: the tag's S-box is a constant; the preimage's take their pre key inside.
    Fr tag_out = pow5(tag + k[0]) + k[t];
    for (size_t i = 1; i < t; ++i) {
      s_[i] = values_ ? preimage[i - 1].value + k[i] : Fr::zero();
      ys[i] = first_sbox(preimage[i - 1].lc, k[i], k[t + i], s_[i]);
    }
    s_[0] = tag_out;
    k += 2 * t;
    mix_dense(c_.mds.data());  // half_full_rounds is 4: round 0 is never the pre-sparse round

    // The other initial full rounds. Round 1's inputs hold the tag's constant as a ONE term.
    for (size_t r = 1; r < hf; ++r) {
      std::array<Variable, kMaxWidth> next{};
      for (size_t j = 0; j < t; ++j) {
        LinearCombination in;
        if (rows_ && r == 1) add_term(in, Variable::one(), c_.m(0, j) * tag_out);
        for (size_t i = r == 1 ? 1 : 0; rows_ && i < t; ++i) add_term(in, ys[i], c_.m(i, j));
        next[j] = sbox(in, s_[j], &k[j]);
      }
      ys = next;
      k += t;
      mix_dense(r + 1 == hf ? c_.pre_sparse.data() : c_.mds.data());
    }

    // Partial rounds: the basis is z (this round's ys) followed by each partial round's output.
    basis_.assign(ys.begin(), ys.begin() + ptrdiff_t(t));
    for (size_t p = 0; p < c_.partial_rounds; ++p) {
      const Variable w = sbox(rows_ ? form(c_.partial_form(p)) : LinearCombination(), s_[0], k++);
      basis_.push_back(w);
      mix_sparse(c_.sparse[p]);
    }

    // Final full rounds; the last one has no post keys.
    const size_t len = t + c_.partial_rounds;
    for (size_t r = 0; r < hf; ++r) {
      const bool last = r + 1 == hf;
      std::array<Variable, kMaxWidth> next{};
      for (size_t j = 0; j < t; ++j) {
        LinearCombination in;
        if (rows_ && r == 0) {
          in = form(std::span<const Fr>(c_.final_forms).subspan(j * len, len));
        } else if (rows_) {
          for (size_t i = 0; i < t; ++i) add_term(in, ys[i], c_.m(i, j));
        }
        next[j] = sbox(in, s_[j], last ? nullptr : &k[j]);
      }
      ys = next;
      if (!last) k += t;
      mix_dense(c_.mds.data());
    }

    // The hash: element 1, allocated.
    const Variable h = cs_.alloc(s_[1]);
    if (rows_) {
      LinearCombination out;
      for (size_t i = 0; i < t; ++i) add_term(out, ys[i], c_.m(i, 1));
      cs_.enforce(out, Variable::one(), h);
    } else {
      cs_.count_constraints(1);
    }
    return Num::from_variable(h, s_[1]);
  }

 private:
  static Fr pow5(const Fr& x) { return x.sqr().sqr() * x; }

  // Σ_k coeffs[k]·basis_k.
  LinearCombination form(std::span<const Fr> coeffs) const {
    LinearCombination lc;
    for (size_t k = 0; k < coeffs.size(); ++k) add_term(lc, basis_[k], coeffs[k]);
    return lc;
  }

  // neptune's quintic_s_box_pre_add on an allocated x: q = (x+pre)², q2 = q², y = (x+pre)·q2 + post.
  // `v` is x + pre and becomes y.
  Variable first_sbox(const LinearCombination& x, const Fr& pre, const Fr& post, Fr& v) {
    if (!rows_) return sbox_values(v, &post, 3);
    LinearCombination in = x;
    add_term(in, Variable::one(), pre);
    const Fr q_value = values_ ? v.sqr() : Fr::zero();
    const Variable q = cs_.alloc(q_value);
    cs_.enforce(in, in, q);
    const Fr q2_value = values_ ? q_value.sqr() : Fr::zero();
    const Variable q2 = cs_.alloc(q2_value);
    cs_.enforce(q, q, q2);
    if (values_) v = v * q2_value + post;
    const Variable y = cs_.alloc(v);
    cs_.enforce(in, q2, minus_constant(y, &post));
    return y;
  }

  // neptune's quintic_s_box on a linear combination: u = in, u2 = u², u4 = u2², y = u·u4 (+ post).
  // `v` is the value of `in` and becomes y.
  Variable sbox(const LinearCombination& in, Fr& v, const Fr* post) {
    if (!rows_) {
      (void)cs_.alloc(v);  // u
      return sbox_values(v, post, 4);
    }
    const Variable u = cs_.alloc(v);
    cs_.enforce(in, Variable::one(), u);
    const Fr u2_value = values_ ? v.sqr() : Fr::zero();
    const Variable u2 = cs_.alloc(u2_value);
    cs_.enforce(u, u, u2);
    const Fr u4_value = values_ ? u2_value.sqr() : Fr::zero();
    const Variable u4 = cs_.alloc(u4_value);
    cs_.enforce(u2, u2, u4);
    if (values_) {
      v *= u4_value;
      if (post) v += *post;
    }
    const Variable y = cs_.alloc(v);
    cs_.enforce(u, u4, minus_constant(y, post));
    return y;
  }

  // An S-box's variables after its input (x² and x⁴, then y = x⁵ + post) where the system keeps
  // no rows (a witness): the values alone, and `rows` rows counted. `v` is x and becomes y.
  Variable sbox_values(Fr& v, const Fr* post, size_t rows) {
    const Fr x2 = values_ ? v.sqr() : Fr::zero();
    (void)cs_.alloc(x2);
    const Fr x4 = values_ ? x2.sqr() : Fr::zero();
    (void)cs_.alloc(x4);
    if (values_) {
      v *= x4;
      if (post) v += *post;
    }
    cs_.count_constraints(rows);
    return cs_.alloc(v);
  }

  void mix_dense(const Fr* m) {
    if (!values_) return;
    std::array<Fr, kMaxWidth> r;
    for (size_t j = 0; j < t_; ++j) r[j] = poseidon_dot(s_.data(), m + j, t_, t_);  // column j of m
    s_ = r;
  }

  void mix_sparse(const PoseidonSparseMatrix& m) {
    if (!values_) return;
    const Fr first = poseidon_dot(s_.data(), m.w_hat.data(), 1, t_);
    for (size_t j = 1; j < t_; ++j) s_[j] += m.v_rest[j - 1] * s_[0];
    s_[0] = first;
  }

  ConstraintSystem& cs_;
  const PoseidonConstants& c_;
  const size_t t_;
  const bool values_;
  const bool rows_;                // false: a witness (or a count), whose rows are only counted
  std::array<Fr, kMaxWidth> s_{};  // values of the state, as the optimized permutation has them
  std::vector<Variable> basis_;
};

}  // namespace

Result<Num> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonConstants& c,
                                  std::span<const Num> preimage, const PoseidonHashType& type) {
  if (preimage.size() != c.arity)
    return make_error("Poseidon circuit: " + std::to_string(preimage.size()) + " elements for arity " +
                      std::to_string(c.arity));
  if (type.kind() == PoseidonHashType::Kind::constant_length && type.parameter() != c.arity)
    return make_error("Poseidon circuit: constant length " + std::to_string(type.parameter()) +
                      " must equal the arity " + std::to_string(c.arity) + " (no padding in the circuit)");
  auto tag = type.domain_tag(c.arity);
  if (!tag) return tag.error();
  return Synthesizer(cs, c).run(preimage, *tag);
}

}  // namespace cuzk::r1cs
