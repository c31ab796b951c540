#include <algorithm>
#include <vector>

#include "backend/cuda/fixed_base/fixed_base.hpp"
#include "curve/point.hpp"

namespace cuzk::cuda {
namespace {

constexpr unsigned kWindow = 8;
constexpr unsigned kWindows = 32;  // 32 × 8 bits cover every scalar below r < 2^255
constexpr unsigned kRow = 1u << kWindow;

template <class Affine>
using XyzzOf = curve::xyzz_t<typename Affine::field, typename Affine::params>;

// One thread per scalar: Σ_w table[w][digit_w], then affine.
template <class Affine>
__global__ void fixed_base_kernel(const Fr* __restrict__ scalars, uint32_t n,
                                  const Affine* __restrict__ table, Affine* __restrict__ out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t v[Fr::N];
  scalars[i].to_canonical(v);
  XyzzOf<Affine> acc = XyzzOf<Affine>::infinity();
#pragma unroll 1
  for (unsigned w = 0; w < kWindows; ++w) {
    const unsigned bit = w * kWindow;
    const unsigned digit = unsigned(v[bit / 64] >> (bit % 64)) & (kRow - 1);
    if (digit) acc = acc.add_mixed(table[w * kRow + digit]);
  }
  out[i] = acc.to_affine();
}

}  // namespace

template <class Affine>
struct FixedBaseMul<Affine>::State {
  int device = 0;
  size_t chunk = 0;
  Stream stream;
  std::unique_ptr<HostStager> stager;
  DeviceBuffer<Affine> table;
  DeviceBuffer<Fr> scalars;
  DeviceBuffer<Affine> out;
  explicit State(Stream s) : stream(std::move(s)) {}
};

template <class Affine>
size_t FixedBaseMul<Affine>::device_bytes(size_t chunk) {
  return size_t(kWindows) * kRow * sizeof(Affine) + chunk * (sizeof(Fr) + sizeof(Affine));
}

template <class Affine>
Result<FixedBaseMul<Affine>> FixedBaseMul<Affine>::create(int device, const Affine& base, size_t chunk) {
  if (chunk == 0 || chunk >= (size_t(1) << 31)) return make_error("fixed-base: chunk out of range");
  if (base.is_inf()) return make_error("fixed-base: the base is the identity");
  const std::vector<Affine> host = curve::window_table(base, kWindow, kWindows);
  auto s = Stream::create(device);
  if (!s) return s.error();
  auto st = std::make_unique<State>(std::move(*s));
  st->device = device;
  st->chunk = chunk;
  auto stager = HostStager::create(device);
  if (!stager) return stager.error();
  st->stager = std::move(*stager);
  auto table = DeviceBuffer<Affine>::alloc(device, host.size());
  if (!table) return table.error();
  st->table = std::move(*table);
  auto sc = DeviceBuffer<Fr>::alloc(device, chunk);
  if (!sc) return sc.error();
  st->scalars = std::move(*sc);
  auto out = DeviceBuffer<Affine>::alloc(device, chunk);
  if (!out) return out.error();
  st->out = std::move(*out);
  CUZK_TRY_STATUS(
      st->stager->to_device(st->table.data(), host.data(), host.size() * sizeof(Affine), st->stream));
  CUZK_TRY_STATUS(st->stream.synchronize());
  return FixedBaseMul(std::move(st));
}

template <class Affine>
Status FixedBaseMul<Affine>::mul_many(std::span<const Fr> scalars, std::span<Affine> out) {
  State& st = *st_;
  if (out.size() != scalars.size())
    return make_error("fixed-base: " + std::to_string(out.size()) + " outputs for " +
                      std::to_string(scalars.size()) + " scalars");
  auto g = DeviceGuard::enter(st.device);
  if (!g) return g.error();
  constexpr unsigned kThreads = 128;
  for (size_t i0 = 0; i0 < scalars.size(); i0 += st.chunk) {
    const size_t len = std::min(st.chunk, scalars.size() - i0);
    CUZK_TRY_STATUS(
        st.stager->to_device(st.scalars.data(), scalars.data() + i0, len * sizeof(Fr), st.stream));
    fixed_base_kernel<Affine><<<unsigned((len + kThreads - 1) / kThreads), kThreads, 0, st.stream.get()>>>(
        st.scalars.data(), uint32_t(len), st.table.data(), st.out.data());
    CUZK_TRY_STATUS(check_launch("fixed_base_kernel"));
    CUZK_TRY_STATUS(st.stager->to_host(out.data() + i0, st.out.data(), len * sizeof(Affine), st.stream));
  }
  return st.stream.synchronize();
}

template <class Affine>
FixedBaseMul<Affine>::FixedBaseMul(std::unique_ptr<State> st) : st_(std::move(st)) {}
template <class Affine>
FixedBaseMul<Affine>::FixedBaseMul(FixedBaseMul&&) noexcept = default;
template <class Affine>
FixedBaseMul<Affine>& FixedBaseMul<Affine>::operator=(FixedBaseMul&&) noexcept = default;
template <class Affine>
FixedBaseMul<Affine>::~FixedBaseMul() = default;

template class FixedBaseMul<G1Affine>;
template class FixedBaseMul<G2Affine>;

}  // namespace cuzk::cuda
