// Curio's cuzk.v1 messages (proto/cuzk/v1/proving.proto) to and from the engine's types.
//
// A SubmitProofRequest becomes one engine job of Filecoin partitions (engine/filecoin_input.hpp):
//   POREP_SEAL_COMMIT      vanilla_proof: the commit-phase-1 output in Curio's JSON wrapper (or bare
//                          C1 JSON); miner_id and sector_number give the prover id and sector id,
//                          which the engine checks against the C1's replica_id.
//   WINDOW_POST_PARTITION  vanilla_proofs: one per sector of the partition partition_index;
//                          randomness: 32 bytes.
//   WINNING_POST           vanilla_proofs: one (66 inclusion proofs); randomness: 32 bytes.
//   SNAP_DEALS_UPDATE      vanilla_proofs: one per partition; comm_r_old, comm_r_new, comm_d_new:
//                          32 bytes each.
// registered_proof is Go's abi number within the kind's family, sector_size (when not 0) must be
// that type's, and the parameter file is the type's circuit's official name in the parameter
// directory. The randomness has its top two bits cleared, as Lotus and Curio do before they call
// filecoin-ffi (a 32-byte seed is then a field element).
//
// The result's proof is the partitions' 192-byte proofs concatenated, in partition order: the bytes
// filecoin-proofs returns.
#pragma once

#include <filesystem>
#include <string>

#include <grpcpp/grpcpp.h>

#include "curio/cuzk_v1_proving.pb.h"
#include "engine/job.hpp"

namespace cuzk::server::curio {

namespace pb = ::curio::cuzk::v1;

// What a request maps to, with the error code a Go client can act on: INVALID_ARGUMENT (the
// request), UNIMPLEMENTED (a kind or proof type this daemon does not prove). The vanilla bytes are
// not parsed here: the engine does that once, at submit (engine::FilecoinRequest::prepared()).
struct Converted {
  engine::JobRequest job;
  // The fields that must agree when a request_id comes again (idempotency): kind, type, ids,
  // randomness, partition, commitments and the inputs' sizes.
  std::string fingerprint;
  // Not empty when the parameter file is missing (job.params names where it belongs): a
  // FAILED_PRECONDITION, once the input itself is known to be good.
  std::string params_error;
};

// Moves the vanilla bytes out of `request` (no copy of the multi-MB C1); leaves the rest.
grpc::Status job_from_submit(pb::SubmitProofRequest& request, const std::filesystem::path& param_dir,
                             Converted& out);

// UNSPECIFIED: the kind's own.
grpc::Status priority_from_proto(int priority, engine::JobKind kind, engine::Priority& out);

// COMPLETED with the proof bytes, FAILED, CANCELLED; a job still queued or running is TIMEOUT.
void result_to_proto(const engine::JobResult& result, const std::string& job_id, pb::AwaitProofResponse* out);

// Curio's name of a kind in QueueStatus and GPUStatus: "porep-c2", "snap-update", "window-post",
// "winning-post" (curio: extern/cuzk/cuzk-core/src/types.rs).
const char* kind_name(engine::JobKind kind);

// The request_id: 1 to 256 printable ASCII characters, or empty (the daemon names the job).
grpc::Status check_request_id(const std::string& id);

}  // namespace cuzk::server::curio
