// The EmptySectorUpdate circuit's size at the sizes that take seconds to count: upstream's 16 and
// 32 KiB test sizes and its 32 GiB count (storage-proofs-update tests/circuit.rs), the 512 MiB
// and 64 GiB counts derived in reference/filecoin-circuits.md §3.3, and upstream's larger
// apex_por gadget counts (gadgets.rs).
#include <gtest/gtest.h>

#include "update_counts.hpp"
#include "update_test_sector.hpp"

namespace cuzk::filecoin {
namespace {

using test::count_update;

constexpr uint64_t kMiB = 1 << 20, kGiB = kMiB * 1024;

TEST(UpdateCountsSlow, UpstreamSixteenAndThirtyTwoKiB) {
  EXPECT_EQ(count_update(test::upstream_shape(1 << 9)).constraints, 6'300'021u);
  EXPECT_EQ(count_update(test::upstream_shape(1 << 10)).constraints, 6'760'091u);
}

TEST(UpdateCountsSlow, FiveHundredTwelveMiB) {
  const r1cs::ShapeCounts n = count_update(vanilla::update_shape(512 * kMiB).value());
  EXPECT_EQ(n.constraints, 57'450'479u);
  EXPECT_EQ(n.inputs, 5u);
}

TEST(UpdateCountsSlow, ThirtyTwoGiB) {
  // tests/circuit.rs test_empty_sector_update_constraints_32gib; §1.4: n = 81,049,504 rows.
  const r1cs::ShapeCounts n = count_update(vanilla::update_shape(32 * kGiB).value());
  EXPECT_EQ(n.constraints, 81'049'499u);
  EXPECT_EQ(n.inputs, 5u);
  EXPECT_EQ(n.rows(), 81'049'504u);
}

TEST(UpdateCountsSlow, SixtyFourGiB) {
  const r1cs::ShapeCounts n = count_update(vanilla::update_shape(64 * kGiB).value());
  EXPECT_EQ(n.constraints, 85'006'101u);
  EXPECT_EQ(n.rows(), 85'006'106u);
}

TEST(UpdateCountsSlow, ApexPorLargerTrees) {
  // gadgets.rs test_apex_por_gadget_small_sector_sizes (16 and 32 KiB: 2 partitions of 128) and
  // test_apex_por_gadget_16kib_4_8_partitions.
  EXPECT_EQ(test::count_apex_por(2, 128), 5'808'515u);
  EXPECT_EQ(test::count_apex_por(4, 16), 771'448u);
  EXPECT_EQ(test::count_apex_por(8, 8), 453'797u);
}

}  // namespace
}  // namespace cuzk::filecoin
