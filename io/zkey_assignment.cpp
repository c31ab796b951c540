#include "io/zkey_assignment.hpp"

#include <string>

namespace cuzk {

Result<r1cs::Assignment> assignment_from_zkey(const SnarkjsZkey& zkey, std::span<const Fr> witness,
                                              const SnarkjsR1cs* r1cs_check) {
  if (witness.size() != zkey.n_vars)
    return make_error("witness has " + std::to_string(witness.size()) + " values, the key's circuit has " +
                      std::to_string(zkey.n_vars) + " wires");
  if (witness.empty() || !witness[0].is_one()) return make_error("witness: wire 0 must be the constant 1");
  if (r1cs_check) {
    if (r1cs_check->n_wires != zkey.n_vars || r1cs_check->n_public() != zkey.n_public)
      return make_error("r1cs: the circuit does not match the key (wires or public signals differ)");
    CUZK_TRY_STATUS(r1cs_check->check_witness(witness));
  }
  r1cs::Assignment as;
  const size_t n = zkey.domain_size;
  as.a.assign(n, Fr::zero());
  as.b.assign(n, Fr::zero());
  for (const auto& co : zkey.coefficients) {
    auto& side = co.matrix == 0 ? as.a : as.b;
    side[co.constraint] += co.value * witness[co.signal];
  }
  as.c_from_ab = true;  // the backend forms it where it computes H
  const size_t ni = size_t(zkey.n_public) + 1;
  as.input_assignment.assign(witness.begin(), witness.begin() + ni);
  as.aux_assignment.assign(witness.begin() + ni, witness.end());
  return as;
}

}  // namespace cuzk
