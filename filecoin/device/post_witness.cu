// The FallbackPoSt witness blocks on the device: one thread a block (a sector's header or one
// challenge's path), the same straight-line code as the host's (post_witness_blocks.hpp). A 32 GiB
// WindowPoSt partition is 25 839 blocks: 2349 headers of one width-3 hash, 23 490 paths of ten
// width-9 hashes, about 2·10^4 multiplications a path, and 4 GB of values written.
#include <cuda_runtime.h>

#include <string>

#include "backend/cuda/runtime/runtime.hpp"
#include "filecoin/device/post_witness_device.hpp"

namespace cuzk::filecoin::post_witness {

namespace {

constexpr size_t kAlign = 256;
constexpr unsigned kThreads = 64;  // a block's registers are many; small blocks fill the SMs evenly

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

struct Layout {
  size_t geometry = 0, tables = 0, sectors = 0, indices = 0, bad = 0, total = 0;
};

Layout layout_of(const DeviceInputs& in) {
  Layout l;
  l.tables = l.geometry + aligned(sizeof(Geometry));
  l.sectors = l.tables + aligned(in.tables.size_bytes());
  l.indices = l.sectors + aligned(in.sectors.size_bytes());
  l.bad = l.indices + aligned(in.indices.size_bytes());
  l.total = l.bad + aligned(sizeof(unsigned long long));
  return l;
}

__global__ void blocks_kernel(const Geometry* g, const Fr* tables, const Fr* sectors, const uint64_t* indices,
                              Fr* aux, bool check_roots, unsigned long long* first_bad) {
  const uint64_t block = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (block >= g->blocks()) return;
  Fr comm_r_last;
  const Fr root = block_vars(*g, tables, sectors, indices, block, aux, &comm_r_last);
  if (check_roots && root != comm_r_last) atomicMin(first_bad, static_cast<unsigned long long>(block));
}

}  // namespace

size_t device_scratch_bytes(const DeviceInputs& in) { return layout_of(in).total; }

Status fill_on_device(const DeviceInputs& in, Fr* aux, void* scratch, void* stream_handle,
                      uint64_t& first_bad) {
  first_bad = UINT64_MAX;
  if (in.geometry == nullptr) return make_error("post witness: no geometry");
  const Geometry& g = *in.geometry;
  const Layout l = layout_of(in);
  auto* base = static_cast<char*>(scratch);
  auto stream = static_cast<cudaStream_t>(stream_handle);
  const auto copy = [&](size_t at, const void* src, size_t bytes) {
    return cuda::check(cudaMemcpyAsync(base + at, src, bytes, cudaMemcpyHostToDevice, stream),
                       "cudaMemcpyAsync (post witness inputs)");
  };
  const unsigned long long none = ~0ull;
  CUZK_TRY_STATUS(copy(l.geometry, &g, sizeof(Geometry)));
  CUZK_TRY_STATUS(copy(l.tables, in.tables.data(), in.tables.size_bytes()));
  CUZK_TRY_STATUS(copy(l.sectors, in.sectors.data(), in.sectors.size_bytes()));
  CUZK_TRY_STATUS(copy(l.indices, in.indices.data(), in.indices.size_bytes()));
  CUZK_TRY_STATUS(copy(l.bad, &none, sizeof(none)));
  const uint64_t n = g.blocks();
  const auto grid = unsigned((n + kThreads - 1) / kThreads);
  auto* bad = reinterpret_cast<unsigned long long*>(base + l.bad);
  blocks_kernel<<<grid, kThreads, 0, stream>>>(
      reinterpret_cast<const Geometry*>(base + l.geometry), reinterpret_cast<const Fr*>(base + l.tables),
      reinterpret_cast<const Fr*>(base + l.sectors), reinterpret_cast<const uint64_t*>(base + l.indices), aux,
      in.check_roots, bad);
  CUZK_TRY_STATUS(cuda::check(cudaGetLastError(), "post witness kernel launch"));
  unsigned long long result = 0;
  CUZK_TRY_STATUS(cuda::check(cudaMemcpyAsync(&result, bad, sizeof(result), cudaMemcpyDeviceToHost, stream),
                              "cudaMemcpyAsync (post witness verdict)"));
  CUZK_TRY_STATUS(cuda::check(cudaStreamSynchronize(stream), "post witness kernel"));
  first_bad = result;
  return Status::Ok();
}

}  // namespace cuzk::filecoin::post_witness
