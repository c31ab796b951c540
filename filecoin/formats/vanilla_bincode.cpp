#include "filecoin/formats/vanilla_bincode.hpp"

#include "filecoin/formats/bincode.hpp"

namespace cuzk::filecoin {
namespace {

using bincode::Reader;
using bincode::Scope;
using bincode::Writer;

// The least bytes one encoded element can take, for the length checks.
constexpr size_t kPathElementMin = 8 + 8;            // hashes length, index
constexpr size_t kMerkleProofMin = 4 + 32 + 32 + 8;  // tag, root, leaf, one path length
constexpr size_t kSectorProofMin = 8 + 32 + 32;      // inclusion_proofs length, comm_c, comm_r_last
constexpr size_t kChallengeProofMin = 3 * kMerkleProofMin;

// storage-proofs-core InclusionPath: a Vec of PathElement { hashes: Vec<Domain>, index: usize }.
Status read_path(Reader& r, const char* field, InclusionPath& path) {
  Scope s(r, field);
  uint64_t n = 0;
  CUZK_TRY_STATUS(r.length(n, kPathElementMin));
  path.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    Scope si(r, i);
    PathElement& e = path[i];
    uint64_t k = 0;
    {
      Scope sh(r, "hashes");
      CUZK_TRY_STATUS(r.length(k, 32));
      e.hashes.resize(k);
      for (uint64_t j = 0; j < k; ++j) {
        Scope sj(r, j);
        CUZK_TRY_STATUS(r.domain(e.hashes[j]));
      }
    }
    Scope sx(r, "index");
    CUZK_TRY_STATUS(r.u64(e.index));
  }
  return {};
}

Status read_domain(Reader& r, const char* field, Domain& d) {
  Scope s(r, field);
  return r.domain(d);
}

// MerkleProof { data: ProofData }: the struct adds nothing, the enum is a u32 tag and its fields.
Status read_merkle_proof(Reader& r, MerkleProof& p) {
  uint32_t tag = 0;
  CUZK_TRY_STATUS(r.u32(tag));
  switch (tag) {
    case 0: {
      p.kind = MerkleProof::Kind::single;
      Scope s(r, "Single");
      CUZK_TRY_STATUS(read_domain(r, "root", p.root));
      CUZK_TRY_STATUS(read_domain(r, "leaf", p.leaf));
      return read_path(r, "path", p.base);
    }
    case 1: {
      p.kind = MerkleProof::Kind::sub;
      Scope s(r, "Sub");
      CUZK_TRY_STATUS(read_path(r, "base_proof", p.base));
      CUZK_TRY_STATUS(read_path(r, "sub_proof", p.sub));
      CUZK_TRY_STATUS(read_domain(r, "root", p.root));
      return read_domain(r, "leaf", p.leaf);
    }
    case 2: {
      p.kind = MerkleProof::Kind::top;
      Scope s(r, "Top");
      CUZK_TRY_STATUS(read_path(r, "base_proof", p.base));
      CUZK_TRY_STATUS(read_path(r, "sub_proof", p.sub));
      CUZK_TRY_STATUS(read_path(r, "top_proof", p.top));
      CUZK_TRY_STATUS(read_domain(r, "root", p.root));
      return read_domain(r, "leaf", p.leaf);
    }
    default:
      return r.error("unknown MerkleProof variant " + std::to_string(tag) + " (0 Single, 1 Sub, 2 Top)");
  }
}

Status read_merkle_proof(Reader& r, const char* field, MerkleProof& p) {
  Scope s(r, field);
  return read_merkle_proof(r, p);
}

void write_path(Writer& w, const InclusionPath& path) {
  w.u64(path.size());
  for (const PathElement& e : path) {
    w.u64(e.hashes.size());
    for (const Domain& d : e.hashes) w.domain(d);
    w.u64(e.index);
  }
}

void write_merkle_proof(Writer& w, const MerkleProof& p) {
  w.u32(uint32_t(p.kind));
  switch (p.kind) {
    case MerkleProof::Kind::single:
      w.domain(p.root);
      w.domain(p.leaf);
      write_path(w, p.base);
      return;
    case MerkleProof::Kind::sub:
      write_path(w, p.base);
      write_path(w, p.sub);
      break;
    case MerkleProof::Kind::top:
      write_path(w, p.base);
      write_path(w, p.sub);
      write_path(w, p.top);
      break;
  }
  w.domain(p.root);
  w.domain(p.leaf);
}

Status read_sector_proof(Reader& r, PostSectorProof& s) {
  {
    Scope sc(r, "inclusion_proofs");
    uint64_t n = 0;
    CUZK_TRY_STATUS(r.length(n, kMerkleProofMin));
    s.inclusion_proofs.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
      Scope si(r, i);
      CUZK_TRY_STATUS(read_merkle_proof(r, s.inclusion_proofs[i]));
    }
  }
  CUZK_TRY_STATUS(read_domain(r, "comm_c", s.comm_c));
  return read_domain(r, "comm_r_last", s.comm_r_last);
}

}  // namespace

