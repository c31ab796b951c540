// The optimal ate pairing: e(G1, G2) against an independent implementation (noble), bilinearity
// on random scalars, products and inverses, infinity, membership of GT, and the exponent of the
// final exponentiation checked with exact integers.
#include "curve/pairing/pairing.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gmp_ref.hpp"

namespace cuzk::test {
namespace {

// e(G1, G2) as printed by @noble/curves 2.4.0 (`bls12_381.pairing(G1.Point.BASE,
// G2.Point.BASE)`), each Fp2 coefficient as (c0, c1) in canonical hex. It equals the value that
// zkcrypto/bls12_381 checks against RELIC.
const char* const kGeneratorPairing[6][2] = {
    // c0.c0
    {"1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6",
     "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa0170f"},
    // c0.c1
    {"1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e87",
     "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c19934f"},
    // c0.c2
    {"01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aaa5",
     "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4b6"},
    // c1.c0
    {"19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee89d",
     "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab1a"},
    // c1.c1
    {"11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba57",
     "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99a2"},
    // c1.c2
    {"04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3ef",
     "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b676631"},
};

Fp2 fp2_from_hex(const char* const (&c)[2]) {
  return {from_mpz<Fp>(mpz_class(c[0], 16)), from_mpz<Fp>(mpz_class(c[1], 16))};
}

Fp12 expected_generator_pairing() {
  const auto& k = kGeneratorPairing;
  return {{fp2_from_hex(k[0]), fp2_from_hex(k[1]), fp2_from_hex(k[2])},
          {fp2_from_hex(k[3]), fp2_from_hex(k[4]), fp2_from_hex(k[5])}};
}

template <class F>
F pow_mpz(const F& a, const mpz_class& e) {
  const std::vector<uint64_t> limbs = mpz_to_limbs(e);
  return a.pow(limbs.data(), limbs.size());
}

mpz_class fr_mpz(const Fr& a) { return to_mpz(a); }

G1Affine g1_mul(const Fr& k) { return G1Affine::generator().mul(k).to_affine(); }
G2Affine g2_mul(const Fr& k) { return G2Affine::generator().mul(k).to_affine(); }

// Non-zero random scalars, so that no point is the identity by accident.
Fr nonzero_scalar(Rng& rng) {
  for (;;) {
    const Fr k = rng.fp<Fr>();
    if (!k.is_zero()) return k;
  }
}

TEST(Pairing, GeneratorsGiveKnownValue) {
  const Fp12 e = pairing(G1Affine::generator(), G2Affine::generator());
  EXPECT_EQ(e, expected_generator_pairing());
}

TEST(Pairing, Bilinear) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const Fp12 base = expected_generator_pairing();
  for (int i = 0; i < 3; ++i) {
    const Fr a = nonzero_scalar(rng), b = nonzero_scalar(rng);
    const Fp12 e = pairing(g1_mul(a), g2_mul(b));
    ASSERT_EQ(e, pow_mpz(base, fr_mpz(a * b)));
    // Moving the scalar across: e(abP, Q) = e(P, abQ).
    ASSERT_EQ(pairing(g1_mul(a * b), G2Affine::generator()), e);
    ASSERT_EQ(pairing(G1Affine::generator(), g2_mul(a * b)), e);
  }
  // Linear in each argument: e(P1 + P2, Q) = e(P1, Q) e(P2, Q).
  const Fr a1 = nonzero_scalar(rng), a2 = nonzero_scalar(rng), b = nonzero_scalar(rng);
  const G2Affine q = g2_mul(b);
  EXPECT_EQ(pairing(g1_mul(a1 + a2), q), pairing(g1_mul(a1), q) * pairing(g1_mul(a2), q));
}

TEST(Pairing, NegationInverts) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const G1Affine p = g1_mul(nonzero_scalar(rng));
  const G2Affine q = g2_mul(nonzero_scalar(rng));
  const Fp12 e = pairing(p, q);
  EXPECT_TRUE((e * pairing(p.neg(), q)).is_one());
  EXPECT_EQ(pairing(p, q.neg()), e.conjugate());  // conjugation is inversion in GT
  EXPECT_EQ(pairing(p.neg(), q.neg()), e);

