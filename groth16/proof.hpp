// A Groth16 proof: A and C in G1, B in G2 (formats.md §3.2). Its encodings are io's: 192 bytes
// compressed (io/proof.hpp), snarkjs's proof.json (io/snarkjs_json.hpp).
#pragma once

#include "curve/g1.hpp"
#include "curve/g2.hpp"

namespace cuzk::groth16 {

struct Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
};

}  // namespace cuzk::groth16
