#include "backend/cuda/msm_residency.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <optional>
#include <span>

#include "backend/cuda/msm/window.hpp"
#include "backend/cuda/runtime/device_bases.hpp"

namespace cuzk::cuda {
namespace {

size_t popcount_prefix(std::span<const uint64_t> words, size_t bits) {
  size_t count = 0;
  for (size_t w = 0; w < (bits + 63) / 64 && w < words.size(); ++w) {
    uint64_t x = words[w];
    if (w == bits / 64) x &= (uint64_t(1) << (bits % 64)) - 1;
    count += size_t(std::popcount(x));
  }
  return count;
}

// A fingerprint of a base array: its bytes at 64 places, first and last included. Resident
// contexts are found by address and count, and a freed key's address is soon reused by the next
// one; the fingerprint tells them apart.
template <class Affine>
uint64_t fingerprint(std::span<const Affine> bases) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  const size_t n = bases.size(), samples = std::min<size_t>(n, 64);
  for (size_t k = 0; k < samples; ++k) {
    const size_t i = samples == 1 ? 0 : k * (n - 1) / (samples - 1);
    const auto* b = reinterpret_cast<const unsigned char*>(&bases[i]);
    for (size_t j = 0; j < sizeof(Affine); ++j) h = (h ^ b[j]) * 0x100000001b3ull;
  }
  return h;
}

// The mix of a request's scalars (pick_resident_window), from about 4096 evenly spaced samples;
// absent variables of a density-form request count as zero. `on_device`: the scalars' device copy
// (the host vector's values may then be unspecified), sampled with one strided copy on `stream`.
template <class Affine>
Result<ScalarMix> sample_mix(const MsmRequest<Affine>& rq, const Fr* on_device, const Stream& stream) {
  const size_t n = rq.scalars.size(), samples = std::min<size_t>(n, 4096);
  if (samples == 0) return ScalarMix{};
  const size_t stride = n / samples;
  std::vector<Fr> copied;
  if (on_device) {
    copied.resize(samples);
    CUZK_TRY_STATUS(check(cudaMemcpy2DAsync(copied.data(), sizeof(Fr), on_device, stride * sizeof(Fr),
                                            sizeof(Fr), samples, cudaMemcpyDeviceToHost, stream.get()),
                          "cudaMemcpy2DAsync (scalar samples)"));
    CUZK_TRY_STATUS(stream.synchronize());
  }
  const Fr one = Fr::one();
  size_t zeros = 0, ones = 0;
  for (size_t k = 0; k < samples; ++k) {
    const size_t i = k * stride;
    const bool present = rq.density.empty() || ((rq.density[i / 64] >> (i % 64)) & 1);
    const Fr& x = on_device ? copied[k] : rq.scalars[i];
    if (!present || x == Fr::zero())
      ++zeros;
    else if (x == one)
      ++ones;
  }
  return ScalarMix{double(zeros) / double(samples), double(ones) / double(samples)};
}

}  // namespace

template <class Affine>
Result<MsmShape> msm_shape(const MsmRequest<Affine>& rq) {
  MsmShape sh;
  sh.n = rq.scalars.size();
  sh.nb = rq.bases.size();
  sh.dense = rq.density.empty();
  if (sh.dense && sh.nb != sh.n)
    return make_error("msm: " + std::to_string(sh.nb) + " bases for " + std::to_string(sh.n) + " scalars");
  if (!sh.dense) {
    if (rq.density.size() < (sh.n + 63) / 64)
      return make_error("msm: density bitmap shorter than the scalars");
    const size_t present = popcount_prefix(rq.density, sh.n);
    if (present != sh.nb)
      return make_error("msm: density marks " + std::to_string(present) + " scalars but there are " +
                        std::to_string(sh.nb) + " bases");
  }
  sh.max_points = std::max(sh.n, sh.nb);
  const char* group = sizeof(Affine) == sizeof(G1Affine) ? "g1" : "g2";
  sh.stage = std::string("msm ") + group + " " + std::to_string(sh.nb) + " bases";
  return sh;
}

template <>
MsmResidency::Map<G1Affine>& MsmResidency::contexts<G1Affine>() {
  return g1_;
}
template <>
MsmResidency::Map<G2Affine>& MsmResidency::contexts<G2Affine>() {
  return g2_;
}

