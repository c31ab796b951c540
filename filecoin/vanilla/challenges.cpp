#include "filecoin/vanilla/challenges.hpp"

#include <algorithm>

#include "filecoin/vanilla/chacha.hpp"
#include "filecoin/vanilla/hashes.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

std::array<uint8_t, 4> le32(uint32_t j) {
  return {uint8_t(j), uint8_t(j >> 8), uint8_t(j >> 16), uint8_t(j >> 24)};
}

constexpr uint8_t kSynthNonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
constexpr uint64_t kDefaultSynthChallenges = uint64_t(1) << 18;

}  // namespace

uint64_t challenge_from_le(std::span<const uint8_t, 32> x, uint64_t nodes) {
  const uint64_t m = nodes - 1;
  unsigned __int128 r = 0;
  for (int limb = 3; limb >= 0; --limb) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; --b) w = w << 8 | x[8 * limb + b];
    r = ((r << 64) | w) % m;
  }
  return uint64_t(r) + 1;
}

std::vector<uint64_t> interactive_challenges(uint64_t nodes, const Domain& replica_id, const Domain& seed,
                                             unsigned k, unsigned n) {
  std::vector<uint64_t> out;
  for (unsigned i = 0; i < n; ++i) {
    const std::array<uint8_t, 4> j = le32(n * k + i);
    out.push_back(challenge_from_le(sha256({replica_id, seed, j}), nodes));
  }
  return out;
}

std::vector<uint64_t> ni_challenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                    unsigned k, unsigned n) {
  std::vector<uint64_t> out;
  for (unsigned i = 0; i < n; ++i) {
    const std::array<uint8_t, 4> j = le32(n * k + i);
    out.push_back(challenge_from_le(
        sha256({as_bytes("filecoin.io|PoRep|1|NonInteractive|1"), replica_id, comm_r, j}), nodes));
  }
  return out;
}

std::vector<uint64_t> synthetic_challenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                           const Domain& seed, unsigned k, unsigned n) {
  const uint64_t synth_count = std::min(nodes, kDefaultSynthChallenges);
  const Digest32 gen_key =
      blake2b_256_keyed("filecoin.io|PoRep|1|Synthetic|1|Generation", {replica_id, comm_r});
  const Digest32 sel_key = blake2b_256_keyed("filecoin.io|PoRep|1|Synthetic|1|Selection", {replica_id, seed});
  std::vector<uint8_t> selection(4 * size_t(n));
  chacha20_keystream(sel_key, kSynthNonce, 4 * uint64_t(n) * k, selection);
  std::vector<uint64_t> out;
  for (unsigned i = 0; i < n; ++i) {
    const uint32_t s = uint32_t(selection[4 * i]) | uint32_t(selection[4 * i + 1]) << 8 |
                       uint32_t(selection[4 * i + 2]) << 16 | uint32_t(selection[4 * i + 3]) << 24;
    std::array<uint8_t, 32> x;
    chacha20_keystream(gen_key, kSynthNonce, 32 * (s % synth_count), x);
    out.push_back(challenge_from_le(x, nodes));
  }
  return out;
}

std::vector<uint64_t> porep_challenges(const SealProofInfo& info, const Domain& replica_id,
                                       const Domain& comm_r, const Domain& seed, unsigned k) {
  const uint64_t nodes = info.shape.nodes;
  const unsigned n = info.challenges_per_partition;
  switch (info.challenges) {
    case ChallengeKind::interactive:
      return interactive_challenges(nodes, replica_id, seed, k, n);
    case ChallengeKind::non_interactive:
      return ni_challenges(nodes, replica_id, comm_r, k, n);
    case ChallengeKind::synthetic:
      return synthetic_challenges(nodes, replica_id, comm_r, seed, k, n);
  }
  return {};
}

}  // namespace cuzk::filecoin::vanilla
