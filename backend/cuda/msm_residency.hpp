// The MSM contexts of one CudaBackend: those it keeps on the device between calls (bases uploaded
// or bound to the device's shared store, one work area for all of them), and those it makes for
// one call, streaming the bases from the host, when the resident share of the budget has no room.
//
// A resident context is found by its bases' address and count, and told apart from a new key at a
// freed key's address by a fingerprint of the bases. Its window follows the scalars of its first
// request (msm/window.hpp's pick_resident_window over a sample of them). Contexts the current
// call does not use give way, least recently used first, when a stage would not fit otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/compute.hpp"
#include "backend/cuda/msm/msm.hpp"
#include "backend/cuda/worker_device.hpp"

namespace cuzk::cuda {

template <class Affine>
using JacobianOf = curve::jacobian_t<typename Affine::field, typename Affine::params>;

// A request's shape, checked: n scalars, nb bases (the present variables in the density form), the
// stage's name for the log.
struct MsmShape {
  size_t n = 0, nb = 0, max_points = 0;
  bool dense = true;
  std::string stage;
};
template <class Affine>
Result<MsmShape> msm_shape(const MsmRequest<Affine>& rq);

// Whether `b`'s MSM can take `a`'s sorted digits (b of either curve): the same scalars, and the
// same variables present in both (every one, or one density bitmap over as many bases: msm_shape
// checks that the bases count the present ones, so the digits name the same base ranks).
template <class A, class B>
bool same_digits(const MsmRequest<A>& a, const MsmRequest<B>& b) {
  if (a.scalars.data() != b.scalars.data() || a.scalars.size() != b.scalars.size() || a.scalars.empty())
    return false;
  const auto all_present = [](const auto& r) {
    return r.density.empty() || r.bases.size() == r.scalars.size();
  };
  if (all_present(a) && all_present(b)) return true;
  return a.density.data() == b.density.data() && a.density.size() == b.density.size() &&
         a.bases.size() == b.bases.size();
}

class MsmResidency {
 public:
  explicit MsmResidency(WorkerDevice& device) : dev_(device) {}

  // One request: on its resident context (made if the resident share allows), else on a streamed
  // one. `device_scalars`: a copy of the request's scalars already on the device (the batch's
  // shared upload); without one, the kept h when the request is over it, else the host vector.
  template <class Affine>
  Result<JacobianOf<Affine>> msm(const MsmRequest<Affine>& rq, const Fr* device_scalars = nullptr);

  // `rq` over the digits the MSM of `source` (same_digits, run just before on this backend)
  // sorted, when both contexts are resident with the same digit layout; nothing when they are not.
  template <class Affine, class SourceAffine>
  Result<std::optional<JacobianOf<Affine>>> msm_sorted_by(const MsmRequest<Affine>& rq,
                                                          const MsmRequest<SourceAffine>& source);

  // The resident context of these bases, made if the resident share of the budget allows; nullptr
  // when it does not (the caller streams). A context made here samples the scalars for its window
  // from `device_scalars` when given (the caller may have reused its host copy: msm_batch).
  template <class Affine>
  Result<Msm<Affine>*> resident_context(const MsmRequest<Affine>& rq, const MsmShape& sh,
                                        const Fr* device_scalars = nullptr);

  // The work area every resident context uses (nullptr: none yet). The H stage borrows it: no
  // MSM runs while a backend computes H.
  MsmWorkspace* work_area() const { return shared_work_.get(); }
  // Frees the least recently used resident context not used by the current call; false if none.
  bool evict_one_idle();
  // Drops every resident context and the work area.
  void release_all();
  // The end of a public call: the shared bases it held may be evicted.
  void end_call() { call_holds_.clear(); }

 private:
  // An MSM context that keeps its bases on the device between calls.
  template <class Affine>
  struct Resident {
    Msm<Affine> ctx;
    size_t bytes;  // its bases in this backend's budget (the work area is shared: shared_work_)
    uint64_t fingerprint;
    uint64_t last_used;  // the call that last used it (WorkerDevice::calls)
    // With a DeviceBases store: the device copy the context is bound to. The context holds no
    // handle between calls (call_holds_ holds them during one), so the store may evict the bases
    // of an idle context for another key; the next call then rebinds it, or streams.
    const void* bound = nullptr;
  };
  template <class Affine>
  using Map = std::map<std::pair<const void*, size_t>, Resident<Affine>>;
  template <class Affine>
  Map<Affine>& contexts();

  // A known context of these bases, rebound to the shared store if needed; nullptr with `found`
  // false when there is none (or another array now lives at that address), with `found` true when
  // it must stream this time (the store is full of bases other calls use).
  template <class Affine>
  Result<Msm<Affine>*> known_context(const MsmRequest<Affine>& rq, const MsmShape& sh, uint64_t print,
                                     bool& found);
  // The configuration and plan of a new resident context for `rq`: passes halved (down to
  // kMinResidentPassPoints) while it would not fit the resident share.
  template <class Affine>
  Result<std::pair<MsmConfig, MsmPlan>> resident_plan(const MsmRequest<Affine>& rq, const MsmShape& sh,
                                                      const Fr* device_scalars);
  // The bytes resident contexts (bases and work area) may hold: the options' resident fraction of
  // the budget, and never so much that an MSM streaming its bases in chunks of 2^22 points (or a
  // quarter of the budget, the less) could not run beside them, the kept h and the compiled
  // circuit. On a small budget the density-form contexts of a real circuit (its A and B queries)
  // fit the fraction, and without the reserve the H query, which streams, would find no room.
  double resident_cap() const;
  // The resident bytes while a context of `base_bytes` and `work_bytes` is made: its bases, and the
  // growth of the shared work area where it needs a larger one (the old area is held until every
  // context has moved, so the peak counts both). The plan's search and the context's making both
  // hold a plan to this, so a plan chosen as fitting is never refused when made.
  size_t resident_with(size_t base_bytes, size_t work_bytes) const;
  // The device bytes of the larger (G2's) context streaming its bases in chunks of 2^22 points.
  size_t streaming_reserve() const;
  // Grows the shared work area to `bytes` (every context moves into the new one).
  Status grow_work_area(size_t bytes);
  // The device copy of a request's bases in the shared store (uploaded if absent), held until the
  // end of the current call; a null handle when the store has no room beside the bases in use.
  template <class Affine>
  Result<std::shared_ptr<const DeviceBuffer<Affine>>> shared_bases_for(const MsmRequest<Affine>& rq,
                                                                       uint64_t print);
  // A context that streams the bases from the host, sized to the budget left.
  template <class Affine>
  Result<Msm<Affine>> streamed_context(const MsmRequest<Affine>& rq, const MsmShape& sh);
  // Runs one request on a context; `scalars` is the request's own host vector, or a copy of it
  // already on the device.
  template <class Affine>
  Result<JacobianOf<Affine>> run_on(Msm<Affine>& ctx, const MsmRequest<Affine>& rq, const MsmShape& sh,
                                    const Fr* scalars, Memory where);
  void release_work_area();

  WorkerDevice& dev_;
  Map<G1Affine> g1_;
  Map<G2Affine> g2_;
  // The work area of every resident context: they run one at a time, so one area, as large as the
  // largest context needs, serves them all. It counts once in WorkerDevice::resident, and goes
  // with the last context.
  std::shared_ptr<MsmWorkspace> shared_work_;
  // Shared bases the current call uses (DeviceBases handles), released when it returns.
  std::vector<std::shared_ptr<const void>> call_holds_;
  mutable size_t streaming_reserve_ = 0;  // computed once
};

}  // namespace cuzk::cuda
