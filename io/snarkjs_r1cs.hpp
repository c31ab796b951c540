// snarkjs/circom .r1cs constraint systems (iden3/r1csfile, reference/formats.md §4.4).
//
// Wire order: 0 = ONE, then public outputs, public inputs, private inputs, internal signals.
// Constraint k means <A_k, w> * <B_k, w> - <C_k, w> = 0.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk {

// Rows of (wire, coefficient) terms in compressed-row form: row k is
// wires[row_start[k] .. row_start[k+1]) with the matching coeffs.
struct SparseRows {
  std::vector<uint64_t> row_start{0};
  std::vector<uint32_t> wires;
  std::vector<Fr> coeffs;

  size_t rows() const { return row_start.size() - 1; }
  size_t terms() const { return wires.size(); }
  std::span<const uint32_t> row_wires(size_t k) const {
    return {wires.data() + row_start[k], size_t(row_start[k + 1] - row_start[k])};
  }
  std::span<const Fr> row_coeffs(size_t k) const {
    return {coeffs.data() + row_start[k], size_t(row_start[k + 1] - row_start[k])};
  }
  // Appends a row (used by the parser and by tests that build systems by hand).
  void push_row(std::span<const uint32_t> w, std::span<const Fr> c);
  // <row k, values>; the caller guarantees every wire < values.size().
  Fr dot(size_t k, std::span<const Fr> values) const;
};

struct SnarkjsR1cs {
  uint32_t n_wires = 0;
  uint32_t n_pub_out = 0;
  uint32_t n_pub_in = 0;
  uint32_t n_prv_in = 0;
  uint64_t n_labels = 0;
  SparseRows a, b, c;                   // one row per constraint
  std::vector<uint64_t> wire_to_label;  // section 3; empty when the file has none

  uint32_t n_constraints() const { return uint32_t(a.rows()); }
  // Public signals (outputs then inputs), not counting ONE: the length of public.json.
  uint32_t n_public() const { return n_pub_out + n_pub_in; }

  // OK when `witness` (ONE first, as in .wtns) satisfies every constraint; otherwise an error that
  // names the first failing constraint.
  Status check_witness(std::span<const Fr> witness) const;
};

// Parses a .r1cs image. Checks: magic/version, prime == BLS12-381 r (a BN254 circuit is a clear
// error, not garbage), counts consistent, every wire id < nWires, every coefficient < r, exact
// section sizes. Custom-gate sections (PLONK only) are rejected because Groth16 cannot honour them.
Result<SnarkjsR1cs> parse_r1cs(std::span<const uint8_t> bytes);
Result<SnarkjsR1cs> read_r1cs(const std::filesystem::path& path);

// The .r1cs image of `cs` (sections in the order 1, 2, 3 as r1csfile writes them; 3 only when
// wire_to_label is set). Used by tests and by tools that emit circuits for snarkjs.
std::vector<uint8_t> serialize_r1cs(const SnarkjsR1cs& cs);

}  // namespace cuzk
