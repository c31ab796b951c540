#include "backend/cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <optional>

#include "backend/cuda/msm.hpp"
#include "backend/cuda/ntt.hpp"
#include "backend/cuda/runtime.hpp"

namespace cuzk::cuda {
namespace {

std::string mib(size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

size_t popcount_prefix(std::span<const uint64_t> words, size_t bits) {
  size_t count = 0;
  for (size_t w = 0; w < (bits + 63) / 64 && w < words.size(); ++w) {
    uint64_t x = words[w];
    if (w == bits / 64) x &= (uint64_t(1) << (bits % 64)) - 1;
    count += size_t(std::popcount(x));
  }
  return count;
}

// An MSM context that keeps its bases on the device between calls.
template <class Affine>
struct ResidentMsm {
  Msm<Affine> ctx;
  size_t bytes;
};

template <class Affine>
using ResidentMap = std::map<std::pair<const void*, size_t>, ResidentMsm<Affine>>;

}  // namespace

struct CudaBackend::Impl {
  CudaBackendOptions options;
  size_t budget = 0;
  Stream stream;
  mutable std::mutex mutex;  // a backend serves one call at a time (one per worker)
  ResidentMap<G1Affine> g1;
  ResidentMap<G2Affine> g2;
  size_t resident = 0, peak = 0;
  std::vector<StagePlan> log;

  Impl(const CudaBackendOptions& o, size_t b, Stream s) : options(o), budget(b), stream(std::move(s)) {}

  size_t available() const { return budget > resident ? budget - resident : 0; }
  void record(const StagePlan& p) {
    log.push_back(p);
    peak = std::max(peak, resident + p.bytes);
  }

  Result<StagePlan> plan_h(unsigned log_n) const {
    const size_t n = size_t(1) << log_n;
    const size_t vec = n * sizeof(Fr);
    const size_t fixed = NttPlan::device_bytes_for(log_n) + 4 * (size_t(2) << ((log_n + 1) / 2)) * sizeof(Fr);
    const size_t avail = available();
    if (3 * vec + fixed <= avail)
      return StagePlan{"h 2^" + std::to_string(log_n), "a, b, c resident", 3 * vec + fixed};
    // One vector on the device; b and c transformed one at a time through it, then streamed back
    // in chunks for the pointwise step.
    for (size_t chunk = std::min<size_t>(n, size_t(1) << 22); chunk >= (size_t(1) << 12); chunk /= 2) {
      const size_t bytes = vec + fixed + 2 * chunk * sizeof(Fr);
      if (bytes <= avail)
        return StagePlan{"h 2^" + std::to_string(log_n),
                         "one vector + b, c streamed in chunks of " + std::to_string(chunk), bytes};
    }
    return make_error("device " + std::to_string(options.device) + ": the H stage of 2^" +
                      std::to_string(log_n) + " needs at least " + mib(vec + fixed + 2 * 4096 * sizeof(Fr)) +
                      " but the budget leaves " + mib(avail) + " (budget " + mib(budget) + ", resident " +
                      mib(resident) + ")");
  }

