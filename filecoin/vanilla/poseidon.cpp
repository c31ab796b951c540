#include "filecoin/vanilla/poseidon.hpp"

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

Result<Fr> poseidon_merkle(std::span<const Fr> inputs) {
  auto c = r1cs::poseidon_constants(inputs.size());
  if (!c.ok()) return c.error();
  return r1cs::poseidon_merkle_node(**c, inputs.data());
}

Result<Domain> poseidon_merkle(std::span<const Domain> inputs) {
  Fr xs[36];
  if (inputs.size() > 36)
    return make_error("Poseidon arity " + std::to_string(inputs.size()) + " is too large");
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::optional<Fr> x = domain_to_fr(inputs[i]);
    if (!x) return make_input_error("a Poseidon input is not a canonical field element");
    xs[i] = *x;
  }
  Result<Fr> h = poseidon_merkle(std::span<const Fr>(xs, inputs.size()));
  if (!h.ok()) return h.error();
  return fr_to_domain(*h);
}

}  // namespace cuzk::filecoin::vanilla
