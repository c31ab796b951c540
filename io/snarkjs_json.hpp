// snarkjs's JSON files (reference/formats.md §4.9), written the way snarkjs writes them (key order,
// one-space indentation), and read back:
//   proof.json   {"pi_a":[x,y,"1"], "pi_b":[[x.c0,x.c1],[y.c0,y.c1],["1","0"]], "pi_c":[x,y,"1"],
//                 "protocol":"groth16", "curve":"bls12381"}
//   public.json  ["<decimal>", ...]   the public signals, ONE excluded
//   verification_key.json  {protocol, curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2,
//                 vk_delta_2, vk_alphabeta_12, IC}
// Numbers are canonical decimal strings; points are projective triples with z = 1 (z = 0 and
// (0, 1, 0) for infinity, as ffjavascript writes it); Fp2 is [c0, c1] -- the opposite of ZCash
// byte order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fields.hpp"
#include "field/fp12.hpp"
#include "io/bellman.hpp"
#include "io/proof.hpp"

namespace cuzk {

// Canonical decimal strings, and back (digits only, value < modulus).
std::string to_decimal(const Fr& x);
std::string to_decimal(const Fp& x);
Result<Fr> fr_from_decimal(std::string_view s);
Result<Fp> fp_from_decimal(std::string_view s);

std::string snarkjs_proof_json(const groth16::Proof& proof);
std::string snarkjs_public_json(std::span<const Fr> public_signals);
// vk_alphabeta_12 = e(alpha1, beta2) is informational (snarkjs verify does not read it); it is
// written only when given.
std::string snarkjs_vk_json(const groth16::VerifyingKey& vk, const Fp12* alphabeta = nullptr);

// Readers. Points must lie on the curve and in the subgroup; the proof's points must be finite.
Result<groth16::Proof> parse_snarkjs_proof_json(std::string_view text);
Result<std::vector<Fr>> parse_snarkjs_public_json(std::string_view text);
// The verifying key (nPublic must match |IC| - 1; curve must be bls12381). vk_alphabeta_12 is ignored.
Result<groth16::VerifyingKey> parse_snarkjs_vk_json(std::string_view text);

}  // namespace cuzk
