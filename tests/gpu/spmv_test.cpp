// The device's a = A·w, b = B·w, c = C·w (backend/cuda/spmv) against a plain host sum: random
// compiled circuits built by hand through r1cs::CompiledCircuit::from_parts (empty rows, rows of
// one term and of hundreds, coefficients 1, −1 and random, witnesses of zeros, ones, random values
// and a mix, with and without C), resident and streamed in small chunks, under several kernel
// configurations, the padding rows included. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backend/cuda/runtime/staging.hpp"
#include "backend/cuda/spmv/spmv.hpp"
#include "backend/cuda/spmv/spmv_stage.hpp"
#include "backend/cuda/worker_device.hpp"
#include "gpu_test_util.hpp"
#include "r1cs/compiled/compiled_circuit.hpp"
#include "r1cs/compiled/evaluate.hpp"

namespace cuzk::cuda {
namespace {

using gputest::random_field;
using r1cs::CompiledCircuit;
using r1cs::CompiledParts;
using r1cs::Side;

// The view the device takes, field by field (the backend does not know the r1cs type).
CircuitMatrices matrices_of(const CompiledCircuit& cc) { return r1cs::compiled_rows(cc, {}, {}).matrices; }

enum class Witness { zeros, ones, random, mixed };

struct Shape {
  uint32_t num_inputs = 1, num_aux = 0;
  size_t constraints = 0;
  bool with_c = true;
  Witness witness = Witness::mixed;
  // Share of rows (per mille) that are empty, and that are long (hundreds of terms); the rest have
  // 1–3 terms, with a few just around the warp path's threshold.
  unsigned empty_permille = 200, long_permille = 5;
};

// The number of terms of one row.
size_t row_length(const Shape& sh, std::mt19937_64& rng) {
  const unsigned pick = unsigned(rng() % 1000);
  if (pick < sh.empty_permille) return 0;
  if (pick < sh.empty_permille + sh.long_permille) return 100 + rng() % 600;
  if (pick < sh.empty_permille + sh.long_permille + 20) return 30 + rng() % 5;  // around long_row = 32
  return 1 + rng() % 3;
}

CompiledCircuit random_circuit(const Shape& sh, std::mt19937_64& rng) {
  CompiledParts p;
  p.num_inputs = sh.num_inputs;
  p.num_aux = sh.num_aux;
  p.num_constraints = sh.constraints;
  p.coeffs = {Fr::one(), -Fr::one()};
  for (int i = 0; i < 30; ++i) p.coeffs.push_back(random_field<Fr>(rng));
  const size_t wires = size_t(sh.num_inputs) + sh.num_aux;
  for (unsigned s = 0; s < (sh.with_c ? 3u : 2u); ++s) {
    p.row_start[s].push_back(0);
    for (size_t r = 0; r < sh.constraints; ++r) {
      const size_t len = row_length(sh, rng);
      for (size_t k = 0; k < len; ++k) {
        p.wire[s].push_back(uint32_t(rng() % wires));
        const unsigned c = unsigned(rng() % 4);  // 1, −1, or one of the table's others
        p.coeff[s].push_back(c < 2 ? c : uint32_t(2 + rng() % (p.coeffs.size() - 2)));
      }
      p.row_start[s].push_back(uint32_t(p.wire[s].size()));
    }
  }
  p.a_aux_density.resize(sh.num_aux);
  p.b_input_density.resize(sh.num_inputs);
  p.b_aux_density.resize(sh.num_aux);
  auto cc = CompiledCircuit::from_parts(std::move(p));
  EXPECT_TRUE(cc.ok()) << cc.message();
  return std::move(*cc);
}

std::vector<Fr> random_witness(size_t wires, Witness kind, std::mt19937_64& rng) {
  std::vector<Fr> w(wires);
  for (size_t i = 0; i < wires; ++i) {
    switch (kind) {
      case Witness::zeros:
        w[i] = Fr::zero();
        break;
      case Witness::ones:
        w[i] = Fr::one();
        break;
      case Witness::random:
        w[i] = random_field<Fr>(rng);
        break;
      case Witness::mixed: {
        const unsigned pick = unsigned(rng() % 10);
        w[i] = pick < 4 ? Fr::zero() : pick < 8 ? Fr::one() : random_field<Fr>(rng);
      }
    }
  }
  w[0] = Fr::one();  // ONE
  return w;
}

// Side s of the prover's rows by the definition: Σ coeff·w over each constraint's terms, then
// the input constraints (a = x_i, b = c = 0), then zeros up to n.
std::vector<Fr> host_side(const CompiledCircuit& cc, unsigned s, const std::vector<Fr>& w, size_t n) {
  std::vector<Fr> out(n, Fr::zero());
  const r1cs::CompiledSide& side = cc.side(Side(s));
  for (size_t r = 0; r < cc.num_constraints(); ++r)
    for (uint32_t k = side.row_start[r]; k < side.row_start[r + 1]; ++k)
      out[r] += cc.coeffs()[side.coeff[k]] * w[side.wire[k]];
  if (s == 0)
    for (size_t i = 0; i < cc.num_inputs(); ++i) out[cc.num_constraints() + i] = w[i];
  return out;
}

// Three device vectors of n values, filled with a pattern that no result has (every byte 0xa5 is
// above the modulus), so that every value the evaluation leaves unwritten shows.
struct Outputs {
  DeviceBuffer<Fr> v[3];
  size_t n = 0;
  bool with_c = true;
  static Outputs make(size_t n, bool with_c, const Stream& s) {
    Outputs o;
    o.n = n;
    o.with_c = with_c;
    std::vector<Fr> garbage(n);
    std::memset(static_cast<void*>(garbage.data()), 0xa5, n * sizeof(Fr));
    for (unsigned i = 0; i < (with_c ? 3u : 2u); ++i) {
      auto b = gputest::to_device(garbage, s);
      EXPECT_TRUE(b.ok());
      o.v[i] = std::move(*b);
    }
    return o;
  }
  DeviceSpan<Fr> span(unsigned i) const { return i < 2 || with_c ? v[i].span() : DeviceSpan<Fr>(); }
};

void expect_sides(const CompiledCircuit& cc, const std::vector<Fr>& w, const Outputs& o, const Stream& s,
                  const std::string& what) {
  for (unsigned side = 0; side < (o.with_c ? 3u : 2u); ++side) {
    std::vector<Fr> got(o.n);
    ASSERT_TRUE(o.v[side].download(got.data(), o.n, s).ok());
    ASSERT_TRUE(s.synchronize().ok());
    size_t total = 0;
    const auto bad = gputest::mismatches(got, host_side(cc, side, w, o.n), &total);
    EXPECT_EQ(total, 0u) << what << ", side "
                         << "abc"[side] << ": " << total << " wrong values, first at row "
                         << (bad.empty() ? 0 : bad[0]) << " (seed " << gputest::test_seed() << ")";
  }
}

size_t domain_for(size_t rows) {
  size_t n = 1;
  while (n < rows) n *= 2;
  return n;
}

struct Fixture {
  Stream s, copy;
  std::unique_ptr<HostStager> stager;
};

std::optional<Fixture> fixture() {
  auto s = Stream::create(gputest::test_device());
  auto copy = Stream::create(gputest::test_device());
  StagerOptions so;
  so.slot_bytes = size_t(1) << 16;  // small slots: several pieces even for small arrays
  auto st = HostStager::create(gputest::test_device(), so);
  if (!s || !copy || !st) return std::nullopt;
  return Fixture{std::move(*s), std::move(*copy), std::move(*st)};
}

// Every shape resident and streamed (chunks small enough for many per side), witness uploaded
// through the stager.
void check_shape(const Shape& sh, const SpmvConfig& cfg, Fixture& f, std::mt19937_64& rng, size_t extra = 1) {
  const CompiledCircuit cc = random_circuit(sh, rng);
  const CircuitMatrices m = matrices_of(cc);
  const std::vector<Fr> w = random_witness(cc.num_wires(), sh.witness, rng);
  const std::string what = std::to_string(sh.constraints) + " constraints, " + std::to_string(sh.num_inputs) +
                           " inputs, " + std::to_string(sh.num_aux) + " aux" + (sh.with_c ? "" : ", no C") +
                           ", long_row " + std::to_string(cfg.long_row);
  auto dw = DeviceBuffer<Fr>::alloc(f.s.device(), cc.num_wires());
  CUZK_ASSERT_OK(dw);
  CUZK_ASSERT_OK(upload_witness(std::span(w).first(cc.num_inputs()), std::span(w).subspan(cc.num_inputs()),
                                dw->span(), *f.stager, f.s));
  const size_t n = domain_for(cc.num_rows()) * extra;

  auto dc = DeviceCompiledCircuit::upload(m, f.stager.get(), f.s);
  CUZK_ASSERT_OK(dc);
  EXPECT_EQ(dc->bytes(), DeviceCompiledCircuit::bytes_for(m));
  EXPECT_EQ(dc->has_c(), sh.with_c);
  Outputs res = Outputs::make(n, sh.with_c, f.s);
  CUZK_ASSERT_OK(evaluate_on_device(*dc, dw->data(), res.span(0), res.span(1), res.span(2), f.s, cfg));
  expect_sides(cc, w, res, f.s, "resident, " + what);

  SpmvPlan plan;
  plan.kind = SpmvPlan::Kind::streamed;
  plan.chunk_rows = 53;
  plan.chunk_terms = 1000;  // at least the longest row (< 700)
  Outputs str = Outputs::make(n, sh.with_c, f.s);
  CUZK_ASSERT_OK(evaluate_streamed(m, plan, dw->data(), str.span(0), str.span(1), str.span(2), *f.stager, f.s,
                                   f.copy, nullptr, cfg));
  expect_sides(cc, w, str, f.s, "streamed, " + what);
}

TEST(GpuSpmv, RandomCircuitsMatchTheHostSum) {
  CUZK_REQUIRE_GPU();
  auto f = fixture();
  ASSERT_TRUE(f);
  std::mt19937_64 rng(gputest::test_seed());
  const Witness kinds[] = {Witness::zeros, Witness::ones, Witness::random, Witness::mixed};
  size_t i = 0;
  for (size_t constraints : {size_t(0), size_t(1), size_t(31), size_t(33), size_t(1000), size_t(20000)})
    for (bool with_c : {true, false}) {
      Shape sh;
      sh.constraints = constraints;
      sh.num_inputs = uint32_t(1 + i % 5);
      sh.num_aux = uint32_t(constraints + 7);
      sh.with_c = with_c;
      sh.witness = kinds[i++ % 4];
      check_shape(sh, {}, *f, rng, 1 + i % 2);
    }
}

TEST(GpuSpmv, EveryWitnessKindOnLongRows) {
  CUZK_REQUIRE_GPU();
  auto f = fixture();
  ASSERT_TRUE(f);
  std::mt19937_64 rng(gputest::test_seed() + 1);
  for (Witness kind : {Witness::zeros, Witness::ones, Witness::random, Witness::mixed}) {
    Shape sh;
    sh.constraints = 3000;
    sh.num_inputs = 4;
    sh.num_aux = 5000;
    sh.witness = kind;
    sh.long_permille = 150;  // many warps with several long rows
    check_shape(sh, {}, *f, rng);
  }
}

// The lane and warp paths and the grid-stride loop, forced: every non-empty row to the warp
// (long_row 0), none (a huge threshold), small blocks, a grid far smaller than the rows.
TEST(GpuSpmv, KernelConfigurationsAgree) {
  CUZK_REQUIRE_GPU();
  auto f = fixture();
  ASSERT_TRUE(f);
  std::mt19937_64 rng(gputest::test_seed() + 2);
  SpmvConfig all_warp, all_lane, small, strided;
  all_warp.long_row = 0;
  all_lane.long_row = 1u << 30;
  small.block = 32;
  small.long_row = 2;
  strided.block = 64;
  strided.max_blocks = 3;
  for (const SpmvConfig& cfg : {all_warp, all_lane, small, strided}) {
    Shape sh;
    sh.constraints = 5000;
    sh.num_inputs = 9;
    sh.num_aux = 4000;
    sh.long_permille = 30;
    check_shape(sh, cfg, *f, rng);
  }
}

TEST(GpuSpmv, BadShapesAreErrors) {
  CUZK_REQUIRE_GPU();
  auto f = fixture();
  ASSERT_TRUE(f);
  std::mt19937_64 rng(gputest::test_seed() + 3);
  Shape sh;
  sh.constraints = 100;
  sh.num_inputs = 3;
  sh.num_aux = 50;
  sh.with_c = false;
  sh.long_permille = 100;
  const CompiledCircuit cc = random_circuit(sh, rng);
  const CircuitMatrices m = matrices_of(cc);
  auto dc = DeviceCompiledCircuit::upload(m, nullptr, f->s);
  CUZK_ASSERT_OK(dc);
  auto dw = DeviceBuffer<Fr>::alloc(f->s.device(), cc.num_wires());
  CUZK_ASSERT_OK(dw);
  auto v = DeviceBuffer<Fr>::alloc(f->s.device(), 4 * 128);
  CUZK_ASSERT_OK(v);
  const auto part = [&](size_t i, size_t len) {
    return DeviceSpan<Fr>(v->device(), v->data() + i * 128, len);
  };
  // Too short for the 103 rows; b shorter than a; a c for a circuit without C; no side at all.
  EXPECT_FALSE(evaluate_on_device(*dc, dw->data(), part(0, 64), part(1, 64), {}, f->s).ok());
  EXPECT_FALSE(evaluate_on_device(*dc, dw->data(), {}, {}, {}, f->s).ok());
  EXPECT_FALSE(evaluate_on_device(*dc, dw->data(), part(0, 128), part(1, 127), {}, f->s).ok());
  EXPECT_FALSE(evaluate_on_device(*dc, dw->data(), part(0, 128), part(1, 128), part(2, 128), f->s).ok());
  CUZK_ASSERT_OK(evaluate_on_device(*dc, dw->data(), part(0, 128), part(1, 128), {}, f->s));
  CUZK_ASSERT_OK(evaluate_on_device(*dc, dw->data(), {}, part(1, 128), {}, f->s));  // b alone
  // A block that is not whole warps.
  SpmvConfig odd;
  odd.block = 48;
  EXPECT_FALSE(evaluate_on_device(*dc, dw->data(), part(0, 128), part(1, 128), {}, f->s, odd).ok());
  // A streamed chunk smaller than a row; a resident plan given to the streamed evaluation.
  SpmvPlan tiny;
  tiny.kind = SpmvPlan::Kind::streamed;
  tiny.chunk_rows = 10;
  tiny.chunk_terms = 50;  // the long rows have 100 terms or more
  const auto st =
      evaluate_streamed(m, tiny, dw->data(), part(0, 128), part(1, 128), {}, *f->stager, f->s, f->copy);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("terms, more than a chunk"), std::string::npos) << st.message();
  EXPECT_FALSE(
      evaluate_streamed(m, SpmvPlan{}, dw->data(), part(0, 128), part(1, 128), {}, *f->stager, f->s, f->copy)
          .ok());
  // A witness buffer too small; offsets that do not run to the term count.
  const std::vector<Fr> w(cc.num_wires() + 1, Fr::one());
  EXPECT_FALSE(upload_witness(w, {}, dw->span(), *f->stager, f->s).ok());
  CircuitMatrices cut = m;
  cut.sides[1].wire = cut.sides[1].wire.first(cut.sides[1].wire.size() - 1);
  EXPECT_FALSE(DeviceCompiledCircuit::upload(cut, nullptr, f->s).ok());
  CUZK_ASSERT_OK(f->s.synchronize());
}

// The step the H stage takes on a worker's device: the witness from host memory, resident and
// streamed plans from the worker's budget, into three device vectors or through one to the host.
TEST(GpuSpmv, WorkerStepEvaluatesTheHostWitness) {
  CUZK_REQUIRE_GPU();
  CudaBackendOptions opt;
  opt.device = gputest::test_device();
  opt.vram_budget = size_t(1) << 30;
  auto dev = WorkerDevice::create(opt);
  CUZK_ASSERT_OK(dev);
  std::mt19937_64 rng(gputest::test_seed() + 4);
  Shape sh;
  sh.constraints = 4000;
  sh.num_inputs = 6;
  sh.num_aux = 3000;
  const CompiledCircuit cc = random_circuit(sh, rng);
  const CircuitMatrices m = matrices_of(cc);
  const std::vector<Fr> w = random_witness(cc.num_wires(), Witness::mixed, rng);
  const std::span<const Fr> inputs = std::span(w).first(cc.num_inputs()),
                            aux = std::span(w).subspan(cc.num_inputs());
  auto dc = DeviceCompiledCircuit::upload(m, &(*dev)->stager(), (*dev)->stream());
  CUZK_ASSERT_OK(dc);
  const size_t n = domain_for(cc.num_rows());
  for (bool resident : {true, false}) {
    auto plan = plan_spmv(m, resident, (*dev)->available());
    CUZK_ASSERT_OK(plan);
    EXPECT_EQ(plan->kind, resident ? SpmvPlan::Kind::resident : SpmvPlan::Kind::streamed);
    Outputs out = Outputs::make(n, true, (*dev)->stream());
    CUZK_ASSERT_OK(evaluate_witness(**dev, {resident ? &*dc : nullptr, m, inputs, aux}, *plan, out.span(0),
                                    out.span(1), out.span(2)));
    expect_sides(cc, w, out, (*dev)->stream(), resident ? "worker, resident" : "worker, streamed");
    // The sides in turn through one device vector (holding garbage) to host arrays.
    Outputs one = Outputs::make(n, false, (*dev)->stream());
    std::vector<Fr> a(n), b(n), c(n);
    CUZK_ASSERT_OK(evaluate_witness_to_host(**dev, {resident ? &*dc : nullptr, m, inputs, aux}, *plan,
                                            one.span(0), a, b, c));
    const std::vector<Fr>* host[3] = {&a, &b, &c};
    for (unsigned side = 0; side < 3; ++side) {
      size_t total = 0;
      const auto bad = gputest::mismatches(*host[side], host_side(cc, side, w, n), &total);
      EXPECT_EQ(total, 0u) << (resident ? "to the host, resident" : "to the host, streamed") << ", side "
                           << "abc"[side] << ": first at row " << (bad.empty() ? 0 : bad[0]);
    }
    // No host array for a: b and c to the host, a left in the vector (the H stage's pair plan).
    {
      Outputs kept = Outputs::make(n, false, (*dev)->stream());
      std::vector<Fr> b2(n), c2(n);
      CUZK_ASSERT_OK(evaluate_witness_to_host(**dev, {resident ? &*dc : nullptr, m, inputs, aux}, *plan,
                                              kept.span(0), {}, b2, c2));
      std::vector<Fr> a2(n);
      CUZK_ASSERT_OK(kept.v[0].download(a2.data(), n, (*dev)->stream()));
      CUZK_ASSERT_OK((*dev)->stream().synchronize());
      EXPECT_EQ(a2, a) << "a left in the vector";
      EXPECT_EQ(b2, b);
      EXPECT_EQ(c2, c);
    }
    // Host arrays of another length.
    EXPECT_FALSE(evaluate_witness_to_host(**dev, {resident ? &*dc : nullptr, m, inputs, aux}, *plan,
                                          one.span(0), a, std::span(b).first(n - 1), c)
                     .ok());
    EXPECT_FALSE(evaluate_witness_to_host(**dev, {resident ? &*dc : nullptr, m, inputs, aux}, *plan,
                                          one.span(0), std::span(a).first(n - 1), b, c)
                     .ok());
  }
  // A witness of another circuit's shape.
  auto plan = plan_spmv(m, true, (*dev)->available());
  CUZK_ASSERT_OK(plan);
  Outputs out = Outputs::make(n, true, (*dev)->stream());
  EXPECT_FALSE(evaluate_witness(**dev, {&*dc, m, inputs, aux.first(aux.size() - 1)}, *plan, out.span(0),
                                out.span(1), out.span(2))
                   .ok());
}

// Host-only: the plan's choices and their bytes (runs without a GPU too).
TEST(GpuSpmv, PlansCountTheirBytes) {
  std::vector<uint32_t> rs(1001), wire(3000, 0), coeff(3000, 0);
  for (size_t r = 0; r <= 1000; ++r) rs[r] = uint32_t(3 * r);
  const std::vector<Fr> table = {Fr::one(), -Fr::one()};
  CircuitMatrices m;
  m.num_inputs = 2;
  m.num_aux = 998;
  m.num_constraints = 1000;
  m.coeffs = table;
  m.sides[0] = m.sides[1] = SparseSide{rs, wire, coeff};
  const size_t witness = 1000 * sizeof(Fr);

  auto res = plan_spmv(m, true, witness);
  CUZK_ASSERT_OK(res);
  EXPECT_EQ(res->kind, SpmvPlan::Kind::resident);
  EXPECT_EQ(res->stage_bytes, witness);
  EXPECT_FALSE(plan_spmv(m, true, witness - 1).ok());

  auto str = plan_spmv(m, false, size_t(1) << 30);
  CUZK_ASSERT_OK(str);
  EXPECT_EQ(str->kind, SpmvPlan::Kind::streamed);
  EXPECT_EQ(str->chunk_terms, 3000u);  // no larger than a side
  EXPECT_EQ(str->chunk_rows, 1000u);
  EXPECT_EQ(str->stage_bytes, witness + table.size() * sizeof(Fr) + 2 * (1001 + 6000) * sizeof(uint32_t));
  EXPECT_FALSE(plan_spmv(m, false, witness).ok());
}

}  // namespace
}  // namespace cuzk::cuda
