// bellman formats: .vk/.params/proof round trips from random points, the layout of §2.1-2.2 byte for
// byte, lazy decoding of mapped parameters, and bellperson's rejections.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "common/parallel_ranges.hpp"
#include "curve/encoding.hpp"
#include "io/bellman.hpp"
#include "io/proof.hpp"
#include "io_test_util.hpp"

namespace cuzk {
namespace {

using test::Rng;

groth16::VerifyingKey random_vk(Rng& rng, size_t n_ic) {
  auto g1 = test::random_points<G1Affine>(rng, 3 + n_ic);
  auto g2 = test::random_points<G2Affine>(rng, 3);
  groth16::VerifyingKey vk{g1[0], g1[1], g2[0], g2[1], g1[2], g2[2], {}};
  vk.ic.assign(g1.begin() + 3, g1.end());
  return vk;
}

BellmanParameters random_params(Rng& rng) {
  BellmanParameters p;
  p.vk = random_vk(rng, 1 + rng.below(4));
  const size_t nh = rng.below(20), nl = rng.below(20), na = rng.below(20), nb = rng.below(12);
  auto g1 = test::random_points<G1Affine>(rng, nh + nl + na + nb);
  size_t i = 0;
  auto take = [&](size_t n) {
    std::vector<G1Affine> out(g1.begin() + i, g1.begin() + i + n);
    i += n;
    return out;
  };
  p.h = take(nh);
  p.l = take(nl);
  p.a = take(na);
  p.b_g1 = take(nb);
  p.b_g2 = test::random_points<G2Affine>(rng, nb);
  return p;
}

void expect_same_vk(const groth16::VerifyingKey& x, const groth16::VerifyingKey& y) {
  EXPECT_TRUE(x.alpha_g1 == y.alpha_g1 && x.beta_g1 == y.beta_g1 && x.delta_g1 == y.delta_g1);
  EXPECT_TRUE(x.beta_g2 == y.beta_g2 && x.gamma_g2 == y.gamma_g2 && x.delta_g2 == y.delta_g2);
  EXPECT_EQ(x.ic, y.ic);
}

// A scratch file that removes itself.
struct TempPath {
  std::filesystem::path path;
  explicit TempPath(const char* name)
      : path(std::filesystem::temp_directory_path() /
             (std::string("cuzk-io-") + std::to_string(::getpid()) + "-" + name)) {}
  ~TempPath() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

TEST(BellmanVk, LayoutAndRoundTrip) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const auto vk = random_vk(rng, 1 + rng.below(5));
  const auto bytes = serialize_bellman_vk(vk);
  ASSERT_EQ(bytes.size(), 864 + 4 + 96 * vk.ic.size());
  // §2.1 offsets: alpha 0, beta_g1 96, beta_g2 192, gamma 384, delta_g1 576, delta_g2 672, |ic| at 864 (BE).
  EXPECT_TRUE(std::equal(bytes.begin() + 192, bytes.begin() + 384, g2_serialize(vk.beta_g2).begin()));
  EXPECT_TRUE(std::equal(bytes.begin() + 576, bytes.begin() + 672, g1_serialize(vk.delta_g1).begin()));
  EXPECT_EQ(bytes[864 + 3], vk.ic.size());
  EXPECT_EQ(bytes[864], 0);
  auto back = parse_bellman_vk(bytes);
  ASSERT_TRUE(back.ok()) << back.message();
  expect_same_vk(vk, *back);

  TempPath file("vk");
  ASSERT_TRUE(write_bellman_vk(file.path, vk).ok());
  auto read = read_bellman_vk(file.path, Check::curve_only);
  ASSERT_TRUE(read.ok()) << read.message();
  expect_same_vk(vk, *read);
}

TEST(BellmanVk, RejectsInfinityInIcAndTruncation) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  auto vk = random_vk(rng, 3);
  vk.ic[1] = G1Affine::infinity();
  auto r = parse_bellman_vk(serialize_bellman_vk(vk));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("ic point 1 is the point at infinity"), std::string::npos) << r.message();

