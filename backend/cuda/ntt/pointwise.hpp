// Pointwise kernels over Fr vectors on a device: the steps of the prover's H polynomial that are
// not transforms (ntt/ntt.hpp folds most of them into a transform's first or last pass; these
// are the standalone forms, and the row check). All pointers are device memory, work is queued on
// the stream and runs on its device.
#pragma once

#include <cstddef>

#include "backend/cuda/runtime/runtime.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

// Pointwise work of the prover's H polynomial (all device pointers, n elements, queued on s).
// a_i ← (a_i·b_i − c_i)·z   (bellman's divide_by_z_on_coset folds in as z = (g^n − 1)^-1;
//                            pass z = 1 for snarkjs's A·B − C)
// A null b stands for ones and a null c for zeros: (a·b)·z and (a − c)·z are the same call.
Status mul_sub_scale(const Stream& s, Fr* a, const Fr* b, const Fr* c, const Fr& z, size_t n);
// *first ← the least j < rows with a_j·b_j ≠ c_j, or rows when there is none (R1CS satisfaction on
// the evaluations); a null b stands for ones (a holding the products); first is device memory. The host value
// it starts from crosses on s, so read *first after s has synchronized.
Status first_unsatisfied(const Stream& s, const Fr* a, const Fr* b, const Fr* c, size_t rows,
                         unsigned long long* first);
// a_i ← a_i·c
Status scale(const Stream& s, Fr* a, const Fr& c, size_t n);

}  // namespace cuzk::cuda
