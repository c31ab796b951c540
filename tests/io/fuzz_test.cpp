// Hostile files: every parser is fed truncations (at every structure boundary, and at every byte of
// small files) and hundreds of random mutations of valid files -- flipped bits, huge counts,
// overflowing section sizes, wrong magic and version, inserted and deleted bytes. Each one must end
// in an error or a valid value; a crash, hang or sanitizer report fails the test. (Run the suite
// once under -fsanitize=address,undefined when touching a parser.)
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "io/bellman.hpp"
#include "io/proof.hpp"
#include "io/snarkjs_json.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "io/snarkjs_zkey.hpp"
#include "io_test_util.hpp"

namespace cuzk {
namespace {

using test::Rng;
using Parser = std::function<bool(std::span<const uint8_t>)>;  // true when it parsed

constexpr int kMutations = 400;

// Offsets of every field of the iden3 container: magic, version, count, and each section's type,
// size and body.
std::vector<size_t> binfile_boundaries(const std::vector<uint8_t>& b) {
  std::vector<size_t> out = {0, 4, 8, 12};
  size_t at = 12;
  while (at + 12 <= b.size()) {
    uint64_t size = 0;
    for (int i = 0; i < 8; ++i) size |= uint64_t(b[at + 4 + i]) << (8 * i);
    out.insert(out.end(), {at, at + 4, at + 12, at + 12 + 4, at + 12 + 8});
    if (size > b.size() - at - 12) break;
    at += 12 + size;
  }
  out.push_back(b.size());
  return out;
}

// Runs the parser on: truncations at every boundary, at every byte when the file is small, and on
// kMutations random mutations. Returns how many inputs parsed (for the log; any number is fine).
size_t hammer(Rng& rng, const std::vector<uint8_t>& valid, const std::vector<size_t>& boundaries,
              const Parser& parse) {
  EXPECT_TRUE(parse(valid)) << "the unmutated file must parse";
  size_t accepted = 0;
  for (size_t cut : boundaries)
    if (cut < valid.size()) accepted += parse(std::span(valid).first(cut));
  if (valid.size() <= 4096)
    for (size_t cut = 0; cut < valid.size(); ++cut) accepted += parse(std::span(valid).first(cut));
  for (int i = 0; i < kMutations; ++i) {
    const auto m = test::mutate(rng, valid, boundaries);
    // Stacked mutations find the paths one change cannot reach.
    const auto mm = rng.below(4) == 0 ? test::mutate(rng, m, boundaries) : m;
    accepted += parse(mm);
  }
  return accepted;
}

TEST(Fuzz, R1cs) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  SnarkjsR1cs cs;
  cs.n_wires = 12;
  cs.n_pub_out = 1;
  cs.n_pub_in = 2;
  cs.n_prv_in = 3;
  cs.n_labels = 20;
  for (int k = 0; k < 8; ++k)
    for (SparseRows* m : {&cs.a, &cs.b, &cs.c}) {
      std::vector<uint32_t> w;
      std::vector<Fr> c;
      for (size_t t = rng.below(4); t-- > 0;) {
        w.push_back(uint32_t(rng.below(cs.n_wires)));
        c.push_back(test::random_fr(rng));
      }
      m->push_row(w, c);
    }
  for (uint32_t i = 0; i < cs.n_wires; ++i) cs.wire_to_label.push_back(i);
  const auto bytes = serialize_r1cs(cs);
  const size_t ok = hammer(rng, bytes, binfile_boundaries(bytes), [](std::span<const uint8_t> b) {
    auto r = parse_r1cs(b);
    if (r.ok()) return true;
    EXPECT_FALSE(r.message().empty());
    return false;
  });
  RecordProperty("accepted", std::to_string(ok));
}

TEST(Fuzz, Wtns) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  std::vector<Fr> values(20);
  for (auto& v : values) v = test::random_fr(rng);
  const auto bytes = serialize_wtns(values);
  hammer(rng, bytes, binfile_boundaries(bytes), [](std::span<const uint8_t> b) {
    auto r = parse_wtns(b);
    EXPECT_TRUE(r.ok() || !r.message().empty());
    return r.ok();
  });
}

TEST(Fuzz, Zkey) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  SnarkjsZkey key;
  key.n_public = 1;
  key.n_vars = 4;
  key.domain_size = 4;
  auto g1 = test::random_points<G1Affine>(rng, 3 + 2 + 4 + 4 + 2 + 4);
  auto g2 = test::random_points<G2Affine>(rng, 3 + 4);
  key.alpha_g1 = g1[0];
  key.beta_g1 = g1[1];
  key.delta_g1 = g1[2];
  key.beta_g2 = g2[0];
  key.gamma_g2 = g2[1];
  key.delta_g2 = g2[2];
  key.ic.assign(g1.begin() + 3, g1.begin() + 5);
  key.a.assign(g1.begin() + 5, g1.begin() + 9);
  key.b_g1.assign(g1.begin() + 9, g1.begin() + 13);
  key.c.assign(g1.begin() + 13, g1.begin() + 15);
  key.h.assign(g1.begin() + 15, g1.end());
  key.b_g2.assign(g2.begin() + 3, g2.end());
  key.b_g1[1] = G1Affine::infinity();
  for (uint32_t k = 0; k < 6; ++k)
    key.coefficients.push_back({k % 2, k % 4, uint32_t(rng.below(4)), test::random_fr(rng)});
  key.contributions.assign(68, 0);
  const auto bytes = serialize_zkey(key);
  hammer(rng, bytes, binfile_boundaries(bytes), [&rng](std::span<const uint8_t> b) {
    auto r = parse_zkey(b, rng.below(2) ? Check::full : Check::curve_only);
    EXPECT_TRUE(r.ok() || !r.message().empty());
    return r.ok();
  });
}

