#include "backend/cuda/spmv/spmv.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "backend/cuda/runtime/device_cache.hpp"
#include "backend/cuda/runtime/staging.hpp"
#include "backend/cuda/spmv/kernels.hpp"

namespace cuzk::cuda {
namespace {

using spmv_detail::RowRun;
using spmv_detail::sum_rows;

std::string mib_of(size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// The outputs against the circuit's shape: the ones given (at least one; an empty side is not
// formed) equally long and at least num_rows, all on `s`'s device; c only where there is a C side.
// Returns their length.
Result<size_t> check_outputs(size_t rows, bool has_c, int device, DeviceSpan<Fr> a, DeviceSpan<Fr> b,
                             DeviceSpan<Fr> c) {
  size_t n = 0;
  for (const DeviceSpan<Fr>* v : {&a, &b, &c}) {
    if (v->size() == 0) continue;
    if (n != 0 && v->size() != n) return make_error("spmv: a, b and c, where given, must be equally long");
    n = v->size();
    if (v->device() != device) return make_error("spmv: an output on another device");
  }
  if (n == 0) return make_error("spmv: no output to form");
  if (n < rows)
    return make_error("spmv: the outputs hold " + std::to_string(n) + " values, fewer than the " +
                      std::to_string(rows) + " rows");
  if (c.size() != 0 && !has_c) return make_error("spmv: the circuit has no C side (c stands for a∘b)");
  return n;
}

// Rows num_constraints .. n − 1 of one output: the input constraints' values (a: x_i; b, c: 0), then
// zeros. The zero of Fr is all zero bytes in Montgomery form too.
Status fill_tail(const Stream& s, Fr* out, size_t n, size_t constraints, const Fr* inputs,
                 size_t num_inputs) {
  CUZK_TRY_STATUS(check(cudaMemsetAsync(out + constraints, 0, (n - constraints) * sizeof(Fr), s.get()),
                        "cudaMemsetAsync (spmv tail)"));
  if (!inputs) return Status::Ok();
  return check(
      cudaMemcpyAsync(out + constraints, inputs, num_inputs * sizeof(Fr), cudaMemcpyDeviceToDevice, s.get()),
      "cudaMemcpyAsync (spmv input rows)");
}

// Two events per buffer set of the streamed evaluation: its chunk copied (the product waits), its
// chunk consumed (the next copy into it waits).
struct ChunkEvents {
  cudaEvent_t copied[2] = {}, consumed[2] = {}, start = nullptr;
  ~ChunkEvents() {
    for (cudaEvent_t e : {copied[0], copied[1], consumed[0], consumed[1], start})
      if (e) (void)cudaEventDestroy(e);
  }
  Status create() {
    for (cudaEvent_t* e : {&copied[0], &copied[1], &consumed[0], &consumed[1], &start})
      CUZK_TRY_STATUS(check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate (spmv)"));
    return Status::Ok();
  }
};

template <class T>
Result<DeviceBuffer<T>> take(DeviceCache* cache, int device, size_t n) {
  if (cache) return cache->take<T>(n);
  return DeviceBuffer<T>::alloc(device, n);
}

}  // namespace

size_t streamed_chunk_bytes(size_t rows, size_t terms) {
  return 2 * (rows + 1 + 2 * terms) * sizeof(uint32_t);
}

Result<SpmvPlan> plan_spmv(const CircuitMatrices& m, bool resident, size_t available) {
  if (const std::string why = circuit_shape_error(m); !why.empty()) return make_error("spmv: " + why);
  SpmvPlan p;
  p.witness_bytes = m.num_wires() * sizeof(Fr);
  if (resident) {
    p.kind = SpmvPlan::Kind::resident;
    p.stage_bytes = p.witness_bytes;
    p.choice = "matrices resident";
    if (p.stage_bytes > available)
      return make_error("spmv: the witness needs " + mib_of(p.stage_bytes) + " but the budget leaves " +
                        mib_of(available));
    return p;
  }
  size_t max_terms = 1;
  for (const SparseSide& s : m.sides) max_terms = std::max(max_terms, s.nnz());
  const size_t table = m.coeffs.size_bytes();
  const size_t rows = std::max<size_t>(1, size_t(m.num_constraints));
  for (size_t terms = size_t(1) << 24; terms >= (size_t(1) << 16); terms /= 2) {
    const size_t t = std::min(terms, max_terms), r = std::min(terms, rows);
    const size_t bytes = p.witness_bytes + table + streamed_chunk_bytes(r, t);
    if (bytes > available) continue;
    p.kind = SpmvPlan::Kind::streamed;
    p.chunk_rows = r;
    p.chunk_terms = t;
    p.stage_bytes = bytes;
    p.choice = "matrices streamed in chunks of " + std::to_string(t) + " terms";
    return p;
  }
  return make_error("spmv: streaming the matrices needs at least " +
                    mib_of(p.witness_bytes + table + streamed_chunk_bytes(1 << 16, 1 << 16)) +
                    " but the budget leaves " + mib_of(available));
}

Status upload_witness(std::span<const Fr> inputs, std::span<const Fr> aux, DeviceSpan<Fr> dst,
                      HostStager& stager, const Stream& s) {
  if (dst.size() < inputs.size() + aux.size())
    return make_error("spmv: the device witness holds " + std::to_string(dst.size()) +
                      " values, fewer than " + std::to_string(inputs.size() + aux.size()));
  if (dst.device() != s.device()) return make_error("spmv: the device witness is on another device");
  CUZK_TRY_STATUS(stager.to_device(dst.data(), inputs.data(), inputs.size_bytes(), s));
  return stager.to_device(dst.data() + inputs.size(), aux.data(), aux.size_bytes(), s);
}

Status evaluate_on_device(const DeviceCompiledCircuit& circuit, const Fr* d_witness, DeviceSpan<Fr> a,
                          DeviceSpan<Fr> b, DeviceSpan<Fr> c, const Stream& s, const SpmvConfig& config) {
  if (circuit.device() != s.device()) return make_error("spmv: the circuit is on another device");
  const auto n = check_outputs(circuit.num_rows(), circuit.has_c(), s.device(), a, b, c);
  if (!n) return n.error();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  const size_t rows = circuit.num_constraints();
  const DeviceSpan<Fr> outs[3] = {a, b, c};
  for (size_t side = 0; side < 3; ++side) {
    if (outs[side].size() == 0) continue;
    const DeviceSparseRows& m = circuit.side(side);
    CUZK_TRY_STATUS(sum_rows(s, RowRun{m.row_start, m.wire, m.coeff, 0, rows}, circuit.coeffs(), d_witness,
                             outs[side].data(), config));
    CUZK_TRY_STATUS(
        fill_tail(s, outs[side].data(), *n, rows, side == 0 ? d_witness : nullptr, circuit.num_inputs()));
  }
  return Status::Ok();
}

Status evaluate_streamed(const CircuitMatrices& m, const SpmvPlan& plan, const Fr* d_witness,
                         DeviceSpan<Fr> a, DeviceSpan<Fr> b, DeviceSpan<Fr> c, HostStager& stager,
                         const Stream& s, const Stream& copy, DeviceCache* cache, const SpmvConfig& config) {
  if (const std::string why = circuit_shape_error(m); !why.empty()) return make_error("spmv: " + why);
  if (plan.kind != SpmvPlan::Kind::streamed || plan.chunk_rows == 0 || plan.chunk_terms == 0)
    return make_error("spmv: evaluate_streamed needs a streamed plan");
  if (copy.device() != s.device() || stager.device() != s.device())
    return make_error("spmv: the copy stream and the stager must be of the compute stream's device");
  const auto n = check_outputs(m.num_rows(), m.has_c(), s.device(), a, b, c);
  if (!n) return n.error();
  auto g = DeviceGuard::enter(s.device());
  if (!g) return g.error();
  const size_t rows = size_t(m.num_constraints);
  const size_t R = plan.chunk_rows, T = plan.chunk_terms, set_words = R + 1 + 2 * T;
  // Every buffer before anything is queued (a new block's cudaMalloc may wait for the device).
  auto table = take<Fr>(cache, s.device(), m.coeffs.size());
  if (!table) return table.error();
  auto sets = take<uint32_t>(cache, s.device(), 2 * set_words);
  if (!sets) return sets.error();
  ChunkEvents ev;
  CUZK_TRY_STATUS(ev.create());
  // The copies go after the compute stream's earlier work (which may still read the blocks).
  CUZK_TRY_STATUS(check(cudaEventRecord(ev.start, s.get()), "cudaEventRecord"));
  CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy.get(), ev.start, 0), "cudaStreamWaitEvent"));
  CUZK_TRY_STATUS(stager.to_device(table->data(), m.coeffs.data(), m.coeffs.size_bytes(), s));

