#include "filecoin/vanilla/update_challenges.hpp"

#include "r1cs/gadgets/num.hpp"
#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

// H_Custom(1)(a, b). Two elements always fit arity 2 and Custom(1) is a valid tag, so it cannot
// fail.
Fr gen_randomness(const Fr& a, const Fr& b) {
  const Fr preimage[2] = {a, b};
  return r1cs::poseidon_hash(r1cs::poseidon_constants_2(), preimage, r1cs::PoseidonHashType::custom(1))
      .value();
}

}  // namespace

Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old) { return gen_randomness(comm_d_new, comm_r_old); }

Fr update_rho(const Fr& phi, uint64_t high) { return gen_randomness(phi, Fr::from_u64(high)); }

uint64_t update_high_bits(const UpdateShape& shape, uint64_t node, unsigned h) {
  return node >> (shape.challenge_bits - h);
}

std::vector<uint64_t> update_challenges(const UpdateShape& shape, const Fr& comm_r_new, uint64_t k) {
  const unsigned b = shape.random_bits(), per_digest = shape.challenges_per_digest();
  std::vector<uint64_t> out;
  out.reserve(shape.challenges);
  for (uint64_t j = 0; out.size() < shape.challenges; ++j) {
    const Fr digest = gen_randomness(comm_r_new, Fr::from_u64(k * shape.digests() + j));
    for (unsigned i = 0; i < per_digest && out.size() < shape.challenges; ++i) {
      uint64_t c = 0;
      for (unsigned bit = 0; bit < b; ++bit)
        if (r1cs::canonical_bit(digest, i * b + bit)) c |= uint64_t(1) << bit;
      out.push_back(c | (k << b));
    }
  }
  return out;
}

}  // namespace cuzk::filecoin::vanilla
