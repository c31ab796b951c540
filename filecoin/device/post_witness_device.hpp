// The FallbackPoSt witness blocks on a CUDA device (post_witness.cu): the host's view, without
// CUDA types, for filecoin/circuits/post_witness.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "common/result.hpp"
#include "filecoin/circuits/post_witness_blocks.hpp"

namespace cuzk::filecoin::post_witness {

// The data fill_on_device copies to the device.
struct DeviceInputs {
  const Geometry* geometry = nullptr;
  std::span<const Fr> tables;
  std::span<const Fr> sectors;
  std::span<const uint64_t> indices;
  bool check_roots = false;
};

// Scratch fill_on_device needs: the inputs, aligned, and the first failing block.
size_t device_scratch_bytes(const DeviceInputs& in);

// Every block into device memory `aux` (geometry.num_aux() values) on `stream` (a cudaStream_t of
// the current device), the inputs copied into `scratch` first. Returns once the values are written;
// `first_bad` receives the lowest challenge block whose root differs from its comm_r_last (with
// check_roots), or UINT64_MAX.
Status fill_on_device(const DeviceInputs& in, Fr* aux, void* scratch, void* stream, uint64_t& first_bad);

}  // namespace cuzk::filecoin::post_witness
