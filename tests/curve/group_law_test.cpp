// Group laws of the affine, Jacobian and XYZZ forms on random points of G1 and G2, including the
// degenerate inputs of the incomplete formulas (infinity, P + P, P + (-P)) in every representation,
// and the batch-affine step against them.
#include <gtest/gtest.h>

#include <vector>

#include "curve/affine_step.hpp"
#include "curve_test_util.hpp"

namespace cuzk::test {
namespace {

template <class T>
class GroupLaw : public ::testing::Test {};
using Curves = ::testing::Types<G1Traits, G2Traits>;
TYPED_TEST_SUITE(GroupLaw, Curves);

constexpr int kIters = 16;

// The same point with another Z: (l^2 X, l^3 Y, l Z), so equal inputs reach add() in different
// coordinates and the formulas' equality tests must be projective.
template <class T>
typename T::Jacobian rescale(const typename T::Jacobian& p, const typename T::F& l) {
  const auto l2 = l.sqr();
  return {p.X * l2, p.Y * l2 * l, p.Z * l};
}
template <class T>
typename T::Xyzz rescale(const typename T::Xyzz& p, const typename T::F& l) {
  const auto l2 = l.sqr();
  const auto l3 = l2 * l;
  return {p.X * l2, p.Y * l3, p.ZZ * l2, p.ZZZ * l3};
}

// A random point: usually in the subgroup, sometimes a whole-curve point (the laws hold on E(F)).
template <class T>
typename T::Jacobian random_point(Rng& rng) {
  if (rng.u64() % 4 == 0) {
    const typename T::Jacobian p(random_curve_point<T>(rng));
    return rescale<T>(p, T::random_field(rng));
  }
  return random_subgroup_point<T>(rng);
}

TYPED_TEST(GroupLaw, IdentityAndInverse) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  using X = typename T::Xyzz;
  using A = typename T::Affine;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const J inf = J::infinity();
  EXPECT_TRUE(inf.is_inf());
  EXPECT_TRUE(A::infinity().is_inf());
  EXPECT_TRUE(X::infinity().is_inf());
  EXPECT_TRUE(J(A::infinity()).is_inf());
  EXPECT_TRUE(X(A::infinity()).is_inf());
  EXPECT_TRUE(inf.dbl().is_inf());
  EXPECT_TRUE(X::infinity().dbl().is_inf());
  EXPECT_EQ(inf.to_affine(), A::infinity());
  EXPECT_EQ(X::infinity().to_affine(), A::infinity());
  EXPECT_EQ(inf.add_mixed(A::infinity()), inf);
  EXPECT_TRUE(A::infinity().is_on_curve());
  for (int i = 0; i < kIters; ++i) {
    const J p = random_point<T>(rng);
    const A pa = p.to_affine();
    const X px(p);
    EXPECT_EQ(p.add(inf), p);
    EXPECT_EQ(inf.add(p), p);
    EXPECT_EQ(p.add_mixed(A::infinity()), p);
    EXPECT_EQ(inf.add_mixed(pa), p);
    EXPECT_EQ(px.add(X::infinity()), px);
    EXPECT_EQ(X::infinity().add(px), px);
    EXPECT_EQ(X::infinity().add_mixed(pa), px);
    EXPECT_EQ(px.add_mixed(A::infinity()), px);

    EXPECT_TRUE(p.add(p.neg()).is_inf());
    EXPECT_TRUE(p.add(rescale<T>(p.neg(), T::random_field(rng))).is_inf());
    EXPECT_TRUE(p.add_mixed(pa.neg()).is_inf());
    EXPECT_TRUE(px.add(rescale<T>(px.neg(), T::random_field(rng))).is_inf());
    EXPECT_TRUE(px.add_mixed(pa.neg()).is_inf());
    EXPECT_EQ(p - p, inf);
    EXPECT_EQ(-(-p), p);
    EXPECT_EQ(pa.neg().neg(), pa);
    EXPECT_EQ(A::infinity().neg(), A::infinity());
  }
}

TYPED_TEST(GroupLaw, AssociativeAndCommutative) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (int i = 0; i < kIters; ++i) {
    const J p = random_point<T>(rng), q = random_point<T>(rng), r = random_point<T>(rng);
    const J lhs = p.add(q).add(r), rhs = p.add(q.add(r));
    EXPECT_EQ(lhs, rhs);
    EXPECT_EQ(lhs.to_affine(), rhs.to_affine());
    EXPECT_EQ(p.add(q), q.add(p));
    EXPECT_TRUE(lhs.is_on_curve());
    EXPECT_TRUE(lhs.to_affine().is_on_curve());
    EXPECT_NE(p.add(q), p);  // q is never infinity here
  }
}

