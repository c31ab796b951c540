// FallbackPoSt's shape, counted with the shape-only CountingSystem: the constraint and input counts
// that rust-fil-proofs' own tests assert (storage-proofs-post/tests/fallback_circuit.rs), the
// production sizes of reference/filecoin-circuits.md §3.2 (WindowPoSt 32/64 GiB as upstream's
// comments give them, WinningPoSt) and the prover's row counts of §1.4.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "filecoin/circuits/post_circuit.hpp"
#include "r1cs/counting_system.hpp"

namespace cuzk::filecoin {
namespace {

struct Counts {
  size_t constraints = 0, inputs = 0, aux = 0, rows = 0;
};

Counts count(const FallbackPostParams& params) {
  auto circuit = FallbackPostCircuit::blank(params);
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  if (!circuit) return {};
  r1cs::CountingSystem cs;
  const Status s = circuit->synthesize(cs);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cs.num_inputs(), 1 + circuit->num_public_inputs());
  return {cs.num_constraints(), cs.num_inputs(), cs.num_aux(), cs.num_rows()};
}

Counts count(PostKind kind, uint64_t sector_size) {
  auto params = fallback_post_params(kind, sector_size, PostApiVersion::v1_2_0);
  EXPECT_TRUE(params.ok()) << params.message();
  return params ? count(*params) : Counts{};
}

// The same counts with runs of sectors counted on every core (r1cs::count_pieces), for the
// production WindowPoSt partitions.
Counts count_on_all_cores(PostKind kind, uint64_t sector_size) {
  auto params = fallback_post_params(kind, sector_size, PostApiVersion::v1_2_0);
  EXPECT_TRUE(params.ok()) << params.message();
  if (!params) return {};
  auto circuit = FallbackPostCircuit::blank(*params);
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  if (!circuit) return {};
  auto n = r1cs::count_pieces(
      params->sector_count,
      [&](r1cs::ConstraintSystem& cs, size_t begin, size_t end) {
        return circuit->synthesize_sectors(cs, begin, end);
      },
      std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_TRUE(n.ok()) << n.message();
  return n ? Counts{n->constraints, n->inputs, n->aux, n->rows()} : Counts{};
}

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

// fallback_circuit.rs `test_fallback_post`: 64 leaves per base tree, 5 challenges a sector,
// API 1.1.0; (tree, sectors per partition, expected inputs, expected constraints).
TEST(PostCounts, UpstreamCircuitTests) {
  struct Case {
    TreeShape tree;
    size_t sectors;
    size_t inputs, constraints;
  };
  const Case cases[] = {
      {{8, 0, 0}, 3, 19, 16'869},  // single_partition_base_8, single_partition_smaller_base_8 and
                                   // two_partitions_smaller_base_8 (3 sectors a partition)
      {{8, 4, 0}, 3, 19, 22'674},  // single_partition_sub_8_4
      {{8, 4, 2}, 3, 19, 27'384},  // single_partition_top_8_4_2
      {{8, 0, 0}, 2, 13, 11'246},  // two_partitions_base_8
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.tree.name() + " × " + std::to_string(c.sectors));
    FallbackPostParams p;
    p.sector_size = 64 * c.tree.base_trees() * 32;
    p.tree = c.tree;
    p.challenge_count = 5;
    p.sector_count = c.sectors;
    p.api_version = PostApiVersion::v1_1_0;
    const Counts n = count(p);
    EXPECT_EQ(n.inputs, c.inputs);
    EXPECT_EQ(n.constraints, c.constraints);
  }
}

// fallback_circuit.rs `test_fallback_post_circuit_poseidon_base_8_bench_cs`: a 32 GiB sector in
// one 8-0-0 tree (10 levels), 10 challenges, 5 sectors.
TEST(PostCounts, UpstreamBench32GiBBase8) {
  FallbackPostParams p;
  p.sector_size = 32 * kGiB;
  p.tree = {8, 0, 0};
  p.challenge_count = 10;
  p.sector_count = 5;
  p.api_version = PostApiVersion::v1_1_0;
  EXPECT_EQ(count(p).constraints, 266'665u);
}

TEST(PostCounts, WinningPoSt) {
  // §3.2: 32 GiB 370,590, 64 GiB 391,314; 133 inputs; §1.4: n = 370,723 at 32 GiB.
  const Counts g32 = count(PostKind::winning, 32 * kGiB);
  EXPECT_EQ(g32.constraints, 370'590u);
  EXPECT_EQ(g32.inputs, 133u);
  EXPECT_EQ(g32.rows, 370'723u);
  const Counts g64 = count(PostKind::winning, 64 * kGiB);
  EXPECT_EQ(g64.constraints, 391'314u);
  EXPECT_EQ(g64.inputs, 133u);
  // The test sizes: 66 × (313 + inclusion), inclusion 1,062 / 3,182 / 4,242 (§3.2).
  EXPECT_EQ(count(PostKind::winning, 2 * kKiB).constraints, 66u * (313 + 1'062));
  EXPECT_EQ(count(PostKind::winning, 8 * kMiB).constraints, 66u * (313 + 3'182));
  EXPECT_EQ(count(PostKind::winning, 512 * kMiB).constraints, 66u * (313 + 4'242));
}

TEST(PostCounts, SectorRunsCountAsTheWhole) {
  // Sectors counted in runs on separate systems add up to the sequential count (§1.6).
  for (PostKind kind : {PostKind::winning, PostKind::window}) {
    const Counts whole = count(kind, 8 * kMiB);
    const Counts runs = count_on_all_cores(kind, 8 * kMiB);
    EXPECT_EQ(runs.constraints, whole.constraints);
    EXPECT_EQ(runs.inputs, whole.inputs);
    EXPECT_EQ(runs.aux, whole.aux);
  }
}

TEST(PostCounts, WindowPoStTestSizes) {
  // Two circuit sectors of 10 challenges: 2 × (313 + 10 × inclusion), 1 + 2 × 11 inputs.
  const std::pair<uint64_t, size_t> sizes[] = {{2 * kKiB, 1'062}, {8 * kMiB, 3'182}, {512 * kMiB, 4'242}};
  for (const auto& [size, inclusion] : sizes) {
    const Counts n = count(PostKind::window, size);
    EXPECT_EQ(n.constraints, 2 * (313 + 10 * inclusion)) << size;
    EXPECT_EQ(n.inputs, 23u) << size;
  }
}

TEST(PostCounts, WindowPoSt32GiB) {
  // §3.2 (upstream comment): 125,279,217 constraints, 1 + 2349 × 11 = 25,840 inputs; §1.4: n =
  // 125,305,057.
  const Counts n = count_on_all_cores(PostKind::window, 32 * kGiB);
  EXPECT_EQ(n.constraints, 125'279'217u);
  EXPECT_EQ(n.inputs, 25'840u);
  EXPECT_EQ(n.rows, 125'305'057u);
}

TEST(PostCounts, WindowPoSt64GiB) {
  // §3.2 (upstream comment): 129,887,900 constraints; 1 + 2300 × 11 inputs.
  const Counts n = count_on_all_cores(PostKind::window, 64 * kGiB);
  EXPECT_EQ(n.constraints, 129'887'900u);
  EXPECT_EQ(n.inputs, 1u + 2300 * 11);
}

TEST(PostCounts, ShapesThatCannotBe) {
  FallbackPostParams p;
  p.sector_size = 3 * 64 * 32;  // 192 leaves: not a power of 8
  p.tree = {8, 0, 0};
  p.challenge_count = 1;
  p.sector_count = 1;
  auto c = FallbackPostCircuit::blank(p);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(
      c.message(),
      "FallbackPoSt: a sector of 6144 bytes in a tree of shape 8-0-0: 192 leaves per base tree are not a "
      "power of 8");
  p.sector_size = 2048;
  p.challenge_count = 0;
  EXPECT_FALSE(FallbackPostCircuit::blank(p).ok());
  EXPECT_FALSE(fallback_post_params(PostKind::window, 4 * kKiB, PostApiVersion::v1_2_0).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
