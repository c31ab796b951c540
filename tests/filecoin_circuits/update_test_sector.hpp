// SnapDeals instances for tests: a sealed 2 KiB sector updated with new data, and, for shapes too
// large to seal in a unit test (multi-partition sizes such as upstream's 16 KiB test size), an
// old replica of random field elements under an arbitrary comm_c, which is all the update reads
// of a sealed sector. Also upstream's test randomness (rand_xorshift's XorShiftRng seeded with
// storage-proofs-core's TEST_SEED, and blstrs' Scalar::random) to reproduce upstream's vectors.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "filecoin/vanilla/fr32.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "filecoin/vanilla/update.hpp"
#include "tests/filecoin_vanilla/sealed_2kib.hpp"

namespace cuzk::filecoin::test {

// rand_xorshift 0.3: Marsaglia's xorshift128 over four u32 words read little-endian from the seed;
// next_u64 is two next_u32, low word first (rand_core's next_u64_via_u32).
class XorShiftRng {
 public:
  explicit XorShiftRng(const uint8_t (&seed)[16]) {
    for (int i = 0; i < 4; ++i)
      s_[i] = uint32_t(seed[4 * i]) | uint32_t(seed[4 * i + 1]) << 8 | uint32_t(seed[4 * i + 2]) << 16 |
              uint32_t(seed[4 * i + 3]) << 24;
  }
  uint32_t next_u32() {
    const uint32_t t = s_[0] ^ (s_[0] << 11);
    s_[0] = s_[1];
    s_[1] = s_[2];
    s_[2] = s_[3];
    s_[3] = s_[3] ^ (s_[3] >> 19) ^ (t ^ (t >> 8));
    return s_[3];
  }
  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    return uint64_t(next_u32()) << 32 | lo;
  }

 private:
  uint32_t s_[4];
};

inline constexpr uint8_t kTestSeed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                          0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

// blstrs 0.7 Scalar::random: four next_u64 as little-endian limbs, the top bit cleared, drawn again
// while ≥ r.
inline Fr blstrs_random(XorShiftRng& rng) {
  for (;;) {
    uint64_t v[4];
    for (auto& x : v) x = rng.next_u64();
    v[3] &= ~(uint64_t(1) << 63);
    Domain d;
    for (int i = 0; i < 32; ++i) d[size_t(i)] = uint8_t(v[i / 8] >> (8 * (i % 8)));
    if (auto x = domain_to_fr(d)) return *x;
  }
}

// TreeR's shape for each of upstream's allowed node counts (constants.rs validate_tree_r_shape).
inline TreeShape upstream_tree(uint64_t nodes) {
  switch (nodes) {
    case 1 << 5:
    case 1 << 8:
      return {8, 4, 0};
    case 1 << 7:
    case 1 << 19:
      return {8, 2, 0};
    case 1 << 9:
    case uint64_t(1) << 30:
      return {8, 8, 0};
    case 1 << 10:
    case uint64_t(1) << 31:
      return {8, 8, 2};
    default:
      return {8, 0, 0};  // 2^6, 2^18, 2^24
  }
}

inline vanilla::UpdateShape upstream_shape(uint64_t nodes) {
  return vanilla::update_shape_for_nodes(nodes, upstream_tree(nodes)).value();
}

// storage-proofs-update's ALLOWED_SECTOR_SIZES, in nodes.
inline constexpr uint64_t kUpstreamNodes[11] = {
    1 << 5,           1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 10, 1 << 18, 1 << 19, 1 << 24, uint64_t(1) << 30,
    uint64_t(1) << 31};

inline Domain random_domain(std::mt19937_64& rng) {
  Domain d;
  for (auto& b : d) b = uint8_t(rng());
  d[31] &= 0x3f;
  return d;
}

inline Domain filled(uint8_t v) {
  Domain d;
  d.fill(v);
  return d;
}

// A sealed 2 KiB sector (StackedDrg2KiBV1_1) and its update with full new data, h = 1.
struct Updated2KiB {
  vanilla::TestSector sealed;
  vanilla::UpdatedSector updated;
  std::vector<UpdatePartitionProof> proofs;
};

inline const Updated2KiB& updated_2kib() {
  static const Updated2KiB u = [] {
    Updated2KiB x;
    x.sealed =
        vanilla::seal_test_sector(5, filled(1), 42, filled(2), filled(3), pattern_bytes(2032, 7)).value();
    x.updated = vanilla::update_test_sector(x.sealed, pattern_bytes(2032, 99), 1).value();
    x.proofs = vanilla::update_vanilla_proofs(vanilla::update_view(x.sealed, x.updated)).value();
    return x;
  }();
  return u;
}

// An update of `shape` over an old replica of random field elements: the old tree and comm_c
// stand in for a sealed sector's tree_r_last and comm_c.
struct RandomUpdate {
  vanilla::UpdateShape shape;
  vanilla::MerkleTree tree_r_old;
  vanilla::UpdatedSector updated;
  std::vector<UpdatePartitionProof> proofs;
};

inline RandomUpdate random_update(const vanilla::UpdateShape& shape, unsigned h, std::mt19937_64& rng) {
  RandomUpdate r;
  r.shape = shape;
  std::vector<Domain> old(shape.nodes), data(shape.nodes);
  for (auto& d : old) d = random_domain(rng);
  for (auto& d : data) d = random_domain(rng);
  r.tree_r_old =
      vanilla::MerkleTree::dense(vanilla::poseidon_layout(shape.tree, shape.nodes).value(), old).value();
  r.updated = vanilla::encode_update(shape, r.tree_r_old, random_domain(rng), data, h).value();
  vanilla::UpdateView view;
  view.shape = &r.shape;
  view.tree_r_old = &r.tree_r_old;
  view.tree_d_new = &r.updated.tree_d_new;
  view.tree_r_new = &r.updated.tree_r_new;
  view.comm_c = r.updated.comm_c;
  view.comm_r_new = r.updated.comm_r_new;
  r.proofs = vanilla::update_vanilla_proofs(view).value();
  return r;
}

}  // namespace cuzk::filecoin::test
