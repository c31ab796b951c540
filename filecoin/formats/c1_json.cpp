#include "filecoin/formats/c1_json.hpp"

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>

#include "filecoin/formats/json_reader.hpp"
#include "filecoin/types/proof_types.hpp"

namespace cuzk::filecoin {
namespace {

using json::ArrayNode;
using json::Field;
using json::ObjectNode;
using json::Scalar;
using NodeResult = Result<std::unique_ptr<json::Node>>;

constexpr const char* kDomain = "an array of 32 integers 0–255";

template <class T>
NodeResult open_object(T& target, bool is_object, std::span<const Field<T>> fields) {
  CUZK_TRY_STATUS(json::expect_container(is_object, true));
  return std::unique_ptr<json::Node>(new ObjectNode<T>(target, fields));
}

template <class E>
NodeResult open_array(std::vector<E>& target, bool is_object, NodeResult (*open_element)(E&, bool),
                      const char* element_description) {
  CUZK_TRY_STATUS(json::expect_container(is_object, false));
  return std::unique_ptr<json::Node>(new ArrayNode<E>(target, open_element, element_description));
}

// --- InclusionPath: {"path": [{"hashes": [...], "index": n}, ...]} ---------------------------------

const Field<PathElement> kPathElementFields[] = {
    {"hashes", nullptr, [](PathElement& e, bool o) { return json::open_domains(e.hashes, o); }},
    {"index", [](PathElement& e, const Scalar& v) { return json::read_u64(e.index, v); }, nullptr},
};
NodeResult open_path_element(PathElement& e, bool o) {
  return open_object<PathElement>(e, o, kPathElementFields);
}

const Field<InclusionPath> kInclusionPathFields[] = {
    {"path", nullptr,
     [](InclusionPath& p, bool o) {
       return open_array<PathElement>(p, o, open_path_element, "a path element object");
     }},
};
NodeResult open_inclusion_path(InclusionPath& p, bool o) {
  return open_object<InclusionPath>(p, o, kInclusionPathFields);
}

// --- MerkleProof: {"data": {"Single": {root, leaf, path}} | {"Sub": {base_proof, sub_proof, root, leaf}}
//                            | {"Top": {base_proof, sub_proof, top_proof, root, leaf}}} ------------------

NodeResult open_root(MerkleProof& p, bool o) { return json::open_domain(p.root, o); }
NodeResult open_leaf(MerkleProof& p, bool o) { return json::open_domain(p.leaf, o); }
NodeResult open_base(MerkleProof& p, bool o) { return open_inclusion_path(p.base, o); }
NodeResult open_sub(MerkleProof& p, bool o) { return open_inclusion_path(p.sub, o); }
NodeResult open_top(MerkleProof& p, bool o) { return open_inclusion_path(p.top, o); }

const Field<MerkleProof> kSingleFields[] = {{"root", nullptr, open_root, kDomain},
                                            {"leaf", nullptr, open_leaf, kDomain},
                                            {"path", nullptr, open_base}};
const Field<MerkleProof> kSubFields[] = {{"base_proof", nullptr, open_base},
                                         {"sub_proof", nullptr, open_sub},
                                         {"root", nullptr, open_root, kDomain},
                                         {"leaf", nullptr, open_leaf, kDomain}};
const Field<MerkleProof> kTopFields[] = {{"base_proof", nullptr, open_base},
                                         {"sub_proof", nullptr, open_sub},
                                         {"top_proof", nullptr, open_top},
                                         {"root", nullptr, open_root, kDomain},
                                         {"leaf", nullptr, open_leaf, kDomain}};

// An externally tagged enum: an object with exactly one key naming the variant.
class ProofDataNode final : public json::Node {
 public:
  explicit ProofDataNode(MerkleProof& p) : p_(p) {}
  Status key(std::string_view k) override {
    if (variant_) {
      std::string first = variant_;
      variant_ = nullptr;  // the error's path ends at `data`
      return make_input_error("a MerkleProof has one variant, found `" + first + "` and `" + std::string(k) +
                              "`");
    }
    static constexpr std::pair<const char*, MerkleProof::Kind> kVariants[] = {
        {"Single", MerkleProof::Kind::single},
        {"Sub", MerkleProof::Kind::sub},
        {"Top", MerkleProof::Kind::top}};
    for (const auto& [name, kind] : kVariants)
      if (k == name) {
        p_.kind = kind;
        variant_ = name;
        return {};
      }
    return make_input_error("unknown MerkleProof variant `" + std::string(k) +
                            "`, expected Single, Sub or Top");
  }
  Status scalar(const Scalar& v) override {
    return make_input_error("expected an object, got " + v.describe());
  }
  NodeResult open(bool o) override {
    switch (p_.kind) {
      case MerkleProof::Kind::single:
        return open_object<MerkleProof>(p_, o, kSingleFields);
      case MerkleProof::Kind::sub:
        return open_object<MerkleProof>(p_, o, kSubFields);
      case MerkleProof::Kind::top:
        break;
    }
    return open_object<MerkleProof>(p_, o, kTopFields);
  }
  Status close() override {
    if (variant_) return {};
    return make_input_error("expected one of Single, Sub, Top");
  }
  void append_segment(std::string& path) const override {
    if (variant_) path += std::string(".") + variant_;
  }

