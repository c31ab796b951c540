// The byte primitives against published vectors and OpenSSL: ChaCha20 (RFC 8439 §2.3.2 and
// rand_chacha's ChaCha20Rng tests), ChaCha8 (the 8-round zero-key keystream of
// draft-strombergson-chacha-test-vectors TC1, whose first 8 bytes are also the first u64 that
// rand_chacha-compatible ChaCha8Rng implementations document), BLAKE2b against OpenSSL's
// BLAKE2b-512 and BLAKE2BMAC, SHA-254 and fr32 padding.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <random>

#include "filecoin/vanilla/chacha.hpp"
#include "filecoin/vanilla/fr32.hpp"
#include "filecoin/vanilla/hashes.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin::vanilla {
namespace {

using test::from_hex;

std::array<uint8_t, 32> seed_of(std::initializer_list<uint8_t> bytes) {
  std::array<uint8_t, 32> s{};
  size_t i = 0;
  for (uint8_t b : bytes) s[i++] = b;
  return s;
}

TEST(ChaCha, Rfc8439BlockFunction) {
  std::array<uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[i] = uint8_t(i);
  const std::vector<uint8_t> nonce = from_hex("000000090000004a00000000");
  uint8_t out[64];
  const auto k = chacha_key(key);
  chacha_block(20, k, {1, 0x09000000, 0x4a000000, 0}, out);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 64),
            from_hex("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                     "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"));
  // The same block through the keystream API: offset 64 is block counter 1.
  std::array<uint8_t, 12> n;
  std::copy(nonce.begin(), nonce.end(), n.begin());
  std::vector<uint8_t> ks(64);
  chacha20_keystream(key, n, 64, ks);
  EXPECT_EQ(ks, std::vector<uint8_t>(out, out + 64));
}

TEST(ChaCha, KeystreamMatchesOpenSsl) {
  std::mt19937_64 rng(7);
  std::array<uint8_t, 32> key;
  std::array<uint8_t, 12> nonce;
  for (auto& b : key) b = uint8_t(rng());
  for (auto& b : nonce) b = uint8_t(rng());
  std::vector<uint8_t> zeros(1000, 0), want(1000);
  uint8_t iv[16] = {};  // OpenSSL: 32-bit LE counter, then the 96-bit nonce
  std::copy(nonce.begin(), nonce.end(), iv + 4);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  ASSERT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv), 1);
  int len = 0;
  ASSERT_EQ(EVP_EncryptUpdate(ctx, want.data(), &len, zeros.data(), int(zeros.size())), 1);
  EVP_CIPHER_CTX_free(ctx);
  for (uint64_t offset : {0, 4, 32, 63, 64, 100, 500}) {
    std::vector<uint8_t> got(1000 - offset);
    chacha20_keystream(key, nonce, offset, got);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin() + ptrdiff_t(offset))) << "offset " << offset;
  }
}

// rand_chacha's tests of ChaCha20Rng, through the same generator with 20 rounds.
TEST(ChaCha, RandChachaTwentyRoundVectors) {
  ChaChaRng a(20, seed_of({}));
  const uint32_t block0[16] = {0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653, 0xb819d2bd, 0x1aed8da0,
                               0xccef36a8, 0xc70d778b, 0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8,
                               0xf4b8436a, 0x1ca11815, 0x69b687c3, 0x8665eeb2};
  const uint32_t block1[16] = {0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73, 0xa0290fcb, 0x6965e348,
                               0x3e53c612, 0xed7aee32, 0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874,
                               0x281fed31, 0x45fb0a51, 0x1f0ae1ac, 0x6f4d794b};
  for (uint32_t w : block0) EXPECT_EQ(a.next_u32(), w);
  for (uint32_t w : block1) EXPECT_EQ(a.next_u32(), w);

  std::array<uint8_t, 32> one{};
  one[31] = 1;
  ChaChaRng b(20, one);
  for (int i = 0; i < 16; ++i) (void)b.next_u32();
  const uint32_t block_b[16] = {0x2452eb3a, 0x9249f8ec, 0x8d829d9b, 0xddd4ceb1, 0xe8252083, 0x60818b01,
                                0xf38422b8, 0x5aaa49c9, 0xbb00ca8e, 0xda3ba7b4, 0xc4b592d1, 0xfdf2732f,
                                0x4436274e, 0x2561b3c8, 0xebdd4aa6, 0xa0136c00};
  for (uint32_t w : block_b) EXPECT_EQ(b.next_u32(), w);

  ChaChaRng c(20, seed_of({0, 0xff}));
  for (int i = 0; i < 32; ++i) (void)c.next_u32();
  const uint32_t block_c[16] = {0xfb4dd572, 0x4bc42ef1, 0xdf922636, 0x327f1394, 0xa78dea8f, 0x5e269039,
                                0xa1bebbc1, 0xcaf09aae, 0xa25ab213, 0x48a6b46c, 0x1b9d9bcb, 0x092c5be6,
                                0x546ca624, 0x1bec45d5, 0x87f47473, 0x96f0992e};
  for (uint32_t w : block_c) EXPECT_EQ(c.next_u32(), w);

  ChaChaRng d(20, seed_of({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3}));
  EXPECT_EQ(d.next_u32(), 137206642u);

  ChaChaRng e(
      20, seed_of({0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 7}));
  const uint32_t diagonal[16] = {0xf225c81a, 0x6ab1be57, 0x04d42951, 0x70858036, 0x49884684, 0x64efec72,
                                 0x4be2d186, 0x3615b384, 0x11cfa18e, 0xd3c50049, 0x75c775f6, 0x434c6530,
                                 0x2c5bad8f, 0x898881dc, 0x5f1c86d9, 0xc1f8e7f4};
  for (uint32_t w : diagonal) {
    EXPECT_EQ(e.next_u32(), w);
    for (int i = 0; i < 16; ++i) (void)e.next_u32();
  }
}

