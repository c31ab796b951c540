#include "filecoin/circuits/post_vanilla.hpp"

#include <string>

#include "common/parallel_ranges.hpp"
#include "filecoin/por/inclusion_path.hpp"
#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin {

namespace {

// Sectors worth a thread of their own: a WindowPoSt sector is about a hundred Poseidon hashes.
constexpr size_t kSectorsPerRange = 8;

struct Setting {
  PostKind kind;
  FallbackPostParams params;
  size_t base_levels = 0;
  size_t partition_index = 0;
  // Inclusion proofs per real sector: a WindowPoSt sector's challenges, or all of WinningPoSt's
  // circuit sectors' challenges from its one sector.
  size_t inclusions() const {
    return kind == PostKind::window ? params.challenge_count : params.sector_count * params.challenge_count;
  }
};

Result<Setting> setting_of(const PostProofType& type, size_t proofs, size_t partition_index) {
  const std::string kind(to_string(type.kind));
  auto params = fallback_post_params(type.kind, type.sector_size, type.api_version);
  if (!params) return make_input_error(params.message());
  auto base_levels = post_base_levels(*params);
  if (!base_levels) return base_levels.error();
  if (type.kind == PostKind::winning && (proofs != 1 || partition_index != 0))
    return make_input_error(kind + ": " + std::to_string(proofs) + " sector proofs for partition " +
                            std::to_string(partition_index) + "; it proves one sector in partition 0");
  if (proofs == 0 || proofs > params->sector_count)
    return make_input_error(kind + ": " + std::to_string(proofs) + " sector proofs for a partition of 1 to " +
                            std::to_string(params->sector_count));
  return Setting{type.kind, *params, *base_levels, partition_index};
}

// The leaves the verifier challenges in real sector i, in the order of its inclusion proofs.
std::vector<uint64_t> challenged_leaves(const Setting& s, const Domain& randomness, uint64_t id, size_t i) {
  const FallbackPostParams& p = s.params;
  if (s.kind == PostKind::window)
    return post_sector_challenges(p, randomness, id, uint64_t(s.partition_index) * p.sector_count + i);
  // WinningPoSt's verifier lists the one sector once per circuit sector.
  std::vector<uint64_t> leaves;
  for (uint64_t j = 0; j < p.sector_count; ++j) {
    const auto block = post_sector_challenges(p, randomness, id, j);
    leaves.insert(leaves.end(), block.begin(), block.end());
  }
  return leaves;
}

Result<Fr> field_element(const Domain& d, const std::string& at, const char* name) {
  auto x = domain_to_fr(d);
  if (!x) return make_input_error(at + name + " is not a field element");
  return *x;
}

// Inclusion proof j of a sector: the tree's shape, the root its path reaches (where `paths` says
// the check hashes it), the root it names, the leaf it proves.
Status check_inclusion(const Setting& s, const std::string& at, size_t j, const MerkleProof& proof,
                       const Fr& comm_r_last, uint64_t challenge, PathCheck paths) {
  const std::string what = at + "challenge " + std::to_string(j);
  auto arities = path_arities(proof, s.params.tree, what, s.base_levels);
  if (!arities) return make_input_error(arities.message());
  if (paths == PathCheck::hashed) {
    auto root = recompute_root(proof, *arities, poseidon_native_node_hash(), what);
    if (!root) return make_input_error(root.message());
    if (*root != comm_r_last) return make_input_error(what + "'s path does not reach comm_r_last");
  }
  if (proof.root != fr_to_domain(comm_r_last))
    return make_input_error(what + "'s proof names a root other than comm_r_last");
  const uint64_t leaf = path_index(proof, *arities);
  if (leaf != challenge)
    return make_input_error(what + " proves leaf " + std::to_string(leaf) + ", the challenge is leaf " +
                            std::to_string(challenge));
  return Status::Ok();
}

Status check_sector(const Setting& s, const FallbackPostSectorProof& proof, size_t i,
                    const Domain& randomness, PathCheck paths) {
  const std::string at = std::string(to_string(s.kind)) + ": sector " + std::to_string(i) + " (id " +
                         std::to_string(proof.sector_id) + "): ";
  if (proof.sectors.size() != 1)
    return make_input_error(at + std::to_string(proof.sectors.size()) + " sector proofs, one expected");
  const PostSectorProof& sp = proof.sectors[0];
  auto comm_r = field_element(proof.comm_r, at, "comm_r");
  if (!comm_r) return comm_r.error();
  auto comm_c = field_element(sp.comm_c, at, "comm_c");
  if (!comm_c) return comm_c.error();
  auto comm_r_last = field_element(sp.comm_r_last, at, "comm_r_last");
  if (!comm_r_last) return comm_r_last.error();
  const Fr pair[2] = {*comm_c, *comm_r_last};
  if (r1cs::poseidon_merkle_node(r1cs::poseidon_constants_2(), pair) != *comm_r)
    return make_input_error(at + "comm_r is not Poseidon(comm_c, comm_r_last)");
  if (sp.inclusion_proofs.size() != s.inclusions())
    return make_input_error(at + std::to_string(sp.inclusion_proofs.size()) + " inclusion proofs, " +
                            std::to_string(s.inclusions()) + " expected (one per challenge)");
  const std::vector<uint64_t> leaves = challenged_leaves(s, randomness, proof.sector_id, i);
  for (size_t j = 0; j < leaves.size(); ++j)
    CUZK_TRY_STATUS(check_inclusion(s, at, j, sp.inclusion_proofs[j], *comm_r_last, leaves[j], paths));
  return Status::Ok();
}

// The witness of one circuit sector: the sector's commitments and inclusion proofs [first, first + n).
Result<PostCircuitSector> circuit_sector(const FallbackPostSectorProof& proof, size_t first, size_t n) {
  const PostSectorProof& sp = proof.sectors[0];
  PostCircuitSector c;
  // check_sector has checked every domain.
  c.comm_r = *domain_to_fr(proof.comm_r);
  c.comm_c = *domain_to_fr(sp.comm_c);
  c.comm_r_last = *domain_to_fr(sp.comm_r_last);
  for (size_t j = first; j < first + n; ++j) {
    const MerkleProof& m = sp.inclusion_proofs[j];
    c.leaves.push_back(*domain_to_fr(m.leaf));
    auto path = circuit_path(m, "challenge " + std::to_string(j));
    if (!path) return make_input_error(path.message());
    c.paths.push_back(std::move(*path));
  }
  return c;
}

}  // namespace