 private:
  MerkleProof& p_;
  const char* variant_ = nullptr;
};

const Field<MerkleProof> kMerkleProofFields[] = {
    {"data", nullptr,
     [](MerkleProof& p, bool o) -> NodeResult {
       CUZK_TRY_STATUS(json::expect_container(o, true));
       return std::unique_ptr<json::Node>(new ProofDataNode(p));
     }},
};
NodeResult open_merkle_proof(MerkleProof& p, bool o) {
  return open_object<MerkleProof>(p, o, kMerkleProofFields);
}

// --- Columns and labels ------------------------------------------------------------------------------

const Field<Column> kColumnFields[] = {
    {"index", [](Column& c, const Scalar& v) { return json::read_u32(c.index, v); }, nullptr},
    {"rows", nullptr, [](Column& c, bool o) { return json::open_domains(c.rows, o); }},
    {"_h", [](Column&, const Scalar& v) { return json::read_null(v); }, nullptr},
};

const Field<ColumnProof> kColumnProofFields[] = {
    {"column", nullptr,
     [](ColumnProof& c, bool o) { return open_object<Column>(c.column, o, kColumnFields); }},
    {"inclusion_proof", nullptr,
     [](ColumnProof& c, bool o) { return open_merkle_proof(c.inclusion_proof, o); }},
};
NodeResult open_column_proof(ColumnProof& c, bool o) {
  return open_object<ColumnProof>(c, o, kColumnProofFields);
}
NodeResult open_column_proofs(std::vector<ColumnProof>& v, bool o) {
  return open_array<ColumnProof>(v, o, open_column_proof, "a column proof object");
}

const Field<ReplicaColumnProofs> kReplicaColumnFields[] = {
    {"c_x", nullptr, [](ReplicaColumnProofs& r, bool o) { return open_column_proof(r.c_x, o); }},
    {"drg_parents", nullptr,
     [](ReplicaColumnProofs& r, bool o) { return open_column_proofs(r.drg_parents, o); }},
    {"exp_parents", nullptr,
     [](ReplicaColumnProofs& r, bool o) { return open_column_proofs(r.exp_parents, o); }},
};

// LabelingProof and EncodingProof: their `_h` is `#[serde(skip)]`, so it is not in the JSON.
const Field<LabelingProof> kLabelingFields[] = {
    {"parents", nullptr, [](LabelingProof& l, bool o) { return json::open_domains(l.parents, o); }},
    {"layer_index", [](LabelingProof& l, const Scalar& v) { return json::read_u32(l.layer_index, v); },
     nullptr},
    {"node", [](LabelingProof& l, const Scalar& v) { return json::read_u64(l.node, v); }, nullptr},
};
NodeResult open_labeling_proof(LabelingProof& l, bool o) {
  return open_object<LabelingProof>(l, o, kLabelingFields);
}

// --- One challenge's proof, partitions, the whole output ---------------------------------------------

const Field<PorepChallengeProof> kChallengeFields[] = {
    {"comm_d_proofs", nullptr,
     [](PorepChallengeProof& p, bool o) { return open_merkle_proof(p.comm_d_proofs, o); }},
    {"comm_r_last_proof", nullptr,
     [](PorepChallengeProof& p, bool o) { return open_merkle_proof(p.comm_r_last_proof, o); }},
    {"replica_column_proofs", nullptr,
     [](PorepChallengeProof& p, bool o) {
       return open_object<ReplicaColumnProofs>(p.replica_column_proofs, o, kReplicaColumnFields);
     }},
    {"labeling_proofs", nullptr,
     [](PorepChallengeProof& p, bool o) {
       return open_array<LabelingProof>(p.labeling_proofs, o, open_labeling_proof, "a labeling proof object");
     }},
    {"encoding_proof", nullptr,
     [](PorepChallengeProof& p, bool o) { return open_labeling_proof(p.encoding_proof, o); }},
};
NodeResult open_challenge(PorepChallengeProof& p, bool o) {
  return open_object<PorepChallengeProof>(p, o, kChallengeFields);
}
NodeResult open_partition(std::vector<PorepChallengeProof>& v, bool o) {
  return open_array<PorepChallengeProof>(v, o, open_challenge, "a challenge proof object");
}

// VanillaSealProof: an externally tagged enum keyed by the shape name.
class VanillaProofsNode final : public json::Node {
 public:
  explicit VanillaProofsNode(SealCommitPhase1Output& c1) : c1_(c1) {}
  Status key(std::string_view k) override {
    if (!c1_.shape_key.empty()) {
      const std::string first = std::move(c1_.shape_key);
      c1_.shape_key.clear();  // the error's path ends at `vanilla_proofs`
      return make_input_error("one shape key expected, found `" + first + "` and `" + std::string(k) + "`");
    }
    for (uint64_t size : {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30})
      if (*c1_shape_key(size) == k) {
        c1_.shape_key = std::string(k);
        return {};
      }
    return make_input_error("unknown vanilla proof shape `" + std::string(k) +
                            "`, expected StackedDrg2KiBV1, StackedDrg8MiBV1, StackedDrg512MiBV1, "
                            "StackedDrg32GiBV1 or StackedDrg64GiBV1");
  }
  Status scalar(const Scalar& v) override {
    return make_input_error("expected an array, got " + v.describe());
  }
  NodeResult open(bool o) override {
    return open_array<std::vector<PorepChallengeProof>>(c1_.vanilla_proofs, o, open_partition,
                                                        "an array of challenge proofs (one partition)");
  }
  Status close() override {
    if (!c1_.shape_key.empty()) return {};
    return make_input_error("expected one shape key such as StackedDrg32GiBV1");
  }
  void append_segment(std::string& path) const override {
    if (!c1_.shape_key.empty()) path += "." + c1_.shape_key;
  }

