#include "io/proof.hpp"

#include <string>

#include "common/parallel_ranges.hpp"
#include "curve/encoding.hpp"

namespace cuzk {

using groth16::Proof;

std::array<uint8_t, PROOF_BYTES> proof_to_bytes(const Proof& proof) {
  std::array<uint8_t, PROOF_BYTES> out;
  g1_compress(proof.a, out.data());
  g2_compress(proof.b, out.data() + G1_COMPRESSED_BYTES);
  g1_compress(proof.c, out.data() + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES);
  return out;
}

namespace {

// `name` is "proof" or "proof 3": the prefix of every message.
Result<Proof> decode_proof(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.size() != PROOF_BYTES)
    return make_error(name + ": expected " + std::to_string(PROOF_BYTES) + " bytes, got " +
                      std::to_string(bytes.size()));
  auto a = g1_decode(bytes.subspan(0, G1_COMPRESSED_BYTES), Check::full);
  if (!a.ok()) return make_error(name + ": A: " + a.message());
  auto b = g2_decode(bytes.subspan(G1_COMPRESSED_BYTES, G2_COMPRESSED_BYTES), Check::full);
  if (!b.ok()) return make_error(name + ": B: " + b.message());
  auto c =
      g1_decode(bytes.subspan(G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, G1_COMPRESSED_BYTES), Check::full);
  if (!c.ok()) return make_error(name + ": C: " + c.message());
  if (a->is_inf()) return make_error(name + ": A is the point at infinity");
  if (b->is_inf()) return make_error(name + ": B is the point at infinity");
  if (c->is_inf()) return make_error(name + ": C is the point at infinity");
  return Proof{*a, *b, *c};
}

}  // namespace

Result<Proof> proof_from_bytes(std::span<const uint8_t> bytes) { return decode_proof(bytes, "proof"); }

Result<std::vector<Proof>> read_proofs(std::span<const uint8_t> bytes) {
  if (bytes.empty() || bytes.size() % PROOF_BYTES != 0)
    return make_error("proofs: " + std::to_string(bytes.size()) + " bytes is not a positive multiple of " +
                      std::to_string(PROOF_BYTES));
  std::vector<Proof> proofs(bytes.size() / PROOF_BYTES);
  // Subgroup checks dominate; a batch of proofs is worth spreading over the cores.
  CUZK_TRY_STATUS(parallel_ranges(proofs.size(), 4, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) {
      auto p = decode_proof(bytes.subspan(i * PROOF_BYTES, PROOF_BYTES), "proof " + std::to_string(i));
      if (!p.ok()) return p.error();
      proofs[i] = *p;
    }
    return Status::Ok();
  }));
  return proofs;
}

std::vector<uint8_t> write_proofs(std::span<const Proof> proofs) {
  std::vector<uint8_t> out;
  out.reserve(proofs.size() * PROOF_BYTES);
  for (const Proof& p : proofs) {
    const auto b = proof_to_bytes(p);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

}  // namespace cuzk
