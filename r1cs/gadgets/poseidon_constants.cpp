// neptune's Poseidon constants, derived: raw round constants (Grain LFSR), the Cauchy MDS matrix,
// the compressed round constants (neptune src/preprocessing.rs), the sparse factorization
// (src/mds.rs) and the circuit's linear forms over the partial rounds.
#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::r1cs {

namespace {

// Grain LFSR of the Poseidon paper (its reference script create_rcs_grain.sage): 80 bits,
// b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕ b_{i+23} ⊕ b_{i+13} ⊕ b_i.
class Grain {
 public:
  Grain(unsigned field, unsigned sbox, unsigned n, unsigned t, unsigned r_f, unsigned r_p) {
    size_t pos = 0;
    auto put = [&](uint64_t value, unsigned bits) {
      for (unsigned i = bits; i-- > 0;) state_[pos++] = (value >> i) & 1;
    };
    put(field, 2);
    put(sbox, 4);
    put(n, 12);
    put(t, 12);
    put(r_f, 10);
    put(r_p, 10);
    put((uint64_t(1) << 30) - 1, 30);
    for (int i = 0; i < 160; ++i) step();
  }

  // Self-shrinking: bits come in pairs; a pair starting with 1 outputs its second bit.
  bool next() {
    for (;;) {
      const bool keep = step();
      const bool bit = step();
      if (keep) return bit;
    }
  }

 private:
  bool step() {
    const bool b = state_[62] ^ state_[51] ^ state_[38] ^ state_[23] ^ state_[13] ^ state_[0];
    for (size_t i = 0; i + 1 < 80; ++i) state_[i] = state_[i + 1];
    state_[79] = b;
    return b;
  }
  std::array<bool, 80> state_{};
};

// neptune's round numbers for Strength::Standard (R_F is 8 for all of them; neptune's test
// test_round_numbers_against_known_values pins them).
size_t partial_rounds_for_width(size_t t) {
  switch (t) {
    case 3:
      return 55;
    case 5:
      return 56;
    case 9:
    case 12:
      return 57;
    case 17:
    case 25:
      return 59;
    case 37:
      return 60;
    default:
      return 0;
  }
}

// Square matrices over Fr, row-major, n × n.
using Matrix = std::vector<Fr>;

Matrix mat_mul(const Matrix& a, const Matrix& b, size_t n) {
  Matrix r(n * n, Fr::zero());
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < n; ++k) {
      const Fr& aik = a[i * n + k];
      for (size_t j = 0; j < n; ++j) r[i * n + j] += aik * b[k * n + j];
    }
  return r;
}

// Gauss–Jordan inverse; an error when the matrix is singular (a Cauchy matrix and its minors never are).
Result<Matrix> invert(Matrix a, size_t n) {
  Matrix inv(n * n, Fr::zero());
  for (size_t i = 0; i < n; ++i) inv[i * n + i] = Fr::one();
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    while (pivot < n && a[pivot * n + col].is_zero()) ++pivot;
    if (pivot == n) return make_error("Poseidon: singular matrix");
    if (pivot != col)
      for (size_t j = 0; j < n; ++j) {
        std::swap(a[pivot * n + j], a[col * n + j]);
        std::swap(inv[pivot * n + j], inv[col * n + j]);
      }
    const Fr scale = a[col * n + col].inverse();
    for (size_t j = 0; j < n; ++j) {
      a[col * n + j] *= scale;
      inv[col * n + j] *= scale;
    }
    for (size_t row = 0; row < n; ++row) {
      if (row == col || a[row * n + col].is_zero()) continue;
      const Fr f = a[row * n + col];
      for (size_t j = 0; j < n; ++j) {
        a[row * n + j] -= f * a[col * n + j];
        inv[row * n + j] -= f * inv[col * n + j];
      }
    }
  }
  return inv;
}

// The row vector v times m: r_j = Σ_i v_i·m[i][j] (neptune's apply_matrix).
std::vector<Fr> row_times(std::span<const Fr> v, const Matrix& m, size_t n) {
  std::vector<Fr> r(n, Fr::zero());
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) r[j] += v[i] * m[i * n + j];
  return r;
}

std::vector<Fr> raw_round_constants(size_t t, size_t r_f, size_t r_p) {
  Grain grain(1, 1, Fr::BITS, unsigned(t), unsigned(r_f), unsigned(r_p));
  const size_t count = (r_f + r_p) * t;
  std::vector<Fr> out;
  out.reserve(count);
  while (out.size() < count) {
    uint64_t v[Fr::N] = {};
    for (unsigned i = 0; i < Fr::BITS; ++i) {  // most significant bit first
      for (size_t k = Fr::N; k-- > 1;) v[k] = (v[k] << 1) | (v[k - 1] >> 63);
      v[0] = (v[0] << 1) | uint64_t(grain.next());
    }
    if (Fr::is_canonical(v)) out.push_back(Fr::from_canonical(v));
  }
  return out;
}

