// The host row check (backend/cpu/row_check.hpp): the least failing row, whatever range of the pool
// finds a failure first, on pools of one and several threads; and the C values the H stage takes.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "backend/cpu/row_check.hpp"
#include "tests/backend_cpu/test_util.hpp"

namespace cuzk::cpu {
namespace {

TEST(RowCheck, FindsTheLeastFailingRow) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(seed);
  std::mt19937_64 rng(seed);
  const size_t n = 300007;  // several 65536-row ranges, the last one short
  std::vector<Fr> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = test::random_field<Fr>(rng);
    b[i] = test::random_field<Fr>(rng);
    c[i] = a[i] * b[i];
  }
  for (unsigned threads : {1u, 4u}) {
    SCOPED_TRACE(threads);
    ThreadPool pool(threads);
    EXPECT_FALSE(first_unsatisfied_row(a.data(), b.data(), c.data(), n, pool).has_value());
    EXPECT_TRUE(check_rows(a.data(), b.data(), c.data(), 0, pool).ok());
    for (const std::vector<size_t>& bad :
         {std::vector<size_t>{0}, {n - 1}, {250000, 70000, 299999}, {65535, 65536}, {131073, 5}}) {
      std::vector<Fr> cc = c;
      for (size_t j : bad) cc[j] = cc[j] + Fr::one();
      const size_t least = *std::min_element(bad.begin(), bad.end());
      EXPECT_EQ(first_unsatisfied_row(a.data(), b.data(), cc.data(), n, pool), least);
      // Rows past `rows` are not checked.
      EXPECT_FALSE(first_unsatisfied_row(a.data(), b.data(), cc.data(), least, pool).has_value());
      const Status st = check_rows(a.data(), b.data(), cc.data(), n, pool);
      ASSERT_FALSE(st.ok());
      EXPECT_TRUE(st.error().bad_input);
      EXPECT_NE(st.message().find("constraint " + std::to_string(least) + " "), std::string::npos)
          << st.message();
    }
  }
}

// c for the H stage: the caller's c when given, else a∘b formed into scratch values (written in
// full by the pool's threads, never read before), and a host that cannot hold them is an error.
TEST(RowCheck, CValuesAreTheCallersOrFormedFromAAndB) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(seed);
  std::mt19937_64 rng(seed);
  const size_t n = 70001;
  std::vector<Fr> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = test::random_field<Fr>(rng);
    b[i] = test::random_field<Fr>(rng);
    c[i] = test::random_field<Fr>(rng);
  }
  HRequest rq;
  rq.a = a;
  rq.b = b;
  rq.c = c;
  ThreadPool pool(3);
  ScratchValues scratch;
  auto given = host_c_values(rq, scratch, pool);
  ASSERT_TRUE(given.ok()) << given.message();
  EXPECT_EQ(given->data(), c.data());
  EXPECT_EQ(scratch.size(), 0u);

  rq.c = {};
  rq.c_from_ab = true;
  auto formed = host_c_values(rq, scratch, pool);
  ASSERT_TRUE(formed.ok()) << formed.message();
  ASSERT_EQ(formed->size(), n);
  EXPECT_EQ(formed->data(), scratch.span().data());
  for (size_t i = 0; i < n; ++i) ASSERT_EQ((*formed)[i], a[i] * b[i]) << i;

  // More values than any host holds: an error, and the scratch holds none.
  const Status huge = scratch.allocate(~size_t(0) / 64, "a test's values");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.message().find("host out of memory for a test's values"), std::string::npos)
      << huge.message();
  EXPECT_EQ(scratch.size(), 0u);
  EXPECT_TRUE(scratch.span().empty());
}

// Scratch values of every size hold what is written to them: none, a few, and more than a huge
// page (those aligned to 2 MiB, so the kernel may back them with huge pages).
TEST(RowCheck, ScratchValuesHoldWhatIsWritten) {
  ScratchValues v;
  ASSERT_TRUE(v.allocate(0, "none").ok());
  EXPECT_EQ(v.size(), 0u);
  for (const size_t n : {size_t(3), (size_t(1) << 16) - 1, (size_t(1) << 17) + 1}) {
    SCOPED_TRACE(n);
    ASSERT_TRUE(v.allocate(n, "values").ok());
    ASSERT_EQ(v.size(), n);
    const std::span<Fr> s = v.span();
    for (size_t i = 0; i < n; ++i) s[i] = Fr::from_u64(i * 7 + 1);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(s[i], Fr::from_u64(i * 7 + 1)) << i;
    if (n * sizeof(Fr) >= (size_t(2) << 20)) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(s.data()) % (size_t(2) << 20), 0u);
    }
  }
}

}  // namespace
}  // namespace cuzk::cpu