Result<FallbackPostSectorProof> parse_post_vanilla_proof(std::span<const uint8_t> bytes) {
  Reader r(bytes, "PoSt vanilla proof");
  FallbackPostSectorProof p;
  {
    Scope s(r, "sector_id");
    CUZK_TRY_STATUS(r.u64(p.sector_id));
  }
  CUZK_TRY_STATUS(read_domain(r, "comm_r", p.comm_r));
  {
    Scope s(r, "vanilla_proof.sectors");
    uint64_t n = 0;
    CUZK_TRY_STATUS(r.length(n, kSectorProofMin));
    p.sectors.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
      Scope si(r, i);
      CUZK_TRY_STATUS(read_sector_proof(r, p.sectors[i]));
    }
  }
  CUZK_TRY_STATUS(r.finish());
  return p;
}

std::vector<uint8_t> write_post_vanilla_proof(const FallbackPostSectorProof& proof) {
  Writer w;
  w.u64(proof.sector_id);
  w.domain(proof.comm_r);
  w.u64(proof.sectors.size());
  for (const PostSectorProof& s : proof.sectors) {
    w.u64(s.inclusion_proofs.size());
    for (const MerkleProof& m : s.inclusion_proofs) write_merkle_proof(w, m);
    w.domain(s.comm_c);
    w.domain(s.comm_r_last);
  }
  return std::move(w.bytes());
}

Result<UpdatePartitionProof> parse_update_vanilla_proof(std::span<const uint8_t> bytes) {
  Reader r(bytes, "SnapDeals vanilla proof");
  UpdatePartitionProof p;
  CUZK_TRY_STATUS(read_domain(r, "comm_c", p.comm_c));
  {
    Scope s(r, "apex_leafs");
    uint64_t n = 0;
    CUZK_TRY_STATUS(r.length(n, 32));
    p.apex_leafs.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
      Scope si(r, i);
      CUZK_TRY_STATUS(r.domain(p.apex_leafs[i]));
    }
  }
  {
    Scope s(r, "challenge_proofs");
    uint64_t n = 0;
    CUZK_TRY_STATUS(r.length(n, kChallengeProofMin));
    p.challenge_proofs.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
      Scope si(r, i);
      UpdateChallengeProof& c = p.challenge_proofs[i];
      CUZK_TRY_STATUS(read_merkle_proof(r, "proof_r_old", c.proof_r_old));
      CUZK_TRY_STATUS(read_merkle_proof(r, "proof_d_new", c.proof_d_new));
      CUZK_TRY_STATUS(read_merkle_proof(r, "proof_r_new", c.proof_r_new));
    }
  }
  CUZK_TRY_STATUS(r.finish());
  return p;
}

std::vector<uint8_t> write_update_vanilla_proof(const UpdatePartitionProof& proof) {
  Writer w;
  w.domain(proof.comm_c);
  w.u64(proof.apex_leafs.size());
  for (const Domain& d : proof.apex_leafs) w.domain(d);
  w.u64(proof.challenge_proofs.size());
  for (const UpdateChallengeProof& c : proof.challenge_proofs) {
    write_merkle_proof(w, c.proof_r_old);
    write_merkle_proof(w, c.proof_d_new);
    write_merkle_proof(w, c.proof_r_new);
  }
  return std::move(w.bytes());
}

}  // namespace cuzk::filecoin
