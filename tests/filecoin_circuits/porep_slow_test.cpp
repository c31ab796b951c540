// The PoRep circuit at production size (label `slow`): the whole 32 and 64 GiB partitions counted
// on every core against reference/filecoin-circuits.md §3.1.5 (the 32 GiB row is Curio's
// measurement of the real circuit), and a virtual 32 GiB sector's commit-phase-1 partition checked
// and synthesized with values: every challenge's rows hold, its input variables are the public
// inputs, and the counts are the table's. The challenges are synthesized on every core and checked
// as they come instead of being joined, so the test needs a few GB rather than the 17 GB of a
// joined 32 GiB assignment; the time is logged, never asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "filecoin/circuits/porep_synthesis.hpp"
#include "filecoin/circuits/porep_vanilla.hpp"
#include "filecoin/vanilla/virtual_sector.hpp"

namespace cuzk::filecoin {
namespace {

constexpr uint64_t kGiB = uint64_t(1) << 30;

unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

r1cs::ShapeCounts count_on_all_cores(uint64_t sector_size) {
  auto circuit = PorepCircuit::blank(porep_params(sector_size).value());
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  if (!circuit) return {};
  const auto t = std::chrono::steady_clock::now();
  auto n = count_porep(*circuit, cores());
  std::printf("counted a %llu GiB PoRep partition on %u threads in %.2f s\n",
              static_cast<unsigned long long>(sector_size / kGiB), cores(), seconds_since(t));
  EXPECT_TRUE(n.ok()) << n.message();
  return n ? *n : r1cs::ShapeCounts{};
}

TEST(PorepCounts, ThirtyTwoGiB) {
  const r1cs::ShapeCounts n = count_on_all_cores(32 * kGiB);
  EXPECT_EQ(n.constraints, 130'278'541u);
  EXPECT_EQ(n.inputs, 328u);
  EXPECT_EQ(n.rows(), 130'278'869u);
  EXPECT_EQ(n.aux, 130'169'893u);
}

TEST(PorepCounts, SixtyFourGiB) {
  const r1cs::ShapeCounts n = count_on_all_cores(64 * kGiB);
  EXPECT_EQ(n.constraints, 131'185'849u);
  EXPECT_EQ(n.inputs, 328u);
  EXPECT_EQ(n.rows(), 131'186'177u);
  EXPECT_EQ(n.aux, 131'076'643u);
}

TEST(PorepSynthesis, VirtualThirtyTwoGiBPartition) {
  Domain prover_id, ticket, seed;
  prover_id.fill(4);
  ticket.fill(5);
  seed.fill(6);
  // Registered proof 8: StackedDrg32GiBV1_1.
  const SealCommitPhase1Output c1 = vanilla::virtual_commit_phase1(8, prover_id, 77, ticket, seed, 3).value();
  const size_t k = 7;
  auto t = std::chrono::steady_clock::now();
  auto part = porep_partition_from_c1(c1, k, vanilla::PorepCheckOptions{prover_id, 77});
  ASSERT_TRUE(part.ok()) << part.message();
  std::printf("checked 32 GiB partition %zu and built its circuit in %.2f s\n", k, seconds_since(t));
  ASSERT_EQ(part->public_inputs.size(), 327u);

  t = std::chrono::steady_clock::now();
  r1cs::ProvingAssignment base;
  auto top = part->circuit.synthesize_top(base);
  ASSERT_TRUE(top.ok()) << top.message();
  const size_t top_inputs = base.num_inputs(), top_aux = base.num_aux();
  size_t constraints = base.num_constraints(), inputs = top_inputs, aux = top_aux, bad_rows = 0,
         bad_inputs = 0;
  const Status s = synthesize_porep_pieces(
      part->circuit, base.fork(), *top, cores(), [&](size_t i, r1cs::ProvingAssignment&& piece) -> Status {
        auto as = piece.finish();  // appends the piece's input rows, which hold too
        if (!as) return as.error();
        for (size_t j = 0; j < as->a.size(); ++j) bad_rows += as->a[j] * as->b[j] != as->c[j];
        const size_t own_inputs = as->input_assignment.size() - top_inputs;
        for (size_t x = 0; x < own_inputs; ++x)
          bad_inputs += as->input_assignment[top_inputs + x] != part->public_inputs[3 + 18 * i + x];
        constraints += as->a.size() - as->input_assignment.size();
        inputs += own_inputs;
        aux += as->aux_assignment.size() - top_aux;
        return Status::Ok();
      });
  ASSERT_TRUE(s.ok()) << s.message();
  std::printf("synthesized and checked the 18 challenges on %u threads in %.2f s\n", cores(),
              seconds_since(t));
  EXPECT_EQ(bad_rows, 0u);
  EXPECT_EQ(bad_inputs, 0u);
  EXPECT_EQ(constraints, 130'278'541u);
  EXPECT_EQ(inputs, 328u);
  EXPECT_EQ(aux, 130'169'893u);
  // The top part's input variables are ONE, replica_id, comm_d and comm_r.
  auto top_as = base.finish();
  ASSERT_TRUE(top_as.ok());
  EXPECT_TRUE(std::equal(part->public_inputs.begin(), part->public_inputs.begin() + 3,
                         top_as->input_assignment.begin() + 1));
}

}  // namespace
}  // namespace cuzk::filecoin
