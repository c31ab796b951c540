#include "filecoin/proofs/proof_request.hpp"

#include <algorithm>
#include <span>

#include "common/hex.hpp"
#include "common/parallel_ranges.hpp"
#include "filecoin/circuits/post_vanilla.hpp"
#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/curio_c1.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "filecoin/formats/vanilla_check.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "filecoin/vanilla/check.hpp"
#include "filecoin/vanilla/labels.hpp"
#include "filecoin/vanilla/post_proof.hpp"
#include "filecoin/vanilla/seal_proof.hpp"
#include "filecoin/vanilla/update_check.hpp"
#include "filecoin/vanilla/update_shape.hpp"

namespace cuzk::filecoin {

struct PreparedProof::State {
  RegisteredProof type;
  PrepareFor use = PrepareFor::proving;
  size_t partitions = 0;
  // PoRep: the C1, and the replica_id the verifier's inputs take.
  SealCommitPhase1Output c1;
  Domain replica_id{};
  // PoSt: the sectors in deadline order.
  PostProofType post;
  size_t sectors_per_partition = 0;
  std::vector<FallbackPostSectorProof> sectors;
  Domain randomness{};
  uint64_t first_partition = 0;
  // SnapDeals: one proof per partition.
  std::vector<UpdatePartitionProof> update_proofs;
  Domain comm_r_old{}, comm_d_new{}, comm_r_new{};
};

namespace {

using State = PreparedProof::State;

std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

Status prepare_porep(const ProofRequest& r, State& s) {
  // A type named beside the C1 is refused before the C1 is read when cuzk cannot prove it.
  if (r.proof_id)
    if (auto named = registered_proof(ProofFamily::seal, *r.proof_id); named)
      CUZK_TRY_STATUS(check_provable(*named));
  if (r.vanilla.size() != 1)
    return make_input_error("PoRep: " + std::to_string(r.vanilla.size()) + " C1 inputs, one expected");
  auto input = unwrap_porep_vanilla_input(r.vanilla[0]);
  if (!input) return make_input_error("C1: " + input.message());
  std::optional<uint64_t> sector_id = r.sector_id;
  if (input->sector_num) {
    if (sector_id && *sector_id != *input->sector_num)
      return make_input_error("PoRep: sector id " + std::to_string(*sector_id) +
                              " given, the C1 wrapper says " + std::to_string(*input->sector_num));
    sector_id = input->sector_num;
  }
  auto c1 = parse_c1_json(input->c1_json, "C1");
  if (!c1) return make_input_error(c1.message());
  auto type = registered_proof(ProofFamily::seal, c1->registered_proof);
  if (!type) return make_input_error("C1: " + type.message());
  if (r.proof_id && *r.proof_id != type->id)
    return make_input_error("PoRep: proof type " + std::to_string(*r.proof_id) + " given, the C1 is " +
                            std::string(type->name) + " (" + std::to_string(type->id) + ")");
  CUZK_TRY_STATUS(check_provable(*type));
  if (input->sector_size && *input->sector_size != type->sector_size)
    return make_input_error("PoRep: the C1 wrapper's SectorSize " + std::to_string(*input->sector_size) +
                            " does not match " + std::string(type->name));
  s.type = *type;
  auto info = vanilla::seal_proof_info(type->id);
  if (!info) return info.error();
  s.partitions = info->partitions;
  s.replica_id = c1->replica_id;
  if (r.prover_id.has_value() != sector_id.has_value())
    return make_input_error("PoRep: the prover id and the sector id go together (give both or neither)");
  if (r.prover_id && sector_id)
    s.replica_id = vanilla::replica_id_of(*r.prover_id, *sector_id, c1->ticket, c1->comm_d, info->porep_id);
  if (s.use == PrepareFor::proving) {
    if (auto st = check_c1(*c1); !st) return make_input_error("C1: " + st.message());
    vanilla::PorepCheckOptions options;
    if (r.prover_id && sector_id) {
      options.prover_id = *r.prover_id;
      options.sector_id = *sector_id;
    }
    if (auto st = vanilla::check_porep_vanilla(*c1, options); !st)
      return make_input_error("C1: " + st.message());
  }
  s.c1 = std::move(*c1);
  return Status::Ok();
}

// The sectors of PoSt partition k.
std::span<const FallbackPostSectorProof> post_sectors(const State& s, size_t k) {
  const size_t begin = k * s.sectors_per_partition;
  const size_t end = std::min(s.sectors.size(), begin + s.sectors_per_partition);
  return std::span(s.sectors).subspan(begin, end - begin);
}

Status prepare_post(const ProofRequest& r, State& s) {
  if (!r.proof_id) return make_input_error("PoSt: no registered proof type given");
  auto type = post_proof(*r.proof_id);
  if (!type) return make_input_error(type.message());
  CUZK_TRY_STATUS(check_provable(*type));
  if (type->kind != r.kind)
    return make_input_error(std::string(type->name) + " is not a " + proof_kind_name(r.kind) + " proof type");
  s.type = *type;
  auto post = vanilla::post_proof_type(*type);
  if (!post) return post.error();
  s.post = *post;
  auto params = fallback_post_params(post->kind, post->sector_size, post->api_version);
  if (!params) return make_input_error(params.message());
  s.sectors_per_partition = post->kind == PostKind::window ? params->sector_count : 1;
  if (r.vanilla.empty())
    return make_input_error(std::string(proof_kind_name(r.kind)) + ": no vanilla proofs");
  if (post->kind == PostKind::winning && r.vanilla.size() != 1)
    return make_input_error("WinningPoSt: " + std::to_string(r.vanilla.size()) +
                            " vanilla proofs, one expected (of 66 inclusion proofs)");
  if (post->kind == PostKind::winning && r.first_partition != 0)
    return make_input_error("WinningPoSt has one partition, 0");
  // Parsed and shape-checked on every core (a WindowPoSt partition's 2349 proofs are some 600 MB);
  // the error is the first bad proof's, however the ranges ran.
  s.sectors.resize(r.vanilla.size());
  CUZK_TRY_STATUS(parallel_ranges(r.vanilla.size(), 16, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) {
      const std::string at =
          std::string(proof_kind_name(r.kind)) + ": vanilla proof " + std::to_string(i) + ": ";
      auto proof = parse_post_vanilla_proof(bytes_of(r.vanilla[i]));
      if (!proof) return make_input_error(at + proof.message());
      if (s.use == PrepareFor::proving)
        if (auto st = check_post_vanilla_proof(*proof, *type); !st)
          return make_input_error(at + st.message());
      s.sectors[i] = std::move(*proof);
    }
    return Status::Ok();
  }));
  CUZK_TRY_STATUS(check_post_randomness(r.randomness));
  s.randomness = r.randomness;
  s.first_partition = r.first_partition;
  s.partitions = (s.sectors.size() + s.sectors_per_partition - 1) / s.sectors_per_partition;
  if (s.use == PrepareFor::proving)
    for (size_t k = 0; k < s.partitions; ++k)
      CUZK_TRY_STATUS(check_post_vanilla_proofs(s.post, post_sectors(s, k), s.randomness,
                                                s.first_partition + k, PathCheck::in_synthesis));
  return Status::Ok();
}

