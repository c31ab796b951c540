#include "filecoin/formats/vanilla_check.hpp"

#include <bit>

#include "filecoin/types/domain.hpp"
#include "filecoin/vanilla/update_shape.hpp"

namespace cuzk::filecoin {
namespace {

constexpr unsigned kDrgParents = 6;
constexpr unsigned kExpParents = 8;
constexpr unsigned kLabelParents = 37;

Error at(const std::string& what, const std::string& path, const std::string& message) {
  return make_input_error(what + ": " + path + ": " + message);
}

std::string idx(size_t i) {
  std::string s = "[";
  s += std::to_string(i);
  s += ']';
  return s;
}

bool is_zero(const Domain& d) {
  for (uint8_t b : d)
    if (b) return false;
  return true;
}

Status field_element(const Domain& d, const std::string& path) {
  if (domain_to_fr(d)) return {};
  return make_input_error(path + ": not a field element (the little-endian value is ≥ r)");
}

Status field_elements(const std::vector<Domain>& v, const std::string& path) {
  for (size_t i = 0; i < v.size(); ++i) CUZK_TRY_STATUS(field_element(v[i], path + idx(i)));
  return {};
}

std::string_view kind_name(MerkleProof::Kind k) {
  return k == MerkleProof::Kind::single ? "Single" : k == MerkleProof::Kind::sub ? "Sub" : "Top";
}

// Levels of `arity` with `arity - 1` siblings each, every index below the arity, every sibling < r.
Status check_levels(const InclusionPath& levels, size_t count, unsigned arity, const std::string& path) {
  if (levels.size() != count)
    return make_input_error(path + ": expected " + std::to_string(count) + " levels, got " +
                            std::to_string(levels.size()));
  for (size_t l = 0; l < levels.size(); ++l) {
    const std::string p = path + idx(l);
    if (levels[l].hashes.size() != arity - 1)
      return make_input_error(p + ".hashes: expected " + std::to_string(arity - 1) + " siblings (arity " +
                              std::to_string(arity) + "), got " + std::to_string(levels[l].hashes.size()));
    if (levels[l].index >= arity)
      return make_input_error(p + ".index: " + std::to_string(levels[l].index) + " is not below the arity " +
                              std::to_string(arity));
    CUZK_TRY_STATUS(field_elements(levels[l].hashes, p + ".hashes"));
  }
  return {};
}

Status check_ends(const MerkleProof& proof, const std::string& path) {
  CUZK_TRY_STATUS(field_element(proof.root, path + ".root"));
  return field_element(proof.leaf, path + ".leaf");
}

Status check_column(const ColumnProof& c, const SectorShape& s, const std::string& path) {
  if (c.column.rows.size() != s.layers)
    return make_input_error(path + ".column.rows: expected " + std::to_string(s.layers) +
                            " rows (one per layer), got " + std::to_string(c.column.rows.size()));
  CUZK_TRY_STATUS(field_elements(c.column.rows, path + ".column.rows"));
  return check_tree_r_proof(c.inclusion_proof, s, path + ".inclusion_proof");
}

Status check_columns(const std::vector<ColumnProof>& v, size_t count, const SectorShape& s,
                     const std::string& path) {
  if (v.size() != count)
    return make_input_error(path + ": expected " + std::to_string(count) + " column proofs, got " +
                            std::to_string(v.size()));
  for (size_t i = 0; i < v.size(); ++i) CUZK_TRY_STATUS(check_column(v[i], s, path + idx(i)));
  return {};
}

Status check_labeling(const LabelingProof& l, const std::string& path) {
  if (l.parents.size() != kLabelParents)
    return make_input_error(path + ".parents: expected " + std::to_string(kLabelParents) + " labels, got " +
                            std::to_string(l.parents.size()));
  return field_elements(l.parents, path + ".parents");
}

Status check_challenge(const PorepChallengeProof& p, const SectorShape& s, const std::string& path) {
  CUZK_TRY_STATUS(check_tree_d_proof(p.comm_d_proofs, s, path + ".comm_d_proofs"));
  CUZK_TRY_STATUS(check_tree_r_proof(p.comm_r_last_proof, s, path + ".comm_r_last_proof"));
  const std::string rc = path + ".replica_column_proofs";
  CUZK_TRY_STATUS(check_column(p.replica_column_proofs.c_x, s, rc + ".c_x"));
  CUZK_TRY_STATUS(check_columns(p.replica_column_proofs.drg_parents, kDrgParents, s, rc + ".drg_parents"));
  CUZK_TRY_STATUS(check_columns(p.replica_column_proofs.exp_parents, kExpParents, s, rc + ".exp_parents"));
  if (p.labeling_proofs.size() != s.layers)
    return make_input_error(path + ".labeling_proofs: expected " + std::to_string(s.layers) +
                            " (one per layer), got " + std::to_string(p.labeling_proofs.size()));
  for (size_t i = 0; i < p.labeling_proofs.size(); ++i)
    CUZK_TRY_STATUS(check_labeling(p.labeling_proofs[i], path + ".labeling_proofs" + idx(i)));
  return check_labeling(p.encoding_proof, path + ".encoding_proof");
}

Result<SectorShape> shape_for(const RegisteredProof& type) {
  auto s = sector_shape(type.sector_size);
  if (!s) return make_input_error(std::string(type.name) + ": no sector shape for its size");
  return *s;
}

}  // namespace

Status check_tree_r_proof(const MerkleProof& proof, const SectorShape& s, const std::string& path) {
  const TreeShape& t = s.tree;
  const MerkleProof::Kind want = !t.sub_arity   ? MerkleProof::Kind::single
                                 : !t.top_arity ? MerkleProof::Kind::sub
                                                : MerkleProof::Kind::top;
  if (proof.kind != want)
    return make_input_error(path + ": expected a " + std::string(kind_name(want)) + " proof (" + t.name() +
                            " tree), got " + std::string(kind_name(proof.kind)));
  const unsigned base_leaves_log2 = s.log2_nodes - unsigned(std::countr_zero(t.base_trees()));
  const unsigned base_log2_arity = unsigned(std::countr_zero(t.base_arity));
  const std::string where = path + "." + std::string(kind_name(want));
  const char* base_name = want == MerkleProof::Kind::single ? ".path" : ".base_proof";
  CUZK_TRY_STATUS(
      check_levels(proof.base, base_leaves_log2 / base_log2_arity, t.base_arity, where + base_name));
  CUZK_TRY_STATUS(check_levels(proof.sub, t.sub_arity ? 1 : 0, t.sub_arity, where + ".sub_proof"));
  CUZK_TRY_STATUS(check_levels(proof.top, t.top_arity ? 1 : 0, t.top_arity, where + ".top_proof"));
  return check_ends(proof, where);
}

Status check_tree_d_proof(const MerkleProof& proof, const SectorShape& s, const std::string& path) {
  if (proof.kind != MerkleProof::Kind::single)
    return make_input_error(path + ": expected a Single proof (binary TreeD), got " +
                            std::string(kind_name(proof.kind)));
  CUZK_TRY_STATUS(check_levels(proof.base, s.log2_nodes, 2, path + ".Single.path"));
  return check_ends(proof, path + ".Single");
}

Status check_c1(const SealCommitPhase1Output& c1) {
  const std::string what = "C1";
  auto type = registered_proof(ProofFamily::seal, c1.registered_proof);
  if (!type) return type.error();
  if (c1.shape_key != type->shape_key)
    return at(what, "vanilla_proofs",
              "registered_proof " + std::string(type->name) + " needs the key " +
                  std::string(type->shape_key) + ", found " + c1.shape_key);
  auto shape = shape_for(*type);
  if (!shape) return shape.error();
  const SectorShape& s = *shape;

  // seal_commit_phase2_circuit_proofs' own checks, then the public inputs.
  if (is_zero(c1.comm_d)) return at(what, "comm_d", "all zero (upstream: \"Invalid all zero commitment\")");
  if (is_zero(c1.comm_r)) return at(what, "comm_r", "all zero (upstream: \"Invalid all zero commitment\")");
  if (is_zero(c1.seed)) return at(what, "seed", "all zero (upstream: \"Invalid porep challenge seed\")");
  for (auto [d, name] :
       {std::pair{&c1.comm_r, "comm_r"}, {&c1.comm_d, "comm_d"}, {&c1.replica_id, "replica_id"}})
    if (auto st = field_element(*d, name); !st) return make_input_error(what + ": " + st.message());

  const size_t partitions = type->non_interactive ? s.ni_porep_partitions : s.porep_partitions;
  const std::string vp = "vanilla_proofs." + c1.shape_key;
  if (c1.vanilla_proofs.size() != partitions)
    return at(what, vp,
              "expected " + std::to_string(partitions) + " partitions, got " +
                  std::to_string(c1.vanilla_proofs.size()));
  for (size_t k = 0; k < partitions; ++k) {
    const auto& part = c1.vanilla_proofs[k];
    if (part.size() != s.porep_challenges)
      return at(what, vp + idx(k),
                "expected " + std::to_string(s.porep_challenges) + " challenge proofs, got " +
                    std::to_string(part.size()));
    for (size_t i = 0; i < part.size(); ++i)
      if (auto st = check_challenge(part[i], s, vp + idx(k) + idx(i)); !st)
        return make_input_error(what + ": " + st.message());
  }
  return {};
}

Status check_post_vanilla_proof(const FallbackPostSectorProof& proof, const RegisteredProof& type) {
  const std::string what = "PoSt vanilla proof";
  if (type.family != ProofFamily::post)
    return make_input_error(what + ": " + std::string(type.name) + " is not a PoSt type");
  auto shape = shape_for(type);
  if (!shape) return shape.error();
  const bool winning = type.kind == ProofKind::winning_post;
  const size_t challenges =
      winning ? shape->winning_post_sectors * shape->winning_post_challenges : shape->window_post_challenges;
  if (auto st = field_element(proof.comm_r, "comm_r"); !st)
    return make_input_error(what + ": " + st.message());
  if (proof.sectors.size() != 1)
    return at(what, "vanilla_proof.sectors",
              "expected 1 sector, got " + std::to_string(proof.sectors.size()));
  const PostSectorProof& sp = proof.sectors[0];
  const std::string p = "vanilla_proof.sectors[0]";
  if (sp.inclusion_proofs.size() != challenges)
    return at(what, p + ".inclusion_proofs",
              "expected " + std::to_string(challenges) + " (one per challenge), got " +
                  std::to_string(sp.inclusion_proofs.size()));
  for (size_t i = 0; i < sp.inclusion_proofs.size(); ++i)
    if (auto st = check_tree_r_proof(sp.inclusion_proofs[i], *shape, p + ".inclusion_proofs" + idx(i)); !st)
      return make_input_error(what + ": " + st.message());
  for (auto [d, name] : {std::pair{&sp.comm_c, ".comm_c"}, {&sp.comm_r_last, ".comm_r_last"}})
    if (auto st = field_element(*d, p + name); !st) return make_input_error(what + ": " + st.message());
  return {};
}

Status check_update_vanilla_proof(const UpdatePartitionProof& proof, const RegisteredProof& type) {
  const std::string what = "SnapDeals vanilla proof";
  if (type.family != ProofFamily::update)
    return make_input_error(what + ": " + std::string(type.name) + " is not an update type");
  auto shape = shape_for(type);
  if (!shape) return shape.error();
  const SectorShape& s = *shape;
  if (auto st = field_element(proof.comm_c, "comm_c"); !st)
    return make_input_error(what + ": " + st.message());
  auto update = vanilla::update_shape(s.sector_size);
  if (!update) return update.error();
  if (proof.apex_leafs.size() != update->apex_leaves)
    return at(what, "apex_leafs",
              "expected " + std::to_string(update->apex_leaves) + ", got " +
                  std::to_string(proof.apex_leafs.size()));
  if (auto st = field_elements(proof.apex_leafs, "apex_leafs"); !st)
    return make_input_error(what + ": " + st.message());
  if (proof.challenge_proofs.size() != update->challenges)
    return at(what, "challenge_proofs",
              "expected " + std::to_string(update->challenges) + ", got " +
                  std::to_string(proof.challenge_proofs.size()));
  for (size_t i = 0; i < proof.challenge_proofs.size(); ++i) {
    const UpdateChallengeProof& c = proof.challenge_proofs[i];
    const std::string p = "challenge_proofs" + idx(i);
    Status st = check_tree_r_proof(c.proof_r_old, s, p + ".proof_r_old");
    if (st) st = check_tree_d_proof(c.proof_d_new, s, p + ".proof_d_new");
    if (st) st = check_tree_r_proof(c.proof_r_new, s, p + ".proof_r_new");
    if (!st) return make_input_error(what + ": " + st.message());
  }
  return {};
}

}  // namespace cuzk::filecoin