TYPED_TEST(GroupLaw, DoublingMatchesAddition) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  using X = typename T::Xyzz;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (int i = 0; i < kIters; ++i) {
    const J p = random_point<T>(rng);
    const J d = p.dbl();
    EXPECT_TRUE(d.is_on_curve());
    EXPECT_EQ(p.add(p), d);
    EXPECT_EQ(p.add(rescale<T>(p, T::random_field(rng))), d);  // equal points, different Z
    EXPECT_EQ(p.add_mixed(p.to_affine()), d);
    const X px = rescale<T>(X(p), T::random_field(rng));
    EXPECT_TRUE(px.is_on_curve());
    EXPECT_TRUE(px.dbl().is_on_curve());
    EXPECT_EQ(px.dbl().to_affine(), d.to_affine());
    EXPECT_EQ(px.add(px).to_affine(), d.to_affine());
    EXPECT_EQ(px.add(rescale<T>(px, T::random_field(rng))).to_affine(), d.to_affine());
    EXPECT_EQ(px.add_mixed(p.to_affine()).to_affine(), d.to_affine());
    EXPECT_EQ(X::dbl_affine(p.to_affine()).to_affine(), d.to_affine());
    // 2P + P = 3P = P + P + P through the other paths.
    EXPECT_EQ(d.add(p), p.add(p).add_mixed(p.to_affine()));
  }
}

TYPED_TEST(GroupLaw, MixedAndXyzzAgreeWithJacobian) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  using X = typename T::Xyzz;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  // A running sum in three representations over random (possibly repeated or opposite) addends.
  J acc = J::infinity();
  J acc_mixed = J::infinity();
  X acc_xyzz = X::infinity();
  X acc_xyzz_mixed = X::infinity();
  J prev = random_point<T>(rng);
  for (int i = 0; i < 4 * kIters; ++i) {
    J q;
    switch (rng.u64() % 4) {
      case 0:
        q = prev;
        break;  // repeat
      case 1:
        q = prev.neg();
        break;  // cancel
      case 2:
        q = acc;
        break;  // doubling of the sum
      default:
        q = random_point<T>(rng);
        break;
    }
    prev = q;
    const auto qa = q.to_affine();
    acc = acc.add(q);
    acc_mixed = acc_mixed.add_mixed(qa);
    acc_xyzz = acc_xyzz.add(rescale<T>(X(q), T::random_field(rng)));
    acc_xyzz_mixed = acc_xyzz_mixed.add_mixed(qa);
    ASSERT_EQ(acc, acc_mixed) << "step " << i;
    ASSERT_EQ(acc_xyzz, acc_xyzz_mixed) << "step " << i;
    ASSERT_EQ(acc.to_affine(), acc_xyzz.to_affine()) << "step " << i;
    ASSERT_EQ(acc, acc_xyzz.to_jacobian()) << "step " << i;
    ASSERT_EQ(X(acc), acc_xyzz) << "step " << i;
    ASSERT_TRUE(acc.is_on_curve() && acc_mixed.is_on_curve()) << "step " << i;
    ASSERT_TRUE(acc_xyzz.is_on_curve() && acc_xyzz_mixed.is_on_curve()) << "step " << i;
  }
}

TYPED_TEST(GroupLaw, ProjectiveEquality) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  using X = typename T::Xyzz;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (int i = 0; i < kIters; ++i) {
    const J p = random_point<T>(rng);
    const J q = rescale<T>(p, T::random_field(rng));
    EXPECT_EQ(p, q);
    EXPECT_NE(p, q.neg());
    EXPECT_NE(p, J::infinity());
    EXPECT_NE(J::infinity(), p);
    EXPECT_EQ(J(J::infinity().X, J::infinity().Y, typename T::F{}), J::infinity());  // any X, Y with Z = 0
    const X px = rescale<T>(X(p), T::random_field(rng));
    EXPECT_EQ(px, X(q));
    EXPECT_NE(px, X(q).neg());
    EXPECT_NE(px, X::infinity());
    EXPECT_EQ(px.to_jacobian(), p);
  }
}

