// The compute interface of the prover: what groth16/ asks of a backend (backend/cpu, backend/cuda).
//
// A Groth16 proof is five MSMs and one H computation (a chain of NTTs and pointwise work). The
// prover builds its requests from a key and an assignment and runs them on a ComputeBackend, so
// the same prover code drives the CPU, a GPU, or a backend that injects faults in tests. Every
// backend must give the same results as the CPU backend, bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "backend/cpu/ntt.hpp"  // RootConvention
#include "common/result.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fields.hpp"

namespace cuzk {

using cpu::RootConvention;

// How the H-query scalars follow from the a, b, c evaluations (formats.md §3.2, §4.7).
enum class HMode {
  // bellman: a, b, c → coefficients → evaluations on the coset g·ω^j (g = 7);
  // q = (a·b − c)/(g^n − 1) → coefficients. The scalars are q's first n − 1 coefficients.
  divide_by_z_on_coset,
  // snarkjs: a, b, c → coefficients → evaluations on the odd points of the 2n-domain;
  // the scalars are the n values a·b − c there.
  odd_coset,
};

struct HRequest {
  std::span<Fr> a, b, c;  // each 2^log_n evaluations on the domain (zero-padded); a receives the result
  unsigned log_n = 0;
  RootConvention convention = RootConvention::bellman;
  HMode mode = HMode::divide_by_z_on_coset;
};

// Σ scalars[i]·bases[i], or with a density bitmap (bellperson semantics): the j-th scalar whose
// bit is set pairs with bases[j]. Scalars are Fr in Montgomery form.
template <class Affine>
struct MsmRequest {
  std::span<const Affine> bases;
  std::span<const Fr> scalars;
  std::span<const uint64_t> density;  // empty: every scalar pairs with its own base
};

class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;
  // "cpu", "cuda:0", ... for logs and errors.
  virtual std::string name() const = 0;
  virtual Status compute_h(const HRequest& request) = 0;
  virtual Result<G1Jacobian> msm(const MsmRequest<G1Affine>& request) = 0;
  virtual Result<G2Jacobian> msm(const MsmRequest<G2Affine>& request) = 0;
};

}  // namespace cuzk
