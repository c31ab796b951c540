#include "filecoin/vanilla/poseidon.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

const r1cs::PoseidonParams* params_for(size_t arity) {
  static std::mutex mu;
  static std::array<std::unique_ptr<r1cs::PoseidonParams>, 37> cache;
  static std::array<bool, 37> failed{};
  if (arity >= cache.size()) return nullptr;
  std::lock_guard<std::mutex> lock(mu);
  if (!cache[arity] && !failed[arity]) {
    Result<r1cs::PoseidonParams> p = r1cs::PoseidonParams::neptune(arity);
    if (p.ok())
      cache[arity] = std::make_unique<r1cs::PoseidonParams>(std::move(p).value());
    else
      failed[arity] = true;
  }
  return cache[arity].get();
}

}  // namespace

Result<Fr> poseidon_merkle(std::span<const Fr> inputs) {
  const r1cs::PoseidonParams* p = params_for(inputs.size());
  if (!p) return make_error("Poseidon has no parameters for arity " + std::to_string(inputs.size()));
  return r1cs::poseidon_hash(*p, inputs);
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
