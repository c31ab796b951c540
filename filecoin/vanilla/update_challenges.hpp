// SnapDeals' randomness and challenges (reference/filecoin-circuits.md §3.3, §6.6, §6.8;
// rust-fil-proofs: storage-proofs-update/src/vanilla.rs `phi`, `rho`, challenges.rs). Every hash
// here is neptune's Poseidon of arity 2 with the domain tag Custom(1) = 2^40:
//   φ = H(comm_d_new, comm_r_old);
//   ρ(high) = H(φ, high), high = a node's top h bits (node >> (log2(nodes) − h));
//   digest j of partition k = H(comm_r_new, k·D + j), D = digests per partition. Its 255
//   little-endian bits are cut into b-bit chunks (b = log2(nodes) − partition_bits), at most
//   254 div b of them per digest; challenge = chunk | k << b.
#pragma once

#include <cstdint>
#include <vector>

#include "filecoin/types/domain.hpp"
#include "filecoin/vanilla/update_shape.hpp"

namespace cuzk::filecoin::vanilla {

Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old);
Fr update_rho(const Fr& phi, uint64_t high);
// The top h bits of `node`: node >> (challenge_bits − h).
uint64_t update_high_bits(const UpdateShape& shape, uint64_t node, unsigned h);

// Partition k's challenges, in order (k < shape.partitions).
std::vector<uint64_t> update_challenges(const UpdateShape& shape, const Fr& comm_r_new, uint64_t k);

}  // namespace cuzk::filecoin::vanilla
