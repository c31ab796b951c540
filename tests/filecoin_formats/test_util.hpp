// Builders of well-shaped synthetic vanilla proofs with random field-element values, and small
// helpers shared by the filecoin_formats tests.
#pragma once

#include <bit>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "filecoin/types/proof_types.hpp"
#include "filecoin/types/sector_shape.hpp"
#include "filecoin/types/vanilla_proofs.hpp"
#include "filecoin/vanilla/update_shape.hpp"

namespace cuzk::filecoin::test {

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string data_path(const char* name) { return std::string(CUZK_FILECOIN_TEST_DATA) + "/" + name; }

inline std::string to_hex(std::span<const uint8_t> b) {
  static constexpr char k[] = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) {
    s += k[x >> 4];
    s += k[x & 15];
  }
  return s;
}

class Builder {
 public:
  explicit Builder(uint64_t seed) : rng_(seed) {}

  // Any 32 bytes with the top two bits clear: always below r.
  Domain domain() {
    Domain d;
    for (auto& b : d) b = uint8_t(rng_());
    d[31] &= 0x3f;
    return d;
  }
  std::vector<Domain> domains(size_t n) {
    std::vector<Domain> v(n);
    for (auto& d : v) d = domain();
    return v;
  }
  InclusionPath levels(size_t count, unsigned arity) {
    InclusionPath p(count);
    for (auto& e : p) {
      e.hashes = domains(arity - 1);
      e.index = rng_() % arity;
    }
    return p;
  }
  MerkleProof tree_r_proof(const SectorShape& s) {
    MerkleProof p;
    const TreeShape& t = s.tree;
    p.kind = !t.sub_arity   ? MerkleProof::Kind::single
             : !t.top_arity ? MerkleProof::Kind::sub
                            : MerkleProof::Kind::top;
    const unsigned base_log2 = s.log2_nodes - unsigned(std::countr_zero(t.base_trees()));
    p.base = levels(base_log2 / 3, 8);
    if (t.sub_arity) p.sub = levels(1, t.sub_arity);
    if (t.top_arity) p.top = levels(1, t.top_arity);
    p.root = domain();
    p.leaf = domain();
    return p;
  }
  MerkleProof tree_d_proof(const SectorShape& s) {
    MerkleProof p;
    p.kind = MerkleProof::Kind::single;
    p.base = levels(s.log2_nodes, 2);
    p.root = domain();
    p.leaf = domain();
    return p;
  }
  ColumnProof column(const SectorShape& s) {
    ColumnProof c;
    c.column.index = uint32_t(rng_() % s.nodes);
    c.column.rows = domains(s.layers);
    c.inclusion_proof = tree_r_proof(s);
    return c;
  }
  LabelingProof labeling(uint32_t layer) {
    LabelingProof l;
    l.parents = domains(37);
    l.layer_index = layer;
    l.node = rng_() % 1000000;
    return l;
  }
  PorepChallengeProof challenge(const SectorShape& s) {
    PorepChallengeProof p;
    p.comm_d_proofs = tree_d_proof(s);
    p.comm_r_last_proof = tree_r_proof(s);
    p.replica_column_proofs.c_x = column(s);
    for (int i = 0; i < 6; ++i) p.replica_column_proofs.drg_parents.push_back(column(s));
    for (int i = 0; i < 8; ++i) p.replica_column_proofs.exp_parents.push_back(column(s));
    for (unsigned l = 1; l <= s.layers; ++l) p.labeling_proofs.push_back(labeling(l));
    p.encoding_proof = labeling(s.layers);
    return p;
  }
  // A C1 output of the registered seal type with every count its shape needs.
  SealCommitPhase1Output c1(const RegisteredProof& type) {
    const SectorShape s = *sector_shape(type.sector_size);
    SealCommitPhase1Output c;
    c.registered_proof = std::string(type.name);
    c.shape_key = std::string(type.shape_key);
    const size_t partitions = type.non_interactive ? s.ni_porep_partitions : s.porep_partitions;
    c.vanilla_proofs.resize(partitions);
    for (auto& part : c.vanilla_proofs)
      for (unsigned i = 0; i < s.porep_challenges; ++i) part.push_back(challenge(s));
    c.comm_r = domain();
    c.comm_d = domain();
    c.replica_id = domain();
    c.seed = domain();
    c.ticket = domain();
    return c;
  }
  FallbackPostSectorProof post(const RegisteredProof& type) {
    const SectorShape s = *sector_shape(type.sector_size);
    FallbackPostSectorProof p;
    p.sector_id = rng_();
    p.comm_r = domain();
    PostSectorProof sp;
    const size_t n = type.kind == ProofKind::winning_post ? s.winning_post_sectors : s.window_post_challenges;
    for (size_t i = 0; i < n; ++i) sp.inclusion_proofs.push_back(tree_r_proof(s));
    sp.comm_c = domain();
    sp.comm_r_last = domain();
    p.sectors.push_back(sp);
    return p;
  }
  UpdatePartitionProof update(const RegisteredProof& type) {
    const SectorShape s = *sector_shape(type.sector_size);
    UpdatePartitionProof p;
    p.comm_c = domain();
    const vanilla::UpdateShape u = *vanilla::update_shape(type.sector_size);
    p.apex_leafs = domains(u.apex_leaves);
    for (unsigned i = 0; i < u.challenges; ++i)
      p.challenge_proofs.push_back({tree_r_proof(s), tree_d_proof(s), tree_r_proof(s)});
    return p;
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

}  // namespace cuzk::filecoin::test