  Status compute_h(const HRequest& rq) {
    const unsigned log_n = rq.log_n;
    const size_t n = size_t(1) << log_n;
    if (rq.a.size() != n || rq.b.size() != n || rq.c.size() != n)
      return make_error("compute_h: a, b and c must each hold 2^" + std::to_string(log_n) + " values");
    auto plan = plan_h(log_n);
    if (!plan) return plan.error();
    record(*plan);
    const bool lean = plan->choice != "a, b, c resident";
    const Stream& s = stream;

    auto ntt = NttPlan::create(s, log_n, rq.convention);
    if (!ntt) return ntt.error();
    auto coset = ntt->coset_powers(s, log_n);
    if (!coset) return coset.error();
    // Bellman divides by Z(g·ω^j) = g^n − 1 on the coset; snarkjs does not divide.
    const Fr z = rq.mode == HMode::divide_by_z_on_coset
                     ? (ntt->default_coset_shift(log_n).pow(uint64_t(n)) - Fr::one()).inverse()
                     : Fr::one();
    // Domain evaluations → coefficients (bit-reversed) → coset evaluations (natural).
    const auto to_coset = [&](Fr* d) -> Status {
      CUZK_TRY_STATUS(ntt->inverse(s, d, log_n, NttOrder::natural, NttOrder::bit_reversed));
      return ntt->coset_forward(s, d, *coset, NttOrder::bit_reversed, NttOrder::natural);
    };

    auto a = DeviceBuffer<Fr>::alloc(options.device, n);
    if (!a) return a.error();
    if (!lean) {
      auto b = DeviceBuffer<Fr>::alloc(options.device, n);
      if (!b) return b.error();
      auto c = DeviceBuffer<Fr>::alloc(options.device, n);
      if (!c) return c.error();
      CUZK_TRY_STATUS(a->upload(rq.a.data(), n, s));
      CUZK_TRY_STATUS(b->upload(rq.b.data(), n, s));
      CUZK_TRY_STATUS(c->upload(rq.c.data(), n, s));
      CUZK_TRY_STATUS(to_coset(a->data()));
      CUZK_TRY_STATUS(to_coset(b->data()));
      CUZK_TRY_STATUS(to_coset(c->data()));
      CUZK_TRY_STATUS(mul_sub_scale(s, a->data(), b->data(), c->data(), z, n));
    } else {
      // b and c through the one device vector, back to host memory as coset evaluations.
      for (std::span<Fr> v : {rq.b, rq.c}) {
        CUZK_TRY_STATUS(a->upload(v.data(), n, s));
        CUZK_TRY_STATUS(to_coset(a->data()));
        CUZK_TRY_STATUS(a->download(v.data(), n, s));
      }
      CUZK_TRY_STATUS(a->upload(rq.a.data(), n, s));
      CUZK_TRY_STATUS(to_coset(a->data()));
      const size_t chunk = (plan->bytes - n * sizeof(Fr) - NttPlan::device_bytes_for(log_n) -
                            4 * (size_t(2) << ((log_n + 1) / 2)) * sizeof(Fr)) /
                           (2 * sizeof(Fr));
      auto sb = DeviceBuffer<Fr>::alloc(options.device, chunk);
      if (!sb) return sb.error();
      auto sc = DeviceBuffer<Fr>::alloc(options.device, chunk);
      if (!sc) return sc.error();
      for (size_t off = 0; off < n; off += chunk) {
        const size_t len = std::min(chunk, n - off);
        CUZK_TRY_STATUS(sb->upload(rq.b.data() + off, len, s));
        CUZK_TRY_STATUS(sc->upload(rq.c.data() + off, len, s));
        CUZK_TRY_STATUS(mul_sub_scale(s, a->data() + off, sb->data(), sc->data(), z, len));
      }
    }
    if (rq.mode == HMode::divide_by_z_on_coset)
      CUZK_TRY_STATUS(ntt->coset_inverse(s, a->data(), *coset, NttOrder::natural, NttOrder::natural));
    CUZK_TRY_STATUS(a->download(rq.a.data(), n, s));
    return s.synchronize();
  }

  template <class Affine>
  ResidentMap<Affine>& resident_map();

