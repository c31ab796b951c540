// Knowledge of a message with a given SHA-256 digest. Public: the 256 digest bits, in SHA-256's bit
// order, packed little-endian into field elements of at most 254 bits (two inputs: 254 + 2 bits),
// as bellperson's multipack does. Private: the message, whose length is part of the circuit.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "r1cs/circuits/circuit.hpp"

namespace cuzk::r1cs {

class Sha256Preimage final : public Circuit {
 public:
  explicit Sha256Preimage(std::vector<uint8_t> message) : message_(std::move(message)) {}

  Status synthesize(ConstraintSystem& cs) const override;
  size_t num_public_inputs() const override { return 2; }

  // The inputs a verifier checks a proof against.
  static std::vector<Fr> public_inputs(const std::array<uint8_t, 32>& digest);

 private:
  std::vector<uint8_t> message_;  // for setup, any message of the right length
};

}  // namespace cuzk::r1cs
