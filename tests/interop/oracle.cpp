// The C++ half of the @noble/curves cross-check (check_noble.mjs is the other half).
//
// Usage: interop_oracle <seed> [cases-per-op]
// Draws inputs from <seed>, computes them with cuzk, and prints one JSON object a line:
//   {"op": "<name>", "in": ["<hex>", ...], "out": "<hex>" | null}
// `out` is null where cuzk reports "no result" (no square root, a rejected encoding). All values are
// bytes in the encodings of formats.md §1, as hex: Fp 48 B and Fr 32 B big-endian, canonical;
// Fp2 c1 || c0; points in ZCash encodings (uncompressed unless the op is about compression).
// The node script recomputes each case independently and compares the bytes, so every byte here
// is a claim about cuzk that @noble/curves can refute.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "cli/random.hpp"
#include "curve/encoding.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "curve/pairing/pairing.hpp"
#include "field/fields.hpp"
#include "field/fp12.hpp"
#include "field/fp2.hpp"
#include "field/sqrt.hpp"

namespace {

using cuzk::Fp;
using cuzk::Fp12;
using cuzk::Fp2;
using cuzk::Fp6;
using cuzk::Fr;
using cuzk::G1Affine;
using cuzk::G1Jacobian;
using cuzk::G2Affine;
using cuzk::G2Jacobian;
using cuzk::cli::Rng;
using Bytes = std::vector<uint8_t>;

// ------------------------------------------------------------------ output
std::string hex(std::span<const uint8_t> b) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * b.size());
  for (uint8_t x : b) {
    s += digits[x >> 4];
    s += digits[x & 15];
  }
  return s;
}

template <class F>
Bytes enc(const F& a) {
  Bytes b(F::BYTES);
  a.to_bytes_be(b.data());
  return b;
}
Bytes enc(const Fp2& a) {  // ZCash order: c1 first
  Bytes b = enc(a.c1), c0 = enc(a.c0);
  b.insert(b.end(), c0.begin(), c0.end());
  return b;
}
// Fp12: the twelve Fp coefficients in storage order, c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1
// (unlike point coordinates, each Fp2 here is c0 then c1).
Bytes enc(const Fp12& a) {
  Bytes b;
  for (const Fp6* h : {&a.c0, &a.c1})
    for (const Fp2* c : {&h->c0, &h->c1, &h->c2})
      for (const Fp* x : {&c->c0, &c->c1}) {
        const Bytes e = enc(*x);
        b.insert(b.end(), e.begin(), e.end());
      }
  return b;
}
Bytes enc(const G1Affine& p) {
  const auto a = cuzk::g1_serialize(p);
  return {a.begin(), a.end()};
}
Bytes enc(const G2Affine& p) {
  const auto a = cuzk::g2_serialize(p);
  return {a.begin(), a.end()};
}

void emit(const char* op, const std::vector<Bytes>& in, const Bytes* out) {
  std::string line = std::string("{\"op\":\"") + op + "\",\"in\":[";
  for (size_t i = 0; i < in.size(); ++i) line += (i ? ",\"" : "\"") + hex(in[i]) + "\"";
  line += "],\"out\":";
  line += out ? "\"" + hex(*out) + "\"" : std::string("null");
  line += "}\n";
  std::fputs(line.c_str(), stdout);
}
void emit(const char* op, const std::vector<Bytes>& in, const Bytes& out) { emit(op, in, &out); }

// ------------------------------------------------------------------ inputs
// One input in eight is an edge value, where carries, reductions and special cases live.
template <class F>
F field_input(Rng& g) {
  if (g() % 8 != 0) return cuzk::cli::random_element<F>(g);
  const F two = F::one() + F::one();
  const F half = two.inverse();  // (m + 1) / 2; -half = (m - 1) / 2
  const F edges[] = {F::zero(), F::one(), -F::one(), two, -two, half, -half, F::from_u64(g() >> 40)};
  return edges[g() % std::size(edges)];
}
Fp2 fp2_input(Rng& g) {
  if (g() % 8 == 0) return {Fp::zero(), field_input<Fp>(g)};  // purely imaginary
  if (g() % 8 == 0) return {field_input<Fp>(g), Fp::zero()};  // in Fp
  return {field_input<Fp>(g), field_input<Fp>(g)};
}
Fp12 fp12_input(Rng& g) {
  auto f6 = [&g] { return Fp6{fp2_input(g), fp2_input(g), fp2_input(g)}; };
  if (g() % 8 == 0) return Fp12::one();
  return {f6(), f6()};
}
template <class A>
A point_input(Rng& g) {
  using J = cuzk::curve::jacobian_t<typename A::field, typename A::params>;
  switch (g() % 8) {
    case 0:
      return A::infinity();
    case 1:
      return A::generator();
    default:
      return J::generator().mul(cuzk::cli::random_element<Fr>(g)).to_affine();
  }
}

