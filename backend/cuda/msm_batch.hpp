// The MSMs of one proof on a device (ComputeBackend::msm_batch). When every base array is resident
// and the distinct scalar vectors fit beside them, each vector crosses PCIe once (the aux
// assignment feeds four MSMs), on the copy stream in the order the requests first use it, and each
// MSM waits for its own vector only. Otherwise the requests run one by one, each streaming what it
// needs. A request whose scalars and present variables are those of the one before (L and A's
// auxiliary part; B's G1 and G2 queries) runs right after it over the digits it sorted.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "backend/compute.hpp"
#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {

class MsmResidency;

class MsmBatchRunner {
 public:
  MsmBatchRunner(WorkerDevice& device, MsmResidency& msms) : dev_(device), msms_(msms) {}
  ~MsmBatchRunner();
  MsmBatchRunner(const MsmBatchRunner&) = delete;
  MsmBatchRunner& operator=(const MsmBatchRunner&) = delete;

  Result<MsmBatchResult> run(const MsmBatch& batch);

 private:
  struct SharedScalars;  // one batch's distinct vectors and their device copies (msm_batch.cpp)
  // Finds the distinct scalar vectors and whether every request's context is resident.
  Status survey(const MsmBatch& batch, SharedScalars& shared);
  // Uploads the distinct vectors once, when sharing them pays and they fit.
  Status upload_shared(const MsmBatch& batch, SharedScalars& shared);
  // The event of the k-th distinct vector's upload (made on first use, kept for the next batch).
  Result<cudaEvent_t> ready_event(size_t k);

  WorkerDevice& dev_;
  MsmResidency& msms_;
  std::vector<cudaEvent_t> vector_ready_;
};

}  // namespace cuzk::cuda