bool MsmResidency::evict_one_idle() {
  uint64_t oldest = dev_.calls;
  int group = -1;
  for (const auto& [k, r] : g1_)
    if (r.last_used < oldest) oldest = r.last_used, group = 1;
  for (const auto& [k, r] : g2_)
    if (r.last_used < oldest) oldest = r.last_used, group = 2;
  const auto drop = [&](auto& map) {
    for (auto it = map.begin(); it != map.end(); ++it)
      if (it->second.last_used == oldest) {
        dev_.resident -= it->second.bytes;
        map.erase(it);
        return;
      }
  };
  if (group == 1) drop(g1_);
  if (group == 2) drop(g2_);
  if (g1_.empty() && g2_.empty()) release_work_area();
  return group > 0;
}

void MsmResidency::release_work_area() {
  if (!shared_work_) return;
  dev_.resident -= shared_work_->bytes();
  shared_work_.reset();
}

void MsmResidency::release_all() {
  g1_.clear();
  g2_.clear();
  shared_work_.reset();
  dev_.resident = 0;
}

template <class Affine>
Result<std::shared_ptr<const DeviceBuffer<Affine>>> MsmResidency::shared_bases_for(
    const MsmRequest<Affine>& rq, uint64_t print) {
  auto got = dev_.options.shared_bases->get(rq.bases, print, &dev_.stager(), dev_.stream());
  if (got && *got) call_holds_.push_back(*got);
  return got;
}

template <class Affine>
Result<Msm<Affine>*> MsmResidency::known_context(const MsmRequest<Affine>& rq, const MsmShape& sh,
                                                 uint64_t print, bool& found) {
  auto& map = contexts<Affine>();
  found = false;
  auto it = map.find(std::make_pair(static_cast<const void*>(rq.bases.data()), sh.nb));
  if (it == map.end()) return static_cast<Msm<Affine>*>(nullptr);
  if (it->second.fingerprint != print) {  // another array now lives at that address
    dev_.resident -= it->second.bytes;
    map.erase(it);
    return static_cast<Msm<Affine>*>(nullptr);
  }
  found = true;
  it->second.last_used = dev_.calls;
  if (!dev_.options.shared_bases) return &it->second.ctx;
  auto got = shared_bases_for(rq, print);
  if (!got) return got.error();
  if (!*got) {  // the store is full of bases other calls are using: stream this time
    dev_.resident -= it->second.bytes;
    map.erase(it);
    return static_cast<Msm<Affine>*>(nullptr);
  }
  if ((*got)->data() != it->second.bound) {  // evicted and uploaded again since the last call
    CUZK_TRY_STATUS(it->second.ctx.set_bases((*got)->data(), sh.nb, Memory::device, dev_.stream()));
    it->second.bound = (*got)->data();
  }
  return &it->second.ctx;
}