Status check_post_vanilla_proofs(const PostProofType& type, std::span<const FallbackPostSectorProof> proofs,
                                 const Domain& randomness, size_t partition_index, PathCheck paths) {
  auto s = setting_of(type, proofs.size(), partition_index);
  if (!s) return s.error();
  CUZK_TRY_STATUS(check_post_randomness(randomness));
  // Sectors are checked apart, in ranges on every core (a 2349-sector partition is some 235,000
  // Poseidon hashes); the error is the first bad sector's, however the ranges ran.
  return parallel_ranges(proofs.size(), kSectorsPerRange, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) CUZK_TRY_STATUS(check_sector(*s, proofs[i], i, randomness, paths));
    return Status::Ok();
  });
}

Result<PostPartition> post_partition_from_vanilla(const PostProofType& type,
                                                  std::span<const FallbackPostSectorProof> proofs,
                                                  const Domain& randomness, size_t partition_index) {
  CUZK_TRY_STATUS(check_post_vanilla_proofs(type, proofs, randomness, partition_index));
  return post_partition_of_checked(type, proofs, randomness, partition_index);
}

Result<PostPartition> post_partition_of_checked(const PostProofType& type,
                                                std::span<const FallbackPostSectorProof> proofs,
                                                const Domain& randomness, size_t partition_index,
                                                PathCheck paths) {
  auto setting = setting_of(type, proofs.size(), partition_index);
  if (!setting) return setting.error();
  const Setting& s = *setting;
  const size_t challenges = s.params.challenge_count;

  std::vector<PostCircuitSector> sectors;
  std::vector<PostPublicSector> public_sectors;
  if (type.kind == PostKind::window) {
    // The sectors' values apart, on every core (2349 sectors: 1.7 M field elements from bytes).
    sectors.resize(proofs.size());
    CUZK_TRY_STATUS(parallel_ranges(proofs.size(), kSectorsPerRange, [&](size_t begin, size_t end) -> Status {
      for (size_t i = begin; i < end; ++i) {
        auto c = circuit_sector(proofs[i], 0, challenges);
        if (!c) return c.error();
        sectors[i] = std::move(*c);
      }
      return Status::Ok();
    }));
    for (const FallbackPostSectorProof& p : proofs) public_sectors.push_back({p.sector_id, p.comm_r});
  } else {
    for (size_t j = 0; j < s.params.sector_count; ++j) {
      auto c = circuit_sector(proofs[0], j * challenges, challenges);
      if (!c) return c.error();
      sectors.push_back(std::move(*c));
      public_sectors.push_back({proofs[0].sector_id, proofs[0].comm_r});
    }
  }

  auto inputs = fallback_post_public_inputs(s.params, randomness, public_sectors, partition_index);
  if (!inputs) return inputs.error();
  auto circuit = FallbackPostCircuit::create(s.params, std::move(sectors));
  if (!circuit) return circuit.error();
  circuit->set_check_roots(paths == PathCheck::in_synthesis);
  return PostPartition{std::move(*circuit), std::move(*inputs)};
}

}  // namespace cuzk::filecoin
