// a = A·w, b = B·w (and c = C·w) on a device, from a compiled circuit and a witness already there,
// written straight into the H stage's vectors: a, b, c never cross PCIe.
//
// Each output holds 2^log_n values: row j < num_constraints is Σ coeff·w over the row's terms, the
// next num_inputs rows are the prover's input constraints (a = x_i, b = c = 0), and the rest are
// zero. Field addition is exact, so the order of the sum does not matter: the result equals the
// host's, bit for bit.
//
// Kernel (spmv.cu): a warp takes 32 consecutive rows, a lane a row. Rows of at most `long_row`
// terms (most: 1–3 in Filecoin's circuits) are summed by their lane; the few long ones
// (multipacking's hundreds of terms) by the whole warp, one after another, lanes striding the terms
// and a butterfly of shuffles summing the lanes. A term with coefficient 1 or −1 is an addition or a
// subtraction, a witness value 0 is skipped and a value 1 adds the coefficient: the product is paid
// only for the rest. The cost is the gathers of the witness (32 bytes a term, random) and the
// streams of indices (8 bytes a term) and of results.
//
// Two ways to hold the matrices:
//   resident: a DeviceCompiledCircuit (device_circuit.hpp), uploaded once;
//   streamed: the host arrays crossing in chunks of rows, through two alternating buffer sets (the
//             copy of chunk k + 1 overlapping the product of chunk k), for cards where the
//             matrices do not fit beside the stage. PCIe bound: ~8 GB at PoRep size.
// Either way the witness is on the device (upload_witness), and the stage's memory follows a plan
// computed before anything is allocated (plan_spmv).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "backend/circuit_matrices.hpp"
#include "backend/cuda/runtime/runtime.hpp"
#include "backend/cuda/spmv/device_circuit.hpp"
#include "common/result.hpp"

namespace cuzk::cuda {

class DeviceCache;
class HostStager;

struct SpmvConfig {
  unsigned block = 256;     // threads a block (a multiple of 32, at most 256)
  unsigned long_row = 32;   // rows with more terms are summed by a whole warp
  unsigned max_blocks = 0;  // the grid's cap (warps then loop over rows); 0: 2^20
};

// The stage's device memory, planned before any of it is allocated.
struct SpmvPlan {
  enum class Kind { resident, streamed } kind = Kind::resident;
  size_t witness_bytes = 0;  // the witness (inputs then aux)
  // streamed: the rows and terms one chunk holds (two chunks' buffers, plus the table).
  size_t chunk_rows = 0, chunk_terms = 0;
  size_t stage_bytes = 0;  // what the stage allocates: the witness, and the chunks and table streamed
  std::string choice;      // for the stage log
};

// The plan for `m` with `available` device bytes for the stage: resident when `resident` (the
// circuit is on the device already: its bytes are not the stage's), else streamed in the largest
// chunks that fit (2^24 terms down to 2^16). An error names what does not fit.
Result<SpmvPlan> plan_spmv(const CircuitMatrices& m, bool resident, size_t available);

// Device bytes of the streamed buffers for chunks of `rows` rows and `terms` terms (two sets, so
// that one chunk crosses while the other is evaluated).
size_t streamed_chunk_bytes(size_t rows, size_t terms);

// The witness (inputs, then aux) into device `dst` (at least inputs.size() + aux.size() values),
// in stream order on `s`, through the stager's pinned slots (pageable memory at PCIe speed, host
// threads filling the next slot while the last one's DMA runs). Returns once the host memory has
// been read (or, pinned, once the copy is queued: it must then stay valid until `s` reaches it).
// To overlap kernels already queued, give the copy stream and make the compute stream wait
// (WorkerDevice::to_device_overlapped does both).
Status upload_witness(std::span<const Fr> inputs, std::span<const Fr> aux, DeviceSpan<Fr> dst,
                      HostStager& stager, const Stream& s);

// a, b (and c) from the resident circuit and the device witness (num_wires values, 16-byte
// aligned), queued on `s`. Each output holds n ≥ num_rows values (2^log_n for the H stage), zero
// beyond the rows; c is empty when the circuit has no C (c then stands for a∘b:
// HRequest::c_from_ab) or when the caller wants none. Any side left empty is not formed (at least
// one is given), so that one device vector can take the sides in turn. Returns once the work is
// queued.
Status evaluate_on_device(const DeviceCompiledCircuit& circuit, const Fr* d_witness, DeviceSpan<Fr> a,
                          DeviceSpan<Fr> b, DeviceSpan<Fr> c_or_empty, const Stream& s,
                          const SpmvConfig& config = {});

// The same with the matrices in host memory (`m`, pageable or pinned), streamed as `plan` says
// (Kind::streamed): buffers from `cache` when given (they go back to it in stream order on `s`),
// else allocated and freed (cudaFree waits for the device); chunks copied through the stager on
// `copy` while `s` evaluates the last one. The host arrays are read by the time it returns; the
// outputs hold the result in stream order on `s`. A row longer than plan.chunk_terms is an error.
Status evaluate_streamed(const CircuitMatrices& m, const SpmvPlan& plan, const Fr* d_witness,
                         DeviceSpan<Fr> a, DeviceSpan<Fr> b, DeviceSpan<Fr> c_or_empty, HostStager& stager,
                         const Stream& s, const Stream& copy, DeviceCache* cache = nullptr,
                         const SpmvConfig& config = {});

}  // namespace cuzk::cuda