Status prepare_update(const ProofRequest& r, State& s) {
  if (!r.proof_id) return make_input_error("SnapDeals: no registered update proof type given");
  auto type = update_proof(*r.proof_id);
  if (!type) return make_input_error(type.message());
  CUZK_TRY_STATUS(check_provable(*type));
  s.type = *type;
  const auto shape = vanilla::update_shape(type->sector_size);
  if (!shape) return make_input_error("SnapDeals: " + shape.message());
  s.partitions = shape->partitions;
  if (s.use == PrepareFor::proving) {
    if (r.vanilla.size() != s.partitions)
      return make_input_error("SnapDeals: " + std::to_string(r.vanilla.size()) + " vanilla proofs, " +
                              std::string(type->name) + " has " + std::to_string(s.partitions) +
                              " partitions");
    for (size_t i = 0; i < r.vanilla.size(); ++i) {
      const std::string at = "SnapDeals: vanilla proof " + std::to_string(i) + ": ";
      auto proof = parse_update_vanilla_proof(bytes_of(r.vanilla[i]));
      if (!proof) return make_input_error(at + proof.message());
      if (auto st = check_update_vanilla_proof(*proof, *type); !st)
        return make_input_error(at + st.message());
      // Everything the circuit would reject, at the h filecoin-proofs' API proves with.
      const vanilla::UpdatePublicInputs inputs{i, shape->h_default(), r.comm_r_old, r.comm_d_new,
                                               r.comm_r_new};
      if (auto st = vanilla::check_update_partition(*shape, *proof, inputs); !st)
        return make_input_error(at + st.message());
      s.update_proofs.push_back(std::move(*proof));
    }
  }
  s.comm_r_old = r.comm_r_old;
  s.comm_d_new = r.comm_d_new;
  s.comm_r_new = r.comm_r_new;
  return Status::Ok();
}