// neptune's compress_round_constants with every partial round preprocessed (§2.7.6).
std::vector<Fr> compress_round_constants(const PoseidonConstants& c) {
  const size_t t = c.width, hf = c.half_full_rounds, rp = c.partial_rounds;
  auto keys = [&](size_t r) { return std::span<const Fr>(c.round_constants).subspan(r * t, t); };
  std::vector<Fr> out(keys(0).begin(), keys(0).end());
  for (size_t i = 1; i < hf; ++i) {
    const std::vector<Fr> inv = row_times(keys(i), c.mds_inverse, t);
    out.insert(out.end(), inv.begin(), inv.end());
  }
  // Fold the partial rounds' constants backwards from the first final round: each step pushes the
  // accumulated row through M⁻¹, keeps element 0 as that partial round's single constant and adds
  // the rest to the previous round's row.
  std::vector<Fr> acc(keys(hf + rp).begin(), keys(hf + rp).end());
  std::vector<Fr> partial_keys;
  for (size_t n = 0; n < rp; ++n) {
    std::vector<Fr> inv = row_times(acc, c.mds_inverse, t);
    partial_keys.push_back(inv[0]);
    inv[0] = Fr::zero();
    const std::span<const Fr> prev = keys(hf + rp - 1 - n);
    for (size_t j = 0; j < t; ++j) acc[j] = prev[j] + inv[j];
  }
  const std::vector<Fr> last = row_times(acc, c.mds_inverse, t);
  out.insert(out.end(), last.begin(), last.end());
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());
  for (size_t i = 1; i < hf; ++i) {
    const std::vector<Fr> inv = row_times(keys(hf + rp + i), c.mds_inverse, t);
    out.insert(out.end(), inv.begin(), inv.end());
  }
  return out;
}

// neptune's factor_to_sparse_matrices: M = M′·M″ repeatedly, from the last partial round back.
Status factor_sparse(PoseidonConstants& c) {
  const size_t t = c.width, n = t - 1;
  Matrix cur = c.mds;
  std::vector<PoseidonSparseMatrix> sparse;
  for (size_t round = 0; round < c.partial_rounds; ++round) {
    Matrix minor(n * n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) minor[i * n + j] = cur[(i + 1) * t + j + 1];
    auto minor_inv = invert(std::move(minor), n);
    if (!minor_inv) return minor_inv.error();
    std::vector<Fr> w(n);
    for (size_t i = 0; i < n; ++i) w[i] = cur[(i + 1) * t];
    const std::vector<Fr> w_hat = row_times(w, *minor_inv, n);

    PoseidonSparseMatrix s;
    s.w_hat.push_back(cur[0]);
    s.w_hat.insert(s.w_hat.end(), w_hat.begin(), w_hat.end());
    s.v_rest.assign(cur.begin() + 1, cur.begin() + ptrdiff_t(t));
    sparse.push_back(std::move(s));

    Matrix prime(t * t, Fr::zero());  // e_0 in row 0, cur's rows without column 0 below
    prime[0] = Fr::one();
    for (size_t i = 1; i < t; ++i)
      for (size_t j = 1; j < t; ++j) prime[i * t + j] = cur[i * t + j];
    cur = mat_mul(c.mds, prime, t);
  }
  c.pre_sparse = std::move(cur);
  c.sparse.assign(sparse.rbegin(), sparse.rend());
  return Status::Ok();
}

