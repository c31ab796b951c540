// snarkjs .wtns witness files (snarkjs:src/wtns_utils.js, reference/formats.md §4.5): section 1
// "u32 n8 ; q[n8] ; u32 nWitness", section 2 nWitness canonical little-endian values.
// Order = .r1cs wire order: [1, outputs, public inputs, private inputs, internal].
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk {

struct SnarkjsWitness {
  std::vector<Fr> values;

  // bellman's split for a circuit with n_public public signals: inputs = w[0 ..= n_public]
  // (ONE first), aux = the rest. public.json is inputs without the ONE. A witness too short for
  // n_public gives what it has (callers check sizes against the circuit first).
  std::span<const Fr> inputs(uint32_t n_public) const {
    return std::span(values).first(std::min(values.size(), size_t(n_public) + 1));
  }
  std::span<const Fr> aux(uint32_t n_public) const {
    return std::span(values).subspan(inputs(n_public).size());
  }
};

// Checks: magic/version (1 or 2), q == BLS12-381 r, exact section sizes, every value < r.
// Decoding runs on all cores (a large witness has 10^8 values).
Result<SnarkjsWitness> parse_wtns(std::span<const uint8_t> bytes);
Result<SnarkjsWitness> read_wtns(const std::filesystem::path& path);
std::vector<uint8_t> serialize_wtns(std::span<const Fr> values);

}  // namespace cuzk
