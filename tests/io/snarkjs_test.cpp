// snarkjs binary formats: hand-built .r1cs/.wtns files byte-exact to the spec, round trips of
// random systems, witnesses and proving keys, and the errors that bad files must produce.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "io/snarkjs_zkey.hpp"
#include "io_test_util.hpp"

namespace cuzk {
namespace {

using test::Rng;

// Little-endian byte builder for hand-made files; deliberately independent of io/'s writers.
struct Bytes {
  std::vector<uint8_t> b;
  Bytes& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
    return *this;
  }
  Bytes& u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
    return *this;
  }
  Bytes& str(const char* s) {
    for (; *s != 0; ++s)
      b.push_back(uint8_t(*s));  // (insert() trips a GCC 12 -Wstringop-overflow false positive)
    return *this;
  }
  Bytes& fr(const Fr& x) {
    uint8_t t[32];
    x.to_bytes_le(t);
    b.insert(b.end(), t, t + 32);
    return *this;
  }
  Bytes& hex_le(const char* hex_be) {  // a big-endian hex constant, written little-endian
    std::vector<uint8_t> v;
    for (size_t i = 0; hex_be[i] && hex_be[i + 1]; i += 2)
      v.push_back(uint8_t(std::stoul(std::string(hex_be + i, 2), nullptr, 16)));
    b.insert(b.end(), v.rbegin(), v.rend());
    return *this;
  }
  Bytes& section(uint32_t type, const Bytes& body) {
    u32(type).u64(body.b.size());
    b.insert(b.end(), body.b.begin(), body.b.end());
    return *this;
  }
};

constexpr const char* kR = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
constexpr const char* kBn254R = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

// The multiplier circuit c = a * b as circom2 writes it: wires [ONE, c (output), a (public input),
// b (private input)], one constraint A = -a, B = b, C = -c, sections in the order 2, 1, 3.
Bytes multiplier_r1cs(const char* prime = kR, bool sections_213 = true) {
  const Fr minus_one = -Fr::one();
  Bytes header;
  header.u32(32).hex_le(prime).u32(4).u32(1).u32(1).u32(1).u64(4).u32(1);
  Bytes constraints;
  constraints.u32(1).u32(2).fr(minus_one);  // A
  constraints.u32(1).u32(3).fr(Fr::one());  // B
  constraints.u32(1).u32(1).fr(minus_one);  // C
  Bytes labels;
  labels.u64(0).u64(1).u64(2).u64(3);
  Bytes f;
  f.str("r1cs").u32(1).u32(3);
  if (sections_213)
    f.section(2, constraints).section(1, header).section(3, labels);
  else
    f.section(1, header).section(2, constraints).section(3, labels);
  return f;
}

Bytes multiplier_wtns(const Fr& a, const Fr& b, const Fr& c) {
  Bytes header;
  header.u32(32).hex_le(kR).u32(4);
  Bytes values;
  values.fr(Fr::one()).fr(c).fr(a).fr(b);
  Bytes f;
  f.str("wtns").u32(2).u32(2).section(1, header).section(2, values);
  return f;
}

TEST(SnarkjsR1cs, HandBuiltMultiplier) {
  auto cs = parse_r1cs(multiplier_r1cs().b);
  ASSERT_TRUE(cs.ok()) << cs.message();
  EXPECT_EQ(cs->n_wires, 4u);
  EXPECT_EQ(cs->n_pub_out, 1u);
  EXPECT_EQ(cs->n_pub_in, 1u);
  EXPECT_EQ(cs->n_prv_in, 1u);
  EXPECT_EQ(cs->n_labels, 4u);
  EXPECT_EQ(cs->n_public(), 2u);
  ASSERT_EQ(cs->n_constraints(), 1u);
  ASSERT_EQ(cs->a.row_wires(0).size(), 1u);
  EXPECT_EQ(cs->a.row_wires(0)[0], 2u);
  EXPECT_EQ(cs->a.row_coeffs(0)[0], -Fr::one());
  EXPECT_EQ(cs->b.row_wires(0)[0], 3u);
  EXPECT_EQ(cs->b.row_coeffs(0)[0], Fr::one());
  EXPECT_EQ(cs->c.row_wires(0)[0], 1u);
  EXPECT_EQ(cs->wire_to_label, (std::vector<uint64_t>{0, 1, 2, 3}));
  // The writer emits sections 1, 2, 3: byte-exact to the hand-built file in that order.
  EXPECT_EQ(serialize_r1cs(*cs), multiplier_r1cs(kR, false).b);
}

