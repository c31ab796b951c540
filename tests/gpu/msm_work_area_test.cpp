// Device MSM contexts on one shared work area (backend/cuda/msm/msm.hpp's MsmWorkspace), as a
// backend's resident contexts hold them: run in turn and moved to a larger area they match the
// CPU; a context sums its own bases over the digits another one sorted (run_sorted_by), in G1 and
// across the curves, and only while nothing else has used the area.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/gpu/msm_test_util.hpp"

namespace cuzk::cuda {
namespace {

using gputest::test_device;
using msmtest::progression;
using msmtest::random_scalars;
using msmtest::witness_scalars;

// A seeded generator and a stream on the test device, for the tests of contexts on one work area.
class MsmWorkArea : public ::testing::Test {
 protected:
  void SetUp() override {
    CUZK_REQUIRE_GPU();
    auto st = Stream::create(test_device());
    CUZK_ASSERT_OK(st);
    s.emplace(std::move(*st));
  }
  const uint64_t seed = gputest::test_seed();
  std::mt19937_64 rng{seed};
  std::optional<Stream> s;
  std::vector<Fr> logs;
};

// Contexts sharing one work area (as a backend's resident contexts do), run in turn, match the CPU;
// moving them all to a larger area keeps them right; an area too small or of nothing is an error.
TEST_F(MsmWorkArea, SharedWorkspace) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n1 = 3000, n2 = 70000;
  const std::vector<G1Affine> b1 = progression<G1Affine>(n1, rng, &logs);
  const std::vector<G1Affine> b2 = progression<G1Affine>(n2, rng, &logs);
  const std::vector<G2Affine> b3 = progression<G2Affine>(n1, rng, &logs);
  MsmConfig chunked;
  chunked.chunk_points = 16384;  // several passes through the shared buffers
  auto p1 = Msm<G1Affine>::plan(n1);
  auto p2 = Msm<G1Affine>::plan(n2, chunked);
  auto p3 = Msm<G2Affine>::plan(n1);
  CUZK_ASSERT_OK(p1);
  CUZK_ASSERT_OK(p2);
  CUZK_ASSERT_OK(p3);
  const size_t small = std::max(p1->work_bytes, p3->work_bytes);
  auto ws = MsmWorkspace::create(test_device(), small);
  CUZK_ASSERT_OK(ws);
  auto c1 = Msm<G1Affine>::create(test_device(), n1, {}, false, *ws);
  auto c3 = Msm<G2Affine>::create(test_device(), n1, {}, false, *ws);
  CUZK_ASSERT_OK(c1);
  CUZK_ASSERT_OK(c3);
  if (p2->work_bytes > small) {  // too small for the third context: a clear error
    EXPECT_FALSE((Msm<G1Affine>::create(test_device(), n2, chunked, false, *ws).ok()));
  }
  EXPECT_FALSE(c1->use_workspace(nullptr).ok());
  CUZK_ASSERT_OK(c1->set_bases(b1.data(), n1, Memory::host, *s));
  CUZK_ASSERT_OK(c3->set_bases(b3.data(), n1, Memory::host, *s));
  const auto check_all = [&](Msm<G1Affine>* c2) {
    for (int round = 0; round < 2; ++round) {  // in turn, twice: nothing survives in the shared area
      const std::vector<Fr> s1 = random_scalars(n1, rng), s3 = random_scalars(n1, rng);
      auto r1 = c1->run(s1.data(), n1, Memory::host, ScalarForm::montgomery, *s);
      auto r3 = c3->run(s3.data(), n1, Memory::host, ScalarForm::montgomery, *s);
      CUZK_ASSERT_OK(r1);
      CUZK_ASSERT_OK(r3);
      EXPECT_TRUE(*r1 == *cpu::msm<G1Affine>(b1, s1));
      EXPECT_TRUE(*r3 == *cpu::msm<G2Affine>(b3, s3));
      if (c2) {
        const std::vector<Fr> s2 = random_scalars(n2, rng);
        auto r2 = c2->run(s2.data(), n2, Memory::host, ScalarForm::montgomery, *s);
        CUZK_ASSERT_OK(r2);
        EXPECT_TRUE(*r2 == *cpu::msm<G1Affine>(b2, s2));
      }
    }
  };
  check_all(nullptr);
  // A larger area for all three, as the backend grows it for a larger context.
  auto big = MsmWorkspace::create(test_device(), std::max(small, p2->work_bytes));
  CUZK_ASSERT_OK(big);
  CUZK_ASSERT_OK(c1->use_workspace(*big));
  CUZK_ASSERT_OK(c3->use_workspace(*big));
  auto c2 = Msm<G1Affine>::create(test_device(), n2, chunked, false, *big);
  CUZK_ASSERT_OK(c2);
  CUZK_ASSERT_OK(c2->set_bases(b2.data(), n2, Memory::host, *s));
  ws->reset();  // the first area is gone once no context holds it
  check_all(&*c2);
}

// Two contexts of one layout on one work area: the second sums its own bases over the digits the
// first sorted (run_sorted_by), for witness-like scalars (heavy buckets: several rounds) and for
// uniform ones, with device scalars cut in one pass; anything that uses the area in between, or a
// run of more than one pass, leaves nothing to reuse.
TEST_F(MsmWorkArea, RunSortedByAnotherContext) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = 40000 + 7;
  const std::vector<G1Affine> b1 = progression<G1Affine>(n, rng, &logs);
  const std::vector<G1Affine> b2 = progression<G1Affine>(n, rng, &logs);
  MsmConfig cfg;
  cfg.chunk_points = 16384;  // device scalars: one pass when the digits fit, else several
  cfg.window_bits = 11;
  auto plan = Msm<G1Affine>::plan(n, cfg);
  CUZK_ASSERT_OK(plan);
  auto ws = MsmWorkspace::create(test_device(), plan->work_bytes);
  CUZK_ASSERT_OK(ws);
  auto c1 = Msm<G1Affine>::create(test_device(), n, cfg, false, *ws);
  auto c2 = Msm<G1Affine>::create(test_device(), n, cfg, false, *ws);
  CUZK_ASSERT_OK(c1);
  CUZK_ASSERT_OK(c2);
  CUZK_ASSERT_OK(c1->set_bases(b1.data(), n, Memory::host, *s));
  CUZK_ASSERT_OK(c2->set_bases(b2.data(), n, Memory::host, *s));
  EXPECT_FALSE(c2->can_run_sorted_by(*c1));  // nothing sorted yet
  const std::vector<Fr> witness = witness_scalars(n, rng);
  for (const auto* scalars : {&witness}) {
    auto d = DeviceBuffer<Fr>::alloc(test_device(), n);
    CUZK_ASSERT_OK(d);
    CUZK_ASSERT_OK(d->upload(scalars->data(), n, *s));
    auto r1 = c1->run(d->data(), n, Memory::device, ScalarForm::montgomery, *s);
    CUZK_ASSERT_OK(r1);
    EXPECT_TRUE(*r1 == *cpu::msm<G1Affine>(b1, *scalars));
    ASSERT_TRUE(c2->can_run_sorted_by(*c1));
    EXPECT_FALSE(c1->can_run_sorted_by(*c1));
    auto r2 = c2->run_sorted_by(*c1, *s);
    CUZK_ASSERT_OK(r2);
    EXPECT_TRUE(*r2 == *cpu::msm<G1Affine>(b2, *scalars));
    EXPECT_FALSE(c2->can_run_sorted_by(*c1));  // the second run used the area
    // Again, with a borrower touching the area in between.
    CUZK_ASSERT_OK(c1->run(d->data(), n, Memory::device, ScalarForm::montgomery, *s));
    ASSERT_TRUE(c2->can_run_sorted_by(*c1));
    (*ws)->touch();
    EXPECT_FALSE(c2->can_run_sorted_by(*c1));
    EXPECT_FALSE(c2->run_sorted_by(*c1, *s).ok());
  }
  // Uniform scalars take several passes here: nothing to reuse.
  const std::vector<Fr> uniform = random_scalars(n, rng);
  auto d = DeviceBuffer<Fr>::alloc(test_device(), n);
  CUZK_ASSERT_OK(d);
  CUZK_ASSERT_OK(d->upload(uniform.data(), n, *s));
  CUZK_ASSERT_OK(c1->run(d->data(), n, Memory::device, ScalarForm::montgomery, *s));
  EXPECT_FALSE(c2->can_run_sorted_by(*c1));
  // A context of another layout (another window) never takes them.
  MsmConfig other = cfg;
  other.window_bits = 12;
  auto p3 = Msm<G1Affine>::plan(n, other);
  CUZK_ASSERT_OK(p3);
  if (p3->work_bytes <= (*ws)->bytes()) {
    auto c3 = Msm<G1Affine>::create(test_device(), n, other, false, *ws);
    CUZK_ASSERT_OK(c3);
    CUZK_ASSERT_OK(c3->set_bases(b2.data(), n, Memory::host, *s));
    CUZK_ASSERT_OK(c1->run(d->data(), n / 8, Memory::device, ScalarForm::montgomery, *s));
    EXPECT_FALSE(c3->can_run_sorted_by(*c1));
  }
}

