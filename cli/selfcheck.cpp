// `cuzk selfcheck`: algebraic identities of the arithmetic on fresh random values.
//
// Each check states an identity that holds for every input (distributivity, inverses, Fermat's
// little theorem, ...) and tests it on `--rounds` random inputs drawn from one printed seed, so a
// failure is reproducible with `--seed`. This catches a broken build (a miscompiled carry chain, a
// wrong constant, a bad -march) on the machine where it runs, in about a second. It is not the test
// suite: tests/ compare against GMP and @noble/curves.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/commands.hpp"
#include "cli/random.hpp"
#include "curve/encoding.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "curve/pairing/pairing.hpp"
#include "field/fields.hpp"
#include "field/fp12.hpp"
#include "field/fp2.hpp"

namespace cuzk::cli {
namespace {

struct Check {
  std::string area;      // "Fp", "Fr", "Fp2", ...
  std::string identity;  // what must hold, as printed in the table
  std::function<bool(Rng&)> trial;
  int rounds_divisor = 1;  // for checks that cost an exponentiation or more per trial
};

// p - 1 (or r - 1) as little-endian limbs: the exponent of Fermat's little theorem.
template <class F>
void modulus_minus_one(uint64_t (&e)[F::N]) {
  for (size_t i = 0; i < F::N; ++i) e[i] = F::params::mod(i);
  e[0] -= 1;  // both moduli are odd, so no borrow
}

template <class F>
void add_prime_field_checks(std::vector<Check>& checks, const std::string& area, const std::string& modulus) {
  auto rnd = [](Rng& g) { return random_element<F>(g); };
  checks.push_back({area, "(a + b) - b = a", [rnd](Rng& g) {
                      const F a = rnd(g), b = rnd(g);
                      return (a + b) - b == a;
                    }});
  checks.push_back({area, "a + (-a) = 0", [rnd](Rng& g) {
                      const F a = rnd(g);
                      return (a + -a).is_zero() && -(-a) == a;
                    }});
  checks.push_back({area, "a(b + c) = ab + ac", [rnd](Rng& g) {
                      const F a = rnd(g), b = rnd(g), c = rnd(g);
                      return a * (b + c) == a * b + a * c;
                    }});
  checks.push_back({area, "(ab)c = a(bc), ab = ba", [rnd](Rng& g) {
                      const F a = rnd(g), b = rnd(g), c = rnd(g);
                      return (a * b) * c == a * (b * c) && a * b == b * a;
                    }});
  checks.push_back({area, "a * a^-1 = 1", [](Rng& g) {
                      const F a = random_nonzero<F>(g);
                      return (a * a.inverse()).is_one();
                    }});
  checks.push_back({area, "a^(" + modulus + "-1) = 1 (Fermat)",
                    [](Rng& g) {
                      uint64_t e[F::N];
                      modulus_minus_one<F>(e);
                      return random_nonzero<F>(g).pow(e, F::N).is_one();
                    },
                    4});
  checks.push_back({area, "decode(encode_be(a)) = a", [rnd](Rng& g) {
                      const F a = rnd(g);
                      uint8_t bytes[F::BYTES];
                      a.to_bytes_be(bytes);
                      F b;
                      return b.from_bytes_be(bytes) && b == a;
                    }});
}

void add_fp2_checks(std::vector<Check>& checks) {
  checks.push_back({"Fp2", "u^2 = -1", [](Rng&) {
                      const Fp2 u{Fp::zero(), Fp::one()};
                      return u * u == -Fp2::one();
                    }});
  checks.push_back({"Fp2", "a(b + c) = ab + ac", [](Rng& g) {
                      const Fp2 a = random_fp2(g), b = random_fp2(g), c = random_fp2(g);
                      return a * (b + c) == a * b + a * c;
                    }});
  checks.push_back({"Fp2", "(ab)c = a(bc), ab = ba", [](Rng& g) {
                      const Fp2 a = random_fp2(g), b = random_fp2(g), c = random_fp2(g);
                      return (a * b) * c == a * (b * c) && a * b == b * a;
                    }});
  checks.push_back({"Fp2", "a.sqr() = a * a", [](Rng& g) {
                      const Fp2 a = random_fp2(g);
                      return a.sqr() == a * a;
                    }});
  checks.push_back({"Fp2", "a * a^-1 = 1", [](Rng& g) {
                      Fp2 a;
                      do a = random_fp2(g);
                      while (a.is_zero());
                      return (a * a.inverse()).is_one();
                    }});
  checks.push_back({"Fp2", "a * conj(a) in Fp", [](Rng& g) {
                      const Fp2 a = random_fp2(g);
                      return (a * a.conjugate()).c1.is_zero();
                    }});
}

// The same identities for G1 and G2. Points are [k]G for random k, so they are in the subgroup.
template <class A>
void add_curve_checks(std::vector<Check>& checks, const std::string& area) {
  using J = curve::jacobian_t<typename A::field, typename A::params>;
  auto rnd_point = [](Rng& g) { return J::generator().mul(random_element<Fr>(g)); };
  checks.push_back({area, "[a]G + [b]G = [a + b]G",
                    [](Rng& g) {
                      const Fr a = random_element<Fr>(g), b = random_element<Fr>(g);
                      const J G = J::generator();
                      return G.mul(a) + G.mul(b) == G.mul(a + b);
                    },
                    20});
  checks.push_back({area, "[a]([b]G) = [ab]G",
                    [](Rng& g) {
                      const Fr a = random_element<Fr>(g), b = random_element<Fr>(g);
                      const J G = J::generator();
                      return G.mul(b).mul(a) == G.mul(a * b);
                    },
                    20});
  checks.push_back({area, "P + Q (mixed) = P + Q, P - P = O",
                    [rnd_point](Rng& g) {
                      const J P = rnd_point(g), Q = rnd_point(g);
                      return P.add_mixed(Q.to_affine()) == P + Q && (P - P).is_inf() &&
                             P + J::infinity() == P;
                    },
                    20});
  checks.push_back({area, "[r]P = O, P on curve, in subgroup",
                    [rnd_point](Rng& g) {
                      const J P = rnd_point(g);
                      uint64_t r[Fr::N];
                      for (size_t i = 0; i < Fr::N; ++i) r[i] = Fr::params::mod(i);
                      return P.mul(r, Fr::N).is_inf() && P.is_on_curve() && P.in_subgroup();
                    },
                    20});
  checks.push_back({area, "decode(encode(P)) = P, both forms",
                    [rnd_point](Rng& g) {
                      const A P = g() % 16 ? rnd_point(g).to_affine() : A::infinity();
                      if constexpr (std::is_same_v<A, G1Affine>) {
                        const auto c = g1_decode(g1_compress(P)), u = g1_decode(g1_serialize(P));
                        return c.ok() && u.ok() && *c == P && *u == P;
                      } else {
                        const auto c = g2_decode(g2_compress(P)), u = g2_decode(g2_serialize(P));
                        return c.ok() && u.ok() && *c == P && *u == P;
                      }
                    },
                    20});
}

void add_pairing_checks(std::vector<Check>& checks) {
  const G1Affine P = G1Affine::generator();
  const G2Affine Q = G2Affine::generator();
  // e(G1, G2) is computed once, when the first pairing check runs.
  auto base = std::make_shared<Fp12>(Fp12::zero());
  auto e_gg = [P, Q, base] {
    if (base->is_zero()) *base = pairing(P, Q);
    return *base;
  };
  checks.push_back({"pair", "e(G1, G2) != 1, e(G1, G2)^r = 1",
                    [e_gg](Rng&) {
                      uint64_t r[Fr::N];
                      for (size_t i = 0; i < Fr::N; ++i) r[i] = Fr::params::mod(i);
                      const Fp12 e = e_gg();
                      return !e.is_one() && e.pow(r, Fr::N).is_one();
                    },
                    100});
  checks.push_back({"pair", "e([a]G1, [b]G2) = e(G1, G2)^(ab)",
                    [P, Q, e_gg](Rng& g) {
                      const Fr a = random_element<Fr>(g), b = random_element<Fr>(g);
                      uint64_t ab[Fr::N];
                      (a * b).to_canonical(ab);
                      return pairing(P.mul(a).to_affine(), Q.mul(b).to_affine()) == e_gg().pow(ab, Fr::N);
                    },
                    50});
  checks.push_back(
      {"pair", "e(-aP, Q) e(P, aQ) = 1 (multi)",
       [P, Q](Rng& g) {
         const Fr a = random_element<Fr>(g);
         const PairingInput pairs[] = {{P.mul(a).to_affine().neg(), Q}, {P, Q.mul(a).to_affine()}};
         return pairing_product_is_one(pairs);
       },
       50});
}

std::vector<Check> all_checks() {
  std::vector<Check> checks;
  add_prime_field_checks<Fp>(checks, "Fp", "p");
  add_prime_field_checks<Fr>(checks, "Fr", "r");
  add_fp2_checks(checks);
  add_curve_checks<G1Affine>(checks, "G1");
  add_curve_checks<G2Affine>(checks, "G2");
  add_pairing_checks(checks);
  return checks;
}

int run_selfcheck(uint64_t seed, int rounds) {
  std::printf("cuzk selfcheck: seed %" PRIu64 ", %d rounds\n\n", seed, rounds);
  std::printf("%-5s %-32s %7s %7s %9s\n", "area", "identity", "trials", "failed", "ms");
  Rng rng(seed);
  int failed_checks = 0;
  const auto checks = all_checks();
  for (const Check& c : checks) {
    const int trials = std::max(1, rounds / c.rounds_divisor);
    int failed = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < trials; ++i) failed += c.trial(rng) ? 0 : 1;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-5s %-32s %7d %7d %9.1f%s\n", c.area.c_str(), c.identity.c_str(), trials, failed, ms,
                failed ? "  FAILED" : "");
    failed_checks += failed ? 1 : 0;
  }
  std::printf("\n");
  if (failed_checks) {
    std::printf("selfcheck FAILED: %d of %zu checks; reproduce with `cuzk selfcheck --seed %" PRIu64 "`\n",
                failed_checks, checks.size(), seed);
    return 1;
  }
  std::printf("selfcheck passed: %zu checks\n", checks.size());
  return 0;
}

// 64 bits from the OS (random_device yields 32 at a time).
uint64_t fresh_seed() {
  std::random_device rd;
  return (uint64_t{rd()} << 32) | rd();
}

}  // namespace

void register_selfcheck(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("selfcheck", "Check field, curve and pairing identities on random values");
  // Shared, so the callback can read what parsing wrote after register_selfcheck has returned.
  auto seed = std::make_shared<uint64_t>(fresh_seed());
  auto rounds = std::make_shared<int>(500);
  cmd->add_option("--seed", *seed, "Seed of the random values (default: fresh each run)");
  cmd->add_option("--rounds", *rounds, "Random inputs per check")->check(CLI::Range(1, 1000000));
  cmd->callback([seed, rounds, &status] { status = run_selfcheck(*seed, *rounds); });
}

}  // namespace cuzk::cli
