// Canonical little-endian scalars (io/scalars.hpp): round trips at sizes that split across threads,
// the first bad index reported whatever the split, and bad arguments.
#include <gtest/gtest.h>

#include <random>

#include "io/scalars.hpp"

namespace cuzk::io {
namespace {

Fr random_fr(std::mt19937_64& rng) {
  uint8_t b[32];
  for (auto& x : b) x = uint8_t(rng());
  b[31] &= 0x3f;  // below 2^254 < r
  Fr f;
  EXPECT_TRUE(f.from_bytes_le(b));
  return f;
}

TEST(Scalars, RoundTripAtEverySplit) {
  std::mt19937_64 rng(std::random_device{}());
  for (size_t n : {size_t(0), size_t(1), size_t(65535), size_t(65537), size_t(300001)}) {
    std::vector<Fr> v(n);
    for (auto& x : v) x = random_fr(rng);
    v.push_back(Fr::zero());
    v.push_back(-Fr::one());  // r − 1, the largest canonical value
    std::vector<uint8_t> bytes(v.size() * kScalarBytes);
    scalars_to_le_bytes(v, bytes.data());
    auto back = scalars_from_le_bytes(bytes.data(), v.size(), "v");
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_TRUE(*back == v) << "n=" << n;
  }
}

TEST(Scalars, TheFirstBadIndexIsReported) {
  const size_t n = 400000;
  std::vector<uint8_t> bytes(n * kScalarBytes, 0);
  size_t first = n;
  for (size_t bad : {size_t(390000), size_t(123457), size_t(250000)}) {  // they accumulate
    std::fill_n(bytes.begin() + bad * kScalarBytes, kScalarBytes, 0xff);
    first = std::min(first, bad);
    auto r = scalars_from_le_bytes(bytes.data(), n, "a");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), "a[" + std::to_string(first) + "] is not below the field modulus");
  }
  // r itself is not canonical.
  std::vector<uint8_t> r_bytes(kScalarBytes);
  (-Fr::one()).to_bytes_le(r_bytes.data());
  r_bytes[0] += 1;  // r − 1 ends in ...00 (r is odd), so + 1 does not carry
  EXPECT_FALSE(scalars_from_le_bytes(r_bytes.data(), 1, "x").ok());
  EXPECT_FALSE(scalars_from_le_bytes(nullptr, 1, "x").ok());
  EXPECT_TRUE(scalars_from_le_bytes(nullptr, 0, "x").ok());
}

}  // namespace
}  // namespace cuzk::io
