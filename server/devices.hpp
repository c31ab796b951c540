// The daemon's devices, made in one place: the configured backend's factory and planner over the
// configured [[devices.device]] entries. A GPU backend plugs in here (and nowhere else).
#pragma once

#include "common/result.hpp"
#include "engine/devices.hpp"
#include "server/config.hpp"

namespace cuzk::server {

Result<engine::DeviceSet> make_device_set(const DaemonConfig& config);

}  // namespace cuzk::server
