#include "cli/backend_select.hpp"

#include <cstdio>

#include "backend/cpu/cpu_backend.hpp"
#if CUZK_HAVE_CUDA
#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/fixed_base/fixed_base.hpp"
#include "backend/cuda/runtime/runtime.hpp"
#endif

namespace cuzk::cli {
namespace {

[[maybe_unused]] Error no_cuda_in_this_build() {
  return Error{"this build of cuzk has no CUDA backend (built without nvcc or with -DCUZK_WITH_CUDA=OFF)"};
}

}  // namespace

Result<size_t> parse_bytes(const std::string& text) {
  if (text.empty()) return size_t(0);
  size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &pos);
  } catch (...) {
    return make_error("'" + text + "' is not a size (e.g. 8G, 512M)");
  }
  const std::string unit = text.substr(pos);
  const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  if (shift < 0) return make_error("unknown unit '" + unit + "' in '" + text + "' (K, M or G)");
  return size_t(v) << shift;
}

Result<std::unique_ptr<ComputeBackend>> make_backend(const std::string& which, int device,
                                                     const std::string& vram_budget, ThreadPool& pool,
                                                     unsigned msm_pass_log, double resident_fraction) {
  if (msm_pass_log > 30) return make_error("--msm-pass-log: at most 30");
  if (resident_fraction < 0 || resident_fraction > 1) return make_error("--resident-fraction: from 0 to 1");
  auto budget = parse_bytes(vram_budget);
  if (!budget) return make_error("--vram-budget: " + budget.message());
#if CUZK_HAVE_CUDA
  if (which != "cpu") {
    cuda::CudaBackendOptions o;
    o.device = device;
    o.vram_budget = *budget;
    o.resident_pass_points = msm_pass_log ? size_t(1) << msm_pass_log : 0;
    if (resident_fraction > 0) o.resident_fraction = resident_fraction;
    auto gpu = cuda::CudaBackend::create(o);
    if (gpu) return std::unique_ptr<ComputeBackend>(std::move(*gpu));
    if (which == "cuda") return gpu.error();
  }
#else
  (void)device;
  (void)msm_pass_log;
  (void)resident_fraction;
  if (which == "cuda") return no_cuda_in_this_build();
#endif
  return std::unique_ptr<ComputeBackend>(new cpu::CpuBackend(pool));
}

DeviceReport take_device_report(ComputeBackend& backend) {
  DeviceReport r;
#if CUZK_HAVE_CUDA
  if (auto* gpu = dynamic_cast<cuda::CudaBackend*>(&backend)) {
    for (const auto& p : gpu->plan_log()) {
      char line[320];
      std::snprintf(line, sizeof line, "%-24s %-44s %8zu MiB %9.1f ms", p.stage.c_str(), p.choice.c_str(),
                    (p.bytes + (1u << 20) - 1) >> 20, p.ms);
      r.stages.emplace_back(line);
    }
    gpu->clear_log();
    r.peak_bytes = gpu->peak_planned_bytes();
    r.budget = gpu->budget();
  }
#else
  (void)backend;
#endif
  return r;
}

namespace {

struct HostRange {
  const void* data;
  size_t bytes;
};

std::vector<std::shared_ptr<void>> pin_ranges_for(const ComputeBackend& backend,
                                                  const std::vector<HostRange>& ranges) {
  std::vector<std::shared_ptr<void>> pins;
#if CUZK_HAVE_CUDA
  if (!dynamic_cast<const cuda::CudaBackend*>(&backend)) return pins;
  for (const auto& range : ranges) {
    if (range.bytes == 0) continue;
    auto r = cuda::PinnedRange::pin(range.data, range.bytes);
    if (r)
      pins.push_back(std::make_shared<cuda::PinnedRange>(std::move(*r)));
    else
      std::fprintf(stderr, "  warning: %s (these copies are staged instead)\n", r.message().c_str());
  }
#else
  (void)backend;
  (void)ranges;
#endif
  return pins;
}

}  // namespace

std::vector<std::shared_ptr<void>> pin_key_for(const ComputeBackend& backend,
                                               const groth16::ProvingKey& key) {
  std::vector<HostRange> ranges;
  for (const auto& r : key.point_arrays()) ranges.push_back({r.data, r.bytes});
  return pin_ranges_for(backend, ranges);
}

std::vector<std::shared_ptr<void>> pin_assignment_for(const ComputeBackend& backend,
                                                      const r1cs::Assignment& as) {
  std::vector<HostRange> ranges;
  for (const auto* v : {&as.a, &as.b, &as.c, &as.aux_assignment})
    ranges.push_back({v->data(), v->capacity() * sizeof(Fr)});
  return pin_ranges_for(backend, ranges);
}

Result<std::string> attach_setup_device(const std::string& which, int device,
                                        groth16::SetupOptions& options) {
  if (which != "cpu" && which != "cuda" && which != "auto")
    return make_error("--backend: '" + which + "' is not cpu, cuda or auto");
#if CUZK_HAVE_CUDA
  if (which != "cpu") {
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
  }
#else
  (void)device;
  (void)options;
  if (which == "cuda") return no_cuda_in_this_build();
#endif
  return std::string("cpu");
}

}  // namespace cuzk::cli
