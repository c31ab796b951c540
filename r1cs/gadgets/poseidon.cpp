#include "r1cs/gadgets/poseidon.hpp"

#include <array>
#include <bitset>
#include <string>

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

// neptune's round_numbers table for Strength::Standard (R_F is 8 for all of them).
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

Fr sbox(const Fr& x) {
  const Fr x2 = x.sqr();
  return x2.sqr() * x;
}

Num sbox_circuit(ConstraintSystem& cs, const Num& x) {
  const Num x2 = mul(cs, x, x);
  const Num x4 = mul(cs, x2, x2);
  return mul(cs, x4, x);
}

}  // namespace

Result<PoseidonParams> PoseidonParams::neptune(size_t arity) {
  const size_t t = arity + 1;
  const size_t r_p = partial_rounds_for_width(t);
  if (r_p == 0)
    return make_error("Poseidon: no neptune parameters for arity " + std::to_string(arity) +
                      " (have 2, 4, 8, 11, 16, 24, 36)");
  PoseidonParams p;
  p.arity = arity;
  p.width = t;
  p.full_rounds = 8;
  p.partial_rounds = r_p;

  Grain grain(1, 1, Fr::BITS, unsigned(t), unsigned(p.full_rounds), unsigned(r_p));
  const size_t count = (p.full_rounds + p.partial_rounds) * t;
  while (p.round_constants.size() < count) {
    uint64_t v[Fr::N] = {};
    for (unsigned i = 0; i < Fr::BITS; ++i) {  // most significant bit first
      for (size_t k = Fr::N; k-- > 1;) v[k] = (v[k] << 1) | (v[k - 1] >> 63);
      v[0] = (v[0] << 1) | uint64_t(grain.next());
    }
    if (Fr::is_canonical(v)) p.round_constants.push_back(Fr::from_canonical(v));
  }

  p.mds.resize(t * t);
  for (size_t i = 0; i < t; ++i)
    for (size_t j = 0; j < t; ++j) p.mds[i * t + j] = Fr::from_u64(i + t + j).inverse();
  p.merkle_tag = Fr::from_u64((uint64_t(1) << arity) - 1);
  return p;
}

const PoseidonParams& poseidon_arity2() {
  // Arity 2 is in the table, so this cannot fail.
  static const PoseidonParams params = std::move(PoseidonParams::neptune(2).value());
  return params;
}

void poseidon_permute(const PoseidonParams& p, std::span<Fr> state) {
  const size_t t = p.width, half = p.full_rounds / 2;
  const size_t rounds = p.full_rounds + p.partial_rounds;
  std::vector<Fr> next(t);
  for (size_t r = 0; r < rounds; ++r) {
    const bool full = r < half || r >= half + p.partial_rounds;
    for (size_t i = 0; i < t; ++i) state[i] += p.round_constants[r * t + i];
    if (full) {
      for (size_t i = 0; i < t; ++i) state[i] = sbox(state[i]);
    } else {
      state[0] = sbox(state[0]);
    }
    for (size_t j = 0; j < t; ++j) {
      Fr acc = Fr::zero();
      for (size_t i = 0; i < t; ++i) acc += p.m(i, j) * state[i];
      next[j] = acc;
    }
    for (size_t j = 0; j < t; ++j) state[j] = next[j];
  }
}

Result<Fr> poseidon_hash(const PoseidonParams& p, std::span<const Fr> preimage) {
  if (preimage.size() != p.arity)
    return make_error("Poseidon: " + std::to_string(preimage.size()) + " elements for arity " +
                      std::to_string(p.arity));
  std::vector<Fr> state(p.width);
  state[0] = p.merkle_tag;
  for (size_t i = 0; i < p.arity; ++i) state[i + 1] = preimage[i];
  poseidon_permute(p, state);
  return state[1];
}

Result<Num> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonParams& p,
                                  std::span<const Num> preimage) {
  if (preimage.size() != p.arity)
    return make_error("Poseidon circuit: " + std::to_string(preimage.size()) + " elements for arity " +
                      std::to_string(p.arity));
  const size_t t = p.width, half = p.full_rounds / 2;
  const size_t rounds = p.full_rounds + p.partial_rounds;
  std::vector<Num> state;
  state.reserve(t);
  state.push_back(Num::constant(p.merkle_tag));
  for (const Num& x : preimage) state.push_back(x);
  std::vector<Num> next(t);
  for (size_t r = 0; r < rounds; ++r) {
    const bool full = r < half || r >= half + p.partial_rounds;
    for (size_t i = 0; i < t; ++i) state[i] += Num::constant(p.round_constants[r * t + i]);
    if (full) {
      for (size_t i = 0; i < t; ++i) state[i] = sbox_circuit(cs, state[i]);
    } else {
      state[0] = sbox_circuit(cs, state[0]);
    }
    for (size_t j = 0; j < t; ++j) {
      Num acc;
      for (size_t i = 0; i < t; ++i) acc += state[i] * p.m(i, j);
      next[j] = std::move(acc);
    }
    state.swap(next);
  }
  return state[1];
}

}  // namespace cuzk::r1cs
