#include "filecoin/vanilla/chacha.hpp"

#include <bit>
#include <cstring>

namespace cuzk::filecoin::vanilla {

namespace {

constexpr uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};  // "expand 32-byte k"

inline void quarter(uint32_t* x, int a, int b, int c, int d) {
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 7);
}

uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

}  // namespace

void chacha_block(unsigned rounds, const std::array<uint32_t, 8>& key,
                  const std::array<uint32_t, 4>& counter_nonce, uint8_t out[64]) {
  uint32_t in[16];
  for (int i = 0; i < 4; ++i) in[i] = kSigma[i];
  for (int i = 0; i < 8; ++i) in[4 + i] = key[i];
  for (int i = 0; i < 4; ++i) in[12 + i] = counter_nonce[i];
  uint32_t x[16];
  std::memcpy(x, in, sizeof x);
  for (unsigned r = 0; r < rounds; r += 2) {  // a column round and a diagonal round
    quarter(x, 0, 4, 8, 12);
    quarter(x, 1, 5, 9, 13);
    quarter(x, 2, 6, 10, 14);
    quarter(x, 3, 7, 11, 15);
    quarter(x, 0, 5, 10, 15);
    quarter(x, 1, 6, 11, 12);
    quarter(x, 2, 7, 8, 13);
    quarter(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) {
    const uint32_t w = x[i] + in[i];
    for (int b = 0; b < 4; ++b) out[4 * i + b] = uint8_t(w >> (8 * b));
  }
}

std::array<uint32_t, 8> chacha_key(std::span<const uint8_t, 32> key) {
  std::array<uint32_t, 8> k;
  for (int i = 0; i < 8; ++i) k[i] = load_le32(key.data() + 4 * i);
  return k;
}

ChaChaRng::ChaChaRng(unsigned rounds, std::span<const uint8_t, 32> seed)
    : rounds_(rounds), key_(chacha_key(seed)) {}

void ChaChaRng::refill() {
  chacha_block(rounds_, key_, {uint32_t(block_), uint32_t(block_ >> 32), 0, 0}, buf_);
  ++block_;
  pos_ = 0;
}

uint32_t ChaChaRng::next_u32() {
  if (pos_ == 64) refill();
  const uint32_t v = load_le32(buf_ + pos_);
  pos_ += 4;
  return v;
}

// rand_core's block RNG reads the two words in order, crossing into the next block when needed:
// the result is the next 8 keystream bytes, little-endian.
uint64_t ChaChaRng::next_u64() {
  const uint64_t lo = next_u32();
  const uint64_t hi = next_u32();
  return lo | hi << 32;
}

void chacha20_keystream(std::span<const uint8_t, 32> key, std::span<const uint8_t, 12> nonce, uint64_t offset,
                        std::span<uint8_t> out) {
  const std::array<uint32_t, 8> k = chacha_key(key);
  const uint32_t n0 = load_le32(nonce.data()), n1 = load_le32(nonce.data() + 4),
                 n2 = load_le32(nonce.data() + 8);
  uint8_t block[64];
  size_t done = 0;
  while (done < out.size()) {
    const uint64_t at = offset + done;
    chacha_block(20, k, {uint32_t(at / 64), n0, n1, n2}, block);
    const size_t skip = at % 64;
    const size_t take = std::min(out.size() - done, size_t(64) - skip);
    std::memcpy(out.data() + done, block + skip, take);
    done += take;
  }
}

}  // namespace cuzk::filecoin::vanilla
