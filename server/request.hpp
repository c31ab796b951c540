// A JobSpec from a client turned into the engine's JobRequest, checked before anything is queued:
// enums, sample specs, witness and circuit bytes (parsed here, so that a malformed witness is an
// INVALID_ARGUMENT at submit rather than a failed job later), synthesized partitions. Uploaded
// bytes are written to the spool, because the engine journals circom partitions by path.
#pragma once

#include "common/result.hpp"
#include "cuzk/v1/prover.pb.h"
#include "engine/job.hpp"
#include "server/paths.hpp"
#include "server/spool.hpp"

namespace cuzk::server {

// `upload` receives the files written (the caller binds them to the job or abandons them). Files
// named on the daemon's host (circom_files) must be under `inputs`.
Result<engine::JobRequest> request_from_proto(const ::cuzk::v1::JobSpec& spec, Spool::Upload& upload,
                                              const AllowedFolders& inputs);

}  // namespace cuzk::server
