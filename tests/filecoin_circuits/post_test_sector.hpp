// Small FallbackPoSt instances for tests: a 2 KiB sector (one 8-0-0 tree over 64 leaves, built
// with the native Poseidon node hash), its vanilla proof at the challenges the reference's formula
// gives, computed here independently of the library.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "filecoin/types/domain.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "r1cs/gadgets/poseidon.hpp"
#include "r1cs/gadgets/sha256.hpp"

namespace cuzk::filecoin::test {

inline Fr random_fr(std::mt19937_64& rng) {
  uint64_t v[Fr::N];
  for (auto& x : v) x = rng();
  v[Fr::N - 1] &= (uint64_t(1) << 62) - 1;
  return Fr::from_canonical(v);
}

// Randomness as callers pass it: 32 random bytes with the top two bits cleared.
inline Domain random_randomness(std::mt19937_64& rng) {
  Domain d;
  for (auto& b : d) b = uint8_t(rng());
  d[31] &= 0x3f;
  return d;
}

// reference/filecoin-circuits.md §3.2: u64_le(sha256(randomness ‖ sector_id LE ‖ index LE)[0..8]) mod nodes.
inline uint64_t leaf_challenge(const Domain& randomness, uint64_t sector_id, uint64_t index, uint64_t nodes) {
  std::vector<uint8_t> msg(randomness.begin(), randomness.end());
  for (uint64_t v : {sector_id, index})
    for (int i = 0; i < 8; ++i) msg.push_back(uint8_t(v >> (8 * i)));
  const auto digest = r1cs::sha256(msg);
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= uint64_t(digest[size_t(i)]) << (8 * i);
  return x % nodes;
}

// A replica's tree_r_last of 64 leaves (two arity-8 levels) and its comm_c.
struct SmallSector {
  uint64_t id = 0;
  std::vector<Fr> leaves;  // 64
  std::vector<Fr> middle;  // 8
  Fr comm_r_last, comm_c, comm_r;

  SmallSector(uint64_t sector_id, std::mt19937_64& rng) : id(sector_id) {
    const auto& c8 = r1cs::poseidon_constants_8();
    for (int i = 0; i < 64; ++i) leaves.push_back(random_fr(rng));
    for (int i = 0; i < 8; ++i) middle.push_back(r1cs::poseidon_merkle_node(c8, &leaves[size_t(8 * i)]));
    comm_r_last = r1cs::poseidon_merkle_node(c8, middle.data());
    comm_c = random_fr(rng);
    const Fr pair[2] = {comm_c, comm_r_last};
    comm_r = r1cs::poseidon_merkle_node(r1cs::poseidon_constants_2(), pair);
  }

  static PathElement element(const Fr* group, size_t index) {
    PathElement e;
    e.index = index;
    for (size_t k = 0; k < 8; ++k)
      if (k != index) e.hashes.push_back(fr_to_domain(group[k]));
    return e;
  }

  MerkleProof proof(uint64_t leaf) const {
    MerkleProof p;
    p.kind = MerkleProof::Kind::single;
    p.root = fr_to_domain(comm_r_last);
    p.leaf = fr_to_domain(leaves[leaf]);
    p.base.push_back(element(&leaves[leaf / 8 * 8], leaf % 8));
    p.base.push_back(element(middle.data(), leaf / 8));
    return p;
  }

  // The vanilla proof of these challenged leaves, in order.
  FallbackPostSectorProof vanilla(const std::vector<uint64_t>& challenged) const {
    FallbackPostSectorProof v;
    v.sector_id = id;
    v.comm_r = fr_to_domain(comm_r);
    PostSectorProof s;
    for (uint64_t c : challenged) s.inclusion_proofs.push_back(proof(c));
    s.comm_c = fr_to_domain(comm_c);
    s.comm_r_last = fr_to_domain(comm_r_last);
    v.sectors.push_back(std::move(s));
    return v;
  }
};

}  // namespace cuzk::filecoin::test