TEST(SnarkjsWtns, HandBuiltWitnessSatisfiesTheMultiplier) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const Fr a = test::random_fr(rng), b = test::random_fr(rng), c = a * b;
  const Bytes file = multiplier_wtns(a, b, c);
  auto w = parse_wtns(file.b);
  ASSERT_TRUE(w.ok()) << w.message();
  ASSERT_EQ(w->values.size(), 4u);
  EXPECT_TRUE(w->values[0].is_one());
  EXPECT_EQ(w->values[1], c);
  EXPECT_EQ(w->inputs(2).size(), 3u);
  EXPECT_EQ(w->aux(2).size(), 1u);
  EXPECT_EQ(w->aux(2)[0], b);
  EXPECT_EQ(serialize_wtns(w->values), file.b);

  auto cs = parse_r1cs(multiplier_r1cs().b);
  ASSERT_TRUE(cs.ok()) << cs.message();
  EXPECT_TRUE(cs->check_witness(w->values).ok());
  auto bad = w->values;
  bad[1] += Fr::one();
  auto st = cs->check_witness(bad);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("constraint 0"), std::string::npos) << st.message();
  bad.pop_back();
  EXPECT_FALSE(cs->check_witness(bad).ok());
}

TEST(SnarkjsR1cs, RejectsOtherCurvesAndBadContent) {
  auto bn = parse_r1cs(multiplier_r1cs(kBn254R).b);
  ASSERT_FALSE(bn.ok());
  EXPECT_NE(bn.message().find("another curve"), std::string::npos) << bn.message();

  // Coefficient = r (not canonical): patch the first coefficient of section 2.
  Bytes f = multiplier_r1cs(kR, false);
  const size_t header_body = 4 + 32 + 4 * 4 + 8 + 4;
  const size_t first_coeff = 12 + 12 + header_body + 12 + 4 + 4;
  Bytes r_le;
  r_le.hex_le(kR);
  std::copy(r_le.b.begin(), r_le.b.end(), f.b.begin() + first_coeff);
  auto big = parse_r1cs(f.b);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.message().find(">= r"), std::string::npos) << big.message();

  // Wire id out of range.
  Bytes g = multiplier_r1cs(kR, false);
  g.b[first_coeff - 4] = 9;
  auto wire = parse_r1cs(g.b);
  ASSERT_FALSE(wire.ok());
  EXPECT_NE(wire.message().find("wire 9"), std::string::npos) << wire.message();

  // Wrong magic, version, duplicate and missing sections, custom gates.
  Bytes magic = multiplier_r1cs();
  magic.b[0] = 'x';
  EXPECT_FALSE(parse_r1cs(magic.b).ok());
  Bytes version = multiplier_r1cs();
  version.b[4] = 2;
  auto v = parse_r1cs(version.b);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.message().find("version 2"), std::string::npos) << v.message();
  Bytes dup = multiplier_r1cs();
  dup.b[8] = 4;  // 4 sections
  dup.section(1, Bytes{});
  auto d = parse_r1cs(dup.b);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.message().find("appears 2 times"), std::string::npos) << d.message();
  Bytes gates = multiplier_r1cs();
  gates.b[8] = 4;
  gates.section(4, Bytes{});
  auto cg = parse_r1cs(gates.b);
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.message().find("custom gates"), std::string::npos) << cg.message();
  Bytes missing;
  missing.str("r1cs").u32(1).u32(0);
  EXPECT_FALSE(parse_r1cs(missing.b).ok());
}

TEST(SnarkjsR1cs, RandomSystemsRoundTrip) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  SnarkjsR1cs cs;
  cs.n_wires = uint32_t(5 + rng.below(40));
  cs.n_pub_out = uint32_t(rng.below(3));
  cs.n_pub_in = uint32_t(rng.below(3));
  cs.n_prv_in = uint32_t(rng.below(cs.n_wires - 1 - cs.n_pub_out - cs.n_pub_in));
  cs.n_labels = cs.n_wires + rng.below(10);
  const size_t n_constraints = rng.below(50);
  for (size_t k = 0; k < n_constraints; ++k)
    for (SparseRows* m : {&cs.a, &cs.b, &cs.c}) {
      std::vector<uint32_t> wires;
      std::vector<Fr> coeffs;
      for (size_t t = rng.below(6); t-- > 0;) {
        wires.push_back(uint32_t(rng.below(cs.n_wires)));
        coeffs.push_back(test::random_fr(rng));
      }
      m->push_row(wires, coeffs);
    }
  if (rng.below(2))
    for (uint32_t i = 0; i < cs.n_wires; ++i) cs.wire_to_label.push_back(rng.u64());
  const auto bytes = serialize_r1cs(cs);
  auto back = parse_r1cs(bytes);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(serialize_r1cs(*back), bytes);
  EXPECT_EQ(back->n_constraints(), n_constraints);
  EXPECT_EQ(back->a.wires, cs.a.wires);
  EXPECT_EQ(back->c.row_start, cs.c.row_start);
  for (size_t t = 0; t < cs.b.terms(); ++t) EXPECT_EQ(back->b.coeffs[t], cs.b.coeffs[t]);
}

