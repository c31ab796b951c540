// The batch-affine step (curve/affine_step.hpp) against the Jacobian group law on G1 and G2: each
// kind of step alone (addition, doubling, P + (−P), infinity on either side), batches that mix them
// with one shared inversion, and a whole accumulation of many points per lane.
#include <gtest/gtest.h>

#include <vector>

#include "curve/affine_step.hpp"
#include "curve_test_util.hpp"

namespace cuzk::test {
namespace {

template <class T>
class AffineStep : public ::testing::Test {};
using Curves = ::testing::Types<G1Traits, G2Traits>;
TYPED_TEST_SUITE(AffineStep, Curves);

template <class T>
typename T::Affine reference_sum(const typename T::Affine& a, const typename T::Affine& b) {
  using J = typename T::Jacobian;
  return (J(a) + J(b)).to_affine();
}

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

TYPED_TEST(AffineStep, EachKindMatchesTheGroupLaw) {
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

TYPED_TEST(AffineStep, BatchesShareOneInversion) {
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
TYPED_TEST(AffineStep, AccumulationMatchesJacobianSums) {
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
