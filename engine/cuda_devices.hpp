// The CUDA devices of the host as an engine DeviceSet: one CudaBackend per (device, worker), each
// pinned to its device by index (never "the current device"), each planning its stages within an
// equal share of the device's budget. The engine reserves that share before a worker touches the
// device, so the workers of one card can never exceed its budget together.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.hpp"
#include "engine/devices.hpp"

namespace cuzk::engine {

struct CudaDeviceOptions {
  std::vector<uint32_t> indices;  // empty: every device found
  uint64_t vram_budget = 0;       // per device; 0: its free memory less `margin`
  uint64_t margin = uint64_t(1) << 30;
  uint32_t workers = 2;  // per device
};

// Fails when no device is found or a listed index does not exist.
Result<DeviceSet> cuda_devices(const CudaDeviceOptions& options);

}  // namespace cuzk::engine