TYPED_TEST(GroupLaw, ScalarMultiplication) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  using X = typename T::Xyzz;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const auto r = order_limbs();
  for (int i = 0; i < kIters / 2; ++i) {
    const J p = random_subgroup_point<T>(rng);
    const Fr a = random_fr(rng), b = random_fr(rng);
    const J pa = p.mul(a), pb = p.mul(b);
    EXPECT_EQ(pa.add(pb), p.mul(a + b));
    EXPECT_EQ(pa.mul(b), p.mul(a * b));
    EXPECT_TRUE(pa.is_on_curve());
    EXPECT_TRUE(p.mul(r.data(), r.size()).is_inf());
    EXPECT_EQ(p.to_affine().mul(a), pa);
    EXPECT_EQ(X(p).mul(a).to_affine(), pa.to_affine());
    EXPECT_EQ(p.mul(-a), pa.neg());
  }
  const J p = random_subgroup_point<T>(rng);
  EXPECT_TRUE(p.mul(Fr::zero()).is_inf());
  EXPECT_EQ(p.mul(Fr::one()), p);
  EXPECT_EQ(p.mul(Fr::from_u64(2)), p.dbl());
  EXPECT_EQ(p.mul(Fr::from_u64(3)), p.dbl().add(p));
  EXPECT_TRUE(J::infinity().mul(random_fr(rng)).is_inf());
  EXPECT_TRUE(p.mul(nullptr, 0).is_inf());
  // [r - 1]P = -P, via Fr: r - 1 = -1.
  EXPECT_EQ(p.mul(-Fr::one()), p.neg());
  // Scalars wider than r wrap modulo the order: [r + k]P = [k]P.
  const uint64_t k = rng.u64() >> 1;
  uint64_t rk[5] = {r[0], r[1], r[2], r[3], 0};
  uint64_t carry = k;
  for (auto& w : rk) {
    w += carry;
    carry = w < carry ? 1 : 0;
  }
  EXPECT_EQ(p.mul(rk, 5), p.mul(&k, 1));
}

TYPED_TEST(GroupLaw, BatchToAffine) {
  using T = TypeParam;
  using J = typename T::Jacobian;
  using X = typename T::Xyzz;
  using A = typename T::Affine;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(7), size_t(33)}) {
    std::vector<J> in(n);
    std::vector<X> inx(n);
    for (size_t i = 0; i < n; ++i) {
      in[i] = rng.u64() % 4 == 0 ? J::infinity() : random_point<T>(rng);
      inx[i] = rescale<T>(X(in[i]), T::random_field(rng));
    }
    std::vector<A> out(n), outx(n);
    curve::batch_to_affine(in.data(), out.data(), n);
    curve::batch_to_affine(inx.data(), outx.data(), n);
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(out[i], in[i].to_affine()) << "n " << n << " i " << i;
      EXPECT_EQ(outx[i], in[i].to_affine()) << "n " << n << " i " << i;
      EXPECT_TRUE(out[i].is_on_curve());
    }
  }
  // All infinities.
  std::vector<J> in(5, J::infinity());
  std::vector<A> out(5, A::generator());
  curve::batch_to_affine(in.data(), out.data(), in.size());
  for (const A& a : out) EXPECT_TRUE(a.is_inf());
}

template <class T>
typename T::Affine reference_sum(const typename T::Affine& a, const typename T::Affine& b) {
  using J = typename T::Jacobian;
  return (J(a) + J(b)).to_affine();
}

// The batch-affine step (curve/affine_step.hpp): each kind alone (addition, doubling, P + (−P),
// infinity on either side), batches that mix them with one shared inversion, and whole
// accumulations of many points per lane.