  vk = random_vk(rng, 3);
  auto bytes = serialize_bellman_vk(vk);
  bytes.resize(bytes.size() - 1);
  r = parse_bellman_vk(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("claims 3 elements"), std::string::npos) << r.message();
}

TEST(BellmanParams, RoundTripThroughFileAndMappedDecoding) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const auto p = random_params(rng);
  const auto bytes = serialize_bellman_params(p);
  const size_t expected = 864 + 4 + 96 * p.vk.ic.size() + 4 + 96 * p.h.size() + 4 + 96 * p.l.size() + 4 +
                          96 * p.a.size() + 4 + 96 * p.b_g1.size() + 4 + 192 * p.b_g2.size();
  ASSERT_EQ(bytes.size(), expected);

  TempPath file("params");
  ASSERT_TRUE(write_bellman_params(file.path, p).ok());
  EXPECT_EQ(std::filesystem::file_size(file.path), expected);
  EXPECT_FALSE(std::filesystem::exists(file.path.string() + ".tmp"));

  for (Check check : {Check::full, Check::curve_only}) {
    auto m = MappedBellmanParameters::open(file.path, check);
    ASSERT_TRUE(m.ok()) << m.message();
    expect_same_vk(p.vk, m->vk());
    EXPECT_EQ(m->count(ParamsArray::h), p.h.size());
    EXPECT_EQ(m->count(ParamsArray::b_g2), p.b_g2.size());
    EXPECT_EQ(m->raw(ParamsArray::l).size(), 96 * p.l.size());
    auto all = m->decode_all();
    ASSERT_TRUE(all.ok()) << all.message();
    EXPECT_EQ(all->h, p.h);
    EXPECT_EQ(all->l, p.l);
    EXPECT_EQ(all->a, p.a);
    EXPECT_EQ(all->b_g1, p.b_g1);
    EXPECT_EQ(all->b_g2, p.b_g2);
    // A window of an array.
    if (p.l.size() >= 3) {
      std::vector<G1Affine> mid(p.l.size() - 2);
      ASSERT_TRUE(m->decode(ParamsArray::l, 1, mid).ok());
      EXPECT_TRUE(std::equal(mid.begin(), mid.end(), p.l.begin() + 1));
    }
    std::vector<G1Affine> too_many(p.h.size() + 1);
    EXPECT_FALSE(m->decode(ParamsArray::h, 0, too_many).ok());
    std::vector<G1Affine> wrong_group(0);
    EXPECT_FALSE(m->decode(ParamsArray::b_g2, 0, wrong_group).ok());
  }
  // Bytes after b_g2 (snarkjs's MPC trailer) are ignored, as bellperson does.
  auto trailer = bytes;
  trailer.insert(trailer.end(), 100, 0xab);
  auto t = parse_bellman_params(trailer);
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(t->b_g2, p.b_g2);
}

TEST(BellmanParams, RejectsInfinityAndBadPoints) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  auto p = random_params(rng);
  p.h = test::random_points<G1Affine>(rng, 4);
  p.b_g1 = test::random_points<G1Affine>(rng, 2);
  p.b_g2 = test::random_points<G2Affine>(rng, 2);

  auto q = p;
  q.h[2] = G1Affine::infinity();
  auto r = parse_bellman_params(serialize_bellman_params(q));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("h point 2 is the point at infinity"), std::string::npos) << r.message();

  q = p;
  q.b_g2[1] = G2Affine::infinity();
  r = parse_bellman_params(serialize_bellman_params(q));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("b_g2 point 1 is the point at infinity"), std::string::npos) << r.message();

  // An all-zero 96-byte G1 (how `snarkjs zkey export bellman` writes infinity) is not a valid
  // ZCash encoding: rejected, as blst rejects it.
  auto bytes = serialize_bellman_params(p);
  const size_t h_at = 864 + 4 + 96 * p.vk.ic.size() + 4;
  std::fill(bytes.begin() + h_at + 96, bytes.begin() + h_at + 192, 0);
  r = parse_bellman_params(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("h point 1"), std::string::npos) << r.message();

  // Counts that claim more than the file holds are caught before any allocation.
  bytes = serialize_bellman_params(p);
  bytes[h_at - 4] = 0x7f;
  r = parse_bellman_params(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("params: h claims"), std::string::npos) << r.message();
}