TEST(ChaCha, EightRoundZeroKeyKeystream) {
  ChaCha8Rng rng(seed_of({}));
  EXPECT_EQ(rng.next_u64(), 0xd6405f892fef003eull);
  const std::vector<uint8_t> want = from_hex(
      "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
      "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42");
  ChaCha8Rng again(seed_of({}));
  std::vector<uint8_t> got;
  for (int i = 0; i < 8; ++i) {
    const uint64_t v = again.next_u64();
    for (int b = 0; b < 8; ++b) got.push_back(uint8_t(v >> (8 * b)));
  }
  EXPECT_EQ(got, want);
}

std::vector<uint8_t> openssl_blake2b512(const std::vector<uint8_t>& msg) {
  std::vector<uint8_t> out(64);
  unsigned len = 0;
  EVP_Digest(msg.data(), msg.size(), out.data(), &len, EVP_blake2b512(), nullptr);
  return out;
}

std::vector<uint8_t> openssl_blake2b_mac(const std::vector<uint8_t>& key, const std::vector<uint8_t>& msg,
                                         size_t out_len) {
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr);
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  OSSL_PARAM params[2] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &out_len),
                          OSSL_PARAM_construct_end()};
  std::vector<uint8_t> out(out_len);
  size_t len = 0;
  EXPECT_EQ(EVP_MAC_init(ctx, key.data(), key.size(), params), 1);
  EVP_MAC_update(ctx, msg.data(), msg.size());
  EVP_MAC_final(ctx, out.data(), &len, out.size());
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  return out;
}

TEST(Blake2b, MatchesOpenSsl) {
  std::mt19937_64 rng(11);
  for (size_t n : {0, 1, 16, 127, 128, 129, 255, 256, 257, 1000}) {
    std::vector<uint8_t> msg(n);
    for (auto& b : msg) b = uint8_t(rng());
    const std::array<uint8_t, 64> digest = blake2b_512(msg);
    EXPECT_EQ(std::vector<uint8_t>(digest.begin(), digest.end()), openssl_blake2b512(msg)) << n;
    const std::string key = "filecoin.io|PoRep|1|Synthetic|1|Generation";
    const std::vector<uint8_t> key_bytes(key.begin(), key.end());
    const Digest32 mine = blake2b_256_keyed(key, {msg});
    EXPECT_EQ(std::vector<uint8_t>(mine.begin(), mine.end()), openssl_blake2b_mac(key_bytes, msg, 32)) << n;
  }
}

TEST(Sha254, TrimsTheDigest) {
  const std::vector<uint8_t> zeros(64, 0);
  const Digest32 full = sha256(zeros);
  EXPECT_EQ(std::vector<uint8_t>(full.begin(), full.end()),
            from_hex("f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b"));
  Domain z{};
  const Domain node = sha254_node(z, z);
  EXPECT_EQ(node[31], 0x0b);
  EXPECT_TRUE(std::equal(node.begin(), node.begin() + 31, full.begin()));
}

TEST(Fr32, PadsBitStreamAndRoundTrips) {
  std::mt19937_64 rng(3);
  std::vector<uint8_t> raw(127 * 3);
  for (auto& b : raw) b = uint8_t(rng());
  const std::vector<Domain> nodes = fr32_pad(raw, 12);
  ASSERT_EQ(nodes.size(), 12u);
  // Independent bit-by-bit rule: node j bit k is stream bit 254 j + k, the top two bits are 0.
  for (size_t j = 0; j < nodes.size(); ++j)
    for (unsigned k = 0; k < 256; ++k) {
      const uint64_t s = 254 * j + k;
      const unsigned want = k < 254 ? (raw[s / 8] >> (s % 8)) & 1 : 0;
      ASSERT_EQ((nodes[j][k / 8] >> (k % 8)) & 1, want) << j << " " << k;
    }
  EXPECT_EQ(fr32_unpad(nodes), raw);
  // Short input is zero-extended.
  const std::vector<Domain> short_pad = fr32_pad(std::span<const uint8_t>(raw).first(10), 4);
  EXPECT_EQ(short_pad[1], Domain{});
  EXPECT_EQ(fr32_unpadded_size(2048), 2032u);
}

}  // namespace
}  // namespace cuzk::filecoin::vanilla
