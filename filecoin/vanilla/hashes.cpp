#include "filecoin/vanilla/hashes.hpp"

#include <bit>
#include <cstring>

namespace cuzk::filecoin::vanilla {

// ---------------------------------------------------------------------------------------- BLAKE2b

namespace {

constexpr uint64_t kIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                             0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

constexpr uint8_t kSigma[12][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
                                    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
                                    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
                                    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
                                    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
                                    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
                                    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
                                    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
                                    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
                                    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

inline void mix(uint64_t* v, int a, int b, int c, int d, uint64_t x, uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = std::rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 63);
}

// F of RFC 7693 §3.2: block is 128 bytes, t the byte count so far (< 2^64 here), last the flag.
void compress(uint64_t h[8], const uint8_t block[128], uint64_t t, bool last) {
  uint64_t m[16], v[16];
  for (int i = 0; i < 16; ++i) std::memcpy(&m[i], block + 8 * i, 8);  // little-endian host
  for (int i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[i + 8] = kIv[i];
  }
  v[12] ^= t;
  if (last) v[14] = ~v[14];
  for (const auto& s : kSigma) {
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

class Blake2b {
 public:
  Blake2b(size_t out_len, std::span<const uint8_t> key) : out_len_(out_len) {
    for (int i = 0; i < 8; ++i) h_[i] = kIv[i];
    h_[0] ^= 0x01010000 ^ (uint64_t(key.size()) << 8) ^ out_len;
    if (!key.empty()) {
      uint8_t block[128] = {};
      std::memcpy(block, key.data(), key.size());
      update({block, 128});
    }
  }

  void update(std::span<const uint8_t> in) {
    size_t i = 0;
    while (i < in.size()) {
      // The last block is compressed by finish() with the final flag, so a full buffer is only
      // compressed once more input follows it.
      if (fill_ == 128) {
        t_ += 128;
        compress(h_, buf_, t_, false);
        fill_ = 0;
      }
      const size_t take = std::min(in.size() - i, size_t(128) - fill_);
      std::memcpy(buf_ + fill_, in.data() + i, take);
      fill_ += take;
      i += take;
    }
  }

  void finish(std::span<uint8_t> out) {
    t_ += fill_;
    std::memset(buf_ + fill_, 0, 128 - fill_);
    compress(h_, buf_, t_, true);
    uint8_t full[64];
    std::memcpy(full, h_, 64);
    std::memcpy(out.data(), full, out_len_);
  }

 private:
  uint64_t h_[8];
  uint8_t buf_[128] = {};
  size_t fill_ = 0;
  uint64_t t_ = 0;
  size_t out_len_;
};

}  // namespace

void blake2b(std::span<uint8_t> out, std::span<const uint8_t> message, std::span<const uint8_t> key) {
  Blake2b b(out.size(), key);
  b.update(message);
  b.finish(out);
}

Digest32 blake2b_256_keyed(std::string_view key, std::initializer_list<std::span<const uint8_t>> parts) {
  Blake2b b(32, as_bytes(key));
  for (std::span<const uint8_t> p : parts) b.update(p);
  Digest32 out;
  b.finish(out);
  return out;
}

}  // namespace cuzk::filecoin::vanilla
