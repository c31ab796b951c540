#include "filecoin/types/parameter_files.hpp"

#include <array>
#include <cstdlib>
#include <string_view>

#include "common/hex.hpp"
#include "filecoin/types/sector_shape.hpp"
#include "r1cs/gadgets/sha256.hpp"

namespace cuzk::filecoin {
namespace {

Result<SectorShape> shape_of(uint64_t sector_size) {
  auto s = sector_shape(sector_size);
  if (!s)
    return make_input_error("no Filecoin circuit has sector size " + std::to_string(sector_size) + " bytes");
  return *s;
}

// MerkleTreeTrait::display() of tree_r_last / tree_c: "merkletree-poseidon_hasher-8-8-0".
std::string tree_display(const SectorShape& s) { return "merkletree-poseidon_hasher-" + s.tree.name(); }

std::string hex(std::span<const uint8_t> bytes) { return to_hex(bytes); }

struct SizeSuffix {
  uint64_t bytes;
  std::string_view suffix;
};
constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
constexpr SizeSuffix kSizeSuffixes[5] = {
    {2 * kKiB, "2k"}, {8 * kMiB, "8m"}, {512 * kMiB, "512m"}, {32 * kGiB, "32g"}, {64 * kGiB, "64g"}};

struct KindPrefix {
  CircuitKind kind;
  std::string_view prefix;
};
constexpr KindPrefix kKindPrefixes[4] = {{CircuitKind::porep, "porep"},
                                         {CircuitKind::window_post, "wpost"},
                                         {CircuitKind::winning_post, "winning"},
                                         {CircuitKind::update, "snap"}};

constexpr std::array<std::string_view, 6> kCurioIds = {"porep-32g",   "porep-64g", "wpost-32g",
                                                       "winning-32g", "snap-32g",  "snap-64g"};

}  // namespace

std::string_view to_string(CircuitKind kind) {
  switch (kind) {
    case CircuitKind::porep:
      return "porep";
    case CircuitKind::winning_post:
      return "winning";
    case CircuitKind::window_post:
      return "window";
    case CircuitKind::update:
      return "update";
    case CircuitKind::update_poseidon:
      break;
  }
  return "update-poseidon";
}

CircuitKind circuit_kind(ProofKind kind) {
  switch (kind) {
    case ProofKind::seal:
      return CircuitKind::porep;
    case ProofKind::winning_post:
      return CircuitKind::winning_post;
    case ProofKind::window_post:
      return CircuitKind::window_post;
    case ProofKind::update:
      break;
  }
  return CircuitKind::update;
}

Result<std::string> circuit_identifier(CircuitKind kind, uint64_t sector_size) {
  auto shape = shape_of(sector_size);
  if (!shape) return shape.error();
  const SectorShape& s = *shape;
  switch (kind) {
    case CircuitKind::porep:
      // storage-proofs-porep: vanilla/params.rs, vanilla/graph.rs; storage-proofs-core: drgraph.rs.
      return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
             "base_graph: drgraph::BucketGraph{size: " +
             std::to_string(s.nodes) +
             "; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: " +
             std::to_string(s.layers) + ", max_count: " + std::to_string(s.porep_challenges) +
             " }, tree: " + tree_display(s) + " }";
    case CircuitKind::winning_post:
    case CircuitKind::window_post: {
      // storage-proofs-post: fallback/vanilla.rs. WinningPoSt's one sector with 66 challenges is
      // set up as 66 sectors of one challenge (filecoin-proofs: parameters.rs).
      const bool winning = kind == CircuitKind::winning_post;
      const unsigned challenges = winning ? s.winning_post_challenges : s.window_post_challenges;
      const unsigned sectors = winning ? s.winning_post_sectors : s.window_post_sectors;
      return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(s.sector_size) +
             ", challenge_count: " + std::to_string(challenges) +
             ", sector_count: " + std::to_string(sectors) + "}";
    }
    case CircuitKind::update:
    case CircuitKind::update_poseidon:
      // storage-proofs-update: vanilla.rs (both variants share the identifier).
      return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(s.nodes) + " }";
  }
  return make_error("unknown circuit kind");
}

Result<std::string> circuit_cache_prefix(CircuitKind kind, uint64_t sector_size) {
  auto shape = shape_of(sector_size);
  if (!shape) return shape.error();
  const std::string tree = tree_display(*shape);
  switch (kind) {
    case CircuitKind::porep:
      return "stacked-proof-of-replication-" + tree + "-sha256_hasher";
    case CircuitKind::winning_post:
    case CircuitKind::window_post:
      return "proof-of-spacetime-fallback-" + tree;
    case CircuitKind::update:
      return "empty-sector-update-" + tree;
    case CircuitKind::update_poseidon:
      return "empty-sector-update-poseidon-" + tree;
  }
  return make_error("unknown circuit kind");
}

Result<std::string> circuit_cache_id(CircuitKind kind, uint64_t sector_size) {
  auto prefix = circuit_cache_prefix(kind, sector_size);
  if (!prefix) return prefix.error();
  auto id = circuit_identifier(kind, sector_size);
  if (!id) return id.error();
  const auto digest = r1cs::sha256({reinterpret_cast<const uint8_t*>(id->data()), id->size()});
  return *prefix + "-" + hex(digest);
}

Result<std::string> parameter_file_name(CircuitKind kind, uint64_t sector_size, ParameterExt ext) {
  auto id = circuit_cache_id(kind, sector_size);
  if (!id) return id.error();
  const char* e = ext == ParameterExt::params ? "params" : ext == ParameterExt::vk ? "vk" : "meta";
  std::string name = "v";
  name += std::to_string(kParameterVersion);
  name += '-';
  name += *id;
  name += '.';
  name += e;
  return name;
}

Result<std::string> parameter_file_name(const RegisteredProof& proof, ParameterExt ext) {
  return parameter_file_name(circuit_kind(proof.kind), proof.sector_size, ext);
}

std::filesystem::path parameter_directory() {
  const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  if (env && *env) return std::filesystem::path(env);
  return std::filesystem::path("/var/tmp/filecoin-proof-parameters/");
}

std::span<const std::string_view> curio_circuit_ids() { return kCurioIds; }

Result<CircuitId> parse_circuit_id(std::string_view id) {
  for (const KindPrefix& k : kKindPrefixes)
    for (const SizeSuffix& s : kSizeSuffixes) {
      const size_t n = k.prefix.size();
      if (id.size() == n + 1 + s.suffix.size() && id.substr(0, n) == k.prefix && id[n] == '-' &&
          id.substr(n + 1) == s.suffix)
        return CircuitId{k.kind, s.bytes};
    }
  return make_input_error("unknown circuit id \"" + std::string(id) +
                          "\" (expected porep|wpost|winning|snap - 2k|8m|512m|32g|64g, e.g. \"porep-32g\")");
}

Result<std::string> circuit_id_string(CircuitId id) {
  for (const KindPrefix& k : kKindPrefixes) {
    if (k.kind != id.kind) continue;
    for (const SizeSuffix& s : kSizeSuffixes)
      if (s.bytes == id.sector_size) return std::string(k.prefix) + "-" + std::string(s.suffix);
  }
  return make_input_error("no circuit id for " + std::string(to_string(id.kind)) + " at sector size " +
                          std::to_string(id.sector_size));
}

}  // namespace cuzk::filecoin