Result<std::vector<Fr>> post_inputs(const State& s, size_t k) {
  auto params = fallback_post_params(s.post.kind, s.post.sector_size, s.post.api_version);
  if (!params) return params.error();
  std::vector<PostPublicSector> sectors;
  const auto proofs = post_sectors(s, k);
  if (s.post.kind == PostKind::winning) {
    sectors.assign(params->sector_count, {proofs[0].sector_id, proofs[0].comm_r});
  } else {
    for (const auto& p : proofs) sectors.push_back({p.sector_id, p.comm_r});
  }
  auto inputs = fallback_post_public_inputs(*params, s.randomness, sectors, s.first_partition + k);
  if (!inputs) return make_input_error(inputs.message());
  return inputs;
}

// What a circuit holds of a vanilla proof: 32 bytes a field element, 64 a vector (its header and
// its heap block's overhead), 8 a position.
constexpr uint64_t kFrBytes = 32, kVectorBytes = 64;

uint64_t held_bytes(const InclusionPath& path) {
  uint64_t b = kVectorBytes;
  for (const PathElement& e : path) b += kVectorBytes + 8 + kFrBytes * e.hashes.size();
  return b;
}

uint64_t held_bytes(const MerkleProof& m) {
  return 2 * kFrBytes + held_bytes(m.base) + held_bytes(m.sub) + held_bytes(m.top);
}

uint64_t held_bytes(const ColumnProof& c) {
  return kVectorBytes + kFrBytes * c.column.rows.size() + held_bytes(c.inclusion_proof);
}

// A PoRep challenge's circuit witness: its paths and columns (the labeling proofs are not read).
uint64_t held_bytes(const PorepChallengeProof& c) {
  const ReplicaColumnProofs& r = c.replica_column_proofs;
  uint64_t b =
      4 * kVectorBytes + held_bytes(c.comm_d_proofs) + held_bytes(c.comm_r_last_proof) + held_bytes(r.c_x);
  for (const ColumnProof& p : r.drg_parents) b += held_bytes(p);
  for (const ColumnProof& p : r.exp_parents) b += held_bytes(p);
  return b;
}

}  // namespace

Status check_provable(const RegisteredProof& type) {
  if (type.non_interactive)
    return make_input_error(std::string(type.name) + " (seal proof type " + std::to_string(type.id) +
                            ") is NI-PoRep: its commit-phase-2 output is a SnarkPack aggregate of " +
                            "the partition proofs, which cuzk does not make");
  return Status::Ok();
}

const char* proof_kind_name(ProofKind kind) {
  switch (kind) {
    case ProofKind::seal:
      return "PoRep";
    case ProofKind::window_post:
      return "WindowPoSt";
    case ProofKind::winning_post:
      return "WinningPoSt";
    case ProofKind::update:
      return "SnapDeals";
  }
  return "?";
}

Result<PreparedProof> PreparedProof::prepare(const ProofRequest& request, PrepareFor use) {
  auto state = std::make_shared<State>();
  state->use = use;
  Status st;
  switch (request.kind) {
    case ProofKind::seal:
      st = prepare_porep(request, *state);
      break;
    case ProofKind::window_post:
    case ProofKind::winning_post:
      st = prepare_post(request, *state);
      break;
    case ProofKind::update:
      st = prepare_update(request, *state);
      break;
  }
  if (!st) return st.error();
  return PreparedProof(std::move(state));
}

const RegisteredProof& PreparedProof::proof_type() const { return state_->type; }
CircuitId PreparedProof::circuit() const { return circuit_of(state_->type); }
size_t PreparedProof::partitions() const { return state_->partitions; }