 private:
  SealCommitPhase1Output& c1_;
};

Status read_registered_proof(SealCommitPhase1Output& c1, const Scalar& v) {
  if (v.type != Scalar::Type::string)
    return make_input_error("expected a seal proof name, got " + v.describe());
  auto p = registered_proof(ProofFamily::seal, v.text);
  if (!p) return p.error();
  // serde knows only the Rust variant names, not Go's spellings.
  if (p->name != v.text)
    return make_input_error("\"" + std::string(v.text) +
                            "\" is Go's name; the JSON holds the Rust variant \"" + std::string(p->name) +
                            "\"");
  c1.registered_proof = std::string(p->name);
  return {};
}

const Field<SealCommitPhase1Output> kC1Fields[] = {
    {"registered_proof", read_registered_proof, nullptr},
    {"vanilla_proofs", nullptr,
     [](SealCommitPhase1Output& c1, bool o) -> NodeResult {
       CUZK_TRY_STATUS(json::expect_container(o, true));
       return std::unique_ptr<json::Node>(new VanillaProofsNode(c1));
     }},
    {"comm_r", nullptr, [](SealCommitPhase1Output& c, bool o) { return json::open_domain(c.comm_r, o); },
     kDomain},
    {"comm_d", nullptr, [](SealCommitPhase1Output& c, bool o) { return json::open_domain(c.comm_d, o); },
     kDomain},
    {"replica_id", nullptr,
     [](SealCommitPhase1Output& c, bool o) { return json::open_domain(c.replica_id, o); }, kDomain},
    {"seed", nullptr, [](SealCommitPhase1Output& c, bool o) { return json::open_domain(c.seed, o); },
     kDomain},
    {"ticket", nullptr, [](SealCommitPhase1Output& c, bool o) { return json::open_domain(c.ticket, o); },
     kDomain},
};

}  // namespace

Result<SealCommitPhase1Output> parse_c1_json(std::string_view text, const std::string& what) {
  SealCommitPhase1Output c1;
  CUZK_TRY_STATUS(json::parse(
      text, what, [&c1](bool o) { return open_object<SealCommitPhase1Output>(c1, o, kC1Fields); }));
  return c1;
}

Result<SealCommitPhase1Output> read_c1_json_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_input_error(path.string() + ": cannot open for reading");
  std::string text;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size < 0) return make_input_error(path.string() + ": cannot determine its size");
  text.resize(size_t(size));
  in.seekg(0);
  if (!in.read(text.data(), size)) return make_input_error(path.string() + ": read failed");
  return parse_c1_json(text, path.string());
}

// --- Writer ---------------------------------------------------------------------------------------------

namespace {

class C1Writer {
 public:
  explicit C1Writer(std::string& out) : out_(out) {}

