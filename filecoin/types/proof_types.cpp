#include "filecoin/types/proof_types.hpp"

#include <vector>

namespace cuzk::filecoin {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

struct SizeName {
  uint64_t bytes;
  const char* label;  // as it appears in variant names
};
constexpr SizeName kSizes[5] = {{2 * kKiB, "2KiB"},
                                {8 * kMiB, "8MiB"},
                                {512 * kMiB, "512MiB"},
                                {32 * kGiB, "32GiB"},
                                {64 * kGiB, "64GiB"}};

// Names are built once and kept for the life of the program, so RegisteredProof can hold views.
struct Table {
  std::vector<std::string> names;  // reserved up front: views into it stay valid
  std::vector<RegisteredProof> seal, post, update;

  std::string_view keep(std::string s) {
    names.push_back(std::move(s));
    return names.back();
  }
};

const Table& table() {
  static const Table t = [] {
    Table t;
    t.names.reserve(128);
    std::vector<std::string_view> shape_keys;
    for (const SizeName& s : kSizes) shape_keys.push_back(t.keep(std::string("StackedDrg") + s.label + "V1"));

    // Seal: four generations of five sizes (registry.rs REGISTERED_PROOF_IDS, `version`).
    struct SealGen {
      const char* suffix;
      const char* go_suffix;  // nullptr when Go spells it the same
      ApiVersion version;
      bool synthetic, ni;
    };
    const SealGen gens[4] = {
        {"V1", nullptr, ApiVersion::v1_0_0, false, false},
        {"V1_1", nullptr, ApiVersion::v1_1_0, false, false},
        {"V1_1_Feat_SyntheticPoRep", nullptr, ApiVersion::v1_2_0, true, false},
        {"V1_2_Feat_NonInteractivePoRep", "V1_2_Feat_NiPoRep", ApiVersion::v1_2_0, false, true}};
    for (unsigned g = 0; g < 4; ++g)
      for (unsigned i = 0; i < 5; ++i) {
        RegisteredProof p;
        p.family = ProofFamily::seal;
        p.id = g * 5 + i;
        p.name = t.keep(std::string("StackedDrg") + kSizes[i].label + gens[g].suffix);
        if (gens[g].go_suffix)
          p.go_name = t.keep(std::string("StackedDrg") + kSizes[i].label + gens[g].go_suffix);
        p.kind = ProofKind::seal;
        p.sector_size = kSizes[i].bytes;
        p.api_version = gens[g].version;
        p.synthetic = gens[g].synthetic;
        p.non_interactive = gens[g].ni;
        p.shape_key = shape_keys[i];
        t.seal.push_back(p);
      }

    // PoSt: Winning V1, Window V1, Window V1_2 ("V1_1" in Go).
    struct PostGen {
      const char* kind_name;
      const char* suffix;
      const char* go_suffix;
      ProofKind kind;
      ApiVersion version;
    };
    const PostGen post_gens[3] = {{"Winning", "V1", nullptr, ProofKind::winning_post, ApiVersion::v1_0_0},
                                  {"Window", "V1", nullptr, ProofKind::window_post, ApiVersion::v1_0_0},
                                  {"Window", "V1_2", "V1_1", ProofKind::window_post, ApiVersion::v1_2_0}};
    for (unsigned g = 0; g < 3; ++g)
      for (unsigned i = 0; i < 5; ++i) {
        RegisteredProof p;
        p.family = ProofFamily::post;
        p.id = g * 5 + i;
        std::string stem = std::string("StackedDrg") + post_gens[g].kind_name + kSizes[i].label;
        p.name = t.keep(stem + post_gens[g].suffix);
        if (post_gens[g].go_suffix) p.go_name = t.keep(stem + post_gens[g].go_suffix);
        p.kind = post_gens[g].kind;
        p.sector_size = kSizes[i].bytes;
        p.api_version = post_gens[g].version;
        t.post.push_back(p);
      }

    // Update: one generation, API 1.1.0 ("StackedDrg*V1 maps to api version V1_1").
    for (unsigned i = 0; i < 5; ++i) {
      RegisteredProof p;
      p.family = ProofFamily::update;
      p.id = i;
      p.name = shape_keys[i];
      p.kind = ProofKind::update;
      p.sector_size = kSizes[i].bytes;
      p.api_version = ApiVersion::v1_1_0;
      t.update.push_back(p);
    }
    return t;
  }();
  return t;
}

const std::vector<RegisteredProof>& family_table(ProofFamily family) {
  switch (family) {
    case ProofFamily::seal:
      return table().seal;
    case ProofFamily::post:
      return table().post;
    case ProofFamily::update:
      break;
  }
  return table().update;
}

}  // namespace

std::string_view to_string(ProofFamily family) {
  switch (family) {
    case ProofFamily::seal:
      return "seal";
    case ProofFamily::post:
      return "post";
    case ProofFamily::update:
      break;
  }
  return "update";
}

std::string_view to_string(ProofKind kind) {
  switch (kind) {
    case ProofKind::seal:
      return "seal";
    case ProofKind::winning_post:
      return "winning";
    case ProofKind::window_post:
      return "window";
    case ProofKind::update:
      break;
  }
  return "update";
}

std::string_view to_string(ApiVersion version) {
  switch (version) {
    case ApiVersion::v1_0_0:
      return "1.0.0";
    case ApiVersion::v1_1_0:
      return "1.1.0";
    case ApiVersion::v1_2_0:
      break;
  }
  return "1.2.0";
}

std::array<uint8_t, 32> RegisteredProof::porep_id() const {
  std::array<uint8_t, 32> out{};
  if (family == ProofFamily::post) return out;
  for (unsigned i = 0; i < 8; ++i) out[i] = uint8_t(id >> (8 * i));
  // bytes 8..15: the nonce, 0 for every registered type; 16..31: zero.
  return out;
}

std::span<const RegisteredProof> registered_proofs(ProofFamily family) { return family_table(family); }

Result<RegisteredProof> registered_proof(ProofFamily family, uint64_t id) {
  const auto& t = family_table(family);
  if (id >= t.size())
    return make_input_error("unknown registered " + std::string(to_string(family)) + " proof " +
                            std::to_string(id) + " (known: 0–" + std::to_string(t.size() - 1) + ")");
  return t[id];
}

Result<RegisteredProof> seal_proof(uint64_t id) { return registered_proof(ProofFamily::seal, id); }
Result<RegisteredProof> post_proof(uint64_t id) { return registered_proof(ProofFamily::post, id); }
Result<RegisteredProof> update_proof(uint64_t id) { return registered_proof(ProofFamily::update, id); }

Result<RegisteredProof> registered_proof(ProofFamily family, std::string_view name) {
  for (const RegisteredProof& p : family_table(family))
    if (p.name == name || (!p.go_name.empty() && p.go_name == name)) return p;
  return make_input_error("unknown registered " + std::string(to_string(family)) + " proof \"" +
                          std::string(name) + "\"");
}

Result<std::string_view> c1_shape_key(uint64_t sector_size) {
  for (const RegisteredProof& p : table().seal)
    if (p.sector_size == sector_size) return p.shape_key;
  return make_input_error("no Filecoin seal proof has sector size " + std::to_string(sector_size) + " bytes");
}

}  // namespace cuzk::filecoin
