// What the unauthenticated HTTP endpoints (/status, /healthz) may show: the engine's status with
// every text that could name a file or a detail of the host reduced to a generic form. Error
// texts of devices and of the journal become a fixed sentence that points to the daemon's log and
// to the authenticated status (`cuzk status`, gRPC Status), which keep the detail; parameter sets
// are named by their file name only.
#pragma once

#include <string>

#include "common/result.hpp"
#include "engine/status.hpp"

namespace cuzk::server {

// The generic texts that replace an error (an empty error stays empty).
inline constexpr const char* kPublicDeviceError =
    "failed (the reason is in the daemon's log and its authenticated status)";
inline constexpr const char* kPublicJournalError =
    "cannot be written (the reason is in the daemon's log and its authenticated status)";

engine::EngineStatus public_status(engine::EngineStatus status);

// /status: public_status() as JSON, with the daemon's own fields in front.
std::string public_status_json(const engine::EngineStatus& status, bool draining);

// /healthz: OK, or why the daemon is not healthy, in the generic form.
Status public_health(const engine::EngineStatus& status, bool draining);

}  // namespace cuzk::server
