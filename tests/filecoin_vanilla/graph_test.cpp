// The SDR graph and labels against rust-fil-proofs' data: the parent-cache digests of
// storage-proofs-porep/parent_cache.json (SHA-256 of nodes × 14 parents as u32 LE, keyed by a file
// stem that hashes the graph identifier and the Feistel keys), and the last labels of
// storage-proofs-porep/tests/stacked_vanilla.rs `test_stacked_porep_generate_labels`. Also the
// zero-piece commitments of go-commp-utils (zerocomm/zerocomm.go `PieceComms`).
#include <gtest/gtest.h>

#include <map>

#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

using test::domain_from_u64s_le;
using test::from_hex;

// parent_cache.json: file stem → digest (the 2 KiB and 8 MiB entries).
const std::map<std::string, std::string>& parent_cache_json() {
  static const std::map<std::string, std::string> m = {
      {"v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
       "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
      {"v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
       "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
      {"v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
       "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
      {"v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
       "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
  };
  return m;
}

void expect_parent_cache(uint64_t registered_proof_id) {
  const SealProofInfo info = seal_proof_info(registered_proof_id).value();
  const StackedGraph graph(info.shape.nodes, info.porep_id, info.api);
  const std::string name = parent_cache_name(graph);
  auto it = parent_cache_json().find(name);
  ASSERT_NE(it, parent_cache_json().end()) << "no parent_cache.json entry " << name;
  EXPECT_EQ(parent_cache_digest(graph.parent_table()), it->second) << info.name;
}

TEST(ParentCache, TwoKiBLegacyOrder) { expect_parent_cache(0); }
TEST(ParentCache, TwoKiBV1_1) { expect_parent_cache(5); }
TEST(ParentCache, EightMiBV1_1) { expect_parent_cache(6); }

TEST(Graph, ParentRules) {
  for (uint64_t id : {0, 5}) {
    const SealProofInfo info = seal_proof_info(id).value();
    const StackedGraph g(info.shape.nodes, info.porep_id, info.api);
    uint32_t p[kParents];
    g.parents(0, p);
    for (unsigned i = 0; i < kDrgParents; ++i) EXPECT_EQ(p[i], 0u);
    for (uint64_t v = 2; v < g.nodes(); ++v) {
      g.parents(v, p);
      EXPECT_EQ(p[id == 0 ? 5 : 0], v - 1);
      for (unsigned i = 0; i < kDrgParents; ++i) EXPECT_LT(p[i], v);
      for (unsigned i = kDrgParents; i < kParents; ++i) EXPECT_LT(p[i], g.nodes());
    }
  }
}

struct LabelVector {
  uint64_t nodes;
  uint8_t porep_fill;
  ApiVersion api;
  Domain last_label;
};

TEST(Labels, StackedVanillaGenerateLabelsVectors) {
  const LabelVector vectors[] = {
      {64, 0, ApiVersion::v1_0_0,
       domain_from_u64s_le(0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37)},
      {128, 0, ApiVersion::v1_0_0,
       domain_from_u64s_le(0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be)},
      {64, 123, ApiVersion::v1_1_0,
       domain_from_u64s_le(0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5)},
      {128, 123, ApiVersion::v1_1_0,
       domain_from_u64s_le(0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd)},
      {64, 123, ApiVersion::v1_2_0,
       domain_from_u64s_le(0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5)},
  };
  for (const LabelVector& t : vectors) {
    PorepId porep_id;
    porep_id.fill(t.porep_fill);
    const StackedGraph g(t.nodes, porep_id, t.api);
    const auto labels = label_layers(g, g.parent_table(), test::filled(9), 11);
    EXPECT_EQ(labels[10][t.nodes - 1], t.last_label) << t.nodes << " nodes, api " << int(t.api);
  }
}

// create_label on one node agrees with the layer loop (the checker's and the prover's path).
TEST(Labels, SingleLabelAgreesWithLayers) {
  const SealProofInfo info = seal_proof_info(5).value();
  const StackedGraph g(info.shape.nodes, info.porep_id, info.api);
  const std::vector<uint32_t> table = g.parent_table();
  const Domain replica_id = test::filled(3);
  const auto labels = label_layers(g, table, replica_id, 3);
  for (uint32_t layer = 1; layer <= 3; ++layer)
    for (uint64_t v : {0, 1, 2, 17, 63}) {
      std::vector<Domain> ps;
      const unsigned n = layer == 1 ? kDrgParents : kParents;
      for (unsigned i = 0; i < n; ++i)
        ps.push_back(i < kDrgParents ? labels[layer - 1][table[v * kParents + i]]
                                     : labels[layer - 2][table[v * kParents + i]]);
      const auto expanded = expand_parents(ps);
      EXPECT_EQ(create_label(replica_id, layer, v, expanded), labels[layer - 1][v]) << layer << " " << v;
    }
}

TEST(ZeroCommitments, GoCommpUtilsPieceComms) {
  const char* piece_comms[] = {
      "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
      "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",
      "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",
      "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",
      "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",
      "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624",
      "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f",
      "f9226160c8f927bfdcc418cdf203493146008eaefb7d02194d5e548189005108",
  };
  for (unsigned k = 0; k < std::size(piece_comms); ++k) {
    const Domain z = zero_commitment(k + 2);
    EXPECT_EQ(std::vector<uint8_t>(z.begin(), z.end()), from_hex(piece_comms[k])) << "entry " << k;
  }
  // Entries 28 (32 GiB of zeros, 2^30 leaves) and 34, the last.
  const Domain z28 = zero_commitment(30), z34 = zero_commitment(36);
  EXPECT_EQ(std::vector<uint8_t>(z28.begin(), z28.end()),
            from_hex("077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"));
  EXPECT_EQ(std::vector<uint8_t>(z34.begin(), z34.end()),
            from_hex("aaaa8c4cb40aacee1e02dc65424b2a6c8e99f803b72f7929c4101d7fae6bff32"));
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