// Pairs covering every kind of step: random, p = acc, p = −acc, and infinity on either side.
template <class T>
void random_pair(Rng& rng, typename T::Affine& acc, typename T::Affine& p) {
  using A = typename T::Affine;
  acc = random_subgroup_point<T>(rng).to_affine();
  p = random_subgroup_point<T>(rng).to_affine();
  switch (rng.below(8)) {
    case 0:
      p = acc;
      break;
    case 1:
      p = acc.neg();
      break;
    case 2:
      acc = A::infinity();
      break;
    case 3:
      p = A::infinity();
      break;
    case 4:
      acc = p = A::infinity();
      break;
    default:
      break;
  }
}

TYPED_TEST(GroupLaw, AffineStepEachKind) {
  using T = TypeParam;
  using A = typename T::Affine;
  using S = curve::affine_step<A>;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const A g = random_subgroup_point<T>(rng).to_affine();
  const A h = random_subgroup_point<T>(rng).to_affine();
  struct Case {
    A acc, p;
    typename S::Kind kind;
  };
  const Case cases[] = {{g, h, S::Kind::add},
                        {g, g, S::Kind::dbl},
                        {g, g.neg(), S::Kind::cancel},
                        {A::infinity(), h, S::Kind::take},
                        {g, A::infinity(), S::Kind::keep},
                        {A::infinity(), A::infinity(), S::Kind::keep}};
  for (const Case& c : cases) {
    EXPECT_EQ(S::kind(c.acc, c.p), c.kind);
    const auto d = S::denominator(c.acc, c.p);
    ASSERT_FALSE(d.is_zero());
    const A got = S::finish(c.acc, c.p, d.inverse());
    EXPECT_EQ(got, reference_sum<T>(c.acc, c.p)) << "kind " << int(c.kind);
    EXPECT_TRUE(got.is_on_curve());
  }
}

TYPED_TEST(GroupLaw, AffineStepBatchesShareOneInversion) {
  using T = TypeParam;
  using A = typename T::Affine;
  using F = typename A::field;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(17), size_t(64)}) {
    std::vector<A> acc(n), p(n), want(n);
    for (size_t i = 0; i < n; ++i) {
      random_pair<T>(rng, acc[i], p[i]);
      want[i] = reference_sum<T>(acc[i], p[i]);
    }
    // The same point in several places of one batch, as repeated bases put it there.
    if (n > 3) {
      p[3] = p[1];
      acc[2] = acc[1];
      want[3] = reference_sum<T>(acc[3], p[3]);
      want[2] = reference_sum<T>(acc[2], p[2]);
    }
    std::vector<F> scratch(n);
    curve::affine_batch_add(acc.data(), p.data(), n, scratch.data());
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(acc[i], want[i]) << "n " << n << " i " << i;
  }
}

// Lanes that each sum their own run of points, one point per lane and step as the on-chip batch
// will, starting from infinity; each lane's sum equals the Jacobian sum of its points.
TYPED_TEST(GroupLaw, AffineStepAccumulationMatchesJacobianSums) {
  using T = TypeParam;
  using A = typename T::Affine;
  using J = typename T::Jacobian;
  using F = typename A::field;
  Rng rng;
  CUZK_SEED_TRACE(rng);
  constexpr size_t kLanes = 8, kSteps = 12;
  std::vector<A> acc(kLanes, A::infinity()), step(kLanes);
  std::vector<J> want(kLanes, J::infinity());
  std::vector<F> scratch(kLanes);
  const A base = random_subgroup_point<T>(rng).to_affine();
  for (size_t s = 0; s < kSteps; ++s) {
    for (size_t l = 0; l < kLanes; ++l) {
      // Mostly fresh points; now and then the lane's own sum (a doubling), its negation (back to
      // infinity) or the same base in every lane.
      switch (rng.below(10)) {
        case 0:
          step[l] = acc[l];
          break;
        case 1:
          step[l] = acc[l].neg();
          break;
        case 2:
          step[l] = base;
          break;
        default:
          step[l] = random_subgroup_point<T>(rng).to_affine();
      }
      want[l] = want[l] + J(step[l]);
    }
    curve::affine_batch_add(acc.data(), step.data(), kLanes, scratch.data());
  }
  for (size_t l = 0; l < kLanes; ++l) EXPECT_EQ(acc[l], want[l].to_affine()) << "lane " << l;
}

}  // namespace
}  // namespace cuzk::test
