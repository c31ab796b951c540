#include "filecoin/vanilla/graph.hpp"

#include <bit>
#include <cstring>

#include "common/hex.hpp"
#include "filecoin/vanilla/chacha.hpp"
#include "filecoin/vanilla/parallel.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

// sha256(tag ‖ porep_id) (storage-proofs-core crypto/mod.rs derive_porep_domain_seed).
Digest32 porep_domain_seed(std::string_view tag, const PorepId& porep_id) {
  return sha256({as_bytes(tag), porep_id});
}

// ceil(log2(x)) for x ≥ 2, as upstream computes it in f64 (exact below 2^53).
uint64_t ceil_log2(uint64_t x) { return 64 - uint64_t(std::countl_zero(x - 1)); }

}  // namespace

StackedGraph::StackedGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api)
    : nodes_(nodes), api_(api) {
  const Digest32 drg = porep_domain_seed("Filecoin_DRSample", porep_id);
  std::memcpy(drg_seed_.data(), drg.data(), 28);
  const Digest32 feistel = porep_domain_seed("Filecoin_Feistel", porep_id);
  for (int i = 0; i < 4; ++i) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; --b) k = k << 8 | feistel[8 * i + b];
    feistel_keys_[i] = k;
  }
  half_bits_ = 1;
  while ((uint64_t(1) << (2 * half_bits_)) < kExpParents * nodes) ++half_bits_;
}

void StackedGraph::drg_parents(uint64_t v, uint32_t out[kDrgParents]) const {
  if (v < 2) {
    for (unsigned i = 0; i < kDrgParents; ++i) out[i] = 0;
    return;
  }
  std::array<uint8_t, 32> seed;
  std::memcpy(seed.data(), drg_seed_.data(), 28);
  for (int b = 0; b < 4; ++b) seed[28 + b] = uint8_t(v >> (8 * b));
  ChaCha8Rng rng(seed);
  constexpr uint64_t m_prime = kDrgParents - 1;
  const uint64_t meta = v * m_prime;
  const uint64_t buckets = ceil_log2(meta);
  const unsigned first = api_ == ApiVersion::v1_0_0 ? 0 : 1;
  for (unsigned k = 0; k < m_prime; ++k) {
    const uint64_t bucket = rng.next_u64() % buckets + 1;
    const uint64_t hi = std::min(meta, uint64_t(1) << bucket);
    const uint64_t lo = std::max<uint64_t>(2, hi >> 1);
    const uint64_t dist = lo + rng.next_u64() % (hi - lo + 1);
    const uint64_t p = (meta - dist) / m_prime;
    out[first + k] = uint32_t(p == v ? v - 1 : p);
  }
  out[api_ == ApiVersion::v1_0_0 ? m_prime : 0] = uint32_t(v - 1);
}

// F(R, k) = the first 8 bytes of BLAKE2b-512(R as u64 BE ‖ k as u64 BE), big-endian, masked.
uint64_t StackedGraph::feistel_encode(uint64_t index) const {
  const uint64_t mask = (uint64_t(1) << half_bits_) - 1;
  uint64_t left = (index >> half_bits_) & mask, right = index & mask;
  uint8_t msg[16];
  uint8_t h[64];
  for (int round = 0; round < 3; ++round) {
    for (int b = 0; b < 8; ++b) {
      msg[b] = uint8_t(right >> (56 - 8 * b));
      msg[8 + b] = uint8_t(feistel_keys_[round] >> (56 - 8 * b));
    }
    blake2b(h, msg);
    uint64_t f = 0;
    for (int b = 0; b < 8; ++b) f = f << 8 | h[b];
    const uint64_t next_right = left ^ (f & mask);
    left = right;
    right = next_right;
  }
  return left << half_bits_ | right;
}

void StackedGraph::exp_parents(uint64_t v, uint32_t out[kExpParents]) const {
  const uint64_t range = kExpParents * nodes_;
  for (unsigned i = 0; i < kExpParents; ++i) {
    uint64_t u = feistel_encode(v * kExpParents + i);
    while (u >= range) u = feistel_encode(u);
    // API 1.0 truncates the permuted index to u32 before dividing (graph.rs `correspondent`);
    // the two differ only where 8 · nodes exceeds 2^32 (32 and 64 GiB).
    out[i] = api_ == ApiVersion::v1_0_0 ? uint32_t(u) / kExpParents : uint32_t(u / kExpParents);
  }
}

void StackedGraph::parents(uint64_t v, uint32_t out[kParents]) const {
  drg_parents(v, out);
  exp_parents(v, out + kDrgParents);
}

std::vector<uint32_t> StackedGraph::parent_table() const {
  std::vector<uint32_t> table(nodes_ * kParents);
  parallel_for(nodes_, 1024, [&](uint64_t b, uint64_t e) {
    for (uint64_t v = b; v < e; ++v) parents(v, table.data() + v * kParents);
  });
  return table;
}

std::string parent_cache_digest(const std::vector<uint32_t>& table) {
  // u32 little-endian on a little-endian host is the table's own bytes.
  static_assert(std::endian::native == std::endian::little);
  return to_hex(sha256({reinterpret_cast<const uint8_t*>(table.data()), table.size() * 4}));
}

std::string parent_cache_name(const StackedGraph& graph) {
  const std::string id =
      "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: " +
      std::to_string(graph.nodes()) + "; degree: 6; hasher: poseidon_hasher} }";
  uint8_t keys[32];
  for (int i = 0; i < 4; ++i)
    for (int b = 0; b < 8; ++b) keys[8 * i + b] = uint8_t(graph.feistel_keys()[i] >> (8 * b));
  uint8_t entries[4];
  for (int b = 0; b < 4; ++b) entries[b] = uint8_t(graph.nodes() >> (8 * b));
  return "v28-sdr-parent-" + to_hex(sha256({as_bytes("poseidon_hasher"), as_bytes(id), keys, entries}));
}

}  // namespace cuzk::filecoin::vanilla
