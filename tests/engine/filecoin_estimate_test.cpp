// The engine's admission estimate of Filecoin partitions (estimate_input): for a 2 KiB PoRep,
// WindowPoSt and SnapDeals partition it names the rows and variables synthesis produces, and its
// host bytes cover what the synthesis really holds at its peak: the process's resident high-water
// mark (reset before each synthesis through /proc/self/clear_refs) rises by no more than the
// estimate. Requests of proof types cuzk cannot prove are refused when the job is submitted.
#include <gtest/gtest.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <bit>
#include <fstream>
#include <iostream>
#include <string>

#include "engine/engine.hpp"
#include "engine/filecoin_input.hpp"
#include "engine/input_shape.hpp"
#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "filecoin/types/prover_id.hpp"
#include "filecoin/vanilla/post_proof.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "filecoin/vanilla/update.hpp"
#include "tests/filecoin_vanilla/sealed_2kib.hpp"

namespace cuzk::engine {
namespace {

using filecoin::Domain;
namespace vanilla = filecoin::vanilla;

using filecoin::test::as_string;
using filecoin::test::field_domain;
using filecoin::test::pattern_bytes;
using filecoin::test::sealed_2kib;  // StackedDrg2KiBV1_1, miner f01000, sector 42, updated at h = 1

filecoin::ProofRequest porep_request() {
  filecoin::ProofRequest r;
  r.kind = filecoin::ProofKind::seal;
  r.vanilla = {filecoin::write_c1_json(vanilla::commit_phase1(sealed_2kib().sealed).value())};
  return r;
}

filecoin::ProofRequest window_request() {
  const auto type = filecoin::post_proof(10).value();  // StackedDrgWindow2KiBV1_2
  filecoin::ProofRequest r;
  r.kind = filecoin::ProofKind::window_post;
  r.proof_id = type.id;
  r.randomness = field_domain(9);
  r.vanilla = {as_string(filecoin::write_post_vanilla_proof(
      vanilla::post_vanilla_proof(sealed_2kib().sealed, type, r.randomness).value()))};
  return r;
}

filecoin::ProofRequest update_request() {
  const auto& s = sealed_2kib();
  auto proofs = vanilla::update_vanilla_proofs(vanilla::update_view(s.sealed, s.updated)).value();
  filecoin::ProofRequest r;
  r.kind = filecoin::ProofKind::update;
  r.proof_id = 0;  // StackedDrg2KiBV1
  r.vanilla = {as_string(filecoin::write_update_vanilla_proof(proofs.at(0)))};
  r.comm_r_old = s.updated.comm_r_old;
  r.comm_d_new = s.updated.comm_d_new;
  r.comm_r_new = s.updated.comm_r_new;
  return r;
}

// Resident kilobytes now (VmRSS) or at the high-water mark (VmHWM); -1 when /proc says nothing.
long status_kib(const std::string& field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  return -1;
}

// Resets the high-water mark to the present resident size (Linux 4.0+); false where it cannot.
bool reset_high_water() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return bool(out);
}

// At 2 KiB a piece's vectors are a few MiB, where glibc's dynamic mmap threshold keeps freed
// blocks in per-thread arenas (resident, and grown apart by each worker); at the sizes that matter
// (hundreds of MiB a vector) every block is mapped and unmapped. A fixed threshold gives the test
// the regime of the real sizes.
void map_large_blocks() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

void expect_estimate_covers_synthesis(const filecoin::ProofRequest& request, unsigned threads) {
  map_large_blocks();
  const FilecoinInput input{std::make_shared<FilecoinRequest>(request), 0};
  auto estimate = estimate_input(input, threads);
  ASSERT_TRUE(estimate.ok()) << estimate.message();

  const bool measured = reset_high_water();
  const long before = status_kib("VmRSS");
  uint64_t rows = 0, variables = 0;
  {
    auto as = synthesize_filecoin(input, threads);
    ASSERT_TRUE(as.ok()) << as.message();
    rows = as->num_constraints();
    variables = as->input_assignment.size() + as->aux_assignment.size();
  }
  const long peak = status_kib("VmHWM");
  EXPECT_EQ(estimate->rows, rows);
  EXPECT_EQ(estimate->variables, variables);
  // At least the a, b and c the prover pads to the domain, and the assignment.
  EXPECT_GE(estimate->host_bytes, 32 * (3 * std::bit_ceil(rows) + variables));
  if (!measured || before < 0 || peak < 0) {
    std::cout << "the resident high-water mark cannot be reset here: the peak is not measured\n";
    return;
  }
  const uint64_t rise = uint64_t(std::max(0L, peak - before)) * 1024;
  std::cout << "estimate " << format_bytes(estimate->host_bytes) << ", resident rise " << format_bytes(rise)
            << " (" << threads << " threads)\n";
  EXPECT_LE(rise, estimate->host_bytes);
}

TEST(FilecoinEstimate, PorepPartitionPeakIsCovered) { expect_estimate_covers_synthesis(porep_request(), 4); }

TEST(FilecoinEstimate, WindowPostPartitionPeakIsCovered) {
  expect_estimate_covers_synthesis(window_request(), 2);
}

TEST(FilecoinEstimate, SnapDealsPartitionPeakIsCovered) {
  expect_estimate_covers_synthesis(update_request(), 3);
}

TEST(FilecoinEstimate, MoreThreadsNeverEstimateLess) {
  // The engine admits with the most threads a synthesis may get; fewer must never need more.
  for (const auto& request : {porep_request(), window_request(), update_request()}) {
    const FilecoinInput input{std::make_shared<FilecoinRequest>(request), 0};
    uint64_t last = 0;
    for (unsigned t : {1u, 2u, 3u, 8u, 16u, 64u}) {
      auto e = estimate_input(input, t);
      ASSERT_TRUE(e.ok()) << e.message();
      EXPECT_GE(e->host_bytes, last) << t << " threads";
      last = e->host_bytes;
    }
  }
}

TEST(FilecoinRequests, NiPorepIsRefusedWhenTheJobIsParsed) {
  auto c1 = vanilla::commit_phase1(sealed_2kib().sealed).value();
  c1.registered_proof = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";
  filecoin::ProofRequest r;
  r.kind = filecoin::ProofKind::seal;
  r.vanilla = {filecoin::write_c1_json(c1)};
  JobRequest job;
  job.kind = JobKind::porep_c2;
  job.partitions.push_back(FilecoinInput{std::make_shared<FilecoinRequest>(r), {}});
  auto expanded = expand_filecoin_request(job);
  ASSERT_FALSE(expanded.ok());
  EXPECT_TRUE(expanded.error().bad_input);
  EXPECT_NE(expanded.message().find("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"), std::string::npos)
      << expanded.message();
  EXPECT_NE(expanded.message().find("NI-PoRep"), std::string::npos) << expanded.message();

  // Named by its id beside a C1 that is not even read: the type is refused first.
  r.vanilla = {"not a C1"};
  r.proof_id = 15;  // StackedDrg2KiBV1_2_Feat_NonInteractivePoRep
  JobRequest named;
  named.kind = JobKind::porep_c2;
  named.partitions.push_back(FilecoinInput{std::make_shared<FilecoinRequest>(r), {}});
  expanded = expand_filecoin_request(named);
  ASSERT_FALSE(expanded.ok());
  EXPECT_NE(expanded.message().find("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"), std::string::npos)
      << expanded.message();
}

}  // namespace
}  // namespace cuzk::engine
