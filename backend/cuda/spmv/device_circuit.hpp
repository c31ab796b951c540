// A compiled circuit resident on one device: the coefficient table and the A, B (and C) sides,
// uploaded once and read by every evaluation (spmv.hpp) of that circuit's witnesses.
//
// Its device bytes are known before anything is allocated (bytes_for), so that a caller counts it
// in its budget like resident bases: at PoRep size (130 M rows, ~3 terms a row on A and B) the
// two sides take ~7 GiB, a fraction of the 56 GiB of bases. Everything lives in one device block
// (one cudaMalloc, one cudaFree), each array 256-byte aligned.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "backend/cuda/runtime/runtime.hpp"
#include "backend/circuit_matrices.hpp"
#include "common/result.hpp"

namespace cuzk::cuda {

class HostStager;

// One side on the device, as the kernels read it (row_start null: the side is absent).
struct DeviceSparseRows {
  const uint32_t* row_start = nullptr;  // num_constraints + 1 offsets
  const uint32_t* wire = nullptr;
  const uint32_t* coeff = nullptr;
  size_t nnz = 0;
  bool present() const { return row_start != nullptr; }
};

class DeviceCompiledCircuit {
 public:
  // The device bytes upload() allocates for `m`.
  static size_t bytes_for(const CircuitMatrices& m);

  // Allocates bytes_for(m) on `s`'s device and copies the arrays there: through `stager` (pageable
  // host memory, a mapped file, at PCIe speed) when given, else directly. Returns once the copy is
  // complete, so that any stream of the device may read it. Checks the shape (circuit_shape_error).
  static Result<DeviceCompiledCircuit> upload(const CircuitMatrices& m, HostStager* stager, const Stream& s);

  DeviceCompiledCircuit() = default;
  DeviceCompiledCircuit(DeviceCompiledCircuit&&) = default;
  DeviceCompiledCircuit& operator=(DeviceCompiledCircuit&&) = default;

  int device() const { return block_.device(); }
  size_t bytes() const { return block_.size(); }
  uint32_t num_inputs() const { return num_inputs_; }
  uint32_t num_aux() const { return num_aux_; }
  size_t num_constraints() const { return num_constraints_; }
  size_t num_wires() const { return size_t(num_inputs_) + num_aux_; }
  size_t num_rows() const { return num_constraints_ + num_inputs_; }
  bool has_c() const { return sides_[2].present(); }
  const Fr* coeffs() const { return coeffs_; }
  size_t num_coeffs() const { return num_coeffs_; }
  const DeviceSparseRows& side(size_t s) const { return sides_[s]; }

 private:
  DeviceBuffer<unsigned char> block_;
  uint32_t num_inputs_ = 0, num_aux_ = 0;
  size_t num_constraints_ = 0;
  const Fr* coeffs_ = nullptr;
  size_t num_coeffs_ = 0;
  std::array<DeviceSparseRows, 3> sides_{};
};

}  // namespace cuzk::cuda
