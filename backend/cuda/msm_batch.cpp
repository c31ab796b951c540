#include "backend/cuda/msm_batch.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "backend/cuda/msm_residency.hpp"

namespace cuzk::cuda {

using VectorKey = std::pair<const Fr*, size_t>;

struct MsmBatchRunner::SharedScalars {
  explicit SharedScalars(const Stream& copy_stream) : copy(copy_stream) {}
  const Stream& copy;
  bool all_resident = true;
  std::map<VectorKey, const Fr*> distinct;  // each distinct vector's device copy (nullptr: none yet)
  std::map<VectorKey, cudaEvent_t> ready;   // each vector's upload, on the copy stream
  std::optional<DeviceBuffer<Fr>> buffer;   // the copies
  // Copies still queued when the batch ends early must not outlive the buffer they write.
  ~SharedScalars() { (void)cudaStreamSynchronize(copy.get()); }
};

MsmBatchRunner::~MsmBatchRunner() {
  auto g = DeviceGuard::enter(dev_.device());
  for (cudaEvent_t e : vector_ready_) (void)cudaEventDestroy(e);
}

Result<cudaEvent_t> MsmBatchRunner::ready_event(size_t k) {
  while (vector_ready_.size() <= k) {
    cudaEvent_t e = nullptr;
    CUZK_TRY_STATUS(check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate"));
    vector_ready_.push_back(e);
  }
  return vector_ready_[k];
}

Status MsmBatchRunner::survey(const MsmBatch& batch, SharedScalars& shared) {
  const auto survey_one = [&](const auto& rq) -> Status {
    auto sh = msm_shape(rq);
    if (!sh) return sh.error();
    if (sh->n == 0 || sh->nb == 0) return Status::Ok();
    auto ctx = msms_.resident_context(rq, *sh);
    if (!ctx) return ctx.error();
    shared.all_resident = shared.all_resident && *ctx != nullptr;
    if (!dev_.kept.copy_of(rq.scalars)) shared.distinct.emplace(VectorKey(rq.scalars.data(), sh->n), nullptr);
    return Status::Ok();
  };
  for (const auto& rq : batch.g1) CUZK_TRY_STATUS(survey_one(rq));
  for (const auto& rq : batch.g2) CUZK_TRY_STATUS(survey_one(rq));
  return Status::Ok();
}

Status MsmBatchRunner::upload_shared(const MsmBatch& batch, SharedScalars& shared) {
  // Sharing is only worth it when some vector is used more than once.
  size_t shared_n = 0;
  for (const auto& [key, ptr] : shared.distinct) shared_n += key.second;
  const size_t requests = batch.g1.size() + batch.g2.size();
  if (!shared.all_resident || shared.distinct.size() >= requests || shared_n * sizeof(Fr) > dev_.available())
    return Status::Ok();
  dev_.record({"msm scalars", std::to_string(shared.distinct.size()) + " vectors uploaded once",
               shared_n * sizeof(Fr)});
  const auto t0 = std::chrono::steady_clock::now();
  auto buf = dev_.cache.take<Fr>(shared_n);
  if (!buf) return buf.error();
  // The vectors cross on the copy stream in the order the requests first use them (the H query's
  // first), and each MSM waits for its own vector only: from pinned memory (the engine's pooled
  // sets) the H query starts while the wires still cross PCIe. The copies come after the compute
  // stream's earlier work.
  CUZK_TRY_STATUS(dev_.copies_after_compute());
  size_t off = 0;
  const auto upload = [&](const auto& rq) -> Status {
    const VectorKey key(rq.scalars.data(), rq.scalars.size());
    auto it = shared.distinct.find(key);
    if (it == shared.distinct.end() || it->second) return Status::Ok();  // empty, or already queued
    auto ev = ready_event(shared.ready.size());
    if (!ev) return ev.error();
    CUZK_TRY_STATUS(
        dev_.stager().to_device(buf->data() + off, key.first, key.second * sizeof(Fr), dev_.copy_stream()));
    CUZK_TRY_STATUS(check(cudaEventRecord(*ev, dev_.copy_stream().get()), "cudaEventRecord"));
    it->second = buf->data() + off;
    shared.ready.emplace(key, *ev);
    off += key.second;
    return Status::Ok();
  };
  for (const auto& rq : batch.g1) CUZK_TRY_STATUS(upload(rq));
  for (const auto& rq : batch.g2) CUZK_TRY_STATUS(upload(rq));
  shared.buffer.emplace(std::move(*buf));
  dev_.finish(t0);
  return Status::Ok();
}

Result<MsmBatchResult> MsmBatchRunner::run(const MsmBatch& batch) {
  SharedScalars shared(dev_.copy_stream());
  CUZK_TRY_STATUS(survey(batch, shared));
  CUZK_TRY_STATUS(upload_shared(batch, shared));
  // The request's vector on the device (nullptr: none), with the compute stream waiting for it.
  const auto device_copy = [&](const auto& rq) -> Result<const Fr*> {
    if (const Fr* kept = dev_.kept.copy_of(rq.scalars)) return kept;
    if (!shared.buffer) return static_cast<const Fr*>(nullptr);
    const VectorKey key(rq.scalars.data(), rq.scalars.size());
    auto it = shared.distinct.find(key);
    if (it == shared.distinct.end()) return static_cast<const Fr*>(nullptr);
    CUZK_TRY_STATUS(
        check(cudaStreamWaitEvent(dev_.stream().get(), shared.ready.at(key), 0), "cudaStreamWaitEvent"));
    return it->second;
  };
  // The caller may reuse its host scalars once their copies have landed (each MSM then reads its
  // device copy, so after the first one they are surely done), or, without the shared copies,
  // once the last MSM has streamed what it needs.
  bool host_read_done = false;
  const auto host_scalars_read = [&]() -> Status {
    if (host_read_done || !batch.host_scalars_read) return Status::Ok();
    for (const auto& [key, ev] : shared.ready)
      CUZK_TRY_STATUS(check(cudaEventSynchronize(ev), "cudaEventSynchronize"));
    host_read_done = true;
    batch.host_scalars_read();
    return Status::Ok();
  };
  MsmBatchResult out;
  out.g1.resize(batch.g1.size());
  out.g2.resize(batch.g2.size());
  std::vector<char> done1(batch.g1.size(), 0), done2(batch.g2.size(), 0);
  // The first of requests[from ..) over the digits `rq` sorted runs right after it, on those
  // digits, when the two contexts' digit layouts match. False: there is none.
  const auto run_paired = [&](const auto& rq, const auto& requests, std::vector<char>& done, auto& results,
                              size_t from) -> Result<bool> {
    for (size_t j = from; j < requests.size(); ++j) {
      if (done[j] || !same_digits(rq, requests[j])) continue;
      auto paired = msms_.msm_sorted_by(requests[j], rq);
      if (!paired) return paired.error();
      if (paired->has_value()) {
        results[j] = **paired;
        done[j] = 1;
      }
      return true;
    }
    return false;
  };
  // Each request not yet done, then its pair: among the later G1 requests first, then the G2 ones.
  const auto run_all = [&](const auto& requests, std::vector<char>& done, auto& results, bool g1) -> Status {
    for (size_t i = 0; i < requests.size(); ++i) {
      if (done[i]) continue;
      const auto& rq = requests[i];
      auto on_device = device_copy(rq);
      if (!on_device) return on_device.error();
      auto r = msms_.msm(rq, *on_device);
      if (!r) return r.error();
      results[i] = *r;
      if (shared.buffer) CUZK_TRY_STATUS(host_scalars_read());
      auto in_g1 = run_paired(rq, batch.g1, done1, out.g1, g1 ? i + 1 : batch.g1.size());
      if (!in_g1) return in_g1.error();
      if (*in_g1) continue;
      auto in_g2 = run_paired(rq, batch.g2, done2, out.g2, g1 ? 0 : i + 1);
      if (!in_g2) return in_g2.error();
    }
    return Status::Ok();
  };
  CUZK_TRY_STATUS(run_all(batch.g1, done1, out.g1, true));
  CUZK_TRY_STATUS(run_all(batch.g2, done2, out.g2, false));
  CUZK_TRY_STATUS(host_scalars_read());
  return out;
}

}  // namespace cuzk::cuda
