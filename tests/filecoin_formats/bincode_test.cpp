// PoSt and SnapDeals vanilla proofs in bincode: Curio's golden 32 GiB WindowPoSt sector proof
// (curio: lib/proof/testgolden/post.vproof, with postpub.json) checked against independent
// computations — Poseidon Merkle roots, comm_r = H(comm_c, comm_r_last), the SHA-256 challenge
// leaves, the sealed CID — and every parser fed truncated, corrupted and hostile bytes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "filecoin/formats/base64.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "filecoin/formats/vanilla_check.hpp"
#include "filecoin/por/inclusion_path.hpp"
#include "filecoin/types/domain.hpp"
#include "filecoin/types/sector_shape.hpp"
#include "r1cs/gadgets/poseidon.hpp"
#include "r1cs/gadgets/sha256.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> golden() { return test::read_file(test::data_path("post.vproof")); }

Fr fr(const Domain& d) {
  auto x = domain_to_fr(d);
  EXPECT_TRUE(x.has_value());
  return x.value_or(Fr{});
}

uint64_t leaf_index(const MerkleProof& p) {
  uint64_t index = 0, scale = 1;
  for (const InclusionPath* levels : {&p.base, &p.sub, &p.top})
    for (const PathElement& e : *levels) {
      index += e.index * scale;
      scale *= e.hashes.size() + 1;
    }
  return index;
}

// RFC 4648 base32, lower case, no padding (the multibase 'b' of a CID).
std::vector<uint8_t> base32_decode(std::string_view s) {
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    const int v = c >= 'a' && c <= 'z' ? c - 'a' : c >= '2' && c <= '7' ? c - '2' + 26 : -1;
    EXPECT_GE(v, 0);
    acc = acc << 5 | uint32_t(v);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(uint8_t(acc >> bits));
    }
  }
  return out;
}

TEST(PostVanillaProof, CurioGoldenParses) {
  const auto bytes = golden();
  ASSERT_EQ(bytes.size(), 24960u);
  auto p = parse_post_vanilla_proof(bytes);
  ASSERT_TRUE(p.ok()) << p.message();
  ASSERT_EQ(p->sectors.size(), 1u);
  const PostSectorProof& s = p->sectors[0];
  ASSERT_EQ(s.inclusion_proofs.size(), 10u);
  for (const MerkleProof& m : s.inclusion_proofs) {
    EXPECT_EQ(m.kind, MerkleProof::Kind::sub);
    ASSERT_EQ(m.base.size(), 9u);
    for (const PathElement& e : m.base) EXPECT_EQ(e.hashes.size(), 7u);
    ASSERT_EQ(m.sub.size(), 1u);
    EXPECT_EQ(m.sub[0].hashes.size(), 7u);
    EXPECT_TRUE(m.top.empty());
  }
  // A WindowPoSt sector proof of StackedDrgWindow32GiBV1 (abi 8, postpub.json) fits its shape.
  EXPECT_TRUE(check_post_vanilla_proof(*p, *post_proof(8)).ok());
  EXPECT_TRUE(check_post_vanilla_proof(*p, *post_proof(13)).ok());
  auto winning = check_post_vanilla_proof(*p, *post_proof(3));
  ASSERT_FALSE(winning.ok());
  EXPECT_EQ(winning.message(),
            "PoSt vanilla proof: vanilla_proof.sectors[0].inclusion_proofs: expected 66 (one per challenge), "
            "got 10");
  auto wrong_size = check_post_vanilla_proof(*p, *post_proof(9));
  ASSERT_FALSE(wrong_size.ok());
  EXPECT_EQ(wrong_size.message(),
            "PoSt vanilla proof: vanilla_proof.sectors[0].inclusion_proofs[0]: expected a Top proof (8-8-2 "
            "tree), got Sub");
}

