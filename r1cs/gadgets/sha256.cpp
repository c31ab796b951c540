#include "r1cs/gadgets/sha256.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <bit>

namespace cuzk::r1cs {

namespace {

constexpr uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// The message followed by 1, zeros to 448 mod 512, and the 64-bit big-endian bit length.
template <class Bit>
std::vector<Bit> pad(std::span<const Bit> message, Bit zero, Bit one) {
  std::vector<Bit> out(message.begin(), message.end());
  const uint64_t len = message.size();
  out.push_back(one);
  while (out.size() % 512 != 448) out.push_back(zero);
  for (int i = 63; i >= 0; --i) out.push_back(((len >> i) & 1) ? one : zero);
  return out;
}

}  // namespace

void sha256_compress(Sha256State& state, const uint8_t block[64]) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(block[4 * i]) << 24 | uint32_t(block[4 * i + 1]) << 16 | uint32_t(block[4 * i + 2]) << 8 |
           uint32_t(block[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    const uint32_t s0 = std::rotr(w[i - 15], 7) ^ std::rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = std::rotr(w[i - 2], 17) ^ std::rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    const uint32_t s1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const uint32_t ch = (e & f) ^ (~e & g);
    const uint32_t t1 = h + s1 + ch + kRoundConstants[i] + w[i];
    const uint32_t s0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + s0 + maj;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

namespace {

// One EVP context per thread with SHA-256 fetched once, so a call costs the hash alone (OpenSSL
// uses the SHA extensions where the CPU has them: tree_d and SDR labels hash hundreds of millions
// of blocks per sector).
struct Sha256Context {
  EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~Sha256Context() {
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
  }
};

}  // namespace

std::array<uint8_t, 32> sha256(std::initializer_list<std::span<const uint8_t>> parts) {
  thread_local Sha256Context c;
  std::array<uint8_t, 32> out{};
  unsigned len = 0;
  // These fail only when OpenSSL cannot allocate; the digest is then all zero, which every
  // consumer (a root, a label, a challenge) rejects as a mismatch.
  if (!c.md || !c.ctx || EVP_DigestInit_ex2(c.ctx, c.md, nullptr) != 1) return out;
  for (std::span<const uint8_t> p : parts) EVP_DigestUpdate(c.ctx, p.data(), p.size());
  EVP_DigestFinal_ex(c.ctx, out.data(), &len);
  return out;
}

std::array<uint8_t, 32> sha256(std::span<const uint8_t> message) { return sha256({message}); }

std::array<UInt32, 8> sha256_iv_circuit() {
  std::array<UInt32, 8> iv;
  for (size_t i = 0; i < 8; ++i) iv[i] = UInt32::constant(kSha256Iv[i]);
  return iv;
}

namespace {

// x.rotr(r0) ⊕ x.rotr(r1), then ⊕ the third operand: the order of SHA-256's Σ and σ functions.
UInt32 xor3(ConstraintSystem& cs, const UInt32& x0, const UInt32& x1, const UInt32& x2) {
  return x0.xor_with(cs, x1).xor_with(cs, x2);
}

// A word that is either known or the operands of a sum not yet computed (bellperson's Maybe).
class MaybeDeferred {
 public:
  explicit MaybeDeferred(const UInt32& concrete) : concrete_(concrete) {}
  MaybeDeferred(std::span<const UInt32> a, std::span<const UInt32> b) : count_(a.size() + b.size()) {
    std::copy(a.begin(), a.end(), ops_.begin());
    std::copy(b.begin(), b.end(), ops_.begin() + ptrdiff_t(a.size()));
  }
  // The word: the concrete value, or the sum of the deferred operands followed by `more`.
  UInt32 compute(MultiEq& eq, std::span<const UInt32> more = {}) const {
    if (count_ == 0) return concrete_;
    std::array<UInt32, 10> ops;
    std::copy(ops_.begin(), ops_.begin() + ptrdiff_t(count_), ops.begin());
    std::copy(more.begin(), more.end(), ops.begin() + ptrdiff_t(count_));
    return UInt32::addmany(eq, std::span<const UInt32>(ops.data(), count_ + more.size()));
  }

 private:
  UInt32 concrete_;
  std::array<UInt32, 7> ops_;
  size_t count_ = 0;
};

}  // namespace

std::array<UInt32, 8> sha256_compression_circuit(ConstraintSystem& cs, std::span<const Boolean, 512> block,
                                                 const std::array<UInt32, 8>& state) {
  MultiEq eq(cs);
  std::array<UInt32, 64> w;
  for (size_t i = 0; i < 16; ++i) w[i] = UInt32::from_bits_be(block.subspan(32 * i).first<32>());
  for (size_t i = 16; i < 64; ++i) {
    const UInt32& x15 = w[i - 15];
    const UInt32 s0 = xor3(cs, x15.rotr(7), x15.rotr(18), x15.shr(3));
    const UInt32& x2 = w[i - 2];
    const UInt32 s1 = xor3(cs, x2.rotr(17), x2.rotr(19), x2.shr(10));
    const UInt32 ops[] = {w[i - 16], s0, w[i - 7], s1};
    w[i] = UInt32::addmany(eq, ops);
  }

  MaybeDeferred a(state[0]), e(state[4]);
  UInt32 b = state[1], c = state[2], d = state[3];
  UInt32 f = state[5], g = state[6], h = state[7];
  for (size_t i = 0; i < 64; ++i) {
    const UInt32 new_e = e.compute(eq);
    const UInt32 s1 = xor3(cs, new_e.rotr(6), new_e.rotr(11), new_e.rotr(25));
    const UInt32 ch = UInt32::sha256_ch(cs, new_e, f, g);
    const UInt32 temp1[] = {h, s1, ch, UInt32::constant(kRoundConstants[i]), w[i]};
    const UInt32 new_a = a.compute(eq);
    const UInt32 s0 = xor3(cs, new_a.rotr(2), new_a.rotr(13), new_a.rotr(22));
    const UInt32 maj = UInt32::sha256_maj(cs, new_a, b, c);
    const UInt32 temp2[] = {s0, maj};

    h = g;
    g = f;
    f = new_e;
    e = MaybeDeferred(temp1, std::span<const UInt32>(&d, 1));
    d = c;
    c = b;
    b = new_a;
    a = MaybeDeferred(temp1, temp2);
  }

  // h0 … h7 in this order; the deferred sums take the old state word as their last operand.
  auto plus_state = [&](size_t k, const UInt32& word) {
    const UInt32 ops[] = {state[k], word};
    return UInt32::addmany(eq, ops);
  };
  std::array<UInt32, 8> out;
  out[0] = a.compute(eq, std::span<const UInt32>(&state[0], 1));
  out[1] = plus_state(1, b);
  out[2] = plus_state(2, c);
  out[3] = plus_state(3, d);
  out[4] = e.compute(eq, std::span<const UInt32>(&state[4], 1));
  out[5] = plus_state(5, f);
  out[6] = plus_state(6, g);
  out[7] = plus_state(7, h);
  eq.flush();
  return out;
}

std::vector<Boolean> sha256_circuit(ConstraintSystem& cs, std::span<const Boolean> message_bits) {
  const std::vector<Boolean> padded = pad(message_bits, Boolean::constant(false), Boolean::constant(true));
  std::array<UInt32, 8> state = sha256_iv_circuit();
  for (size_t off = 0; off < padded.size(); off += 512)
    state = sha256_compression_circuit(cs, std::span<const Boolean>(padded).subspan(off).first<512>(), state);
  std::vector<Boolean> digest;
  digest.reserve(256);
  for (const UInt32& word : state) {
    const std::array<Boolean, 32> be = word.bits_be();
    digest.insert(digest.end(), be.begin(), be.end());
  }
  return digest;
}

std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
  std::vector<bool> bits;
  bits.reserve(bytes.size() * 8);
  for (uint8_t byte : bytes)
    for (int i = 7; i >= 0; --i) bits.push_back((byte >> i) & 1);
  return bits;
}

std::vector<uint8_t> bits_to_bytes(std::span<const Boolean> bits) {
  std::vector<uint8_t> bytes((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i)
    if (bits[i].value()) bytes[i / 8] |= uint8_t(0x80 >> (i % 8));
  return bytes;
}

}  // namespace cuzk::r1cs
