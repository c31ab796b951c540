// The CPU implementation of the compute interface: NttDomain and the Pippenger MSM on a thread pool.
#pragma once

#include "backend/compute.hpp"
#include "common/thread_pool.hpp"

namespace cuzk::cpu {

class CpuBackend final : public ComputeBackend {
 public:
  explicit CpuBackend(ThreadPool& pool = ThreadPool::shared()) : pool_(pool) {}
  std::string name() const override { return "cpu"; }
  Status compute_h(const HRequest& request) override;
  bool evaluates_compiled_rows() const override { return true; }
  Result<G1Jacobian> msm(const MsmRequest<G1Affine>& request) override;
  Result<G2Jacobian> msm(const MsmRequest<G2Affine>& request) override;

 private:
  ThreadPool& pool_;
};

}  // namespace cuzk::cpu
