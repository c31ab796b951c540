// The SDR label hash in and out of circuit. Counts: 522,269 rows and 521,749 aux per label with
// the inputs decomposed as the PoRep circuit decomposes them (reference/filecoin-circuits.md
// §3.1.3, consistent with Curio's measured 32 GiB partition), and create_label.rs's own test,
// 532,025 with its 9,728 allocated input bits, constant layer 3 and constant node 22.
#include <gtest/gtest.h>

#include <array>

#include "filecoin/gadgets/create_label.hpp"
#include "filecoin/gadgets/sha254.hpp"
#include "helpers.hpp"

namespace cuzk::filecoin {
namespace {

using r1cs::AllocatedNum;
using r1cs::Boolean;
using r1cs::RecordingSystem;
using BitSpan = std::span<const Boolean>;

// One label as the PoRep circuit synthesizes it for `layer`: the parents' values decomposed in
// order (6 DRG, then for layer > 1 the 8 expander ones), expanded to 37 (layer 1: six times the
// 6, then parent 0; later layers: the 14 twice, then the first 9).
void porep_label(uint32_t layer, std::mt19937_64& rng) {
  SCOPED_TRACE("layer " + std::to_string(layer));
  const std::vector<Fr> edges = test::edge_values(rng);
  RecordingSystem cs;
  const Fr id = edges[2];  // r - 1: every top bit pattern of a replica id
  const AllocatedNum replica_id = AllocatedNum::alloc(cs, id);
  const std::vector<Boolean> id_bits = test::porep_bits(cs, replica_id);
  const uint64_t challenge = rng() >> 34;
  const UInt64 node = UInt64::alloc(cs, challenge);

  const size_t n = layer == 1 ? 6 : 14;
  std::vector<Fr> values;
  std::vector<std::vector<Boolean>> bits;
  for (size_t p = 0; p < n; ++p) {
    values.push_back(p < edges.size() ? edges[p] : test::random_fr(rng));
    bits.push_back(test::porep_bits(cs, AllocatedNum::alloc(cs, values.back())));
  }
  std::array<BitSpan, kLabelParents> expanded;
  std::array<Domain, kLabelParents> expanded_values;
  for (size_t k = 0; k < kLabelParents; ++k) {
    const size_t p = layer == 1 ? k % 6 : k % 14;  // 36 → parent 0; 28..36 → parents 0..8
    expanded[k] = bits[p];
    expanded_values[k] = fr_to_domain(values[p]);
  }

  const size_t rows0 = cs.num_constraints(), aux0 = cs.num_aux(), inputs0 = cs.num_inputs();
  auto label = create_label_circuit(cs, id_bits, expanded, r1cs::UInt32::constant(layer), node);
  ASSERT_TRUE(label.ok()) << label.message();
  EXPECT_EQ(cs.num_constraints() - rows0, 522269u);
  EXPECT_EQ(cs.num_aux() - aux0, 521749u);
  EXPECT_EQ(cs.num_inputs(), inputs0);
  EXPECT_EQ(test::domain_of(*label), label_hash(fr_to_domain(id), layer, challenge, expanded_values));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(CreateLabel, PoRepDecompositionCountsAndValues) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  porep_label(1, rng);
  porep_label(11, rng);
}

TEST(CreateLabel, UpstreamTestCount) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  RecordingSystem cs;
  std::array<Domain, kLabelParents> parents;
  std::array<std::vector<Boolean>, kLabelParents> parent_bits;
  for (size_t k = 0; k < kLabelParents; ++k) {
    parents[k] = fr_to_domain(test::random_fr(rng));
    parent_bits[k] = test::alloc_byte_bits(cs, parents[k], true);
  }
  const Domain id = fr_to_domain(test::random_fr(rng));
  const std::vector<Boolean> id_bits = test::alloc_byte_bits(cs, id, true);
  std::array<BitSpan, kLabelParents> spans;
  for (size_t k = 0; k < kLabelParents; ++k) spans[k] = parent_bits[k];
  auto label = create_label_circuit(cs, id_bits, spans, r1cs::UInt32::constant(3), UInt64::constant(22));
  ASSERT_TRUE(label.ok()) << label.message();
  EXPECT_EQ(cs.num_constraints(), 532025u);
  EXPECT_EQ(test::domain_of(*label), label_hash(id, 3, 22, parents));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(CreateLabel, NativeLayout) {
  // Node 0 has no parents: the 64-byte header alone, layer and node big-endian at bytes 32 and 36.
  Domain id{};
  for (size_t i = 0; i < 32; ++i) id[i] = uint8_t(i + 1);
  std::vector<uint8_t> header(64, 0);
  std::copy(id.begin(), id.end(), header.begin());
  header[35] = 0x07;                  // layer 7
  header[36] = 0x01, header[43] = 2;  // node 2^56 + 2
  EXPECT_EQ(label_hash(id, 7, (uint64_t(1) << 56) + 2, {}), sha254(header));
  const Domain p = fr_to_domain(Fr::from_u64(5));
  header.insert(header.end(), p.begin(), p.end());
  EXPECT_EQ(label_hash(id, 7, (uint64_t(1) << 56) + 2, std::span<const Domain>(&p, 1)), sha254(header));
}

TEST(CreateLabel, BadShapesAreErrors) {
  RecordingSystem cs;
  const std::vector<Boolean> bits256(256, Boolean::constant(true)), bits31(31), bits257(257);
  std::array<BitSpan, kLabelParents> parents;
  parents.fill(bits256);
  const auto layer = r1cs::UInt32::constant(1);
  const UInt64 node = UInt64::constant(1);
  EXPECT_FALSE(create_label_circuit(cs, bits31, parents, layer, node).ok());
  EXPECT_FALSE(create_label_circuit(cs, bits257, parents, layer, node).ok());
  EXPECT_FALSE(create_label_circuit(cs, bits256, std::span(parents).first(36), layer, node).ok());
  parents[5] = bits257;
  EXPECT_FALSE(create_label_circuit(cs, bits256, parents, layer, node).ok());
  parents[5] = BitSpan();
  EXPECT_FALSE(create_label_circuit(cs, bits256, parents, layer, node).ok());
  EXPECT_EQ(cs.num_constraints(), 0u);
  // All constant: a constant label at no cost.
  parents.fill(bits256);
  auto label = create_label_circuit(cs, bits256, parents, layer, node);
  ASSERT_TRUE(label.ok());
  EXPECT_EQ(cs.num_constraints(), 1u);  // only the packing row
  std::array<Domain, kLabelParents> ones;
  Domain all_ones;
  all_ones.fill(0xff);
  ones.fill(all_ones);
  EXPECT_EQ(test::domain_of(*label), label_hash(all_ones, 1, 1, ones));
  EXPECT_TRUE(cs.is_satisfied());
}

}  // namespace
}  // namespace cuzk::filecoin
