#include "r1cs/circuits/synthetic.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <thread>

namespace cuzk::r1cs {

namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finalizer: a good 64-bit mixer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// p as a threshold on a uniform 64-bit word; p ≥ 1 is "always" (UINT64_MAX plus the flag check).
uint64_t threshold(double p) {
  if (p <= 0) return 0;
  if (p >= 1) return UINT64_MAX;
  return uint64_t(std::ldexp(p, 64));
}
bool below(uint64_t h, uint64_t t) { return t == UINT64_MAX || h < t; }

// A uniform field element: four mixed words, the top two bits cleared so the value is < 2^254 < r,
// used directly as a Montgomery representation (any residue is one), which saves a multiplication.
Fr random_element(uint64_t h) {
  Fr x;
  for (size_t i = 0; i < Fr::N; ++i) x.l[i] = mix(h + i);
  x.l[Fr::N - 1] &= (uint64_t(1) << 62) - 1;
  return x;
}

}  // namespace

SyntheticParams SyntheticParams::benchmark_shape(unsigned log_domain, uint64_t seed) {
  SyntheticParams p;
  p.num_constraints = uint64_t(0.97 * std::ldexp(1.0, int(log_domain)));
  p.num_public_inputs = 19;
  p.a_density = 1.0;
  p.b_density = 0.6;
  p.zero_fraction = 0.4;
  p.one_fraction = 0.4;
  p.seed = seed;
  return p;
}

Status SyntheticParams::validate() const {
  auto fraction = [](double x) { return x >= 0 && x <= 1; };
  if (!fraction(a_density) || !fraction(b_density) || !fraction(zero_fraction) || !fraction(one_fraction) ||
      zero_fraction + one_fraction > 1)
    return make_error("synthetic circuit: densities and value fractions must lie in [0, 1], zero + one ≤ 1");
  if (num_constraints < num_public_inputs)
    return make_error("synthetic circuit: " + std::to_string(num_public_inputs) +
                      " public inputs need at least as many constraints, have " +
                      std::to_string(num_constraints));
  if (num_constraints >= (uint64_t(1) << 32) - num_public_inputs - 1)
    return make_error("synthetic circuit: " + std::to_string(num_constraints) +
                      " constraints exceed the 2^32 variables of the constraint system");
  return Status::Ok();
}

SyntheticCircuit::SyntheticCircuit(const SyntheticParams& p)
    : params_(p),
      a_threshold_(threshold(p.a_density)),
      b_threshold_(threshold(p.b_density)),
      zero_threshold_(threshold(p.zero_fraction)),
      one_threshold_(threshold(p.zero_fraction + p.one_fraction)) {}

Result<SyntheticCircuit> SyntheticCircuit::create(const SyntheticParams& params) {
  CUZK_TRY_STATUS(params.validate());
  return SyntheticCircuit(params);
}

SyntheticCircuit::Row SyntheticCircuit::row(uint64_t j) const {
  const uint64_t h = mix(params_.seed ^ mix(j));
  Row r;
  r.in_a = below(mix(h + 1), a_threshold_);
  r.in_b = below(mix(h + 2), b_threshold_);
  const uint64_t v = mix(h + 3);
  if (below(v, zero_threshold_)) {
    r.value = Fr::zero();
  } else if (below(v, one_threshold_)) {
    r.value = Fr::one();
  } else {
    r.value = random_element(mix(h + 4));
  }
  return r;
}

Fr SyntheticCircuit::input_value(uint32_t i) const {
  return random_element(mix(params_.seed ^ ~uint64_t(i)));
}

std::vector<Fr> SyntheticCircuit::public_inputs() const {
  std::vector<Fr> out;
  for (uint32_t i = 1; i <= params_.num_public_inputs; ++i) out.push_back(input_value(i));
  return out;
}

Status SyntheticCircuit::synthesize(ConstraintSystem& cs) const {
  std::vector<Variable> inputs;
  for (uint32_t i = 1; i <= params_.num_public_inputs; ++i) inputs.push_back(cs.alloc_input(input_value(i)));
  const Fr one = Fr::one();
  for (uint64_t j = 0; j < params_.num_constraints; ++j) {
    const Row r = row(j);
    const Variable z = cs.alloc(r.value);
    LinearCombination a(r.in_a ? z : Variable::one());
    Fr a_value = r.in_a ? r.value : one;
    if (j < inputs.size()) {
      a.add(inputs[j], one);
      a_value += input_value(uint32_t(j + 1));
    }
    const LinearCombination b(r.in_b ? z : Variable::one());
    const Fr b_value = r.in_b ? r.value : one;
    const Fr product = a_value * b_value;
    if (r.in_a || r.in_b) {
      cs.enforce(a, b, LinearCombination::constant(product));
    } else {
      LinearCombination c(z);
      if (!(product - r.value).is_zero()) c.add(Variable::one(), product - r.value);
      cs.enforce(a, b, c);
    }
  }
  return Status::Ok();
}