BellmanParameters small_params(Rng& rng) {
  BellmanParameters p;
  auto g1 = test::random_points<G1Affine>(rng, 3 + 2 + 3 + 2 + 3 + 2);
  auto g2 = test::random_points<G2Affine>(rng, 3 + 2);
  p.vk = {g1[0], g1[1], g2[0], g2[1], g1[2], g2[2], {g1[3], g1[4]}};
  p.h.assign(g1.begin() + 5, g1.begin() + 8);
  p.l.assign(g1.begin() + 8, g1.begin() + 10);
  p.a.assign(g1.begin() + 10, g1.begin() + 13);
  p.b_g1.assign(g1.begin() + 13, g1.end());
  p.b_g2.assign(g2.begin() + 3, g2.end());
  return p;
}

// Offsets of every count and point of a .params image.
std::vector<size_t> params_boundaries(const BellmanParameters& p) {
  std::vector<size_t> out = {0, 96, 192, 384, 576, 672};
  size_t at = 864;
  for (auto [n, size] : {std::pair{p.vk.ic.size(), 96},
                         {p.h.size(), 96},
                         {p.l.size(), 96},
                         {p.a.size(), 96},
                         {p.b_g1.size(), 96},
                         {p.b_g2.size(), 192}}) {
    out.push_back(at);
    at += 4;
    for (size_t i = 0; i < n; ++i, at += size) out.push_back(at);
  }
  out.push_back(at);
  return out;
}

TEST(Fuzz, BellmanParamsAndVk) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const auto p = small_params(rng);
  const auto bytes = serialize_bellman_params(p);
  const auto boundaries = params_boundaries(p);
  hammer(rng, bytes, boundaries, [&rng](std::span<const uint8_t> b) {
    const Check check = rng.below(2) ? Check::full : Check::curve_only;
    auto m = MappedBellmanParameters::from_bytes(b, check);
    if (!m.ok()) return false;
    // Lazy decoding of every array must be just as safe.
    std::vector<G1Affine> part(m->count(ParamsArray::h) / 2);
    (void)m->decode(ParamsArray::h, m->count(ParamsArray::h) - part.size(), part);
    auto all = m->decode_all();
    EXPECT_TRUE(all.ok() || !all.message().empty());
    return all.ok();
  });
  const auto vk_bytes = serialize_bellman_vk(p.vk);
  hammer(rng, vk_bytes, boundaries, [](std::span<const uint8_t> b) { return parse_bellman_vk(b).ok(); });
}

TEST(Fuzz, Proofs) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  auto g1 = test::random_points<G1Affine>(rng, 6);
  auto g2 = test::random_points<G2Affine>(rng, 3);
  const std::vector<groth16::Proof> proofs = {
      {g1[0], g2[0], g1[1]}, {g1[2], g2[1], g1[3]}, {g1[4], g2[2], g1[5]}};
  const auto bytes = write_proofs(proofs);
  std::vector<size_t> boundaries;
  for (size_t i = 0; i < 3; ++i)
    for (size_t off : {0, 48, 144}) boundaries.push_back(192 * i + off);
  hammer(rng, bytes, boundaries, [](std::span<const uint8_t> b) { return read_proofs(b).ok(); });
}

TEST(Fuzz, SnarkjsJson) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  auto g1 = test::random_points<G1Affine>(rng, 5);
  auto g2 = test::random_points<G2Affine>(rng, 4);
  const groth16::Proof proof{g1[0], g2[0], g1[1]};
  const groth16::VerifyingKey vk{g1[2], g1[2], g2[1], g2[2], g1[2], g2[3], {g1[3], g1[4]}};
  const std::vector<Fr> pub = {test::random_fr(rng)};
  auto text_bytes = [](const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); };
  auto as_text = [](std::span<const uint8_t> b) {
    return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
  };
  const std::vector<size_t> none;
  hammer(rng, text_bytes(snarkjs_proof_json(proof)), none,
         [&](std::span<const uint8_t> b) { return parse_snarkjs_proof_json(as_text(b)).ok(); });
  hammer(rng, text_bytes(snarkjs_vk_json(vk)), none,
         [&](std::span<const uint8_t> b) { return parse_snarkjs_vk_json(as_text(b)).ok(); });
  hammer(rng, text_bytes(snarkjs_public_json(pub)), none,
         [&](std::span<const uint8_t> b) { return parse_snarkjs_public_json(as_text(b)).ok(); });
}

}  // namespace
}  // namespace cuzk