  const DeviceSpan<Fr> outs[3] = {a, b, c};
  size_t chunk = 0;
  for (size_t side = 0; side < 3; ++side) {
    if (outs[side].size() == 0) continue;
    const SparseSide& h = m.sides[side];
    const uint32_t* rs = h.row_start.data();
    for (size_t r0 = 0; r0 < rows; ++chunk) {
      // The most rows from r0 whose terms fit a chunk.
      size_t r1 = std::min(rows, r0 + R);
      if (rs[r1] - rs[r0] > T)
        r1 = size_t(std::upper_bound(rs + r0, rs + r1 + 1, uint64_t(rs[r0]) + T) - rs) - 1;
      if (r1 == r0)
        return make_error("spmv: row " + std::to_string(r0) + " of side " + std::string(1, "ABC"[side]) +
                          " has " + std::to_string(rs[r0 + 1] - rs[r0]) + " terms, more than a chunk's " +
                          std::to_string(T));
      const size_t set = chunk % 2, terms = rs[r1] - rs[r0];
      uint32_t* const d_rs = sets->data() + set * set_words;
      uint32_t* const d_wire = d_rs + R + 1;
      uint32_t* const d_coeff = d_wire + T;
      if (chunk >= 2)
        CUZK_TRY_STATUS(check(cudaStreamWaitEvent(copy.get(), ev.consumed[set], 0), "cudaStreamWaitEvent"));
      CUZK_TRY_STATUS(stager.to_device(d_rs, rs + r0, (r1 - r0 + 1) * sizeof(uint32_t), copy));
      CUZK_TRY_STATUS(stager.to_device(d_wire, h.wire.data() + rs[r0], terms * sizeof(uint32_t), copy));
      CUZK_TRY_STATUS(stager.to_device(d_coeff, h.coeff.data() + rs[r0], terms * sizeof(uint32_t), copy));
      CUZK_TRY_STATUS(check(cudaEventRecord(ev.copied[set], copy.get()), "cudaEventRecord"));
      CUZK_TRY_STATUS(check(cudaStreamWaitEvent(s.get(), ev.copied[set], 0), "cudaStreamWaitEvent"));
      CUZK_TRY_STATUS(sum_rows(s, RowRun{d_rs, d_wire, d_coeff, rs[r0], r1 - r0}, table->data(), d_witness,
                               outs[side].data() + r0, config));
      CUZK_TRY_STATUS(check(cudaEventRecord(ev.consumed[set], s.get()), "cudaEventRecord"));
      r0 = r1;
    }
    CUZK_TRY_STATUS(fill_tail(s, outs[side].data(), *n, rows, side == 0 ? d_witness : nullptr, m.num_inputs));
  }
  // Pinned host arrays are read by DMAs still queued: done before the caller may reuse them.
  return copy.synchronize();
}

}  // namespace cuzk::cuda
