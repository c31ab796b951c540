// The steady rate counts each proof for the share of its time inside the window.
#include "engine/steady_rate.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cuzk::engine {
namespace {

// Two workers proving back to back, one every 2 s each, offset by 1 s: a proof a second.
TEST(SteadyRate, EvenWorkersGiveTheirRate) {
  std::vector<ProofSpan> p;
  for (int i = 0; i < 20; ++i) {
    p.push_back({2.0 * i, 2.0 * i + 2});
    p.push_back({2.0 * i + 1, 2.0 * i + 3});
  }
  auto r = steady_seconds_per_proof(p, 5, 25);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(*r, 1.0, 1e-12);
  // Windows that cut proofs anywhere give the same rate: no proof counts whole or not at all.
  for (double from : {4.3, 5.5, 6.9})
    for (double to : {20.2, 21.7, 30.05}) EXPECT_NEAR(*steady_seconds_per_proof(p, from, to), 1.0, 1e-12);
}

// A lead worker proving every 2.5 s beside a filler whose proofs take 10 s: 0.4 + 0.1 proofs a
// second. Counting only the proofs that end inside a window would swing by a whole filler proof.
TEST(SteadyRate, UnevenWorkersCountTheLongProofsInPart) {
  std::vector<ProofSpan> p;
  for (int i = 0; i < 40; ++i) p.push_back({2.5 * i, 2.5 * i + 2.5});
  for (int i = 0; i < 10; ++i) p.push_back({10.0 * i + 3, 10.0 * i + 13});
  for (double from : {10.0, 14.0, 17.5})
    for (double to : {60.0, 64.9, 71.0}) EXPECT_NEAR(*steady_seconds_per_proof(p, from, to), 2.0, 1e-12);
}

TEST(SteadyRate, NoWindowNoRate) {
  const std::vector<ProofSpan> p = {{0, 1}, {1, 2}};
  EXPECT_FALSE(steady_seconds_per_proof(p, 3, 3).has_value());
  EXPECT_FALSE(steady_seconds_per_proof(p, 3, 2).has_value());
  EXPECT_FALSE(steady_seconds_per_proof(p, 5, 9).has_value());  // no proof inside
  EXPECT_FALSE(steady_seconds_per_proof({}, 0, 9).has_value());
  const std::vector<ProofSpan> instant = {{1, 1}};
  EXPECT_FALSE(steady_seconds_per_proof(instant, 0, 2).has_value());
}

TEST(SteadyRate, TheWindowRunsFromTheFirstJobEndToTheLastStart) {
  const std::vector<ProofSpan> p = {{0, 4}, {1, 5}, {4, 8}, {6, 9}, {7.5, 11}};
  auto w = steady_window(p, 5);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->from, 5);
  EXPECT_EQ(w->to, 7.5);
  EXPECT_FALSE(steady_window(p, 7.5).has_value());  // every proof had started by the first job end
  EXPECT_FALSE(steady_window({}, 0).has_value());
}

}  // namespace
}  // namespace cuzk::engine