// ------------------------------------------------------------------ field cases
template <class F>
void field_cases(Rng& g, int n, const char* prefix) {
  const std::string p(prefix);
  for (int i = 0; i < n; ++i) {
    const F a = field_input<F>(g), b = field_input<F>(g);
    emit((p + "_add").c_str(), {enc(a), enc(b)}, enc(a + b));
    emit((p + "_sub").c_str(), {enc(a), enc(b)}, enc(a - b));
    emit((p + "_mul").c_str(), {enc(a), enc(b)}, enc(a * b));
    emit((p + "_neg").c_str(), {enc(a)}, enc(-a));
    if (!a.is_zero()) emit((p + "_inv").c_str(), {enc(a)}, enc(a.inverse()));
    // Half of random elements are squares; also ask for the root of a known square.
    for (const F& s : {a, b * b}) {
      F r;
      if (cuzk::sqrt(s, r)) {
        const Bytes out = enc(r);
        emit((p + "_sqrt").c_str(), {enc(s)}, &out);
      } else {
        emit((p + "_sqrt").c_str(), {enc(s)}, nullptr);
      }
    }
  }
}

void fp2_cases(Rng& g, int n) {
  for (int i = 0; i < n; ++i) {
    const Fp2 a = fp2_input(g), b = fp2_input(g);
    emit("fp2_add", {enc(a), enc(b)}, enc(a + b));
    emit("fp2_sub", {enc(a), enc(b)}, enc(a - b));
    emit("fp2_mul", {enc(a), enc(b)}, enc(a * b));
    emit("fp2_sqr", {enc(a)}, enc(a.sqr()));
    if (!a.is_zero()) emit("fp2_inv", {enc(a)}, enc(a.inverse()));
    for (const Fp2& s : {a, b.sqr()}) {
      Fp2 r;
      if (cuzk::sqrt(s, r)) {
        const Bytes out = enc(r);
        emit("fp2_sqrt", {enc(s)}, &out);
      } else {
        emit("fp2_sqrt", {enc(s)}, nullptr);
      }
    }
  }
}

void fp12_cases(Rng& g, int n) {
  for (int i = 0; i < n; ++i) {
    const Fp12 a = fp12_input(g), b = fp12_input(g);
    emit("fp12_mul", {enc(a), enc(b)}, enc(a * b));
    emit("fp12_sqr", {enc(a)}, enc(a.sqr()));
    if (!a.is_zero()) emit("fp12_inv", {enc(a)}, enc(a.inverse()));
    const unsigned k = 1 + unsigned(g() % 11);
    emit("fp12_frobenius", {enc(a), {uint8_t(k)}}, enc(a.frobenius_map(k)));
  }
}

// ------------------------------------------------------------------ point cases
struct G1Ops {
  using A = G1Affine;
  using J = G1Jacobian;
  static constexpr const char* name = "g1";
  static constexpr size_t coord = cuzk::G1_COMPRESSED_BYTES;
  static Bytes compress(const A& p) {
    const auto a = cuzk::g1_compress(p);
    return {a.begin(), a.end()};
  }
  static cuzk::Result<A> decode(const Bytes& b) { return cuzk::g1_decode(b); }
  static Fp random_coord(Rng& g) { return cuzk::cli::random_element<Fp>(g); }
};
struct G2Ops {
  using A = G2Affine;
  using J = G2Jacobian;
  static constexpr const char* name = "g2";
  static constexpr size_t coord = cuzk::G2_COMPRESSED_BYTES;
  static Bytes compress(const A& p) {
    const auto a = cuzk::g2_compress(p);
    return {a.begin(), a.end()};
  }
  static cuzk::Result<A> decode(const Bytes& b) { return cuzk::g2_decode(b); }
  static Fp2 random_coord(Rng& g) { return cuzk::cli::random_fp2(g); }
};