template <class Affine>
Result<std::pair<MsmConfig, MsmPlan>> MsmResidency::resident_plan(const MsmRequest<Affine>& rq,
                                                                  const MsmShape& sh,
                                                                  const Fr* device_scalars) {
  // Bases stay; the work buffers (digits, sort, buckets) grow with the points per pass, so a
  // resident context works in passes of at most `pass` points, in the work area all resident
  // contexts share: the resident memory is then mostly bases, and every base array of a 2^27
  // proof fits on a large card.
  const CudaBackendOptions& o = dev_.options;
  MsmConfig cfg;
  cfg.precompute = o.precompute;
  // With a DeviceBases store the bases live there, outside this backend's budget, which then
  // holds only the work area.
  cfg.referenced_bases = o.shared_bases != nullptr;
  cfg.narrow_windows = o.msm_narrow_windows;
  cfg.max_bases = sh.nb;  // density form: tables for the present variables only
  const double cap = resident_cap();
  auto mix = sample_mix(rq, device_scalars ? device_scalars : dev_.kept.copy_of(rq.scalars), dev_.stream());
  if (!mix) return mix.error();
  // The cheapest plan by the window model that fits the resident share, over passes from the
  // configured size down to kMinResidentPassPoints and every window at each (smaller passes are
  // slower, streamed bases far slower). The scalars of the first request stand for the later ones
  // (the same circuit, other witnesses).
  const auto config_for = [&](size_t pass, const ResidentWindow& w) {
    MsmConfig c = cfg;
    c.chunk_points = sh.max_points > pass ? pass : 0;
    c.window_bits = w.c;
    c.set_passes = w.by_sets;
    return c;
  };
  std::optional<Error> failed;
  const auto fits = [&](size_t pass, const ResidentWindow& w) {
    auto p = Msm<Affine>::plan(sh.max_points, config_for(pass, w), false);
    if (!p) {
      if (!failed) failed = p.error();
      return false;
    }
    return double(resident_with(p->base_bytes, p->work_bytes)) <= cap;
  };
  const ResidentChoice choice =
      choose_resident_window({.n = sh.max_points,
                              .pass = o.resident_pass_points ? o.resident_pass_points : kResidentPassPoints,
                              .precompute = cfg.precompute,
                              .mix = *mix,
                              .g2 = sizeof(typename Affine::field) > 48,
                              .bucket_cost = o.window_bucket_cost,
                              .set_passes = o.msm_set_passes,
                              .narrow = cfg.narrow_windows},
                             kMinResidentPassPoints, fits);
  if (failed && !choice.fits) return *failed;
  cfg = config_for(choice.pass, choice.window);
  // Too large at every size when it does not fit: the caller streams this context's bases.
  auto rp = Msm<Affine>::plan(sh.max_points, cfg, false);
  if (!rp) return rp.error();
  return std::make_pair(cfg, *rp);
}

size_t MsmResidency::resident_with(size_t base_bytes, size_t work_bytes) const {
  const size_t have = shared_work_ ? shared_work_->bytes() : 0;
  return dev_.resident + base_bytes + (work_bytes > have ? work_bytes : 0);
}

size_t MsmResidency::streaming_reserve() const {
  if (streaming_reserve_) return streaming_reserve_;
  constexpr size_t kChunk = size_t(1) << 22;
  MsmConfig cfg;
  cfg.chunk_points = kChunk;
  cfg.window_bits = streamed_windows(kChunk).front();
  // Two chunks: the plan of a context cut into passes (its alternating chunk buffers).
  auto plan = Msm<G2Affine>::plan(2 * kChunk, cfg, true);
  streaming_reserve_ = plan ? plan->total_bytes() : size_t(1) << 30;
  return streaming_reserve_;
}

double MsmResidency::resident_cap() const {
  const double fraction = dev_.options.resident_fraction * double(dev_.budget);
  // The reserve is at most a quarter of the budget: on a small one a streamed MSM takes smaller
  // chunks rather than every context streaming.
  const size_t reserve = std::min(streaming_reserve(), dev_.budget / 4);
  const size_t apart = dev_.compiled_resident + dev_.kept.bytes() + reserve;
  return std::min(fraction, dev_.budget > apart ? double(dev_.budget - apart) : 0.0);
}

Status MsmResidency::grow_work_area(size_t bytes) {
  auto grown = MsmWorkspace::create(dev_.device(), bytes);
  if (!grown) return grown.error();
  for (auto& [k, r] : g1_) CUZK_TRY_STATUS(r.ctx.use_workspace(*grown));
  for (auto& [k, r] : g2_) CUZK_TRY_STATUS(r.ctx.use_workspace(*grown));
  release_work_area();
  shared_work_ = std::move(*grown);
  dev_.resident += shared_work_->bytes();
  return Status::Ok();
}