  template <class Affine>
  Result<curve::jacobian_t<typename Affine::field, typename Affine::params>> msm(
      const MsmRequest<Affine>& rq) {
    using Jacobian = curve::jacobian_t<typename Affine::field, typename Affine::params>;
    const size_t n = rq.scalars.size(), nb = rq.bases.size();
    const bool dense = rq.density.empty();
    if (dense && nb != n)
      return make_error("msm: " + std::to_string(nb) + " bases for " + std::to_string(n) + " scalars");
    if (!dense) {
      if (rq.density.size() < (n + 63) / 64)
        return make_error("msm: density bitmap shorter than the scalars");
      const size_t present = popcount_prefix(rq.density, n);
      if (present != nb)
        return make_error("msm: density marks " + std::to_string(present) + " scalars but there are " +
                          std::to_string(nb) + " bases");
    }
    if (n == 0 || nb == 0) return Jacobian::infinity();
    const size_t max_points = std::max(n, nb);
    const char* group = sizeof(Affine) == sizeof(G1Affine) ? "g1" : "g2";
    const std::string stage = std::string("msm ") + group + " " + std::to_string(nb) + " bases";

    auto& map = resident_map<Affine>();
    const auto key = std::make_pair(static_cast<const void*>(rq.bases.data()), nb);
    auto it = map.find(key);
    std::optional<Msm<Affine>> ephemeral;
    Msm<Affine>* ctx = nullptr;
    if (it != map.end()) {
      ctx = &it->second.ctx;
      record({stage, "resident (reused)", 0});
    } else {
      MsmConfig resident_cfg;
      resident_cfg.precompute = options.precompute;
      auto rp = Msm<Affine>::plan(max_points, resident_cfg, false);
      if (!rp) return rp.error();
      const double cap = options.resident_fraction * double(budget);
      if (double(resident + rp->total_bytes()) <= cap) {
        record({stage, "made resident", rp->total_bytes()});
        auto made = Msm<Affine>::create(options.device, max_points, resident_cfg, false);
        if (!made) return made.error();
        CUZK_TRY_STATUS(made->set_bases(rq.bases.data(), nb, Memory::host, stream));
        it = map.emplace(key, ResidentMsm<Affine>{std::move(*made), rp->total_bytes()}).first;
        resident += rp->total_bytes();
        ctx = &it->second.ctx;
      } else {
        // Streamed: bases stay on the host, scalars and bases go through in chunks. Buckets scale
        // with the window (2^(c-1) per window) and staging with the chunk, so try the largest chunk
        // first and, for each, windows from the cost model's choice down to narrow ones.
        const size_t avail = available();
        std::optional<MsmConfig> chosen;
        size_t bytes = 0;
        for (size_t chunk = max_points; !chosen && chunk >= 1024; chunk = chunk > 1024 ? chunk / 2 : 0) {
          const unsigned widest = msm_pick_window(chunk, 1);
          for (unsigned c = widest; !chosen && c >= 4; c = c > 6 ? c - 2 : c - 1) {
            MsmConfig cfg;
            cfg.chunk_points = chunk < max_points ? chunk : 0;
            cfg.window_bits = c;
            auto p = Msm<Affine>::plan(max_points, cfg, true);
            if (!p) return p.error();
            if (p->total_bytes() <= avail) {
              chosen = cfg;
              bytes = p->total_bytes();
            }
          }
          if (chunk < 1024 * 2) break;
        }
        if (!chosen)
          return make_error("device " + std::to_string(options.device) + ": " + stage +
                            " does not fit in the budget left (" + mib(avail) + " of " + mib(budget) + ")");
        record({stage,
                chosen->chunk_points ? "streamed in chunks of " + std::to_string(chosen->chunk_points)
                                     : "streamed",
                bytes});
        auto made = Msm<Affine>::create(options.device, max_points, *chosen, true);
        if (!made) return made.error();
        ephemeral.emplace(std::move(*made));
        CUZK_TRY_STATUS(ephemeral->set_bases(rq.bases.data(), nb, Memory::host, stream));
        ctx = &*ephemeral;
      }
    }
    return dense ? ctx->run(rq.scalars.data(), n, Memory::host, ScalarForm::montgomery, stream)
                 : ctx->run(rq.scalars.data(), n, rq.density.data(), Memory::host, ScalarForm::montgomery,
                            stream);
  }
};

template <>
ResidentMap<G1Affine>& CudaBackend::Impl::resident_map<G1Affine>() {
  return g1;
}
template <>
ResidentMap<G2Affine>& CudaBackend::Impl::resident_map<G2Affine>() {
  return g2;
}

Result<std::unique_ptr<CudaBackend>> CudaBackend::create(const CudaBackendOptions& options) {
  std::string why;
  const int count = device_count(&why);
  if (options.device < 0 || options.device >= count)
    return make_error("cuda: no device " + std::to_string(options.device) + " (" + std::to_string(count) +
                      " found" + (why.empty() ? "" : ": " + why) + ")");
  auto guard = DeviceGuard::enter(options.device);
  if (!guard) return guard.error();
  size_t free_bytes = 0, total_bytes = 0;
  CUZK_TRY_STATUS(check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
  size_t budget = options.vram_budget;
  if (budget == 0) budget = free_bytes > options.margin ? free_bytes - options.margin : 0;
  if (budget > free_bytes)
    return make_error("cuda: device " + std::to_string(options.device) + " has " + mib(free_bytes) +
                      " free, less than the budget of " + mib(budget));
  auto stream = Stream::create(options.device);
  if (!stream) return stream.error();
  auto impl = std::make_unique<Impl>(options, budget, std::move(*stream));
  auto backend = std::unique_ptr<CudaBackend>(new CudaBackend(std::move(impl)));
  backend->budget_ = budget;
  return backend;
}

CudaBackend::CudaBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CudaBackend::~CudaBackend() = default;

std::string CudaBackend::name() const { return "cuda:" + std::to_string(impl_->options.device); }

Status CudaBackend::compute_h(const HRequest& rq) {
  std::lock_guard lock(impl_->mutex);
  auto guard = DeviceGuard::enter(impl_->options.device);
  if (!guard) return guard.error();
  return impl_->compute_h(rq);
}

Result<G1Jacobian> CudaBackend::msm(const MsmRequest<G1Affine>& rq) {
  std::lock_guard lock(impl_->mutex);
  auto guard = DeviceGuard::enter(impl_->options.device);
  if (!guard) return guard.error();
  return impl_->msm(rq);
}

Result<G2Jacobian> CudaBackend::msm(const MsmRequest<G2Affine>& rq) {
  std::lock_guard lock(impl_->mutex);
  auto guard = DeviceGuard::enter(impl_->options.device);
  if (!guard) return guard.error();
  return impl_->msm(rq);
}

Result<StagePlan> CudaBackend::plan_h(unsigned log_n) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->plan_h(log_n);
}

size_t CudaBackend::resident_bytes() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->resident;
}

size_t CudaBackend::peak_planned_bytes() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->peak;
}

std::vector<StagePlan> CudaBackend::plan_log() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->log;
}

void CudaBackend::clear_log() {
  std::lock_guard lock(impl_->mutex);
  impl_->log.clear();
}

void CudaBackend::release_resident() {
  std::lock_guard lock(impl_->mutex);
  impl_->g1.clear();
  impl_->g2.clear();
  impl_->resident = 0;
}

}  // namespace cuzk::cuda