TEST(SnarkjsWtns, RandomWitnessRoundTripAndErrors) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  std::vector<Fr> values(1 + rng.below(300000));  // large enough to take the parallel path
  for (auto& v : values) v = test::random_fr(rng);
  const auto bytes = serialize_wtns(values);
  auto w = parse_wtns(bytes);
  ASSERT_TRUE(w.ok()) << w.message();
  ASSERT_EQ(w->values.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(w->values[i], values[i]) << i;

  // A value >= r in the middle: the error names it.
  const size_t bad = rng.below(values.size());
  auto corrupt = bytes;
  const size_t values_at = 12 + 12 + (4 + 32 + 4) + 12;
  std::memset(corrupt.data() + values_at + 32 * bad, 0xff, 32);
  auto e = parse_wtns(corrupt);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.message().find("value " + std::to_string(bad)), std::string::npos) << e.message();

  // nWitness disagreeing with section 2.
  auto count = bytes;
  count[12 + 12 + 4 + 32] ^= 1;
  EXPECT_FALSE(parse_wtns(count).ok());
}

// ---------------------------------------------------------------- zkey

SnarkjsZkey random_zkey(Rng& rng) {
  SnarkjsZkey key;
  key.n_public = uint32_t(rng.below(4));
  key.n_vars = key.n_public + 1 + uint32_t(1 + rng.below(8));
  key.domain_size = 1u << (1 + rng.below(4));
  auto g1 = test::random_points<G1Affine>(
      rng, 3 + (key.n_public + 1) + 2 * key.n_vars + key.n_vars + key.domain_size);
  auto g2 = test::random_points<G2Affine>(rng, 3 + key.n_vars);
  size_t i1 = 0, i2 = 0;
  key.alpha_g1 = g1[i1++];
  key.beta_g1 = g1[i1++];
  key.delta_g1 = g1[i1++];
  key.beta_g2 = g2[i2++];
  key.gamma_g2 = g2[i2++];
  key.delta_g2 = g2[i2++];
  auto take1 = [&](size_t n) {
    std::vector<G1Affine> out(g1.begin() + i1, g1.begin() + i1 + n);
    i1 += n;
    return out;
  };
  key.ic = take1(key.n_public + 1);
  key.a = take1(key.n_vars);
  key.b_g1 = take1(key.n_vars);
  key.c = take1(key.n_vars - key.n_public - 1);
  key.h = take1(key.domain_size);
  key.b_g2.assign(g2.begin() + i2, g2.end());
  // Unused variables are zero points in snarkjs keys.
  key.a[rng.below(key.n_vars)] = G1Affine::infinity();
  key.b_g2[rng.below(key.n_vars)] = G2Affine::infinity();
  for (size_t k = rng.below(20); k-- > 0;)
    key.coefficients.push_back({uint32_t(rng.below(2)), uint32_t(rng.below(key.domain_size)),
                                uint32_t(rng.below(key.n_vars)), test::random_fr(rng)});
  key.coefficients.push_back({0, 0, 0, Fr::one()});
  key.coefficients.push_back({1, 0, 1, -Fr::one()});
  if (rng.below(2)) key.contributions.assign(64 + 4, 0);
  return key;
}

void expect_same(const SnarkjsZkey& x, const SnarkjsZkey& y) {
  EXPECT_EQ(x.n_vars, y.n_vars);
  EXPECT_EQ(x.n_public, y.n_public);
  EXPECT_EQ(x.domain_size, y.domain_size);
  EXPECT_TRUE(x.alpha_g1 == y.alpha_g1 && x.beta_g1 == y.beta_g1 && x.delta_g1 == y.delta_g1);
  EXPECT_TRUE(x.beta_g2 == y.beta_g2 && x.gamma_g2 == y.gamma_g2 && x.delta_g2 == y.delta_g2);
  EXPECT_EQ(x.ic, y.ic);
  EXPECT_EQ(x.a, y.a);
  EXPECT_EQ(x.b_g1, y.b_g1);
  EXPECT_EQ(x.b_g2, y.b_g2);
  EXPECT_EQ(x.c, y.c);
  EXPECT_EQ(x.h, y.h);
  EXPECT_EQ(x.contributions, y.contributions);
  ASSERT_EQ(x.coefficients.size(), y.coefficients.size());
  for (size_t i = 0; i < x.coefficients.size(); ++i) {
    EXPECT_EQ(x.coefficients[i].matrix, y.coefficients[i].matrix);
    EXPECT_EQ(x.coefficients[i].constraint, y.coefficients[i].constraint);
    EXPECT_EQ(x.coefficients[i].signal, y.coefficients[i].signal);
    EXPECT_EQ(x.coefficients[i].value, y.coefficients[i].value);
  }
}

