// Choosing the backend a command proves on: --backend cpu|cuda|auto, --device, --vram-budget.
#pragma once

#include <memory>
#include <string>

#include "backend/compute.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "common/result.hpp"

namespace cuzk::cli {

// "8G" / "512M" / "1024K" / plain bytes; "" is 0 (the backend's default).
Result<size_t> parse_bytes(const std::string& text);

// CUDA when asked for (or, with "auto", when a device is present), else the CPU over `pool`.
Result<std::unique_ptr<ComputeBackend>> make_backend(const std::string& which, int device,
                                                     const std::string& vram_budget, cpu::ThreadPool& pool);

}  // namespace cuzk::cli
