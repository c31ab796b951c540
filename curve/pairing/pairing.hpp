// The optimal ate pairing e: G1 x G2 -> GT of BLS12-381 (host only).
//
// e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1) / r) with x = -0xd201000000010000. The factor 3 in the
// exponent comes from the final-exponentiation chain used (Hayashida-Hayasaka-Teruya); it is the
// same convention as blst, zkcrypto/bls12_381, RELIC and noble, so values of GT agree with theirs
// (tests/pairing checks e(G1, G2) against noble).
//
// Inputs must be valid group elements: on the curve and in the prime-order subgroups (the
// decoders and the verifier check that); invalid inputs give meaningless values, never a crash.
// A pair with a point at infinity contributes one.
#pragma once

#include <span>
#include <utility>

#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fp12.hpp"

namespace cuzk {

using PairingInput = std::pair<G1Affine, G2Affine>;

// f_{x,Q}(P), conjugated for the negative x; a value of Fp12 defined up to factors that the final
// exponentiation removes. Infinity on either side gives one.
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

// Product of the Miller loops of all pairs, sharing the Fp12 squarings.
Fp12 multi_miller_loop(std::span<const PairingInput> pairs);

// f^(3 (p^12 - 1) / r). The result lies in GT, the order-r subgroup of Fp12*; zero maps to zero.
Fp12 final_exponentiation(const Fp12& f);

Fp12 pairing(const G1Affine& p, const G2Affine& q);

// Product of e(P_i, Q_i) with one final exponentiation.
Fp12 multi_pairing(std::span<const PairingInput> pairs);

// Whether the product of e(P_i, Q_i) is one: the form of every Groth16 check.
bool pairing_product_is_one(std::span<const PairingInput> pairs);

}  // namespace cuzk
