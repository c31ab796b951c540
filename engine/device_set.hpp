// The devices a front end proves on, made in one place for the `cuzk` command (one backend, or
// `bench engine`'s set), the daemon and the C API: CPU logical devices in every build, CUDA devices
// when this build has the CUDA backend. This file's unit is the one place above backend/ that knows
// whether it does (the target cuzk_engine_devices); the front ends have no build switch of their own.
#pragma once

#include <string>
#include <vector>

#include "common/result.hpp"
#include "common/thread_pool.hpp"
#include "engine/cuda_devices.hpp"
#include "engine/devices.hpp"
#include "groth16/setup.hpp"

namespace cuzk::engine {

// As cpu_devices (engine/devices.hpp) takes them.
struct CpuDeviceOptions {
  std::vector<DeviceDescriptor> devices;  // one logical device each (logical_devices: a uniform list)
  unsigned threads_per_worker = 1;
  // A command that proves on one backend shares its pool with synthesis; it must outlive the set.
  ThreadPool* shared_pool = nullptr;
};

struct DeviceSetOptions {
  // "cpu", "cuda", or "auto": CUDA when this build has it and a device answers, else the CPU.
  std::string backend = "cpu";
  CpuDeviceOptions cpu;
  CudaDeviceOptions cuda;  // plain C++ (engine/cuda_devices.hpp), read only where CUDA is built
};

struct ChosenDevices {
  std::string backend;  // "cpu" or "cuda"
  DeviceSet set;
  // With "auto" on the CPU: why not CUDA (no device, or this build has no CUDA backend).
  std::string fallback_reason;
};

// Whether this build has the CUDA backend.
bool cuda_built();

// The set `options.backend` asks for. Fails on an unknown backend name, on "cuda" where this build
// has no CUDA backend or no device answers, and on an empty CPU device list.
Result<ChosenDevices> make_device_set(const DeviceSetOptions& options);

// Points the setup's generator multiplications at a GPU when `which` ("cpu", "cuda" or "auto") asks
// for one (with "auto", when one answers); returns the device's name, or "cpu".
Result<std::string> attach_setup_device(const std::string& which, int device, groth16::SetupOptions& options);

}  // namespace cuzk::engine
