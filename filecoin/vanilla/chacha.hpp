// ChaCha (Bernstein; RFC 8439 for the 20-round IETF variant) as Filecoin's vanilla side uses it:
//   * ChaCha8Rng, rand_chacha 0.3's generator that draws the DRG parents: key = the 32-byte seed,
//     a 64-bit block counter in words 12–13 and a 64-bit stream id (0) in words 14–15;
//     next_u64 is the next 8 keystream bytes, little-endian;
//   * ChaCha20 with the IETF layout (32-bit counter in word 12, 96-bit nonce in words 13–15), the
//     `chacha20` crate's cipher that draws synthetic-PoRep challenges.
// One block function, parameterised by the number of rounds, serves both.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace cuzk::filecoin::vanilla {

// One 64-byte keystream block: the state words (constants, key, words 12–15 as given) after
// `rounds` rounds (8, 12 or 20), added to the input state, serialized little-endian.
void chacha_block(unsigned rounds, const std::array<uint32_t, 8>& key,
                  const std::array<uint32_t, 4>& counter_nonce, uint8_t out[64]);

std::array<uint32_t, 8> chacha_key(std::span<const uint8_t, 32> key);

// rand_chacha 0.3's ChaCha{rounds}Rng seeded by from_seed(seed): stream 0, word position 0.
class ChaChaRng {
 public:
  ChaChaRng(unsigned rounds, std::span<const uint8_t, 32> seed);
  uint32_t next_u32();
  uint64_t next_u64();

 private:
  void refill();
  unsigned rounds_;
  std::array<uint32_t, 8> key_;
  uint64_t block_ = 0;
  uint8_t buf_[64];
  unsigned pos_ = 64;  // next unread byte of buf_
};

// The generator of the DRG parents.
class ChaCha8Rng : public ChaChaRng {
 public:
  explicit ChaCha8Rng(std::span<const uint8_t, 32> seed) : ChaChaRng(8, seed) {}
};

// `out.size()` bytes of IETF ChaCha20 keystream starting `offset` bytes into the stream of
// (key, nonce) with block counter 0 at offset 0.
void chacha20_keystream(std::span<const uint8_t, 32> key, std::span<const uint8_t, 12> nonce, uint64_t offset,
                        std::span<uint8_t> out);

}  // namespace cuzk::filecoin::vanilla
