// The host row check (backend/cpu/row_check.hpp): the least failing row, whatever range of the pool
// finds a failure first, on pools of one and several threads.
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

}  // namespace
}  // namespace cuzk::cpu