template <class Affine>
Result<Msm<Affine>*> MsmResidency::resident_context(const MsmRequest<Affine>& rq, const MsmShape& sh,
                                                    const Fr* device_scalars) {
  const uint64_t print = fingerprint(rq.bases);
  bool found = false;
  auto known = known_context(rq, sh, print, found);
  if (!known || found) return known;
  auto planned = resident_plan(rq, sh, device_scalars);
  if (!planned) return planned.error();
  const MsmConfig cfg = planned->first;
  const MsmPlan rp = planned->second;
  const auto needed = [&] { return resident_with(rp.base_bytes, rp.work_bytes) - dev_.resident; };
  const double cap = resident_cap();
  // Contexts this call has not used (other parameter sets) give way, least recently used first.
  while (double(resident_with(rp.base_bytes, rp.work_bytes)) > cap && evict_one_idle()) {
  }
  if (double(resident_with(rp.base_bytes, rp.work_bytes)) > cap) return static_cast<Msm<Affine>*>(nullptr);
  const bool shared = dev_.options.shared_bases != nullptr;
  std::shared_ptr<const DeviceBuffer<Affine>> on_device;
  if (shared) {
    auto got = shared_bases_for(rq, print);
    if (!got) return got.error();
    if (!*got) return static_cast<Msm<Affine>*>(nullptr);  // the store is full: stream
    on_device = std::move(*got);
  }
  dev_.record(
      {sh.stage,
       std::string(shared ? "made resident (bases shared by the device's workers)" : "made resident") +
           "; window " + std::to_string(cfg.window_bits) +
           (cfg.chunk_points ? ", passes of " + std::to_string(cfg.chunk_points) + " points" +
                                   (cfg.set_passes ? " by set groups" : "")
                             : ", one pass"),
       needed()});
  const auto t0 = std::chrono::steady_clock::now();
  dev_.cache.trim(needed());
  if (!shared_work_ || shared_work_->bytes() < rp.work_bytes) CUZK_TRY_STATUS(grow_work_area(rp.work_bytes));
  auto made = Msm<Affine>::create(dev_.device(), sh.max_points, cfg, false, shared_work_);
  if (!made) return made.error();
  made->set_stager(&dev_.stager());
  if (on_device)
    CUZK_TRY_STATUS(made->set_bases(on_device->data(), sh.nb, Memory::device, dev_.stream()));
  else
    CUZK_TRY_STATUS(made->set_bases(rq.bases.data(), sh.nb, Memory::host, dev_.stream()));
  const auto key = std::make_pair(static_cast<const void*>(rq.bases.data()), sh.nb);
  auto it =
      contexts<Affine>()
          .emplace(key, Resident<Affine>{std::move(*made), rp.base_bytes, print, dev_.calls, on_device.get()})
          .first;
  dev_.resident += rp.base_bytes;
  dev_.finish(t0);
  return &it->second.ctx;
}

// Buckets scale with the window (2^(c-1) per window) and staging with the chunk, so the largest
// chunk is tried first and, for each, windows from the cost model's choice down to narrow ones.
template <class Affine>
Result<Msm<Affine>> MsmResidency::streamed_context(const MsmRequest<Affine>& rq, const MsmShape& sh) {
  std::optional<MsmConfig> chosen;
  size_t bytes = 0, avail = 0;
  const auto search = [&] {
    // Chunks from all the points down to 1024 (or to all of them, for fewer: an input MSM).
    const size_t smallest = std::min<size_t>(sh.max_points, 1024);
    for (size_t chunk = sh.max_points; !chosen && chunk >= smallest; chunk /= 2) {
      for (unsigned c : streamed_windows(chunk)) {
        MsmConfig cfg;
        cfg.chunk_points = chunk < sh.max_points ? chunk : 0;
        cfg.window_bits = c;
        auto p = Msm<Affine>::plan(sh.max_points, cfg, true);
        if (!p) continue;  // a shape the kernels do not take (e.g. chunk × windows ≥ 2^32): smaller
        if (p->total_bytes() <= avail) {
          chosen = cfg;
          bytes = p->total_bytes();
          break;
        }
      }
    }
  };
  // Resident bases of other parameter sets give way while the best plan is small chunks or none.
  do {
    chosen.reset();
    avail = dev_.available();
    search();
  } while ((!chosen || (chosen->chunk_points && chosen->chunk_points < (size_t(1) << 22))) &&
           evict_one_idle());
  if (!chosen)
    return make_error("device " + std::to_string(dev_.device()) + ": " + sh.stage +
                      " does not fit in the budget left (" + mib(avail) + " of " + mib(dev_.budget) + ")");
  dev_.record(
      {sh.stage,
       chosen->chunk_points ? "streamed in chunks of " + std::to_string(chosen->chunk_points) : "streamed",
       bytes});
  dev_.cache.trim(bytes);
  auto made = Msm<Affine>::create(dev_.device(), sh.max_points, *chosen, true);
  if (!made) return made.error();
  made->set_stager(&dev_.stager());
  CUZK_TRY_STATUS(made->set_bases(rq.bases.data(), sh.nb, Memory::host, dev_.stream()));
  return std::move(*made);
}