TEST(PostVanillaProof, CurioGoldenIsConsistent) {
  auto p = parse_post_vanilla_proof(golden());
  ASSERT_TRUE(p.ok());
  const PostSectorProof& s = p->sectors[0];

  // comm_r = Poseidon2(comm_c, comm_r_last), MerkleTree tag.
  const Fr pair[2] = {fr(s.comm_c), fr(s.comm_r_last)};
  EXPECT_EQ(fr_to_domain(r1cs::poseidon_merkle_node(r1cs::poseidon_constants_2(), pair)), p->comm_r);

  // Every inclusion proof hashes up to comm_r_last.
  const auto shape = sector_shape(uint64_t(32) << 30);
  ASSERT_TRUE(shape.has_value());
  for (const MerkleProof& m : s.inclusion_proofs) {
    EXPECT_EQ(m.root, s.comm_r_last);
    EXPECT_TRUE(check_poseidon_inclusion(m, shape->tree, "golden").ok());
  }

  // postpub.json: sector 1, zero randomness, the sealed CID whose digest is comm_r.
  const auto pub = nlohmann::json::parse(test::read_file(test::data_path("postpub.json")));
  const auto& sector = pub["ChallengedSectors"][0];
  EXPECT_EQ(p->sector_id, sector["SectorNumber"].get<uint64_t>());
  const std::string cid = sector["SealedCID"]["/"].get<std::string>();
  ASSERT_EQ(cid[0], 'b');
  const auto cid_bytes = base32_decode(std::string_view(cid).substr(1));
  ASSERT_GE(cid_bytes.size(), 32u);
  // CIDv1, fil-commitment-sealed (0xf102), poseidon-bls12_381-a2-fc1 (0xb401), 32-byte digest.
  const std::vector<uint8_t> prefix = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
  EXPECT_EQ(std::vector<uint8_t>(cid_bytes.begin(), cid_bytes.begin() + 8), prefix);
  EXPECT_EQ(std::vector<uint8_t>(cid_bytes.begin() + 8, cid_bytes.end()),
            std::vector<uint8_t>(p->comm_r.begin(), p->comm_r.end()));

  // Challenge n's leaf: u64_le(sha256(randomness ‖ sector_id LE ‖ n LE)[0..8]) mod 2^30.
  auto randomness = base64_decode(pub["Randomness"].get<std::string>());
  ASSERT_TRUE(randomness.ok());
  ASSERT_EQ(randomness->size(), 32u);
  for (uint64_t n = 0; n < 10; ++n) {
    std::vector<uint8_t> msg = *randomness;
    for (uint64_t v : {p->sector_id, n})
      for (int i = 0; i < 8; ++i) msg.push_back(uint8_t(v >> (8 * i)));
    const auto digest = r1cs::sha256(msg);
    uint64_t x = 0;
    for (int i = 0; i < 8; ++i) x |= uint64_t(digest[i]) << (8 * i);
    EXPECT_EQ(leaf_index(s.inclusion_proofs[n]), x % (uint64_t(1) << 30)) << "challenge " << n;
  }
}

TEST(PostVanillaProof, RoundTripsByteForByte) {
  const auto bytes = golden();
  auto p = parse_post_vanilla_proof(bytes);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(write_post_vanilla_proof(*p), bytes);

  test::Builder b(7);
  for (uint64_t id : {0u, 3u, 5u, 9u, 13u}) {
    const auto type = *post_proof(id);
    const auto proof = b.post(type);
    EXPECT_TRUE(check_post_vanilla_proof(proof, type).ok()) << type.name;
    auto back = parse_post_vanilla_proof(write_post_vanilla_proof(proof));
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_EQ(*back, proof);
  }
}

TEST(PostVanillaProof, EveryTruncationIsAClearError) {
  const auto bytes = golden();
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto p = parse_post_vanilla_proof(std::span(bytes).first(n));
    ASSERT_FALSE(p.ok()) << "prefix of " << n << " bytes parsed";
    ASSERT_EQ(p.message().rfind("PoSt vanilla proof: ", 0), 0u) << p.message();
    ASSERT_TRUE(p.error().bad_input);
  }
  auto p = parse_post_vanilla_proof(std::span(bytes).first(100));
  EXPECT_EQ(
      p.message(),
      "PoSt vanilla proof: vanilla_proof.sectors: length 1 needs at least 72 bytes per element, but only 52 "
      "bytes remain (at byte 40 of 100)");
  p = parse_post_vanilla_proof(std::span(bytes).first(10));
  EXPECT_EQ(
      p.message(),
      "PoSt vanilla proof: comm_r: truncated: a 32-byte domain needs 32 bytes, 2 remain (at byte 8 of 10)");
}

TEST(PostVanillaProof, TrailingBytesAndBadVariants) {
  auto bytes = golden();
  bytes.push_back(0);
  EXPECT_EQ(parse_post_vanilla_proof(bytes).message(),
            "PoSt vanilla proof: 1 bytes left over after the value (at byte 24960 of 24961)");
  bytes.pop_back();
  // The first inclusion proof's variant tag sits after sector_id, comm_r and two lengths.
  bytes[56] = 3;
  EXPECT_EQ(parse_post_vanilla_proof(bytes).message(),
            "PoSt vanilla proof: vanilla_proof.sectors[0].inclusion_proofs[0]: unknown MerkleProof variant 3 "
            "(0 Single, "
            "1 Sub, 2 Top) (at byte 60 of 24960)");
}

