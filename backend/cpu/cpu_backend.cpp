#include "backend/cpu/cpu_backend.hpp"

#include <vector>

#include "backend/cpu/msm.hpp"
#include "backend/cpu/ntt.hpp"
#include "backend/cpu/row_check.hpp"
#include "backend/cpu/sparse_rows.hpp"

namespace cuzk::cpu {

Status CpuBackend::compute_h(const HRequest& request) {
  CUZK_TRY_STATUS(check_h_request(request));
  const size_t n = size_t(1) << request.log_n;
  if (request.rows != nullptr)  // a, b (and c) from the compiled rows, then the usual transforms
    return compute_h_from_host_rows(
        request, [this](const HRequest& rq) { return compute_h(rq); }, pool_);
  HRequest rq = request;
  ScratchValues formed_c;  // c = a∘b, when the caller left it out
  auto c = host_c_values(rq, formed_c, pool_);
  if (!c) return c.error();
  rq.c = *c;
  CUZK_TRY_STATUS(check_rows(rq.a.data(), rq.b.data(), rq.c.data(), rq.check_rows, pool_));
  auto domain = NttDomain::create(rq.log_n, rq.convention, pool_);
  if (!domain) return domain.error();
  // Evaluations on the domain → coefficients → evaluations on the coset (g·ω^j or ω_2n·ω^j).
  const auto to_coset = [&](std::span<Fr> v) -> Status {
    CUZK_TRY_STATUS(domain->inverse(v, pool_));
    return domain->coset_forward(v, pool_);
  };
  CUZK_TRY_STATUS(to_coset(rq.a));
  CUZK_TRY_STATUS(to_coset(rq.b));
  std::span<Fr> q = rq.a;
  if (rq.mode == HMode::divide_by_z_on_coset) {
    // Z is constant on the coset: Z(g·ω^j) = g^n − 1. The coset inverse is linear and undoes the
    // coset forward, so icoset(A∘B − C on the coset) = icoset(A∘B) − iNTT(c): c needs one transform
    // instead of two (six in all instead of seven).
    const Fr z_inv = (domain->coset_shift().pow(uint64_t(n)) - Fr::one()).inverse();
    pool_.for_ranges(n, 4096, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) q[i] = q[i] * rq.b[i];
    });
    CUZK_TRY_STATUS(domain->coset_inverse(q, pool_));
    CUZK_TRY_STATUS(domain->inverse(rq.c, pool_));
    pool_.for_ranges(n, 4096, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) q[i] = (q[i] - rq.c[i]) * z_inv;
    });
    return Status::Ok();
  }
  CUZK_TRY_STATUS(to_coset(rq.c));
  pool_.for_ranges(n, 4096, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) q[i] = q[i] * rq.b[i] - rq.c[i];
  });
  return Status::Ok();
}

template <class Affine>
static auto run_msm(const MsmRequest<Affine>& rq, ThreadPool& pool) {
  return rq.density.empty() ? msm<Affine>(rq.bases, rq.scalars, pool)
                            : msm<Affine>(rq.bases, rq.scalars, rq.density, pool);
}

Result<G1Jacobian> CpuBackend::msm(const MsmRequest<G1Affine>& rq) { return run_msm(rq, pool_); }
Result<G2Jacobian> CpuBackend::msm(const MsmRequest<G2Affine>& rq) { return run_msm(rq, pool_); }

}  // namespace cuzk::cpu