template <class Affine>
Result<JacobianOf<Affine>> MsmResidency::run_on(Msm<Affine>& ctx, const MsmRequest<Affine>& rq,
                                                const MsmShape& sh, const Fr* scalars, Memory where) {
  const auto t0 = std::chrono::steady_clock::now();
  const Stream& s = dev_.stream();
  auto out = sh.dense ? ctx.run(scalars, sh.n, where, ScalarForm::montgomery, s)
                      : ctx.run(scalars, sh.n, rq.density.data(), where, ScalarForm::montgomery, s);
  dev_.finish(t0);
  return out;
}

template <class Affine>
Result<JacobianOf<Affine>> MsmResidency::msm(const MsmRequest<Affine>& rq, const Fr* device_scalars) {
  auto sh = msm_shape(rq);
  if (!sh) return sh.error();
  if (sh->n == 0 || sh->nb == 0) return JacobianOf<Affine>::infinity();
  if (!device_scalars) device_scalars = dev_.kept.copy_of(rq.scalars);
  const Fr* scalars = device_scalars ? device_scalars : rq.scalars.data();
  const Memory where = device_scalars ? Memory::device : Memory::host;
  auto ctx = resident_context(rq, *sh, device_scalars);
  if (!ctx) return ctx.error();
  if (*ctx) {
    dev_.record({sh->stage, "resident (reused)", 0});
    return run_on(**ctx, rq, *sh, scalars, where);
  }
  auto streamed = streamed_context(rq, *sh);
  if (!streamed) return streamed.error();
  return run_on(*streamed, rq, *sh, scalars, where);
}

template <class Affine, class SourceAffine>
Result<std::optional<JacobianOf<Affine>>> MsmResidency::msm_sorted_by(
    const MsmRequest<Affine>& rq, const MsmRequest<SourceAffine>& source) {
  using Out = std::optional<JacobianOf<Affine>>;
  auto sh = msm_shape(rq), src_sh = msm_shape(source);
  if (!sh) return sh.error();
  if (!src_sh) return src_sh.error();
  auto& map = contexts<SourceAffine>();
  const auto src = map.find(std::make_pair(static_cast<const void*>(source.bases.data()), src_sh->nb));
  if (src == map.end()) return Out{};
  auto ctx = resident_context(rq, *sh);
  if (!ctx) return ctx.error();
  if (!*ctx || !(*ctx)->can_run_sorted_by(src->second.ctx)) return Out{};
  dev_.record({sh->stage, "resident (reused), digits sorted by the MSM before", 0});
  const auto t0 = std::chrono::steady_clock::now();
  auto r = (*ctx)->run_sorted_by(src->second.ctx, dev_.stream());
  dev_.finish(t0);
  if (!r) return r.error();
  return Out{*r};
}

template Result<MsmShape> msm_shape(const MsmRequest<G1Affine>&);
template Result<MsmShape> msm_shape(const MsmRequest<G2Affine>&);
template Result<G1Jacobian> MsmResidency::msm(const MsmRequest<G1Affine>&, const Fr*);
template Result<G2Jacobian> MsmResidency::msm(const MsmRequest<G2Affine>&, const Fr*);
template Result<Msm<G1Affine>*> MsmResidency::resident_context(const MsmRequest<G1Affine>&, const MsmShape&,
                                                               const Fr*);
template Result<Msm<G2Affine>*> MsmResidency::resident_context(const MsmRequest<G2Affine>&, const MsmShape&,
                                                               const Fr*);
template Result<std::optional<G1Jacobian>> MsmResidency::msm_sorted_by(const MsmRequest<G1Affine>&,
                                                                       const MsmRequest<G1Affine>&);
template Result<std::optional<G1Jacobian>> MsmResidency::msm_sorted_by(const MsmRequest<G1Affine>&,
                                                                       const MsmRequest<G2Affine>&);
template Result<std::optional<G2Jacobian>> MsmResidency::msm_sorted_by(const MsmRequest<G2Affine>&,
                                                                       const MsmRequest<G1Affine>&);
template Result<std::optional<G2Jacobian>> MsmResidency::msm_sorted_by(const MsmRequest<G2Affine>&,
                                                                       const MsmRequest<G2Affine>&);

}  // namespace cuzk::cuda
