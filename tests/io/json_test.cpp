// snarkjs JSON: decimal conversion, the shapes of proof.json / public.json / verification_key.json,
// and round trips through our readers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "io/snarkjs_json.hpp"
#include "io_test_util.hpp"

namespace cuzk {
namespace {

using test::Rng;

// Decimal -> field by field arithmetic (x = 10x + d), independent of the limb code under test.
template <class F>
F slow_from_decimal(const std::string& s) {
  F x = F::zero();
  const F ten = F::from_u64(10);
  for (char c : s) x = x * ten + F::from_u64(uint64_t(c - '0'));
  return x;
}

TEST(SnarkjsJson, DecimalsOfKnownValues) {
  EXPECT_EQ(to_decimal(Fr::zero()), "0");
  EXPECT_EQ(to_decimal(Fr::one()), "1");
  EXPECT_EQ(to_decimal(Fr::from_u64(10000000000000000000ull)), "10000000000000000000");
  EXPECT_EQ(to_decimal(-Fr::one()),
            "52435875175126190479447740508185965837690552500527637822603658699938581184512");  // r - 1
  EXPECT_EQ(to_decimal(G1Affine::generator().x),
            "368541675371338701678108831518307775796162079578254640989457837868860759237837631883605494767634"
            "5821548104185"
            "464507");
  EXPECT_EQ(to_decimal(G1Affine::generator().y),
            "133950654494447647302047137994192122158493387593834962042654373641651142395633350647272465535336"
            "6534992391756"
            "441569");
  EXPECT_FALSE(
      fr_from_decimal("52435875175126190479447740508185965837690552500527637822603658699938581184513").ok());
  EXPECT_FALSE(fr_from_decimal("").ok());
  EXPECT_FALSE(fr_from_decimal("-1").ok());
  EXPECT_FALSE(fr_from_decimal("12a").ok());
  EXPECT_FALSE(fp_from_decimal(std::string(300, '9')).ok());
}

TEST(SnarkjsJson, DecimalRoundTrip) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (int i = 0; i < 200; ++i) {
    const Fr x = test::random_fr(rng);
    const std::string s = to_decimal(x);
    ASSERT_EQ(slow_from_decimal<Fr>(s), x) << s;
    auto back = fr_from_decimal(s);
    ASSERT_TRUE(back.ok()) << back.message();
    ASSERT_EQ(*back, x);
    const Fp y = test::random_points<G1Affine>(rng, 1)[0].y;
    ASSERT_EQ(slow_from_decimal<Fp>(to_decimal(y)), y);
  }
}

TEST(SnarkjsJson, ProofShapeAndRoundTrip) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  auto g1 = test::random_points<G1Affine>(rng, 2);
  const groth16::Proof proof{g1[0], test::random_g2(rng), g1[1]};
  const std::string text = snarkjs_proof_json(proof);
  const auto j = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"pi_a", "pi_b", "pi_c", "protocol", "curve"}));
  EXPECT_EQ(j["pi_a"][0], to_decimal(proof.a.x));
  EXPECT_EQ(j["pi_a"][2], "1");
  EXPECT_EQ(j["pi_b"][0][0], to_decimal(proof.b.x.c0));  // Fp2 as [c0, c1]
  EXPECT_EQ(j["pi_b"][0][1], to_decimal(proof.b.x.c1));
  EXPECT_EQ(j["pi_b"][2], nlohmann::ordered_json::array({"1", "0"}));
  EXPECT_EQ(j["curve"], "bls12381");

  auto back = parse_snarkjs_proof_json(text);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->a, proof.a);
  EXPECT_EQ(back->b, proof.b);
  EXPECT_EQ(back->c, proof.c);

  // Off-curve and malformed proofs are errors.
  auto bad = nlohmann::ordered_json::parse(text);
  bad["pi_a"][1] = to_decimal(proof.a.y + Fp::one());
  auto r = parse_snarkjs_proof_json(bad.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("not on the curve"), std::string::npos) << r.message();
  for (const char* junk :
       {"", "[]", "{}", "{\"pi_a\": 1}", "{\"pi_a\": [\"1\", \"2\"]}", "nul", "{\"pi_a\": [1, 2, 3]}"})
    EXPECT_FALSE(parse_snarkjs_proof_json(junk).ok()) << junk;
}

TEST(SnarkjsJson, PublicAndVerifyingKeyRoundTrip) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  std::vector<Fr> pub(rng.below(5));
  for (auto& x : pub) x = test::random_fr(rng);
  auto pub_back = parse_snarkjs_public_json(snarkjs_public_json(pub));
  ASSERT_TRUE(pub_back.ok()) << pub_back.message();
  EXPECT_EQ(*pub_back, pub);
  EXPECT_FALSE(parse_snarkjs_public_json("[\"1\", 2]").ok());

  auto g1 = test::random_points<G1Affine>(rng, 3 + pub.size() + 1);
  auto g2 = test::random_points<G2Affine>(rng, 3);
  groth16::VerifyingKey vk{g1[0], g1[1], g2[0], g2[1], g1[2], g2[2], {}};
  vk.ic.assign(g1.begin() + 3, g1.end());
  Fp12 gt = Fp12::one();
  gt.c1.c2.c1 = Fp::from_u64(7);
  const std::string text = snarkjs_vk_json(vk, &gt);
  const auto j = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2",
                                            "vk_gamma_2", "vk_delta_2", "vk_alphabeta_12", "IC"}));
  EXPECT_EQ(j["nPublic"], pub.size());
  EXPECT_EQ(j["vk_alphabeta_12"][0][0][0], "1");
  EXPECT_EQ(j["vk_alphabeta_12"][1][2][1], "7");
  auto back = parse_snarkjs_vk_json(text);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->alpha_g1, vk.alpha_g1);
  EXPECT_EQ(back->beta_g2, vk.beta_g2);
  EXPECT_EQ(back->gamma_g2, vk.gamma_g2);
  EXPECT_EQ(back->delta_g2, vk.delta_g2);
  EXPECT_EQ(back->ic, vk.ic);
  EXPECT_EQ(snarkjs_vk_json(vk).find("alphabeta"), std::string::npos);

  auto wrong = nlohmann::ordered_json::parse(text);
  wrong["nPublic"] = pub.size() + 1;
  EXPECT_FALSE(parse_snarkjs_vk_json(wrong.dump()).ok());
  wrong = nlohmann::ordered_json::parse(text);
  wrong["curve"] = "bn128";
  EXPECT_FALSE(parse_snarkjs_vk_json(wrong.dump()).ok());
}

}  // namespace
}  // namespace cuzk
