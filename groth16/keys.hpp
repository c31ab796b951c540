// Groth16 keys as the prover and verifier use them, whichever file they came from.
//
// Two families of keys exist (reference/formats.md §2, §4):
//   * bellman/bellperson .params: domain root from generator 7; H query τ^i·Z(τ)/δ (m − 1 points);
//     a, b_g1, b_g2 compacted by density (a base only for wires that occur in that matrix);
//   * snarkjs .zkey: domain root from generator 5; H query L_{2i+1}(τ)/δ over the 2m-point domain
//     (m points); one base per wire, infinity where the wire does not occur.
// A ProvingKey records which, and the prover follows it: the same witness gives a valid proof
// under either. Keys from files: io/bellman.hpp (proving_key_from_bellman, to_bellman) and
// io/snarkjs_zkey.hpp (proving_key_from_zkey).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "backend/domain.hpp"
#include "common/result.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"

namespace cuzk::groth16 {

// What a verifier needs (formats.md §2.1): the pairing terms and one IC point per public input,
// ONE first. δ₁ and β₁ play no part in verification; they travel with the key because bellman's
// .vk and .params carry them. Encodings: io/bellman.hpp (.vk), io/snarkjs_json.hpp (JSON).
struct VerifyingKey {
  G1Affine alpha_g1, beta_g1;
  G2Affine beta_g2, gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  std::vector<G1Affine> ic;
};

// How the H query is built (and so how the prover computes the scalars that go with it).
enum class HQuery {
  z_over_delta,     // bellman: h[i] = τ^i·Z(τ)/δ, i < m − 1; scalars are coefficients of (AB − C)/Z
  odd_lagrange_2m,  // snarkjs: h[i] = L_{2i+1}(τ)/δ, i < m; scalars are (AB − C) on the odd 2m-points
};

// How the a, b_g1 and b_g2 queries pair with wires.
enum class QueryLayout {
  compacted,  // bellman: one base per wire set in the synthesis density bitmaps (inputs: all in A)
  per_wire,   // snarkjs: one base per wire (inputs then aux), infinity allowed
};

struct ProvingKey {
  VerifyingKey vk;
  size_t domain_size = 0;  // m, a power of two
  RootConvention convention = RootConvention::bellman;
  HQuery h_query = HQuery::z_over_delta;
  QueryLayout layout = QueryLayout::compacted;
  size_t num_inputs = 0;  // public wires including ONE
  size_t num_aux = 0;
  std::vector<G1Affine> h, l, a, b_g1;
  std::vector<G2Affine> b_g2;

  // Counts agree with each other and with the convention; cheap, run before every proof.
  Status check_shape() const;

  // The memory of the five query arrays (h, l, a, b_g1, b_g2), for whoever pins or copies them whole.
  struct ByteRange {
    const void* data;
    size_t bytes;
  };
  std::array<ByteRange, 5> point_arrays() const {
    return {{{h.data(), h.size() * sizeof(G1Affine)},
             {l.data(), l.size() * sizeof(G1Affine)},
             {a.data(), a.size() * sizeof(G1Affine)},
             {b_g1.data(), b_g1.size() * sizeof(G1Affine)},
             {b_g2.data(), b_g2.size() * sizeof(G2Affine)}}};
  }
};

}  // namespace cuzk::groth16
