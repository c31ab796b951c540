// The Montgomery-form constants of curve/g1.hpp, curve/g2.hpp and field/sqrt.hpp, recomputed from
// their definitions, and the generators against the published encodings (formats.md section 1).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "curve_test_util.hpp"

namespace cuzk::test {
namespace {

std::vector<uint8_t> from_hex(const std::string& s) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < s.size(); i += 2)
    out.push_back(uint8_t(std::stoul(s.substr(i, 2), nullptr, 16)));
  return out;
}
template <size_t N>
std::vector<uint8_t> vec(const std::array<uint8_t, N>& a) {
  return {a.begin(), a.end()};
}

const std::string kG1x =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
const std::string kG1y =
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
const std::string kG2x1 =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
const std::string kG2x0 =
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
const std::string kG2y1 =
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be";
const std::string kG2y0 =
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";

TEST(CurveConstants, CoefficientB) {
  EXPECT_EQ(G1Params::b(), Fp::from_u64(4));
  EXPECT_EQ(G2Params::b(), (Fp2{Fp::from_u64(4), Fp::from_u64(4)}));
}

TEST(CurveConstants, GeneratorsMatchPublishedEncodings) {
  EXPECT_EQ(vec(g1_serialize(G1Affine::generator())), from_hex(kG1x + kG1y));
  auto c1 = from_hex(kG1x);
  c1[0] |= 0x80;  // compressed; y of G1 is not the largest root
  EXPECT_EQ(vec(g1_compress(G1Affine::generator())), c1);
  EXPECT_EQ(vec(g2_serialize(G2Affine::generator())), from_hex(kG2x1 + kG2x0 + kG2y1 + kG2y0));
  auto c2 = from_hex(kG2x1 + kG2x0);
  c2[0] |= 0x80;
  EXPECT_EQ(vec(g2_compress(G2Affine::generator())), c2);
  EXPECT_TRUE(G1Affine::generator().is_on_curve());
  EXPECT_TRUE(G2Affine::generator().is_on_curve());
}

TEST(CurveConstants, GeneratorsHaveOrderR) {
  EXPECT_TRUE(order_divides_r(G1Jacobian::generator()));
  EXPECT_TRUE(order_divides_r(G2Jacobian::generator()));
  EXPECT_FALSE(G1Jacobian::generator().is_inf());
}

TEST(CurveConstants, BetaIsTheCubeRootActingAsMinusZSquared) {
  const Fp beta = G1Params::beta();
  EXPECT_NE(beta, Fp::one());
  EXPECT_EQ(beta.sqr() * beta, Fp::one());
  const uint64_t z = curve::bls_x_abs;
  const G1Jacobian g = G1Jacobian::generator();
  const G1Jacobian zz = g.mul(&z, 1).mul(&z, 1);
  EXPECT_EQ(G1Params::endomorphism(g), zz.neg());
  // The other root, beta^2, is the other eigenvalue: [z^2 - 1]. Picking it would break in_subgroup.
  EXPECT_EQ(G1Jacobian(g.X * beta.sqr(), g.Y, g.Z), zz - g);
}

TEST(CurveConstants, PsiConstants) {
  // (p-1)/3 and (p-1)/2 as limbs.
  constexpr uint64_t p13[6] = {0x9354ffffffffe38eull, 0x0a395554e5c6aaaaull, 0xcd104635a790520cull,
                               0xcc27c3d6fbd7063full, 0x190937e76bc3e447ull, 0x08ab05f8bdd54cdeull};
  constexpr uint64_t p12[6] = {0xdcff7fffffffd555ull, 0x0f55ffff58a9ffffull, 0xb39869507b587b12ull,
                               0xb23ba5c279c2895full, 0x258dd3db21a5d66bull, 0x0d0088f51cbff34dull};
  const Fp2 xi{Fp::one(), Fp::one()};
  EXPECT_EQ(G2Params::psi_cx(), xi.pow(p13, 6).inverse());
  EXPECT_EQ(G2Params::psi_cy(), xi.pow(p12, 6).inverse());
  const G2Jacobian g = G2Jacobian::generator();
  const G2Jacobian psi = G2Params::endomorphism(g);
  EXPECT_TRUE(psi.is_on_curve());
  const uint64_t z = curve::bls_x_abs;
  EXPECT_EQ(psi, g.mul(&z, 1).neg());
}

TEST(CurveConstants, FrRootOfUnity) {
  constexpr uint64_t t[4] = {0xfffe5bfeffffffffull, 0x09a1d80553bda402ull, 0x299d7d483339d808ull,
                             0x0000000073eda753ull};
  const Fr w = Fr::from_u64(7).pow(t, 4);
  Fr s = w;
  for (int i = 0; i < 31; ++i) s = s.sqr();
  EXPECT_EQ(s, -Fr::one());  // order exactly 2^32
  // sqrt(Fr) relies on this value; it is used through sqrt of -1 (a 2^2 root needs the 2^32 root).
  Fr root;
  ASSERT_TRUE(sqrt(-Fr::one(), root));
  EXPECT_EQ(root.sqr(), -Fr::one());
}

}  // namespace
}  // namespace cuzk::test
