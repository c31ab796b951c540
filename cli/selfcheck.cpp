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
#include <random>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/random.hpp"
#include "field/fields.hpp"
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

std::vector<Check> all_checks() {
  std::vector<Check> checks;
  add_prime_field_checks<Fp>(checks, "Fp", "p");
  add_prime_field_checks<Fr>(checks, "Fr", "r");
  add_fp2_checks(checks);
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

}  // namespace

void register_selfcheck(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("selfcheck", "Check field, curve and pairing identities on random values");
  // Shared, so the callback can read what parsing wrote after register_selfcheck has returned.
  auto seed =
      std::make_shared<uint64_t>(std::random_device{}() * uint64_t{0x100000001} ^ std::random_device{}());
  auto rounds = std::make_shared<int>(500);
  cmd->add_option("--seed", *seed, "Seed of the random values (default: fresh each run)");
  cmd->add_option("--rounds", *rounds, "Random inputs per check")->check(CLI::Range(1, 1000000));
  cmd->callback([seed, rounds, &status] { status = run_selfcheck(*seed, *rounds); });
}

}  // namespace cuzk::cli
