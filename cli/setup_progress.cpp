#include "cli/setup_progress.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "cli/options.hpp"
#include "groth16/fixed_base.hpp"

namespace cuzk::cli {
namespace {

// Scalars per call: progress every few hundred ms on a CPU; a device's calls stay large.
constexpr size_t kHostChunk = size_t(1) << 16, kDeviceChunk = size_t(1) << 22;
constexpr double kG2Weight = 3;

// Wires with a term on `side` (and, for A, every input: its x_i · 0 = 0 row). A wire whose terms
// cancel counts too, so the total may exceed the points made by a few: progress, not accounting.
size_t wires_used(const groth16::SetupCircuit& m, unsigned side) {
  const size_t wires = m.num_wires();
  std::vector<bool> used(wires, false);
  if (side == 0)
    for (size_t i = 0; i < m.num_inputs; ++i) used[i] = true;
  m.for_each_term(side, [&](size_t, uint32_t wire, const Fr& coeff) {
    if (wire < wires && !coeff.is_zero()) used[wire] = true;
  });
  return size_t(std::count(used.begin(), used.end(), true));
}

struct Shared {
  std::shared_ptr<StageProgress> shown;
  ProgressMeter meter{""};
  std::mutex mutex;
  double done = 0, total = 0;

  void add(double work) {
    std::lock_guard lock(mutex);
    if (!meter.started()) meter.update(0, total);
    done += work;
    meter.update(std::min(done, total), total);
    shown->show(meter, done >= total);
  }
};

template <class Affine>
groth16::GeneratorMulMany<Affine> counted(groth16::GeneratorMulMany<Affine> inner, size_t chunk,
                                          double weight, std::shared_ptr<Shared> shared) {
  return [inner = std::move(inner), chunk, weight, shared](std::span<const Fr> k,
                                                           std::span<Affine> out) -> Status {
    for (size_t b = 0; b < k.size(); b += chunk) {
      const size_t n = std::min(chunk, k.size() - b);
      CUZK_TRY_STATUS(inner(k.subspan(b, n), out.subspan(b, n)));
      shared->add(double(n) * weight);
    }
    return Status::Ok();
  };
}

}  // namespace

void track_setup_progress(const groth16::SetupCircuit& m, groth16::SetupOptions& options, ThreadPool& pool,
                          std::shared_ptr<StageProgress> shown) {
  if (!shown || !shown->enabled()) return;
  const size_t rows = m.num_constraints + m.num_inputs;
  size_t domain = 1;
  while (domain < rows) domain *= 2;
  const size_t wires = m.num_wires();
  const size_t a = wires_used(m, 0), b = wires_used(m, 1);
  auto shared = std::make_shared<Shared>();
  shared->shown = std::move(shown);
  shared->total = double(wires + (domain - 1) + a + b) + kG2Weight * double(b);
  const size_t chunk = options.g1_mul_many ? kDeviceChunk : kHostChunk;
  if (!options.g1_mul_many) {
    auto table = std::make_shared<groth16::FixedBaseTable<G1Affine, G1Jacobian>>(G1Affine::generator());
    options.g1_mul_many = [table, &pool](std::span<const Fr> k, std::span<G1Affine> out) {
      table->mul_many(k, out, pool);
      return Status::Ok();
    };
  }
  if (!options.g2_mul_many) {
    auto table = std::make_shared<groth16::FixedBaseTable<G2Affine, G2Jacobian>>(G2Affine::generator());
    options.g2_mul_many = [table, &pool](std::span<const Fr> k, std::span<G2Affine> out) {
      table->mul_many(k, out, pool);
      return Status::Ok();
    };
  }
  options.g1_mul_many = counted(std::move(options.g1_mul_many), chunk, 1, shared);
  options.g2_mul_many = counted(std::move(options.g2_mul_many), chunk, kG2Weight, shared);
}

Result<groth16::ProvingKey> generate_parameters_shown(const groth16::SetupCircuit& m,
                                                      groth16::SetupOptions& options, ThreadPool& pool,
                                                      bool quiet) {
  const char* const stage_name = "parameters (τ, α, β, γ, δ)";
  track_setup_progress(m, options, pool, std::make_shared<StageProgress>(stage_name, quiet));
  Stage stage(stage_name, quiet);
  auto pk = groth16::generate_parameters(m, options, pool);
  if (pk) stage.done();
  return pk;
}

}  // namespace cuzk::cli
