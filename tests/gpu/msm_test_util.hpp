// Shared pieces of the device MSM tests (msm_test.cpp, msm_work_area_test.cpp): bases of known
// discrete logs, scalar mixes (random with special values, a PoRep witness's), one MSM through a
// fresh context as a case says, and its comparison with the CPU backend's.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "backend/cpu/msm.hpp"
#include "backend/cuda/msm/msm.hpp"
#include "tests/gpu/gpu_test_util.hpp"

namespace cuzk::cuda::msmtest {

using gputest::random_field;
using gputest::test_device;

template <class A>
using Jac = curve::jacobian_t<typename A::field, typename A::params>;

// `count` points [t0 + j·δ]G, j < count, for random t0 and δ; their discrete logs are returned too.
template <class A>
std::vector<A> progression(size_t count, std::mt19937_64& rng, std::vector<Fr>* logs) {
  const Fr t0 = random_field<Fr>(rng), delta = random_field<Fr>(rng);
  const Jac<A> step = A::generator().mul(delta);
  Jac<A> p = A::generator().mul(t0);
  Fr k = t0;
  std::vector<Jac<A>> jac(count);
  logs->resize(count);
  for (size_t j = 0; j < count; ++j) {
    jac[j] = p;
    (*logs)[j] = k;
    p = p.add(step);
    k += delta;
  }
  std::vector<A> out(count);
  curve::batch_to_affine(jac.data(), out.data(), count);
  return out;
}

// Random scalars with a share of the special values 0, 1, r − 1 and small ones.
inline std::vector<Fr> random_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& x : s) {
    switch (rng() % 10) {
      case 0:
        x = Fr::zero();
        break;
      case 1:
        x = Fr::one();
        break;
      case 2:
        x = -Fr::one();
        break;
      case 3:
        x = Fr::from_u64(rng() % 7);
        break;
      default:
        x = random_field<Fr>(rng);
    }
  }
  return s;
}

// A PoRep witness's mix: 40 % zero, 40 % one, 20 % uniform.
inline std::vector<Fr> witness_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> w(n);
  for (auto& x : w) {
    const uint64_t kind = rng() % 10;
    x = kind < 4 ? Fr::zero() : kind < 8 ? Fr::one() : random_field<Fr>(rng);
  }
  return w;
}

inline std::vector<Fr> to_canonical(const std::vector<Fr>& v) {
  std::vector<Fr> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) v[i].to_canonical(out[i].l);
  return out;
}

struct Case {
  MsmConfig cfg{};
  Memory scalars_at = Memory::host;
  ScalarForm form = ScalarForm::montgomery;
  bool streamed = false;
  Memory bases_at = Memory::host;
};

// Runs one MSM through a fresh context; bases/scalars are host vectors (uploaded as the case says).
// `passes`: the run's sort-and-sum passes (MsmTimings::passes; needs cfg.profile).
template <class A>
Result<Jac<A>> device_msm(const std::vector<A>& bases, const std::vector<Fr>& scalars, const Case& c,
                          const uint64_t* density = nullptr, unsigned* passes = nullptr) {
  auto s = Stream::create(test_device());
  if (!s) return s.error();
  const size_t cap = std::max(bases.size(), scalars.size());
  auto ctx = Msm<A>::create(test_device(), std::max<size_t>(cap, 1), c.cfg, c.streamed);
  if (!ctx) return ctx.error();
  DeviceBuffer<A> dbases;
  if (c.bases_at == Memory::device) {
    auto b = gputest::to_device(bases, *s);
    if (!b) return b.error();
    dbases = std::move(*b);
    if (auto st = ctx->set_bases(dbases.data(), bases.size(), Memory::device, *s); !st) return st.error();
  } else {
    if (auto st = ctx->set_bases(bases.data(), bases.size(), Memory::host, *s); !st) return st.error();
  }
  const std::vector<Fr> sc = c.form == ScalarForm::canonical ? to_canonical(scalars) : scalars;
  DeviceBuffer<Fr> dsc;
  const Fr* p = sc.data();
  if (c.scalars_at == Memory::device) {
    auto b = gputest::to_device(sc, *s);
    if (!b) return b.error();
    dsc = std::move(*b);
    p = dsc.data();
  }
  auto r = density ? ctx->run(p, sc.size(), density, c.scalars_at, c.form, *s)
                   : ctx->run(p, sc.size(), c.scalars_at, c.form, *s);
  if (passes) *passes = ctx->last_timings().passes;
  return r;
}

template <class A>
void expect_matches_cpu(const std::vector<A>& bases, const std::vector<Fr>& scalars, const Case& c,
                        const std::string& what) {
  SCOPED_TRACE(what);
  auto want = cpu::msm<A>(bases, scalars);
  ASSERT_TRUE(want.ok()) << want.message();
  auto got = device_msm(bases, scalars, c);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_TRUE(*got == *want);
}

}  // namespace cuzk::cuda::msmtest
