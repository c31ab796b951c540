#include "engine/device_set.hpp"

#include <memory>
#include <utility>

#if CUZK_ENGINE_CUDA
#include "backend/cuda/fixed_base/fixed_base.hpp"
#endif

namespace cuzk::engine {
namespace {

[[maybe_unused]] Error no_cuda_in_this_build() {
  return Error{"this build has no CUDA backend (built without nvcc or with -DCUZK_WITH_CUDA=OFF)"};
}

Result<DeviceSet> cuda_device_set(const CudaDeviceOptions& options) {
#if CUZK_ENGINE_CUDA
  return cuda_devices(options);
#else
  (void)options;
  return no_cuda_in_this_build();
#endif
}

}  // namespace

bool cuda_built() { return CUZK_ENGINE_CUDA != 0; }

Result<ChosenDevices> make_device_set(const DeviceSetOptions& options) {
  const std::string& which = options.backend;
  if (which != "cpu" && which != "cuda" && which != "auto")
    return make_error("unknown device backend \"" + which + "\" (cpu, cuda or auto)");
  ChosenDevices chosen;
  if (which != "cpu") {
    auto gpus = cuda_device_set(options.cuda);
    if (gpus) {
      chosen.backend = "cuda";
      chosen.set = std::move(*gpus);
      return chosen;
    }
    if (which == "cuda") return gpus.error();
    chosen.fallback_reason = gpus.message();
  }
  if (options.cpu.devices.empty()) return make_error("cpu: no device listed");
  chosen.backend = "cpu";
  chosen.set = cpu_devices(options.cpu.devices, options.cpu.threads_per_worker, options.cpu.shared_pool);
  return chosen;
}

Result<std::string> attach_setup_device(const std::string& which, int device,
                                        groth16::SetupOptions& options) {
  if (which != "cpu" && which != "cuda" && which != "auto")
    return make_error("--backend: '" + which + "' is not cpu, cuda or auto");
  if (which == "cpu") return std::string("cpu");
#if CUZK_ENGINE_CUDA
  auto g1 = cuda::FixedBaseMul<G1Affine>::create(device, G1Affine::generator());
  auto g2 = g1 ? cuda::FixedBaseMul<G2Affine>::create(device, G2Affine::generator())
               : Result<cuda::FixedBaseMul<G2Affine>>(g1.error());
  if (g1 && g2) {
    auto m1 = std::make_shared<cuda::FixedBaseMul<G1Affine>>(std::move(*g1));
    auto m2 = std::make_shared<cuda::FixedBaseMul<G2Affine>>(std::move(*g2));
    options.g1_mul_many = [m1](std::span<const Fr> k, std::span<G1Affine> out) {
      return m1->mul_many(k, out);
    };
    options.g2_mul_many = [m2](std::span<const Fr> k, std::span<G2Affine> out) {
      return m2->mul_many(k, out);
    };
    return "cuda:" + std::to_string(device);
  }
  if (which == "cuda") return g1 ? g2.error() : g1.error();
#else
  (void)device;
  (void)options;
  if (which == "cuda") return no_cuda_in_this_build();
#endif
  return std::string("cpu");
}

}  // namespace cuzk::engine
