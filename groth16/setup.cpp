#include "groth16/setup.hpp"

#include <atomic>
#include <span>
#include <string>
#include <vector>

#include "backend/cpu/ntt.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/random.hpp"

namespace cuzk::groth16 {
namespace {

// The QAP polynomials of every wire evaluated at τ: u_i(τ), v_i(τ), w_i(τ) for the A, B and C
// matrices, with Lagrange basis values L_j(τ) = Z(τ)·ω^j / (m·(τ − ω^j)) over the domain.
struct QapAtTau {
  std::vector<Fr> u, v, w;
  Fr z;  // Z(τ) = τ^m − 1
};

Result<QapAtTau> evaluate_qap(const SetupCircuit& m, const cpu::NttDomain& domain, const Fr& tau,
                              ThreadPool& pool) {
  const size_t n = domain.size();
  const size_t rows = m.num_constraints + m.num_inputs;
  // L_j(τ) = ω^j / (τ − ω^j) · Z(τ)/n for the rows in use, in parallel chunks: each chunk starts its
  // powers of ω with one exponentiation and inverts its (τ − ω^j) with one batch inversion. τ is a
  // random field element: τ = ω^j has probability n/r.
  std::vector<Fr> lagrange(rows);
  std::atomic<bool> on_domain{false};
  pool.for_ranges(rows, 1 << 14, [&](size_t b, size_t e) {
    std::vector<Fr> omega_pow(e - b), diff(e - b), prefix(e - b);
    Fr x = domain.omega().pow(uint64_t(b));
    Fr acc = Fr::one();
    for (size_t j = b; j < e; ++j, x *= domain.omega()) {
      omega_pow[j - b] = x;
      diff[j - b] = tau - x;
      if (diff[j - b].is_zero()) {
        on_domain = true;
        return;
      }
      prefix[j - b] = acc;
      acc *= diff[j - b];
    }
    Fr inv = acc.inverse();
    for (size_t j = e; j-- > b;) {
      lagrange[j] = omega_pow[j - b] * (inv * prefix[j - b]);
      inv *= diff[j - b];
    }
  });
  if (on_domain) return make_error("setup: τ fell on the domain; run setup again");
  QapAtTau q;
  q.z = tau.pow(uint64_t(n)) - Fr::one();
  const Fr scale = q.z * domain.size_inv();
  pool.for_ranges(rows, 4096, [&](size_t b, size_t e) {
    for (size_t j = b; j < e; ++j) lagrange[j] *= scale;
  });

  const size_t wires = m.num_wires();
  q.u.assign(wires, Fr::zero());
  q.v.assign(wires, Fr::zero());
  q.w.assign(wires, Fr::zero());
  // Rows scatter into shared wires, so each matrix is one task (three in parallel). O(nonzeros).
  std::vector<Fr>* into[3] = {&q.u, &q.v, &q.w};
  std::atomic<bool> out_of_range{false};
  pool.run(3, [&](size_t k) {
    auto& out = *into[k];
    m.for_each_term(unsigned(k), [&](size_t row, uint32_t wire, const Fr& coeff) {
      if (row >= m.num_constraints || wire >= wires) {
        out_of_range = true;
        return;
      }
      out[wire] += coeff * lagrange[row];
    });
  });
  if (out_of_range) return make_error("setup: a term's row or wire is out of the circuit's range");
  // The input constraints x_i · 0 = 0, appended after the circuit's (formats.md §3.1).
  for (size_t i = 0; i < m.num_inputs; ++i) q.u[i] += lagrange[m.num_constraints + i];
  return q;
}

}  // namespace

SetupCircuit setup_circuit(const r1cs::ConstraintMatrices& m) {
  SetupCircuit c;
  c.num_constraints = m.num_constraints();
  c.num_inputs = m.num_inputs;
  c.num_aux = m.num_aux;
  c.for_each_term = [&m](unsigned side, const SetupCircuit::TermFn& fn) {
    const std::vector<r1cs::SparseRow>& rows = side == 0 ? m.a : side == 1 ? m.b : m.c;
    for (size_t j = 0; j < rows.size(); ++j)
      for (const auto& [wire, coeff] : rows[j]) fn(j, wire, coeff);
  };
  return c;
}

SetupCircuit setup_circuit(const r1cs::CompiledCircuit& c) {
  SetupCircuit s;
  s.num_constraints = c.num_constraints();
  s.num_inputs = c.num_inputs();
  s.num_aux = c.num_aux();
  s.has_c = c.has_c();
  s.for_each_term = [&c](unsigned side, const SetupCircuit::TermFn& fn) {
    const r1cs::CompiledSide& rows = c.side(r1cs::Side(side));
    if (!rows.present()) return;
    const std::span<const Fr> coeffs = c.coeffs();
    for (size_t r = 0; r < c.num_constraints(); ++r)
      for (uint32_t t = rows.row_start[r]; t < rows.row_start[r + 1]; ++t)
        fn(r, rows.wire[t], coeffs[rows.coeff[t]]);
  };
  return s;
}

Result<ProvingKey> generate_parameters(const r1cs::ConstraintMatrices& m, const SetupOptions& options,
                                       ThreadPool& pool) {
  CUZK_TRY_STATUS(m.validate());
  return generate_parameters(setup_circuit(m), options, pool);
}

Result<ProvingKey> generate_parameters(const SetupCircuit& m, const SetupOptions& options, ThreadPool& pool) {
  if (m.num_inputs == 0 || !m.for_each_term)
    return make_error("setup: a circuit without ONE or without terms");
  if (!m.has_c) return make_error("setup: the circuit's C is not recorded (compiled without C)");
  const size_t rows = m.num_constraints + m.num_inputs;
  unsigned log_m = 0;
  while ((size_t(1) << log_m) < rows) ++log_m;
  if (log_m > cpu::NttDomain::kMaxLogSize)
    return make_error("setup: " + std::to_string(rows) + " constraints need a domain above 2^" +
                      std::to_string(cpu::NttDomain::kMaxLogSize));
  auto domain = cpu::NttDomain::create(log_m, RootConvention::bellman, pool);
  if (!domain) return domain.error();

  FieldRng rng(options.seed);
  const Fr tau = rng.next_nonzero_fr(), alpha = rng.next_nonzero_fr(), beta = rng.next_nonzero_fr();
  const Fr gamma = rng.next_nonzero_fr(), delta = rng.next_nonzero_fr();
  const Fr gamma_inv = gamma.inverse(), delta_inv = delta.inverse();

  auto qap = evaluate_qap(m, *domain, tau, pool);
  if (!qap) return qap.error();

  const FixedBaseTable<G1Affine, G1Jacobian> g1(G1Affine::generator());
  const FixedBaseTable<G2Affine, G2Jacobian> g2(G2Affine::generator());
  // The queries: on the device when the caller gave one, else on the pool.
  const auto g1_many = [&](std::span<const Fr> k, std::span<G1Affine> out) -> Status {
    if (options.g1_mul_many) return options.g1_mul_many(k, out);
    g1.mul_many(k, out, pool);
    return Status::Ok();
  };
  const auto g2_many = [&](std::span<const Fr> k, std::span<G2Affine> out) -> Status {
    if (options.g2_mul_many) return options.g2_mul_many(k, out);
    g2.mul_many(k, out, pool);
    return Status::Ok();
  };

  ProvingKey pk;
  pk.domain_size = domain->size();
  pk.convention = RootConvention::bellman;
  pk.h_query = HQuery::z_over_delta;
  pk.layout = QueryLayout::compacted;
  pk.num_inputs = m.num_inputs;
  pk.num_aux = m.num_aux;

  pk.vk.alpha_g1 = g1.mul(alpha).to_affine();
  pk.vk.beta_g1 = g1.mul(beta).to_affine();
  pk.vk.beta_g2 = g2.mul(beta).to_affine();
  pk.vk.gamma_g2 = g2.mul(gamma).to_affine();
  pk.vk.delta_g1 = g1.mul(delta).to_affine();
  pk.vk.delta_g2 = g2.mul(delta).to_affine();

  // ic (inputs, /γ) and l (aux, /δ): (β·u_i + α·v_i + w_i).
  const size_t wires = m.num_wires();
  std::vector<Fr> abc(wires);
  pool.for_ranges(wires, 4096, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      abc[i] =
          (beta * qap->u[i] + alpha * qap->v[i] + qap->w[i]) * (i < m.num_inputs ? gamma_inv : delta_inv);
  });
  for (size_t j = m.num_inputs; j < wires; ++j)
    if (abc[j].is_zero())
      return make_error("setup: auxiliary wire " + std::to_string(j - m.num_inputs) +
                        " occurs in no constraint (its L point would be the identity)");
  pk.vk.ic.resize(m.num_inputs);
  CUZK_TRY_STATUS(g1_many(std::span(abc).first(m.num_inputs), pk.vk.ic));
  pk.l.resize(m.num_aux);
  CUZK_TRY_STATUS(g1_many(std::span(abc).subspan(m.num_inputs), pk.l));