Result<Assignment> SyntheticCircuit::synthesize_assignment(unsigned threads) const {
  Assignment out;
  CUZK_TRY_STATUS(synthesize_into(out, threads));
  return out;
}

Status SyntheticCircuit::synthesize_into(Assignment& out, unsigned threads, bool c_from_ab) const {
  const uint64_t n = params_.num_constraints;
  const size_t ni = size_t(params_.num_public_inputs) + 1;
  out.input_assignment.clear();
  out.a_aux_density = {};
  out.b_aux_density = {};
  out.b_input_density = {};
  out.c_from_ab = c_from_ab;
  if (c_from_ab) out.c.clear();  // its storage stays for a later call that writes it
  out.input_assignment.push_back(Fr::one());
  for (uint32_t i = 1; i < ni; ++i) out.input_assignment.push_back(input_value(i));
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  // Every element kept is written below, so a vector is only resized: one that already holds enough
  // (lent by an engine's pool, or this function's last output) is not filled first, which at PoRep
  // size saves writing 17 GB. A new vector's zero-fill (page faults included) is most of this
  // function's time on one thread, so each grows on its own thread. Room is reserved for the
  // prover's zero padding to the domain size, so that it does not reallocate.
  {
    const size_t rows = size_t(n) + ni, domain = std::bit_ceil(rows);
    struct Fill {
      std::vector<Fr>* v;
      size_t reserve, size;
    };
    const Fill fills[] = {{&out.aux_assignment, size_t(n), size_t(n)},
                          {&out.a, domain, rows},
                          {&out.b, domain, rows},
                          {&out.c, c_from_ab ? 0 : domain, c_from_ab ? 0 : rows}};
    const auto run = [](const Fill& f) {
      f.v->reserve(f.reserve);
      f.v->resize(f.size);
    };
    std::vector<std::thread> helpers;
    for (size_t k = 1; k < std::size(fills); ++k)
      if (threads > 1)
        helpers.emplace_back(run, fills[k]);
      else
        run(fills[k]);
    run(fills[0]);
    for (auto& t : helpers) t.join();
  }
  out.a_aux_density.resize(n);
  out.b_aux_density.resize(n);
  out.b_input_density.resize(ni);

  // Chunks start on multiples of 64 so that no two threads share a density word.
  const uint64_t words = (n + 63) / 64;
  threads = unsigned(std::max<uint64_t>(1, std::min<uint64_t>(threads, words)));
  std::vector<char> used_one_in_b(threads, 0);
  auto work = [&](unsigned t) {
    const uint64_t begin = std::min(n, words * t / threads * 64);
    const uint64_t end = std::min(n, words * (t + 1) / threads * 64);
    const Fr one = Fr::one();
    bool one_in_b = false;
    for (uint64_t j = begin; j < end; ++j) {
      const Row r = row(j);
      out.aux_assignment[j] = r.value;
      Fr a_value = r.in_a ? r.value : one;
      if (j + 1 < ni) a_value += out.input_assignment[j + 1];
      const Fr b_value = r.in_b ? r.value : one;
      out.a[j] = a_value;
      out.b[j] = b_value;
      if (!c_from_ab) out.c[j] = a_value * b_value;
      // Density follows the LCs: z_j in A or B when drawn so, ONE in B otherwise.
      if (r.in_a) out.a_aux_density.words[j / 64] |= uint64_t(1) << (j % 64);
      if (r.in_b) {
        out.b_aux_density.words[j / 64] |= uint64_t(1) << (j % 64);
      } else {
        one_in_b = true;
      }
    }
    used_one_in_b[t] = one_in_b;
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (auto& th : pool) th.join();
  }
  if (std::find(used_one_in_b.begin(), used_one_in_b.end(), 1) != used_one_in_b.end())
    out.b_input_density.set(0);
  out.a_aux_density.recount();
  out.b_aux_density.recount();
  for (size_t i = 0; i < ni; ++i) {
    out.a[n + i] = out.input_assignment[i];
    out.b[n + i] = Fr::zero();
    if (!c_from_ab) out.c[n + i] = Fr::zero();
  }
  return Status::Ok();
}

}  // namespace cuzk::r1cs