// The circuit's state over the partial rounds as linear forms in the variables z_0..z_{t-1} (the
// last initial full round's S-box outputs) and w_0..w_{R_P-1} (the partial rounds' S-box
// outputs), following the sparse matrix products of neptune's circuit.
void derive_circuit_forms(PoseidonConstants& c) {
  const size_t t = c.width, rp = c.partial_rounds, len = t + rp;
  std::vector<std::vector<Fr>> s(t, std::vector<Fr>(len, Fr::zero()));
  for (size_t j = 0; j < t; ++j)
    for (size_t i = 0; i < t; ++i) s[j][i] = c.pre_sparse[i * t + j];
  c.partial_forms.clear();
  for (size_t p = 0; p < rp; ++p) {
    c.partial_forms.insert(c.partial_forms.end(), s[0].begin(), s[0].begin() + ptrdiff_t(t + p));
    const PoseidonSparseMatrix& m = c.sparse[p];
    // Element 0 is now the variable w_p.
    std::vector<Fr> first(len, Fr::zero());
    first[t + p] = m.w_hat[0];
    for (size_t i = 1; i < t; ++i)
      for (size_t k = 0; k < t + p; ++k) first[k] += m.w_hat[i] * s[i][k];
    for (size_t j = 1; j < t; ++j) s[j][t + p] += m.v_rest[j - 1];
    s[0] = std::move(first);
  }
  c.final_forms.clear();
  for (size_t j = 0; j < t; ++j) c.final_forms.insert(c.final_forms.end(), s[j].begin(), s[j].end());
}

}  // namespace

Result<Fr> PoseidonHashType::domain_tag(size_t arity) const {
  switch (kind_) {
    case Kind::merkle_tree:
      if (arity >= 64) return make_error("Poseidon: no Merkle-tree tag for arity " + std::to_string(arity));
      return Fr::from_u64((uint64_t(1) << arity) - 1);
    case Kind::constant_length:
      if (param_ == 0 || param_ > arity)
        return make_error("Poseidon: constant length " + std::to_string(param_) + " outside 1.." +
                          std::to_string(arity));
      return Fr::from_u64(param_) * power_of_two(64);
    case Kind::custom:
      if (param_ == 0 || param_ > 256)
        return make_error("Poseidon: custom domain tag id " + std::to_string(param_) + " outside 1..256");
      return Fr::from_u64(param_ << 40);
  }
  return make_error("Poseidon: unknown hash type");
}

Result<PoseidonConstants> PoseidonConstants::derive(size_t arity) {
  const size_t t = arity + 1;
  const size_t r_p = partial_rounds_for_width(t);
  if (r_p == 0)
    return make_error("Poseidon: no neptune parameters for arity " + std::to_string(arity) +
                      " (have 2, 4, 8, 11, 16, 24, 36)");
  PoseidonConstants c;
  c.arity = arity;
  c.width = t;
  c.full_rounds = 8;
  c.half_full_rounds = 4;
  c.partial_rounds = r_p;
  c.round_constants = raw_round_constants(t, c.full_rounds, r_p);
  c.mds.resize(t * t);
  for (size_t i = 0; i < t; ++i)
    for (size_t j = 0; j < t; ++j) c.mds[i * t + j] = Fr::from_u64(i + t + j).inverse();
  auto inv = invert(c.mds, t);
  if (!inv) return inv.error();
  c.mds_inverse = std::move(*inv);
  c.compressed_round_constants = compress_round_constants(c);
  CUZK_TRY_STATUS(factor_sparse(c));
  derive_circuit_forms(c);
  c.merkle_tag = Fr::from_u64((uint64_t(1) << arity) - 1);
  return c;
}

Result<const PoseidonConstants*> poseidon_constants(size_t arity) {
  struct Slot {
    std::once_flag once;
    std::unique_ptr<PoseidonConstants> constants;
    std::string error;
  };
  constexpr size_t kMaxArity = 36;
  static std::array<Slot, kMaxArity + 1> slots;
  if (arity > kMaxArity || partial_rounds_for_width(arity + 1) == 0)
    return make_error("Poseidon: no neptune parameters for arity " + std::to_string(arity) +
                      " (have 2, 4, 8, 11, 16, 24, 36)");
  Slot& slot = slots[arity];
  std::call_once(slot.once, [&] {
    auto c = PoseidonConstants::derive(arity);
    if (c.ok()) {
      slot.constants = std::make_unique<PoseidonConstants>(std::move(*c));
    } else {
      slot.error = c.message();
    }
  });
  if (!slot.constants) return make_error(slot.error);
  return static_cast<const PoseidonConstants*>(slot.constants.get());
}

// These arities are in the table and derivation cannot fail for them.
const PoseidonConstants& poseidon_constants_2() { return **poseidon_constants(2); }
const PoseidonConstants& poseidon_constants_4() { return **poseidon_constants(4); }
const PoseidonConstants& poseidon_constants_8() { return **poseidon_constants(8); }
const PoseidonConstants& poseidon_constants_11() { return **poseidon_constants(11); }

size_t poseidon_circuit_constraints(const PoseidonConstants& c) {
  const size_t t = c.width;
  return 3 * (t - 1) + 4 * t * (c.full_rounds - 1) + 4 * c.partial_rounds + 1;
}

}  // namespace cuzk::r1cs
