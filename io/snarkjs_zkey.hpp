// snarkjs Groth16 proving keys, .zkey (snarkjs:src/zkey_utils.js, reference/formats.md §4.6-4.7).
//
// Sections: 1 protocol (1 = Groth16); 2 header (q, r, nVars, nPublic, domainSize, then alpha1,
// beta1, beta2, gamma2, delta1, delta2); 3 IC; 4 the A and B coefficients; 5 A; 6 B1; 7 B2;
// 8 C (= bellman's L); 9 H; 10 contributions.
//
// Points are ffjavascript "LEM": affine x || y, each coordinate little-endian Montgomery
// (x * 2^384 mod p) -- the very limbs of cuzk::Fp, so decoding is a range check plus the curve
// checks. The point at infinity is all-zero, which is also our in-memory convention.
//
// The key carries its own domain conventions, which a prover must follow (a bellman-style prover
// on these points makes invalid proofs otherwise):
//   * the domain root of unity is ffjavascript's: omega_{2^32} = 5^((r-1)/2^32), not bellman's 7^t
//     (domain_root() gives the root for this key's domainSize);
//   * H is not bellman's tau^i Z(tau)/delta: h[i] = L_{2i+1}(tau)/delta over the 2n-point domain
//     (the odd-index Lagrange basis), so the prover multiplies it by the values of A*B - C on the
//     odd points of the 2n-domain (the coset by omega_{2n}) and never divides by Z.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "curve/encoding.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fields.hpp"
#include "groth16/keys.hpp"

namespace cuzk {

struct SnarkjsZkey {
  // One nonzero entry of the A or B matrix (C is implied: snarkjs's prover uses A∘B). Constraint
  // indices run over the circuit's constraints and then one "x_s * 0 = 0"-style row per public
  // signal including ONE (A = x_s at constraint nConstraints + s), as in bellman.
  struct Coefficient {
    uint32_t matrix;      // 0 = A, 1 = B
    uint32_t constraint;  // < domain_size
    uint32_t signal;      // < n_vars
    Fr value;             // the plain coefficient (the file stores value * R^2 mod r)
  };

  uint32_t n_vars = 0;    // every wire, ONE included
  uint32_t n_public = 0;  // public signals, ONE excluded
  uint32_t domain_size = 0;
  G1Affine alpha_g1, beta_g1, delta_g1;
  G2Affine beta_g2, gamma_g2, delta_g2;
  std::vector<G1Affine> ic;  // n_public + 1
  std::vector<Coefficient> coefficients;
  std::vector<G1Affine> a;             // n_vars (infinity where the signal is not in A)
  std::vector<G1Affine> b_g1;          // n_vars
  std::vector<G2Affine> b_g2;          // n_vars
  std::vector<G1Affine> c;             // n_vars - n_public - 1, the private signals
  std::vector<G1Affine> h;             // domain_size
  std::vector<uint8_t> contributions;  // section 10 as stored (empty when absent)

  uint32_t log2_domain() const;  // domain_size = 2^log2_domain()
  // The primitive domain_size-th root of unity of ffjavascript: (5^t)^(2^(32 - log2)).
  Fr domain_root() const;
  // The verifying key (what `snarkjs zkey export verificationkey` and `zkey export bellman` write).
  groth16::VerifyingKey verifying_key() const {
    return {alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic};
  }
};

// Parses a .zkey image. Rejects: wrong magic/version, non-Groth16 protocols, q/r of another
// curve, inconsistent counts, a domain size that is not a power of two, section sizes that do not
// match the counts, coordinates >= p, points off the curve (and, with Check::full, outside the
// subgroup), an infinite alpha/beta/gamma/delta, coefficients pointing outside the matrices.
// Point sections are decoded on all cores.
Result<SnarkjsZkey> parse_zkey(std::span<const uint8_t> bytes, Check check = Check::full);
Result<SnarkjsZkey> read_zkey(const std::filesystem::path& path, Check check = Check::full);

// The .zkey image of `key` (sections 1-9, and 10 when contributions is set). For tests and tools;
// snarkjs reads it back.
std::vector<uint8_t> serialize_zkey(const SnarkjsZkey& key);

// The key as the prover takes it: generator 5's roots, the odd-Lagrange H query, one base per wire.
Result<groth16::ProvingKey> proving_key_from_zkey(SnarkjsZkey zkey);

// ffjavascript's root of unity of order 2^log2 (log2 <= 32): (5^t)^(2^(32 - log2)), t = (r-1)/2^32.
Fr snarkjs_root_of_unity(uint32_t log2);

}  // namespace cuzk