  void raw(std::string_view s) { out_.append(s); }
  void u64(uint64_t v) {
    char buf[24];
    char* e = buf + sizeof buf;
    char* p = e;
    do *--p = char('0' + v % 10);
    while (v /= 10);
    out_.append(p, size_t(e - p));
  }
  void domain(const Domain& d) {
    out_.push_back('[');
    for (size_t i = 0; i < 32; ++i) {
      if (i) out_.push_back(',');
      u64(d[i]);
    }
    out_.push_back(']');
  }
  void domains(const std::vector<Domain>& v) {
    out_.push_back('[');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out_.push_back(',');
      domain(v[i]);
    }
    out_.push_back(']');
  }
  void path(const InclusionPath& p) {
    raw("{\"path\":[");
    for (size_t i = 0; i < p.size(); ++i) {
      if (i) out_.push_back(',');
      raw("{\"hashes\":");
      domains(p[i].hashes);
      raw(",\"index\":");
      u64(p[i].index);
      out_.push_back('}');
    }
    raw("]}");
  }
  void merkle_proof(const MerkleProof& p) {
    raw("{\"data\":{");
    if (p.kind == MerkleProof::Kind::single) {
      raw("\"Single\":{\"root\":");
      domain(p.root);
      raw(",\"leaf\":");
      domain(p.leaf);
      raw(",\"path\":");
      path(p.base);
    } else {
      raw(p.kind == MerkleProof::Kind::sub ? "\"Sub\":{\"base_proof\":" : "\"Top\":{\"base_proof\":");
      path(p.base);
      raw(",\"sub_proof\":");
      path(p.sub);
      if (p.kind == MerkleProof::Kind::top) {
        raw(",\"top_proof\":");
        path(p.top);
      }
      raw(",\"root\":");
      domain(p.root);
      raw(",\"leaf\":");
      domain(p.leaf);
    }
    raw("}}}");
  }
  void column_proof(const ColumnProof& c) {
    raw("{\"column\":{\"index\":");
    u64(c.column.index);
    raw(",\"rows\":");
    domains(c.column.rows);
    raw(",\"_h\":null},\"inclusion_proof\":");
    merkle_proof(c.inclusion_proof);
    out_.push_back('}');
  }
  void column_proofs(const std::vector<ColumnProof>& v) {
    out_.push_back('[');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out_.push_back(',');
      column_proof(v[i]);
    }
    out_.push_back(']');
  }
  void labeling_proof(const LabelingProof& l) {
    raw("{\"parents\":");
    domains(l.parents);
    raw(",\"layer_index\":");
    u64(l.layer_index);
    raw(",\"node\":");
    u64(l.node);
    out_.push_back('}');
  }
  void challenge(const PorepChallengeProof& p) {
    raw("{\"comm_d_proofs\":");
    merkle_proof(p.comm_d_proofs);
    raw(",\"comm_r_last_proof\":");
    merkle_proof(p.comm_r_last_proof);
    raw(",\"replica_column_proofs\":{\"c_x\":");
    column_proof(p.replica_column_proofs.c_x);
    raw(",\"drg_parents\":");
    column_proofs(p.replica_column_proofs.drg_parents);
    raw(",\"exp_parents\":");
    column_proofs(p.replica_column_proofs.exp_parents);
    raw("},\"labeling_proofs\":[");
    for (size_t i = 0; i < p.labeling_proofs.size(); ++i) {
      if (i) out_.push_back(',');
      labeling_proof(p.labeling_proofs[i]);
    }
    raw("],\"encoding_proof\":");
    labeling_proof(p.encoding_proof);
    out_.push_back('}');
  }
  void string(const std::string& s) { raw(nlohmann::json(s).dump()); }

 private:
  std::string& out_;
};

}  // namespace

std::string write_c1_json(const SealCommitPhase1Output& c1) {
  std::string out;
  C1Writer w(out);
  w.raw("{\"registered_proof\":");
  w.string(c1.registered_proof);
  w.raw(",\"vanilla_proofs\":{");
  w.string(c1.shape_key);
  w.raw(":[");
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (k) w.raw(",");
    w.raw("[");
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      if (i) w.raw(",");
      w.challenge(c1.vanilla_proofs[k][i]);
    }
    w.raw("]");
  }
  w.raw("]},\"comm_r\":");
  w.domain(c1.comm_r);
  w.raw(",\"comm_d\":");
  w.domain(c1.comm_d);
  w.raw(",\"replica_id\":");
  w.domain(c1.replica_id);
  w.raw(",\"seed\":");
  w.domain(c1.seed);
  w.raw(",\"ticket\":");
  w.domain(c1.ticket);
  w.raw("}");
  return out;
}

Status write_c1_json_file(const SealCommitPhase1Output& c1, const std::filesystem::path& path) {
  const std::string text = write_c1_json(c1);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return make_error(path.string() + ": cannot open for writing");
  out.write(text.data(), std::streamsize(text.size()));
  out.close();
  if (!out) return make_error(path.string() + ": write failed");
  return {};
}

}  // namespace cuzk::filecoin
