#include "server/curio_convert.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>

#include "common/hex.hpp"
#include "engine/filecoin_input.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "filecoin/proofs/proof_request.hpp"
#include "filecoin/types/prover_id.hpp"
#include "io/proof.hpp"

namespace cuzk::server::curio {
namespace {

using grpc::StatusCode;
namespace fc = ::cuzk::filecoin;

grpc::Status bad(std::string message) { return {StatusCode::INVALID_ARGUMENT, std::move(message)}; }

struct KindInfo {
  engine::JobKind job;
  fc::ProofKind proof;
  fc::ProofFamily family;
  const char* name;  // the enum value's name, for errors
};

grpc::Status kind_of(int kind, KindInfo& out) {
  switch (kind) {
    case pb::POREP_SEAL_COMMIT:
      out = {engine::JobKind::porep_c2, fc::ProofKind::seal, fc::ProofFamily::seal, "POREP_SEAL_COMMIT"};
      return grpc::Status::OK;
    case pb::SNAP_DEALS_UPDATE:
      out = {engine::JobKind::snap_deals, fc::ProofKind::update, fc::ProofFamily::update,
             "SNAP_DEALS_UPDATE"};
      return grpc::Status::OK;
    case pb::WINDOW_POST_PARTITION:
      out = {engine::JobKind::window_post, fc::ProofKind::window_post, fc::ProofFamily::post,
             "WINDOW_POST_PARTITION"};
      return grpc::Status::OK;
    case pb::WINNING_POST:
      out = {engine::JobKind::winning_post, fc::ProofKind::winning_post, fc::ProofFamily::post,
             "WINNING_POST"};
      return grpc::Status::OK;
    case pb::PROOF_KIND_UNSPECIFIED:
      return bad(
          "proof_kind is not set (POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION or "
          "WINNING_POST)");
    default:
      return {StatusCode::UNIMPLEMENTED,
              "proof_kind " + std::to_string(kind) +
                  " is not a kind this daemon proves (it proves POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, "
                  "WINDOW_POST_PARTITION and WINNING_POST)"};
  }
}

grpc::Status domain_of(const std::string& bytes, const char* field, fc::Domain& out) {
  if (bytes.size() != out.size())
    return bad(std::string(field) + " is " + std::to_string(bytes.size()) + " bytes, 32 expected");
  std::memcpy(out.data(), bytes.data(), out.size());
  return grpc::Status::OK;
}

std::string hex_of(const std::string& bytes) {
  return to_hex({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
}

// Everything that must agree when a request_id comes again. The inputs by length and a hash: a
// collision needs a deliberate client, which can only confuse its own jobs.
std::string fingerprint_of(const pb::SubmitProofRequest& r) {
  std::string f = std::to_string(r.proof_kind()) + "/" + std::to_string(r.registered_proof()) + "/" +
                  std::to_string(r.sector_size()) + "/" + std::to_string(r.sector_number()) + "/" +
                  std::to_string(r.miner_id()) + "/" + std::to_string(r.partition_index()) + "/" +
                  hex_of(r.randomness()) + "/" + hex_of(r.comm_r_old()) + "/" + hex_of(r.comm_r_new()) + "/" +
                  hex_of(r.comm_d_new());
  const auto add = [&f](const std::string& bytes) {
    f += '/';
    f += std::to_string(bytes.size());
    f += ':';
    f += std::to_string(std::hash<std::string_view>{}(bytes));
  };
  add(r.vanilla_proof());
  for (const auto& v : r.vanilla_proofs()) add(v);
  return f;
}

// Moves each of the repeated field's strings into `out`.
void take_all(google::protobuf::RepeatedPtrField<std::string>* from, std::vector<std::string>& out) {
  out.reserve(size_t(from->size()));
  for (auto& bytes : *from) out.push_back(std::move(bytes));
}

grpc::Status fill_porep(pb::SubmitProofRequest& r, fc::ProofRequest& req) {
  if (r.vanilla_proof().empty())
    return bad("POREP_SEAL_COMMIT: vanilla_proof is empty (it takes the commit-phase-1 output)");
  if (r.vanilla_proofs_size() != 0)
    return bad("POREP_SEAL_COMMIT takes the commit-phase-1 output in vanilla_proof, not vanilla_proofs");
  req.vanilla.push_back(std::move(*r.mutable_vanilla_proof()));
  // Curio's wrapper names the sector; the engine then checks the C1's replica_id against the
  // prover id and sector id. Neither given: a bare C1 taken as it is.
  if (r.miner_id() != 0 || r.sector_number() != 0) {
    req.prover_id = fc::prover_id_from_actor_id(r.miner_id());
    req.sector_id = r.sector_number();
  }
  return grpc::Status::OK;
}

grpc::Status fill_post(pb::SubmitProofRequest& r, const KindInfo& k, fc::ProofRequest& req) {
  if (r.vanilla_proofs_size() == 0)
    return bad(std::string(k.name) + ": vanilla_proofs is empty (one vanilla proof per sector)");
  if (!r.vanilla_proof().empty())
    return bad(std::string(k.name) + " takes vanilla_proofs, not vanilla_proof");
  if (auto st = domain_of(r.randomness(), "randomness", req.randomness); !st.ok()) return st;
  req.randomness[31] &= 0x3f;
  if (k.proof == fc::ProofKind::winning_post && r.partition_index() != 0)
    return bad("WINNING_POST has one partition; partition_index " + std::to_string(r.partition_index()));
  req.first_partition = r.partition_index();
  take_all(r.mutable_vanilla_proofs(), req.vanilla);
  return grpc::Status::OK;
}

grpc::Status fill_update(pb::SubmitProofRequest& r, fc::ProofRequest& req) {
  if (r.vanilla_proofs_size() == 0)
    return bad("SNAP_DEALS_UPDATE: vanilla_proofs is empty (one vanilla proof per partition)");
  if (!r.vanilla_proof().empty()) return bad("SNAP_DEALS_UPDATE takes vanilla_proofs, not vanilla_proof");
  if (auto st = domain_of(r.comm_r_old(), "comm_r_old", req.comm_r_old); !st.ok()) return st;
  if (auto st = domain_of(r.comm_r_new(), "comm_r_new", req.comm_r_new); !st.ok()) return st;
  if (auto st = domain_of(r.comm_d_new(), "comm_d_new", req.comm_d_new); !st.ok()) return st;
  take_all(r.mutable_vanilla_proofs(), req.vanilla);
  return grpc::Status::OK;
}

}  // namespace

grpc::Status check_request_id(const std::string& id) {
  if (id.size() > 256) return bad("request_id is " + std::to_string(id.size()) + " characters, at most 256");
  for (unsigned char ch : id)
    if (ch < 0x20 || ch > 0x7e) return bad("request_id holds a character that is not printable ASCII");
  return grpc::Status::OK;
}

grpc::Status priority_from_proto(int priority, engine::JobKind kind, engine::Priority& out) {
  switch (priority) {
    case pb::PRIORITY_UNSPECIFIED:
      out = engine::default_priority(kind);
      return grpc::Status::OK;
    case pb::LOW:
      out = engine::Priority::low;
      return grpc::Status::OK;
    case pb::NORMAL:
      out = engine::Priority::normal;
      return grpc::Status::OK;
    case pb::HIGH:
      out = engine::Priority::high;
      return grpc::Status::OK;
    case pb::CRITICAL:
      out = engine::Priority::critical;
      return grpc::Status::OK;
    default:
      return bad("priority " + std::to_string(priority) + " is not LOW, NORMAL, HIGH or CRITICAL");
  }
}

grpc::Status job_from_submit(pb::SubmitProofRequest& r, const std::filesystem::path& param_dir,
                             Converted& out) {
  if (auto st = check_request_id(r.request_id()); !st.ok()) return st;
  KindInfo k{};
  if (auto st = kind_of(r.proof_kind(), k); !st.ok()) return st;
  auto type = fc::registered_proof(k.family, r.registered_proof());
  if (!type)
    return bad(std::string(k.name) + ": registered_proof " + std::to_string(r.registered_proof()) + ": " +
               type.message());
  if (type->kind != k.proof)
    return bad(std::string(k.name) + ": registered_proof " + std::to_string(r.registered_proof()) + " is " +
               std::string(type->name) + ", a proof type of another kind");
  if (type->non_interactive)
    return {StatusCode::UNIMPLEMENTED,
            std::string(type->name) +
                " is NI-PoRep, whose C2 output is a SnarkPack aggregate this daemon does not make"};
  if (r.sector_size() != 0 && r.sector_size() != type->sector_size)
    return bad(std::string(k.name) + ": sector_size " + std::to_string(r.sector_size()) + " does not match " +
               std::string(type->name) + " (registered_proof " + std::to_string(type->id) + ", sectors of " +
               std::to_string(type->sector_size) + " bytes)");
  engine::Priority priority{};
  if (auto st = priority_from_proto(r.priority(), k.job, priority); !st.ok()) return st;
  out.fingerprint = fingerprint_of(r);

  fc::ProofRequest req;
  req.kind = k.proof;
  req.proof_id = type->id;
  grpc::Status filled;
  switch (k.proof) {
    case fc::ProofKind::seal:
      filled = fill_porep(r, req);
      break;
    case fc::ProofKind::window_post:
    case fc::ProofKind::winning_post:
      filled = fill_post(r, k, req);
      break;
    case fc::ProofKind::update:
      filled = fill_update(r, req);
      break;
  }
  if (!filled.ok()) return filled;

  const auto circuit = fc::circuit_of(*type);
  auto params = fc::parameter_path(circuit, fc::ParameterExt::params, param_dir);
  if (!params) return {StatusCode::UNIMPLEMENTED, std::string(type->name) + ": " + params.message()};
  if (auto found = fc::find_parameter_file(circuit, fc::ParameterExt::params, param_dir); !found)
    out.params_error = found.message();
  out.job.kind = k.job;
  out.job.priority = priority;
  out.job.params = params->string();
  out.job.partitions.clear();
  out.job.partitions.emplace_back(
      engine::FilecoinInput{std::make_shared<const engine::FilecoinRequest>(std::move(req)), std::nullopt});
  return grpc::Status::OK;
}

void result_to_proto(const engine::JobResult& r, const std::string& job_id, pb::AwaitProofResponse* out) {
  out->set_job_id(job_id);
  switch (r.state) {
    case engine::JobState::done: {
      out->set_status(pb::AwaitProofResponse::COMPLETED);
      std::string* proof = out->mutable_proof();
      proof->reserve(r.proofs.size() * PROOF_BYTES);
      for (const auto& p : r.proofs) {
        const auto bytes = proof_to_bytes(p);
        proof->append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      }
      break;
    }
    case engine::JobState::failed:
      out->set_status(pb::AwaitProofResponse::FAILED);
      out->set_error_message(r.error);
      break;
    case engine::JobState::cancelled:
      out->set_status(pb::AwaitProofResponse::CANCELLED);
      out->set_error_message(r.error);
      break;
    case engine::JobState::queued:
    case engine::JobState::running:
      out->set_status(pb::AwaitProofResponse::TIMEOUT);
      break;
  }
  const auto ms = [](double v) { return v > 0 ? uint64_t(std::llround(v)) : uint64_t(0); };
  out->set_queue_wait_ms(ms(r.timings.queue_wait_ms));
  out->set_srs_load_ms(ms(r.timings.param_load_ms));
  out->set_synthesis_ms(ms(r.timings.synthesis_ms));
  out->set_gpu_compute_ms(ms(r.timings.gpu_ms));
  out->set_total_ms(ms(r.timings.total_ms));
}

const char* kind_name(engine::JobKind kind) {
  switch (kind) {
    case engine::JobKind::porep_c2:
      return "porep-c2";
    case engine::JobKind::snap_deals:
      return "snap-update";
    case engine::JobKind::window_post:
      return "window-post";
    case engine::JobKind::winning_post:
      return "winning-post";
    case engine::JobKind::generic:
      return "generic";
  }
  return "?";
}

}  // namespace cuzk::server::curio
