// Many products s_i·B of one fixed point B on a device: the setup's queries (2^27 of them for a
// PoRep-sized circuit) are all multiples of the generators.
//
// A table of j·2^(8w)·B (w < 32 windows, j < 256: 8192 affine points, 0.75 MiB in G1) is built on
// the host once; each device thread then sums one table entry per nonzero 8-bit digit of its scalar
// (32 mixed XYZZ additions) and converts to affine with one inversion. Scalars and results cross
// PCIe through a HostStager in chunks, so any count runs in a fixed amount of device memory. The
// results are the host's (groth16/fixed_base.hpp) bit for bit: affine coordinates are unique.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "backend/cuda/runtime/runtime.hpp"
#include "backend/cuda/runtime/staging.hpp"
#include "common/result.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

template <class Affine>
class FixedBaseMul {
 public:
  // Device bytes of a context with chunks of `chunk` scalars (table, scalars and results).
  static size_t device_bytes(size_t chunk);

  // A context on `device` for multiples of `base`, `chunk` scalars per pass.
  static Result<FixedBaseMul> create(int device, const Affine& base, size_t chunk = size_t(1) << 22);

  FixedBaseMul(FixedBaseMul&&) noexcept;
  FixedBaseMul& operator=(FixedBaseMul&&) noexcept;
  ~FixedBaseMul();

  // out[i] = scalars[i]·base in affine (infinity, all zero, for 0); scalars in Montgomery form, both
  // in host memory.
  Status mul_many(std::span<const Fr> scalars, std::span<Affine> out);

  struct State;

 private:
  explicit FixedBaseMul(std::unique_ptr<State> st);
  std::unique_ptr<State> st_;
};

extern template class FixedBaseMul<G1Affine>;
extern template class FixedBaseMul<G2Affine>;

}  // namespace cuzk::cuda
