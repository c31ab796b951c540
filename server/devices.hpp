// The daemon's devices: its config ([devices] and each [[devices.device]]) as the options of
// engine::make_device_set (engine/device_set.hpp), which makes them for every front end.
#pragma once

#include "common/result.hpp"
#include "engine/devices.hpp"
#include "server/config.hpp"

namespace cuzk::server {

Result<engine::DeviceSet> make_device_set(const DaemonConfig& config);

}  // namespace cuzk::server
