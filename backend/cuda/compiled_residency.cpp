#include "backend/cuda/compiled_residency.hpp"

#include "backend/cuda/runtime/device_bases.hpp"

namespace cuzk::cuda {

Result<const DeviceCompiledCircuit*> CompiledResidency::get(const CompiledRows& rows, size_t beside) {
  if (DeviceBases* store = dev_.options.shared_bases.get(); store && rows.id != 0) {
    auto got = store->get_object<DeviceCompiledCircuit>(
        rows.id, DeviceCompiledCircuit::bytes_for(rows.matrices),
        [&] { return DeviceCompiledCircuit::upload(rows.matrices, &dev_.stager(), dev_.stream()); });
    if (!got) return got.error();
    if (*got) {
      release();  // an own copy, of this circuit or another, is not needed beside it
      held_ = std::move(*got);
      return held_.get();
    }
    // No room free in the store: a copy of this backend's own, if its budget has room.
  }
  if (circuit_ && id_ == rows.id && rows.id != 0) {
    used_in_call_ = dev_.calls;
    return &*circuit_;
  }
  release();  // another circuit's matrices: this backend proves one shape at a time
  const size_t bytes = DeviceCompiledCircuit::bytes_for(rows.matrices);
  if (rows.id == 0 || bytes + beside > dev_.available())
    return static_cast<const DeviceCompiledCircuit*>(nullptr);
  auto up = DeviceCompiledCircuit::upload(rows.matrices, &dev_.stager(), dev_.stream());
  if (!up) return up.error();
  circuit_.emplace(std::move(*up));
  id_ = rows.id;
  used_in_call_ = dev_.calls;
  dev_.compiled_resident += circuit_->bytes();
  return &*circuit_;
}

bool CompiledResidency::evict_idle() {
  if (!circuit_ || used_in_call_ == dev_.calls) return false;
  release();
  return true;
}

void CompiledResidency::release() {
  if (!circuit_) return;
  dev_.compiled_resident -= circuit_->bytes();
  circuit_.reset();
  id_ = 0;
}

}  // namespace cuzk::cuda
