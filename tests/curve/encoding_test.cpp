// ZCash encodings: the committed vectors (i*G, i = 0..999), every rejection rule broken on purpose,
// and random mutations of valid encodings.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "curve_test_util.hpp"

namespace cuzk::test {
namespace {

using Bytes = std::vector<uint8_t>;

template <size_t N>
Bytes vec(const std::array<uint8_t, N>& a) {
  return {a.begin(), a.end()};
}

Bytes read_vectors(const std::string& name) {
  std::ifstream f(std::string(CUZK_TEST_DATA_DIR) + "/" + name, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

template <class T>
class Encoding : public ::testing::Test {};
using Curves = ::testing::Types<G1Traits, G2Traits>;
TYPED_TEST_SUITE(Encoding, Curves);

template <class T>
constexpr size_t compressed_size() {
  return std::is_same_v<T, G1Traits> ? G1_COMPRESSED_BYTES : G2_COMPRESSED_BYTES;
}

TYPED_TEST(Encoding, CommittedVectors) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  constexpr size_t kPoints = 1000;
  const std::string g = std::is_same_v<T, G1Traits> ? "g1" : "g2";
  for (const bool compressed : {true, false}) {
    SCOPED_TRACE(compressed ? "compressed" : "uncompressed");
    const Bytes data =
        read_vectors(g + (compressed ? "_compressed" : "_uncompressed") + "_valid_test_vectors.dat");
    const size_t size = compressed ? compressed_size<T>() : 2 * compressed_size<T>();
    ASSERT_EQ(data.size(), kPoints * size) << "vector file missing or truncated";
    J acc = J::infinity();
    for (size_t i = 0; i < kPoints; ++i) {
      const std::span<const uint8_t> enc(data.data() + i * size, size);
      const auto p = T::decode(enc);
      ASSERT_TRUE(p.ok()) << "point " << i << ": " << p.message();
      ASSERT_EQ(*p, acc.to_affine()) << "point " << i;
      const Bytes again = compressed ? vec(T::compress(*p)) : vec(T::serialize(*p));
      ASSERT_EQ(again, Bytes(enc.begin(), enc.end())) << "point " << i;
      const auto unchecked = T::decode(enc, Check::curve_only);
      ASSERT_TRUE(unchecked.ok() && *unchecked == *p) << "point " << i;
      acc = acc.add_mixed(T::Affine::generator());
    }
  }
}

TYPED_TEST(Encoding, RoundTripRandomPoints) {
  using T = TypeParam;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (int i = 0; i < 32; ++i) {
    const auto p = random_subgroup_point<T>(rng).to_affine();
    for (const Bytes& enc : {vec(T::compress(p)), vec(T::serialize(p))}) {
      const auto q = T::decode(enc);
      ASSERT_TRUE(q.ok()) << q.message();
      EXPECT_EQ(*q, p);
    }
    // Both signs of y survive compression.
    const auto n = p.neg();
    const auto qn = T::decode(vec(T::compress(n)));
    ASSERT_TRUE(qn.ok()) << qn.message();
    EXPECT_EQ(*qn, n);
  }
}

// Expects a rejection whose message contains `why`.
template <class T>
void expect_rejected(const Bytes& enc, const std::string& why, Check check = Check::full) {
  const auto r = T::decode(enc, check);
  ASSERT_FALSE(r.ok()) << "accepted an encoding that breaks: " << why;
  EXPECT_NE(r.message().find(why), std::string::npos) << "message: " << r.message();
  EXPECT_EQ(r.message().rfind(T::name, 0), 0u) << "message: " << r.message();
}

// p, big-endian.
Bytes modulus_be() {
  Bytes out(48);
  for (size_t i = 0; i < 6; ++i)
    for (size_t b = 0; b < 8; ++b) out[47 - (8 * i + b)] = uint8_t(field::FpParams::mod(i) >> (8 * b));
  return out;
}

TYPED_TEST(Encoding, HostileEncodingsAreRejectedWithTheRuleNamed) {
  using T = TypeParam;
  using A = typename T::Affine;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  constexpr size_t n = compressed_size<T>();
  const A p = random_subgroup_point<T>(rng).to_affine();
  const Bytes comp = vec(T::compress(p));
  const Bytes unc = vec(T::serialize(p));

  for (size_t len : {size_t(0), size_t(1), n - 1, n + 1, 2 * n - 1, 2 * n + 1, 3 * n, 4 * n})
    expect_rejected<T>(Bytes(len, 0), "wrong length");

  Bytes b = comp;
  b[0] &= 0x7f;
  expect_rejected<T>(b, "compression flag (0x80) is clear");
  b = unc;
  b[0] |= 0x80;
  expect_rejected<T>(b, "compression flag (0x80) is set");
  b = Bytes(2 * n, 0);
  b[0] = 0xc0;  // compressed infinity padded to the uncompressed length
  expect_rejected<T>(b, "compression flag (0x80) is set");
  b = Bytes(n, 0);
  b[0] = 0x40;  // uncompressed infinity at the compressed length
  expect_rejected<T>(b, "compression flag (0x80) is clear");

  b = Bytes(n, 0);
  b[0] = 0xe0;
  expect_rejected<T>(b, "sort flag (0x20) is set on the point at infinity");
  b = Bytes(2 * n, 0);
  b[0] = 0x60;
  expect_rejected<T>(b, "sort flag (0x20) is set on the point at infinity");
  b = unc;
  b[0] |= 0x20;
  expect_rejected<T>(b, "sort flag (0x20) is set on an uncompressed encoding");

  for (const size_t size : {n, 2 * n}) {
    const uint8_t flag = size == n ? 0xc0 : 0x40;
    b = Bytes(size, 0);
    b[0] = flag;
    b[1 + rng.below(size - 1)] = uint8_t(1 + rng.below(255));
    expect_rejected<T>(b, "non-canonical infinity: nonzero bytes");
    b = Bytes(size, 0);
    b[0] = flag | uint8_t(1 + rng.below(31));  // low bits of the flag byte
    expect_rejected<T>(b, "non-canonical infinity: nonzero bytes");
    b = size == n ? comp : unc;  // a finite point's payload under the infinity flag
    b[0] |= 0x40;
    b[0] &= size == n ? 0xdf : 0xff;  // drop the sort flag, which has its own rule
    expect_rejected<T>(b, "non-canonical infinity: nonzero bytes");
  }
  expect_rejected<T>(Bytes(2 * n, 0), "non-canonical infinity: all-zero bytes without the infinity flag");

  // Coordinates >= p: p itself, and the all-ones 381-bit value.
  const Bytes pbe = modulus_be();
  for (size_t coord = 0; coord < n / 48; ++coord) {  // x.c1, and for G2 x.c0
    for (const bool ones : {false, true}) {
      b = comp;
      for (size_t i = 0; i < 48; ++i) b[48 * coord + i] = ones ? 0xff : pbe[i];
      if (coord == 0) b[0] = uint8_t((b[0] & 0x1f) | (comp[0] & 0xe0));
      expect_rejected<T>(b, "x coordinate is not less than p");
      b = unc;
      for (size_t i = 0; i < 48; ++i) b[48 * coord + i] = ones ? 0xff : pbe[i];
      if (coord == 0) b[0] &= 0x1f;
      expect_rejected<T>(b, "x coordinate is not less than p");
      b = unc;
      for (size_t i = 0; i < 48; ++i) b[n + 48 * coord + i] = ones ? 0xff : pbe[i];
      expect_rejected<T>(b, "y coordinate is not less than p");
    }
  }

  // Off the curve: y + 1, and for compressed an x with x^3 + b not a square.
  A bad = p;
  bad.y = p.y + T::F::one();
  expect_rejected<T>(vec(T::serialize(bad)), "not on the curve");
  expect_rejected<T>(vec(T::serialize(bad)), "not on the curve", Check::curve_only);
  for (;;) {
    const auto x = T::random_field(rng);
    typename T::F y;
    if (sqrt(x.sqr() * x + A::params::b(), y)) continue;
    bad = {x, T::F::one()};  // serialize only uses y for the sort flag
    expect_rejected<T>(vec(T::compress(bad)), "not on the curve: no y exists");
    expect_rejected<T>(vec(T::compress(bad)), "not on the curve: no y exists", Check::curve_only);
    break;
  }

  // Outside the subgroup: rejected by full, accepted by curve_only.
  A outside;
  do {
    outside = random_curve_point<T>(rng);
  } while (order_divides_r(typename T::Jacobian(outside)));
  for (const Bytes& enc : {vec(T::compress(outside)), vec(T::serialize(outside))}) {
    expect_rejected<T>(enc, "not in the prime-order subgroup");
    const auto q = T::decode(enc, Check::curve_only);
    ASSERT_TRUE(q.ok()) << q.message();
    EXPECT_EQ(*q, outside);
  }
}

// Random byte and bit mutations of valid encodings: never a crash; either a clean error or a valid
// point whose canonical encoding is the input itself (so every accepted encoding is canonical).
TYPED_TEST(Encoding, MutationsFailCleanlyOrDecodeCanonically) {
  using T = TypeParam;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 400; ++i) {
    const auto p = rng.u64() % 8 == 0 ? T::Affine::infinity() : random_subgroup_point<T>(rng).to_affine();
    const bool compressed = rng.u64() & 1;
    Bytes b = compressed ? vec(T::compress(p)) : vec(T::serialize(p));
    const size_t mutations = 1 + rng.below(3);
    for (size_t m = 0; m < mutations; ++m) {
      const size_t at = rng.below(4) == 0 ? 0 : rng.below(b.size());  // favour the flag byte
      if (rng.u64() & 1)
        b[at] ^= uint8_t(1u << rng.below(8));
      else
        b[at] = uint8_t(rng.u64());
    }
    if (rng.below(16) == 0) b.resize(rng.below(b.size() + 2));  // truncate or extend
    for (const Check check : {Check::full, Check::curve_only}) {
      const auto q = T::decode(b, check);
      if (!q.ok()) {
        ++rejected;
        EXPECT_FALSE(q.message().empty());
        continue;
      }
      ++accepted;
      EXPECT_TRUE(q->is_on_curve());
      if (check == Check::full) {
        EXPECT_TRUE(order_divides_r(typename T::Jacobian(*q)));
      }
      const Bytes again = b.size() == compressed_size<T>() ? vec(T::compress(*q)) : vec(T::serialize(*q));
      EXPECT_EQ(again, b);
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted + rejected, 0);
}

}  // namespace
}  // namespace cuzk::test
