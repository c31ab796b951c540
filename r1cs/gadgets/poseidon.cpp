// The native Poseidon permutations: neptune's reference (`hash_correct`) and optimized
// (`hash_optimized_static`) ones. The optimized one is the hot path of tree building, so it is
// instantiated per width with the state on the stack.
#include <array>
#include <string>

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::r1cs {

namespace {

constexpr size_t kMaxWidth = 37;

inline Fr pow5(const Fr& x) {
  const Fr x2 = x.sqr();
  return x2.sqr() * x;
}

// s ← s·m for a dense t × t matrix (row vector times matrix).
template <size_t T>
inline void dense_product(size_t t, const Fr* m, Fr* s) {
  const size_t n = T ? T : t;
  std::array<Fr, T ? T : kMaxWidth> r;
  for (size_t j = 0; j < n; ++j) r[j] = poseidon_dot(s, m + j, n, n);  // column j of m
  for (size_t j = 0; j < n; ++j) s[j] = r[j];
}

// s ← s·M″: new_0 = Σ_i w_hat_i·s_i, new_j = s_j + v_rest_{j−1}·s_0.
template <size_t T>
inline void sparse_product(size_t t, const PoseidonSparseMatrix& m, Fr* s) {
  const size_t n = T ? T : t;
  const Fr* w = m.w_hat.data();
  const Fr* v = m.v_rest.data();
  const Fr first = poseidon_dot(s, w, 1, n);
  for (size_t j = 1; j < n; ++j) s[j] += v[j - 1] * s[0];
  s[0] = first;
}

// neptune's hash_optimized_static on s[0..t). T = 0 means "t at run time".
template <size_t T>
void permute_optimized(const PoseidonConstants& c, Fr* s) {
  const size_t t = T ? T : c.width;
  const size_t hf = c.half_full_rounds;
  const Fr* k = c.compressed_round_constants.data();
  const Fr* mds = c.mds.data();

  for (size_t i = 0; i < t; ++i) s[i] += k[i];
  k += t;
  for (size_t r = 0; r < hf; ++r) {
    for (size_t i = 0; i < t; ++i) s[i] = pow5(s[i]) + k[i];
    k += t;
    dense_product<T>(t, r + 1 == hf ? c.pre_sparse.data() : mds, s);
  }
  for (size_t p = 0; p < c.partial_rounds; ++p) {
    s[0] = pow5(s[0]) + *k++;
    sparse_product<T>(t, c.sparse[p], s);
  }
  for (size_t r = 1; r < hf; ++r) {
    for (size_t i = 0; i < t; ++i) s[i] = pow5(s[i]) + k[i];
    k += t;
    dense_product<T>(t, mds, s);
  }
  for (size_t i = 0; i < t; ++i) s[i] = pow5(s[i]);
  dense_product<T>(t, mds, s);
}

}  // namespace

void poseidon_permute_reference(const PoseidonConstants& c, std::span<Fr> state) {
  const size_t t = c.width, hf = c.half_full_rounds;
  const size_t rounds = c.full_rounds + c.partial_rounds;
  for (size_t r = 0; r < rounds; ++r) {
    const bool full = r < hf || r >= hf + c.partial_rounds;
    for (size_t i = 0; i < t; ++i) state[i] += c.round_constants[r * t + i];
    if (full) {
      for (size_t i = 0; i < t; ++i) state[i] = pow5(state[i]);
    } else {
      state[0] = pow5(state[0]);
    }
    dense_product<0>(t, c.mds.data(), state.data());
  }
}

void poseidon_permute(const PoseidonConstants& c, std::span<Fr> state) {
  switch (c.width) {
    case 3:
      return permute_optimized<3>(c, state.data());
    case 5:
      return permute_optimized<5>(c, state.data());
    case 9:
      return permute_optimized<9>(c, state.data());
    case 12:
      return permute_optimized<12>(c, state.data());
    default:
      return permute_optimized<0>(c, state.data());
  }
}

Fr poseidon_merkle_node(const PoseidonConstants& c, const Fr* children) {
  std::array<Fr, kMaxWidth> s;
  s[0] = c.merkle_tag;
  for (size_t i = 0; i < c.arity; ++i) s[i + 1] = children[i];
  poseidon_permute(c, std::span<Fr>(s.data(), c.width));
  return s[1];
}

Result<Fr> poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage,
                         const PoseidonHashType& type) {
  const size_t want =
      type.kind() == PoseidonHashType::Kind::constant_length ? size_t(type.parameter()) : c.arity;
  auto tag = type.domain_tag(c.arity);
  if (!tag) return tag.error();
  if (preimage.size() != want)
    return make_error("Poseidon: " + std::to_string(preimage.size()) + " elements for a hash of " +
                      std::to_string(want) + " (arity " + std::to_string(c.arity) + ")");
  std::array<Fr, kMaxWidth> s;
  s.fill(Fr::zero());
  s[0] = *tag;
  for (size_t i = 0; i < preimage.size(); ++i) s[i + 1] = preimage[i];
  poseidon_permute(c, std::span<Fr>(s.data(), c.width));
  return s[1];
}

}  // namespace cuzk::r1cs
