// A FilecoinRequest partition input of the daemon's API turned into the engine's FilecoinInput:
// every value checked for its length, the vanilla bytes written to the spool (the journal then
// stores their paths, not the bytes).
#pragma once

#include "common/result.hpp"
#include "cuzk/v1/prover.pb.h"
#include "engine/filecoin_input.hpp"
#include "server/spool.hpp"

namespace cuzk::server {

// `kind`: the job's, which says what the request proves.
Result<engine::FilecoinInput> filecoin_from_proto(const ::cuzk::v1::FilecoinRequest& request,
                                                  engine::JobKind kind, Spool::Upload& upload);

}  // namespace cuzk::server