Result<FilecoinPartition> PreparedProof::partition(size_t k) const {
  const State& s = *state_;
  if (s.use != PrepareFor::proving) return make_error("the request was prepared for verifying, not proving");
  if (k >= s.partitions)
    return make_input_error(std::string(proof_kind_name(s.type.kind)) + ": partition " + std::to_string(k) +
                            " of " + std::to_string(s.partitions));
  FilecoinPartition out;
  switch (s.type.kind) {
    case ProofKind::seal: {
      auto expected = porep_public_inputs(s.c1, s.replica_id, k);
      if (!expected) return expected.error();
      auto circuit = porep_partition_circuit(s.c1, k, out.public_inputs);
      if (!circuit) return circuit.error();
      if (out.public_inputs != *expected)
        return make_error("PoRep partition " + std::to_string(k) +
                          ": the circuit's public inputs differ from the verifier's (a bug)");
      out.circuit = std::move(*circuit);
      return out;
    }
    case ProofKind::window_post:
    case ProofKind::winning_post: {
      // Checked at prepare (prepare_post), every partition; the paths' hashes in synthesis.
      auto part = post_partition_of_checked(s.post, post_sectors(s, k), s.randomness, s.first_partition + k,
                                            PathCheck::in_synthesis);
      if (!part) return part.error();
      out.public_inputs = std::move(part->public_inputs);
      out.circuit = std::make_unique<FallbackPostCircuit>(std::move(part->circuit));
      return out;
    }
    case ProofKind::update: {
      auto circuit = update_partition_circuit(s.type.id, s.update_proofs[k], k, s.comm_r_old, s.comm_d_new,
                                              s.comm_r_new, out.public_inputs);
      if (!circuit) return circuit.error();
      out.circuit = std::move(*circuit);
      return out;
    }
  }
  return make_error("unknown proof kind");
}

uint64_t PreparedProof::witness_bytes(size_t k) const {
  const State& s = *state_;
  if (s.use != PrepareFor::proving || k >= s.partitions) return 0;
  uint64_t b = 4096;  // the circuit's fixed fields
  switch (s.type.kind) {
    case ProofKind::seal:
      if (k < s.c1.vanilla_proofs.size())
        for (const PorepChallengeProof& c : s.c1.vanilla_proofs[k]) b += held_bytes(c);
      return b;
    case ProofKind::window_post:
    case ProofKind::winning_post:
      for (const FallbackPostSectorProof& p : post_sectors(s, k))
        for (const PostSectorProof& sp : p.sectors) {
          b += 4 * kVectorBytes + 3 * kFrBytes;
          // At most one circuit sector per inclusion proof (WinningPoSt's 66).
          for (const MerkleProof& m : sp.inclusion_proofs)
            b += 3 * kVectorBytes + 3 * kFrBytes + held_bytes(m);
        }
      return b;
    case ProofKind::update:
      if (k < s.update_proofs.size()) {
        const UpdatePartitionProof& p = s.update_proofs[k];
        b += kFrBytes * p.apex_leafs.size();
        for (const UpdateChallengeProof& c : p.challenge_proofs)
          b += 2 * kVectorBytes + held_bytes(c.proof_r_old) + held_bytes(c.proof_d_new) +
               held_bytes(c.proof_r_new);
      }
      return b;
  }
  return b;
}

Result<std::vector<Fr>> PreparedProof::public_inputs(size_t k) const {
  const State& s = *state_;
  if (k >= s.partitions)
    return make_input_error(std::string(proof_kind_name(s.type.kind)) + ": partition " + std::to_string(k) +
                            " of " + std::to_string(s.partitions));
  switch (s.type.kind) {
    case ProofKind::seal:
      return porep_public_inputs(s.c1, s.replica_id, k);
    case ProofKind::window_post:
    case ProofKind::winning_post:
      return post_inputs(s, k);
    case ProofKind::update:
      return update_public_inputs(s.type.id, k, s.comm_r_old, s.comm_d_new, s.comm_r_new);
  }
  return make_error("unknown proof kind");
}

Result<Domain> parse_domain_hex(const std::string& text) {
  std::string_view hex = text;
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  if (hex.size() != 64) return make_input_error("\"" + text + "\" is not 32 bytes of hex (64 digits)");
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Domain d;
  for (size_t i = 0; i < 32; ++i) {
    const int hi = digit(hex[2 * i]), lo = digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return make_input_error("\"" + text + "\" is not hex");
    d[i] = uint8_t(hi << 4 | lo);
  }
  return d;
}

std::string domain_hex(const Domain& d) { return to_hex(d); }

}  // namespace cuzk::filecoin