TEST(Proofs, RoundTripAndBellpersonRules) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  const size_t n = 1 + rng.below(6);
  auto g1 = test::random_points<G1Affine>(rng, 2 * n);
  auto g2 = test::random_points<G2Affine>(rng, n);
  std::vector<groth16::Proof> proofs;
  for (size_t i = 0; i < n; ++i) proofs.push_back({g1[2 * i], g2[i], g1[2 * i + 1]});
  const auto bytes = write_proofs(proofs);
  ASSERT_EQ(bytes.size(), 192 * n);
  // A || B || C, compressed.
  EXPECT_TRUE(std::equal(bytes.begin() + 48, bytes.begin() + 144, g2_compress(proofs[0].b).begin()));
  auto back = read_proofs(bytes);
  ASSERT_TRUE(back.ok()) << back.message();
  ASSERT_EQ(back->size(), n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ((*back)[i].a, proofs[i].a);
    EXPECT_EQ((*back)[i].b, proofs[i].b);
    EXPECT_EQ((*back)[i].c, proofs[i].c);
  }
  auto one = proof_from_bytes(std::span(bytes).first(192));
  ASSERT_TRUE(one.ok()) << one.message();

  EXPECT_FALSE(read_proofs(std::span(bytes).first(bytes.size() - 1)).ok());
  EXPECT_FALSE(read_proofs({}).ok());
  auto extra = bytes;
  extra.push_back(0);
  EXPECT_FALSE(read_proofs(extra).ok());

  // Identity C in the last proof.
  auto inf = proofs;
  inf.back().c = G1Affine::infinity();
  auto r = read_proofs(write_proofs(inf));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("proof " + std::to_string(n - 1) + ": C is the point at infinity"),
            std::string::npos)
      << r.message();
  // Uncompressed encodings are not proofs: the compression flag must be set.
  auto flag = bytes;
  flag[0] &= 0x7f;
  EXPECT_FALSE(read_proofs(flag).ok());
}

TEST(Parallel, UsesEveryCoreAndReportsTheFirstError) {
  const size_t hw = std::max(1u, std::thread::hardware_concurrency());
  std::mutex mu;
  std::set<std::thread::id> threads;
  std::vector<int> seen(100000, 0);
  auto st = parallel_ranges(seen.size(), 1000, [&](size_t begin, size_t end) {
    {
      std::lock_guard lock(mu);
      threads.insert(std::this_thread::get_id());
    }
    for (size_t i = begin; i < end; ++i) ++seen[i];
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(threads.size(), std::min<size_t>(hw, 100));
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int x) { return x == 1; }));

  // Every range fails; the message must be the first range's, however the threads were scheduled.
  st = parallel_ranges(100000, 10,
                       [](size_t begin, size_t) { return make_error("bad " + std::to_string(begin)); });
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "bad 0");
  EXPECT_TRUE(parallel_ranges(0, 10, [](size_t, size_t) { return make_error("never called"); }).ok());
}

TEST(Files, ErrorsAreValues) {
  auto missing = read_bellman_params("/nonexistent/cuzk/x.params");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("cannot open /nonexistent/cuzk/x.params"), std::string::npos)
      << missing.message();
  auto dir = MappedFile::open(std::filesystem::temp_directory_path());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.message().find("not a regular file"), std::string::npos) << dir.message();
  EXPECT_FALSE(write_bellman_vk("/nonexistent/cuzk/x.vk", groth16::VerifyingKey{}).ok());

  // An empty file maps to no bytes, and every parser says it is too short.
  TempPath empty("empty");
  ASSERT_TRUE(write_file_bytes(empty.path, {}).ok());
  auto m = MappedFile::open(empty.path);
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->size(), 0u);
  auto vk = read_bellman_vk(empty.path);
  ASSERT_FALSE(vk.ok());
  EXPECT_NE(vk.message().find("alpha_g1 needs 96 bytes but only 0 are left"), std::string::npos)
      << vk.message();
}

}  // namespace
}  // namespace cuzk