// A u64 count far beyond the input is refused before anything is allocated, wherever it is.
TEST(PostVanillaProof, HostileLengthsAreRefused) {
  const auto bytes = golden();
  auto set_u64 = [](std::vector<uint8_t> b, size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
    return b;
  };
  // sectors count (byte 40), inclusion_proofs count (48), first base path count (60), first hashes count
  // (68).
  const std::pair<size_t, const char*> fields[] = {
      {40, "vanilla_proof.sectors"},
      {48, "vanilla_proof.sectors[0].inclusion_proofs"},
      {60, "vanilla_proof.sectors[0].inclusion_proofs[0].Sub.base_proof"},
      {68, "vanilla_proof.sectors[0].inclusion_proofs[0].Sub.base_proof[0].hashes"}};
  for (const auto& [at, path] : fields)
    for (uint64_t n : {uint64_t(1) << 60, UINT64_MAX, uint64_t(1) << 32, uint64_t(25000)}) {
      auto p = parse_post_vanilla_proof(set_u64(bytes, at, n));
      ASSERT_FALSE(p.ok()) << path << " " << n;
      EXPECT_NE(p.message().find(std::string(path) + ": length " + std::to_string(n) + " needs at least"),
                std::string::npos)
          << p.message();
    }
}

// Random corruption: a parse or a clear error, never a crash; whatever parses re-encodes to the
// same bytes (the encoding is canonical).
TEST(PostVanillaProof, RandomByteFlips) {
  const auto bytes = golden();
  std::mt19937_64 rng(11);
  size_t parsed = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    auto b = bytes;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) b[rng() % b.size()] ^= uint8_t(1 + rng() % 255);
    auto p = parse_post_vanilla_proof(b);
    if (p.ok()) {
      ++parsed;
      ASSERT_EQ(write_post_vanilla_proof(*p), b);
    } else {
      ASSERT_FALSE(p.message().empty());
    }
  }
  // Most flips land in hashes, which any bytes fill.
  EXPECT_GT(parsed, 1000u);
}

TEST(UpdateVanillaProof, RoundTripsAndFitsItsShape) {
  test::Builder b(3);
  for (uint64_t id = 0; id < 5; ++id) {
    if (id == 4) continue;  // the 64 GiB partition proof is large and adds nothing the 32 GiB one does not
    const auto type = *update_proof(id);
    const auto proof = b.update(type);
    ASSERT_TRUE(check_update_vanilla_proof(proof, type).ok())
        << check_update_vanilla_proof(proof, type).message();
    const auto bytes = write_update_vanilla_proof(proof);
    auto back = parse_update_vanilla_proof(bytes);
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_EQ(*back, proof);
    EXPECT_EQ(write_update_vanilla_proof(*back), bytes);
  }
}

TEST(UpdateVanillaProof, ShapeErrors) {
  test::Builder b(4);
  const auto type = *update_proof(0);
  auto proof = b.update(type);
  proof.apex_leafs.pop_back();
  EXPECT_EQ(check_update_vanilla_proof(proof, type).message(),
            "SnapDeals vanilla proof: apex_leafs: expected 8, got 7");
  proof = b.update(type);
  proof.challenge_proofs[3].proof_d_new.base[2].index = 2;
  EXPECT_EQ(check_update_vanilla_proof(proof, type).message(),
            "SnapDeals vanilla proof: challenge_proofs[3].proof_d_new.Single.path[2].index: 2 is not below "
            "the arity 2");
  proof = b.update(type);
  proof.challenge_proofs[0].proof_r_new.leaf.fill(0xff);
  EXPECT_EQ(check_update_vanilla_proof(proof, type).message(),
            "SnapDeals vanilla proof: challenge_proofs[0].proof_r_new.Single.leaf: not a field element (the "
            "little-endian value is ≥ r)");
  proof = b.update(type);
  proof.comm_c[31] = 0x74;  // above r's top byte 0x73
  EXPECT_EQ(check_update_vanilla_proof(proof, type).message(),
            "SnapDeals vanilla proof: comm_c: not a field element (the little-endian value is ≥ r)");
  proof = b.update(type);
  proof.challenge_proofs.pop_back();
  EXPECT_EQ(check_update_vanilla_proof(proof, type).message(),
            "SnapDeals vanilla proof: challenge_proofs: expected 10, got 9");
  EXPECT_FALSE(check_update_vanilla_proof(b.update(type), *seal_proof(0)).ok());
}

TEST(UpdateVanillaProof, TruncationFlipsAndHostileLengths) {
  test::Builder b(5);
  const auto bytes = write_update_vanilla_proof(b.update(*update_proof(0)));
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto p = parse_update_vanilla_proof(std::span(bytes).first(n));
    ASSERT_FALSE(p.ok()) << n;
    ASSERT_EQ(p.message().rfind("SnapDeals vanilla proof: ", 0), 0u) << p.message();
  }
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 2000; ++trial) {
    auto m = bytes;
    m[rng() % m.size()] ^= uint8_t(1 + rng() % 255);
    auto p = parse_update_vanilla_proof(m);
    if (p.ok()) {
      ASSERT_EQ(write_update_vanilla_proof(*p), m);
    }
  }
  auto hostile = bytes;
  for (int i = 0; i < 8; ++i) hostile[32 + size_t(i)] = 0xff;  // apex_leafs count
  EXPECT_NE(parse_update_vanilla_proof(hostile).message().find(
                "apex_leafs: length 18446744073709551615 needs at least 32"),
            std::string::npos);
}

}  // namespace
}  // namespace cuzk::filecoin