TEST(SnarkjsZkey, RandomKeysRoundTrip) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (int round = 0; round < 3; ++round) {
    const SnarkjsZkey key = random_zkey(rng);
    const auto bytes = serialize_zkey(key);
    for (Check check : {Check::full, Check::curve_only}) {
      auto back = parse_zkey(bytes, check);
      ASSERT_TRUE(back.ok()) << back.message();
      expect_same(key, *back);
      EXPECT_EQ(serialize_zkey(*back), bytes);
    }
  }
}

TEST(SnarkjsZkey, CoefficientsAreStoredTimesRSquared) {
  // snarkjs stores c as the canonical integer c * R^2 mod r: 1 is stored as R^2 mod r.
  SnarkjsZkey key;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  key = random_zkey(rng);
  key.coefficients = {{0, 0, 0, Fr::one()}};
  const auto bytes = serialize_zkey(key);
  Bytes r2;
  r2.hex_le("0748d9d99f59ff1105d314967254398f2b6cedcb87925c23c999e990f3f29c6d");
  auto it = std::search(bytes.begin(), bytes.end(), r2.b.begin(), r2.b.end());
  EXPECT_NE(it, bytes.end()) << "R^2 mod r not found in the coefficient section";
}

TEST(SnarkjsZkey, DomainRootIsFfjavascripts) {
  // w[32] = 5^t from reference/formats.md §1 (ffjavascript's nqr = 5).
  uint8_t be[32];
  snarkjs_root_of_unity(32).to_bytes_be(be);
  Bytes want;
  want.hex_le("0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ(be[i], want.b[31 - i]) << i;
  for (uint32_t k = 1; k <= 6; ++k) {
    const Fr w = snarkjs_root_of_unity(k);
    Fr x = w;
    for (uint32_t i = 1; i < k; ++i) x = x.sqr();
    EXPECT_EQ(x, -Fr::one()) << "w^(n/2) must be -1 for k = " << k;
  }
}

TEST(SnarkjsZkey, RejectsBadKeys) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const SnarkjsZkey good = random_zkey(rng);
  auto expect_error = [](const SnarkjsZkey& key, const std::string& needle, Check check = Check::full) {
    auto r = parse_zkey(serialize_zkey(key), check);
    ASSERT_FALSE(r.ok()) << "expected an error containing \"" << needle << "\"";
    EXPECT_NE(r.message().find(needle), std::string::npos) << r.message();
  };
  SnarkjsZkey k = good;
  k.domain_size = 3;
  expect_error(k, "not a power of two");
  k = good;
  k.alpha_g1 = G1Affine::infinity();
  expect_error(k, "alpha1 is the point at infinity");
  k = good;
  k.coefficients.push_back({2, 0, 0, Fr::one()});
  expect_error(k, "matrix 2");
  k = good;
  k.coefficients.push_back({0, good.domain_size, 0, Fr::one()});
  expect_error(k, "outside the domain");
  k = good;
  k.coefficients.push_back({0, 0, good.n_vars, Fr::one()});
  expect_error(k, "uses signal");
  k = good;
  k.h[0].y += Fp::one();
  expect_error(k, "H point 0 is not on the curve");
  k = good;
  k.n_public = k.n_vars;
  expect_error(k, "leaves no room");

  // On the curve but outside G1 (ethereum/bls12-381-tests G1_wrong_order): only Check::full sees it.
  uint8_t x[48], y[48];
  const char* xs =
      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  const char* ys =
      "193fb7cedb32b2c3adc06ec11a96bc0d661869316f5e4a577a9f7c179593987beb4fb2ee424dbb2f5dd891e228b46c4a";
  for (size_t i = 0; i < 48; ++i) {
    x[i] = uint8_t(std::stoul(std::string(xs + 2 * i, 2), nullptr, 16));
    y[i] = uint8_t(std::stoul(std::string(ys + 2 * i, 2), nullptr, 16));
  }
  G1Affine wrong;
  ASSERT_TRUE(wrong.x.from_bytes_be(x) && wrong.y.from_bytes_be(y));
  ASSERT_TRUE(wrong.is_on_curve());
  k = good;
  k.a[0] = wrong;
  expect_error(k, "A point 0 is not in the prime-order subgroup");
  EXPECT_TRUE(parse_zkey(serialize_zkey(k), Check::curve_only).ok());

  // Another protocol.
  auto bytes = serialize_zkey(good);
  bytes[12 + 12] = 2;  // section 1 comes first: its u32 protocol
  auto plonk = parse_zkey(bytes);
  ASSERT_FALSE(plonk.ok());
  EXPECT_NE(plonk.message().find("not Groth16"), std::string::npos) << plonk.message();
}

}  // namespace
}  // namespace cuzk