  // h[i] = τ^i·Z(τ)/δ for i < m − 1.
  std::vector<Fr> hs(pk.domain_size - 1);
  {
    const Fr zd = qap->z * delta_inv;
    pool.for_ranges(hs.size(), 1 << 14, [&](size_t b, size_t e) {
      Fr x = zd * tau.pow(uint64_t(b));
      for (size_t i = b; i < e; ++i, x *= tau) hs[i] = x;
    });
  }
  pk.h.resize(hs.size());
  CUZK_TRY_STATUS(g1_many(hs, pk.h));

  // a, b_g1, b_g2: only wires whose polynomial is nonzero (bellperson drops the identities).
  std::vector<Fr> a_s, b_s;
  for (size_t i = 0; i < wires; ++i) {
    if (!qap->u[i].is_zero()) a_s.push_back(qap->u[i]);
    if (!qap->v[i].is_zero()) b_s.push_back(qap->v[i]);
  }
  pk.a.resize(a_s.size());
  CUZK_TRY_STATUS(g1_many(a_s, pk.a));
  pk.b_g1.resize(b_s.size());
  CUZK_TRY_STATUS(g1_many(b_s, pk.b_g1));
  pk.b_g2.resize(b_s.size());
  CUZK_TRY_STATUS(g2_many(b_s, pk.b_g2));
  return pk;
}

}  // namespace cuzk::groth16
