#include "engine/fault_injection.hpp"

#include <thread>

namespace cuzk::engine {

FaultInjectingBackend::FaultInjectingBackend(std::unique_ptr<ComputeBackend> inner, FaultPlan plan,
                                             std::shared_ptr<FaultCounters> counters)
    : inner_(std::move(inner)),
      plan_(std::move(plan)),
      counters_(counters ? std::move(counters) : std::make_shared<FaultCounters>()),
      rng_(plan_.seed) {}

FaultInjectingBackend::Fault FaultInjectingBackend::next_fault() {
  if (plan_.delay.count() > 0) std::this_thread::sleep_for(plan_.delay);
  std::lock_guard lock(mutex_);
  ++counters_->calls;
  const uint64_t call = call_++;
  Fault f = Fault::none;
  const double u = std::uniform_real_distribution<double>(0, 1)(rng_);
  if (plan_.failing_calls.count(call)) {
    f = Fault::kernel;
  } else if (u < plan_.allocation_failure) {
    f = Fault::allocation;
  } else if (u < plan_.allocation_failure + plan_.kernel_error) {
    f = Fault::kernel;
  } else if (u < plan_.allocation_failure + plan_.kernel_error + plan_.wrong_result) {
    f = Fault::wrong;
  }
  if (f == Fault::allocation) ++counters_->allocation_failures;
  if (f == Fault::kernel) ++counters_->kernel_errors;
  if (f == Fault::wrong) ++counters_->wrong_results;
  return f;
}

Status FaultInjectingBackend::fault_status(Fault f) const {
  if (f == Fault::allocation)
    return make_error(inner_->name() + ": out of memory (injected allocation failure)");
  if (f == Fault::kernel) return make_error(inner_->name() + ": kernel failed (injected error)");
  return {};
}

Status FaultInjectingBackend::compute_h(const HRequest& request) {
  const Fault f = next_fault();
  if (f == Fault::allocation || f == Fault::kernel) return fault_status(f);
  auto st = inner_->compute_h(request);
  if (st && f == Fault::wrong && !request.a.empty()) request.a[0] += Fr::one();
  return st;
}

Result<G1Jacobian> FaultInjectingBackend::msm(const MsmRequest<G1Affine>& request) {
  const Fault f = next_fault();
  if (f == Fault::allocation || f == Fault::kernel) return fault_status(f).error();
  auto r = inner_->msm(request);
  if (r && f == Fault::wrong) return r->add(G1Jacobian::generator());
  return r;
}

Result<G2Jacobian> FaultInjectingBackend::msm(const MsmRequest<G2Affine>& request) {
  const Fault f = next_fault();
  if (f == Fault::allocation || f == Fault::kernel) return fault_status(f).error();
  auto r = inner_->msm(request);
  if (r && f == Fault::wrong) return r->add(G2Jacobian::generator());
  return r;
}

BackendFactory with_faults(BackendFactory inner,
                           std::function<FaultPlan(const DeviceDescriptor&, uint32_t worker)> plan_for,
                           std::shared_ptr<FaultCounters> counters) {
  return [inner = std::move(inner), plan_for = std::move(plan_for), counters = std::move(counters)](
             const DeviceDescriptor& d, uint32_t worker) -> Result<std::unique_ptr<ComputeBackend>> {
    auto backend = inner(d, worker);
    if (!backend) return backend.error();
    return std::unique_ptr<ComputeBackend>(
        new FaultInjectingBackend(std::move(*backend), plan_for(d, worker), counters));
  };
}

}  // namespace cuzk::engine
