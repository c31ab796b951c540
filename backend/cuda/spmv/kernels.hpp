// The launches of spmv.cu, for spmv.cpp (the resident and streamed evaluations share them).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cuda/runtime/runtime.hpp"
#include "backend/cuda/spmv/spmv.hpp"

namespace cuzk::cuda::spmv_detail {

// A run of consecutive rows of one side: row r < rows has the terms [row_start[r], row_start[r + 1])
// of the side, found at wire[k − term_base] and coeff[k − term_base] (term_base: the run's first
// term, when only the run's terms are on the device).
struct RowRun {
  const uint32_t* row_start = nullptr;  // rows + 1 offsets
  const uint32_t* wire = nullptr;
  const uint32_t* coeff = nullptr;
  uint32_t term_base = 0;
  size_t rows = 0;
};

// out[r] ← Σ coeffs[coeff_k]·w[wire_k] over row r's terms, for r < run.rows; queued on s.
Status sum_rows(const Stream& s, const RowRun& run, const Fr* coeffs, const Fr* w, Fr* out,
                const SpmvConfig& config);

}  // namespace cuzk::cuda::spmv_detail