// Byte strings for the decoder, mostly invalid in one specific way each.
template <class Ops>
Bytes decode_input(Rng& g) {
  using A = typename Ops::A;
  constexpr size_t n = Ops::coord;
  const A p = point_input<A>(g);
  Bytes b;
  switch (g() % 9) {
    case 0:  // valid, compressed
      return Ops::compress(p);
    case 1:  // valid, uncompressed
      return enc(p);
    case 2: {  // a valid encoding with one bit flipped
      b = g() % 2 ? Ops::compress(p) : enc(p);
      b[g() % b.size()] ^= uint8_t(1u << (g() % 8));
      return b;
    }
    case 3: {  // an x on the curve (about half of them) but almost surely not in the subgroup
      const auto x = Ops::random_coord(g);
      b = enc(x);
      b[0] |= uint8_t(0x80 | (g() % 2 ? 0x20 : 0));
      return b;
    }
    case 4: {  // the same, uncompressed with a y that satisfies the curve equation when one exists
      const auto x = Ops::random_coord(g);
      auto y = x;
      if (!cuzk::sqrt(x.sqr() * x + A::params::b(), y)) y = Ops::random_coord(g);
      b = enc(A{x, y});
      return b;
    }
    case 5: {  // infinity and near-infinity
      b.assign(g() % 2 ? n : 2 * n, 0);
      static constexpr uint8_t flags[] = {0xc0, 0x40, 0xe0, 0x60, 0x00, 0x80, 0xa0, 0x20};
      b[0] = flags[g() % std::size(flags)];
      if (g() % 4 == 0) b[1 + g() % (b.size() - 1)] = uint8_t(1 + g() % 255);
      return b;
    }
    case 6: {  // random bytes: random flags over a random payload (x >= p about 1 time in 6)
      b.resize(g() % 2 ? n : 2 * n);
      for (auto& x : b) x = uint8_t(g());
      return b;
    }
    case 7: {  // x + p overflowing: a coordinate not less than the modulus
      b = g() % 2 ? Ops::compress(p) : enc(p);
      const uint8_t top = b[0] & 0xe0;
      for (size_t i = 0; i < 48; ++i) b[i] = 0xff;
      b[0] = uint8_t(top | 0x1f);
      return b;
    }
    default: {  // wrong length
      static constexpr size_t lengths[] = {0, 1, n - 1, n + 1, 2 * n - 1, 2 * n + 1, 3 * n};
      b.resize(lengths[g() % std::size(lengths)]);
      for (auto& x : b) x = uint8_t(g());
      if (!b.empty()) b[0] |= 0x80;
      return b;
    }
  }
}

template <class Ops>
void point_cases(Rng& g, int n) {
  using A = typename Ops::A;
  using J = typename Ops::J;
  const std::string p(Ops::name);
  for (int i = 0; i < n; ++i) {
    const A a = point_input<A>(g);
    A b = point_input<A>(g);
    if (g() % 8 == 0) b = a;  // add must double
    if (g() % 8 == 0) b = a.neg();
    emit((p + "_add").c_str(), {enc(a), enc(b)}, enc((J(a) + J(b)).to_affine()));
    emit((p + "_add_mixed").c_str(), {enc(a), enc(b)}, enc(J(a).add_mixed(b).to_affine()));
    emit((p + "_dbl").c_str(), {enc(a)}, enc(J(a).dbl().to_affine()));
    emit((p + "_neg").c_str(), {enc(a)}, enc(a.neg()));

    const Fr k = field_input<Fr>(g);
    emit((p + "_mul").c_str(), {enc(a), enc(k)}, enc(a.mul(k).to_affine()));
    // Encodings of k*G: compressed and uncompressed, from the scalar alone.
    const A kg = A::generator().mul(k).to_affine();
    emit((p + "_compress").c_str(), {enc(k)}, Ops::compress(kg));
    emit((p + "_serialize").c_str(), {enc(k)}, enc(kg));

    const Bytes in = decode_input<Ops>(g);
    const auto r = Ops::decode(in);
    if (r.ok()) {
      const Bytes out = enc(*r);
      emit((p + "_decode").c_str(), {in}, &out);
    } else {
      emit((p + "_decode").c_str(), {in}, nullptr);
    }
  }
}

// ------------------------------------------------------------------ pairings
// e(aG1, bG2) for random a, b (a pairing costs noble ~10 ms, so fewer of these), and products.
void pairing_cases(Rng& g, int n) {
  for (int i = 0; i < n; ++i) {
    const G1Affine p = point_input<G1Affine>(g);
    const G2Affine q = point_input<G2Affine>(g);
    emit("pairing", {enc(p), enc(q)}, enc(cuzk::pairing(p, q)));
  }
  for (int i = 0; i < n / 2; ++i) {
    std::vector<cuzk::PairingInput> pairs(1 + g() % 4);
    std::vector<Bytes> in;
    for (auto& [p, q] : pairs) {
      p = point_input<G1Affine>(g);
      q = point_input<G2Affine>(g);
      in.push_back(enc(p));
      in.push_back(enc(q));
    }
    emit("multi_pairing", in, enc(cuzk::multi_pairing(pairs)));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s <seed> [cases-per-op]\n", argv[0]);
    return 2;
  }
  const uint64_t seed = std::strtoull(argv[1], nullptr, 10);
  const int n = argc > 2 ? std::atoi(argv[2]) : 32;
  Rng g(seed);
  field_cases<Fp>(g, n, "fp");
  field_cases<Fr>(g, n, "fr");
  fp2_cases(g, n);
  point_cases<G1Ops>(g, n);
  point_cases<G2Ops>(g, n);
  fp12_cases(g, n);
  pairing_cases(g, std::max(1, n / 4));
  return std::fflush(stdout) == 0 ? 0 : 1;
}