// B's two queries: a G2 context sums its bases over the digits a G1 context sorted (and the other
// way round), in the density form, on one work area; both contexts have one digit layout, though
// their points (and so their work bytes) differ.
TEST_F(MsmWorkArea, RunSortedByTheOtherCurve) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = 30000 + 11;
  std::vector<uint64_t> density((n + 63) / 64);
  for (auto& w : density) w = rng() | (rng() & rng());  // about 60 % present, like B's density
  size_t nb = 0;
  for (size_t i = 0; i < n; ++i) nb += (density[i / 64] >> (i % 64)) & 1;
  const std::vector<G1Affine> b1 = progression<G1Affine>(nb, rng, &logs);
  const std::vector<G2Affine> b2 = progression<G2Affine>(nb, rng, &logs);
  MsmConfig cfg;
  cfg.chunk_points = 16384;  // device witness scalars: one pass, cut by digits
  cfg.window_bits = 10;
  cfg.max_bases = nb;
  auto p1 = Msm<G1Affine>::plan(n, cfg);
  auto p2 = Msm<G2Affine>::plan(n, cfg);
  CUZK_ASSERT_OK(p1);
  CUZK_ASSERT_OK(p2);
  EXPECT_LT(p1->work_bytes, p2->work_bytes);
  auto ws = MsmWorkspace::create(test_device(), p2->work_bytes);
  CUZK_ASSERT_OK(ws);
  auto c1 = Msm<G1Affine>::create(test_device(), n, cfg, false, *ws);
  auto c2 = Msm<G2Affine>::create(test_device(), n, cfg, false, *ws);
  CUZK_ASSERT_OK(c1);
  CUZK_ASSERT_OK(c2);
  CUZK_ASSERT_OK(c1->set_bases(b1.data(), nb, Memory::host, *s));
  CUZK_ASSERT_OK(c2->set_bases(b2.data(), nb, Memory::host, *s));
  for (int round = 0; round < 2; ++round) {  // fresh witnesses each round
    const std::vector<Fr> witness = witness_scalars(n, rng);
    auto d = DeviceBuffer<Fr>::alloc(test_device(), n);
    CUZK_ASSERT_OK(d);
    CUZK_ASSERT_OK(d->upload(witness.data(), n, *s));
    const auto want1 = cpu::msm<G1Affine>(b1, witness, density);
    const auto want2 = cpu::msm<G2Affine>(b2, witness, density);
    CUZK_ASSERT_OK(want1);
    CUZK_ASSERT_OK(want2);
    // G1 sorts, G2 follows.
    auto r1 = c1->run(d->data(), n, density.data(), Memory::device, ScalarForm::montgomery, *s);
    CUZK_ASSERT_OK(r1);
    EXPECT_TRUE(*r1 == *want1);
    ASSERT_TRUE(c2->can_run_sorted_by(*c1));
    auto r2 = c2->run_sorted_by(*c1, *s);
    CUZK_ASSERT_OK(r2);
    EXPECT_TRUE(*r2 == *want2);
    EXPECT_FALSE(c1->can_run_sorted_by(*c2));  // a run over another's digits leaves none to lend
    // G2 sorts, G1 follows.
    auto q2 = c2->run(d->data(), n, density.data(), Memory::device, ScalarForm::montgomery, *s);
    CUZK_ASSERT_OK(q2);
    EXPECT_TRUE(*q2 == *want2);
    ASSERT_TRUE(c1->can_run_sorted_by(*c2));
    auto q1 = c1->run_sorted_by(*c2, *s);
    CUZK_ASSERT_OK(q1);
    EXPECT_TRUE(*q1 == *want1);
  }
  // Another window is another digit layout: never.
  MsmConfig other = cfg;
  other.window_bits = 11;
  auto p3 = Msm<G2Affine>::plan(n, other);
  CUZK_ASSERT_OK(p3);
  if (p3->work_bytes <= (*ws)->bytes()) {
    auto c3 = Msm<G2Affine>::create(test_device(), n, other, false, *ws);
    CUZK_ASSERT_OK(c3);
    CUZK_ASSERT_OK(c3->set_bases(b2.data(), nb, Memory::host, *s));
    std::vector<Fr> ones(n, Fr::one());
    auto d = DeviceBuffer<Fr>::alloc(test_device(), n);
    CUZK_ASSERT_OK(d);
    CUZK_ASSERT_OK(d->upload(ones.data(), n, *s));
    CUZK_ASSERT_OK(c1->run(d->data(), n, density.data(), Memory::device, ScalarForm::montgomery, *s));
    EXPECT_FALSE(c3->can_run_sorted_by(*c1));
    EXPECT_FALSE(c3->run_sorted_by(*c1, *s).ok());
  }
}

}  // namespace
}  // namespace cuzk::cuda