  const PairingInput cancel[] = {{p, q}, {p.neg(), q}};
  EXPECT_TRUE(pairing_product_is_one(cancel));
  const PairingInput cancel_twist[] = {{p, q}, {p, q.neg()}};
  EXPECT_TRUE(pairing_product_is_one(cancel_twist));
  const PairingInput twice[] = {{p, q}, {p, q}};
  EXPECT_FALSE(pairing_product_is_one(twice));
}

TEST(Pairing, MultiPairingIsProduct) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  std::vector<PairingInput> pairs;
  for (int i = 0; i < 4; ++i) pairs.push_back({g1_mul(nonzero_scalar(rng)), g2_mul(nonzero_scalar(rng))});
  pairs.push_back({G1Affine::infinity(), g2_mul(nonzero_scalar(rng))});
  pairs.push_back({g1_mul(nonzero_scalar(rng)), G2Affine::infinity()});
  Fp12 want = Fp12::one();
  Fp12 loops = Fp12::one();
  for (const auto& [p, q] : pairs) {
    want *= pairing(p, q);
    loops *= miller_loop(p, q);
  }
  EXPECT_EQ(multi_pairing(pairs), want);
  // The shared squarings make the multi-Miller loop exactly the product of the single ones.
  EXPECT_EQ(multi_miller_loop(pairs), loops);
  EXPECT_EQ(multi_pairing(std::span<const PairingInput>(pairs.data(), 1)),
            pairing(pairs[0].first, pairs[0].second));
}

TEST(Pairing, InfinityGivesOne) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const G1Affine p = g1_mul(nonzero_scalar(rng));
  const G2Affine q = g2_mul(nonzero_scalar(rng));
  EXPECT_TRUE(pairing(G1Affine::infinity(), q).is_one());
  EXPECT_TRUE(pairing(p, G2Affine::infinity()).is_one());
  EXPECT_TRUE(pairing(G1Affine::infinity(), G2Affine::infinity()).is_one());
  EXPECT_TRUE(miller_loop(G1Affine::infinity(), q).is_one());
  EXPECT_TRUE(multi_pairing({}).is_one());
  EXPECT_TRUE(pairing_product_is_one({}));
  const PairingInput only_inf[] = {{G1Affine::infinity(), q}, {p, G2Affine::infinity()}};
  EXPECT_TRUE(pairing_product_is_one(only_inf));
}

TEST(Pairing, ValuesLieInGT) {
  Rng rng;
  SCOPED_TRACE(rng.trace());
  const mpz_class r = modulus<Fr>();
  const Fp12 e = pairing(g1_mul(nonzero_scalar(rng)), g2_mul(nonzero_scalar(rng)));
  EXPECT_FALSE(e.is_one());  // non-degenerate
  EXPECT_TRUE(pow_mpz(e, r).is_one());
  EXPECT_TRUE(pow_mpz(expected_generator_pairing(), r).is_one());
}

TEST(FinalExponentiation, ExponentIsThreeTimesPowerOverR) {
  const mpz_class p = modulus<Fp>(), r = modulus<Fr>();
  const mpz_class x = -mpz_class("0xd201000000010000");
  const mpz_class p2 = p * p, p4 = p2 * p2, p6 = p4 * p2;
  ASSERT_EQ(mpz_class((p4 - p2 + 1) % r), 0);
  const mpz_class hard = (p4 - p2 + 1) / r;
  // The decomposition the hard part evaluates (Hayashida-Hayasaka-Teruya).
  EXPECT_EQ((x - 1) * (x - 1) * (x + p) * (x * x + p2 - 1) + 3, 3 * hard);

  Rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 2; ++i) {
    const Fp12 f = rng.fp12();
    const Fp12 want = pow_mpz(f, mpz_class(3 * (p6 - 1) * (p2 + 1) * hard));
    ASSERT_EQ(final_exponentiation(f), want);
  }
  EXPECT_TRUE(final_exponentiation(Fp12::one()).is_one());
}

}  // namespace
}  // namespace cuzk::test
