#include "backend/cuda/h_stage.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backend/cpu/row_check.hpp"
#include "backend/cpu/sparse_rows.hpp"
#include "backend/cuda/compiled_residency.hpp"
#include "backend/cuda/msm_residency.hpp"
#include "backend/cuda/ntt/ntt.hpp"
#include "backend/cuda/ntt/pointwise.hpp"
#include "backend/cuda/spmv/spmv_stage.hpp"

namespace cuzk::cuda {
namespace {

constexpr const char* kHChecked = "a, b, c resident, rows checked beside";
constexpr const char* kHResident = "a, b, c resident";
constexpr const char* kHPair = "a, b resident, c's transform through the host";

// The row check's verdict: the least failing row, left on the device by first_unsatisfied and read
// once the stage's result has come back (to_host synchronizes), so that the check never stalls the
// queue. A failing row is a bad-input error (cpu::unsatisfied_row_error), the same as the host
// check's.
struct RowVerdict {
  DeviceBuffer<unsigned long long> first;
  size_t rows = 0;
  // Queues the check a_j·b_j = c_j for j < rows on `s` (`first` is allocated before the stage
  // queues anything: cudaMalloc may wait for the device); a null b stands for ones (a then holds
  // the products).
  Status queue(const Stream& s, const Fr* a, const Fr* b, const Fr* c) {
    return first_unsatisfied(s, a, b, c, rows, first.data());
  }
  Status read(const Stream& s) const {
    if (rows == 0) return Status::Ok();
    unsigned long long row = 0;
    CUZK_TRY_STATUS(first.download(&row, 1, s));
    CUZK_TRY_STATUS(s.synchronize());
    return row < rows ? cpu::unsatisfied_row_error(size_t(row)) : Status::Ok();
  }
};

}  // namespace

struct HStage::FromRows {
  const DeviceCompiledCircuit* resident = nullptr;  // nullptr: the matrices stream from the host
  SpmvPlan spmv;
  const CompiledRows* rows = nullptr;  // the witness and matrices (a pair's request holds the formed sides)
};

// One call's transforms and vectors. Every buffer is taken before anything is queued (a new
// block's cudaMalloc may wait for the device) and given back to the cache at the end: the first
// plan.borrowed vectors are slices of the MSM work area, the others blocks of the cache. A plan
// that keeps h allocates a (the first vector) and borrows the others.
struct HStage::Run {
  const HRequest& rq;
  const Plan& plan;
  // Set: the sparse product forms a, b (and c) into the resident plan's vectors, or a into the pair
  // plan's first vector and b (and c) into rq's host arrays.
  const FromRows* rows;
  size_t n;
  NttPlan ntt;
  NttCosetPowers coset;
  Fr z;  // the factor of the pointwise step (bellman: 1/Z on the coset, times n^-1; snarkjs: 1)
  MsmWorkspace* work;
  DeviceCache& cache;
  std::vector<DeviceBuffer<Fr>> owned;
  size_t borrowed = 0;
  Fr* a = nullptr;

  Result<Fr*> vector() {
    const bool own = plan.keep && owned.empty() && borrowed == 0;
    if (!own && borrowed < plan.borrowed) return reinterpret_cast<Fr*>(work->data()) + n * borrowed++;
    auto buf = cache.take<Fr>(n);
    if (!buf) return buf.error();
    owned.push_back(std::move(*buf));
    return owned.back().data();
  }
  // Domain evaluations → coefficients (bit-reversed, times n) → coset evaluations (natural).
  Status to_coset(const Stream& s, Fr* d, const NttTap& tap = {}) const {
    return ntt.to_coset(s, d, coset, tap);
  }
  // c's own transform. Bellman's H needs only c's inverse, never its coset: the coset inverse is
  // linear and undoes the coset forward, so icoset(A∘B − C on the coset) = icoset(A∘B) − iNTT(c).
  // c's goes first (times z, bit-reversed out), so that the coset inverse reads b in its first
  // pass and subtracts c in its last, with no permutation pass. snarkjs: c to the coset.
  Status transform_c(const Stream& s, Fr* c) const {
    if (rq.mode == HMode::divide_by_z_on_coset)
      return ntt.inverse_scaled(s, c, rq.log_n, z, NttOrder::natural, NttOrder::bit_reversed);
    return to_coset(s, c);
  }
  // h into a from A on the coset, B there (null: a already holds A∘B) and c's transform; bellman
  // leaves it in natural order after one reversal.
  Status finish(const Stream& s, Fr* a, const Fr* b, const Fr* c) const {
    if (rq.mode != HMode::divide_by_z_on_coset) return mul_sub_scale(s, a, b, c, z, n);
    CUZK_TRY_STATUS(
        ntt.coset_inverse_of_product(s, a, b, c, coset, NttOrder::natural, NttOrder::bit_reversed));
    return bit_reverse(s, a, rq.log_n);
  }
  DeviceBuffer<Fr>* kept_buffer() { return plan.keep ? &owned.front() : nullptr; }
};

namespace {
NttTuning h_ntt_tuning(bool compact_twiddles) {
  NttTuning t;
  if (compact_twiddles) t.twiddle_log = HStage::kCompactTwiddleLog;
  return t;
}
}  // namespace

size_t HStage::fixed_bytes(unsigned log_n, bool compact_twiddles) {
  return NttPlan::device_bytes_for(log_n, h_ntt_tuning(compact_twiddles)) +
         4 * (size_t(2) << ((log_n + 1) / 2)) * sizeof(Fr);
}

size_t HStage::rows_resident_bytes(unsigned log_n, size_t wires) {
  return (3 * (size_t(1) << log_n) + wires) * sizeof(Fr) + fixed_bytes(log_n, true);
}

Result<HStage::Plan> HStage::plan(unsigned log_n, bool check_rows, bool keep) const {
  const size_t n = size_t(1) << log_n;
  const size_t vec = n * sizeof(Fr);
  const size_t avail = dev_.available();
  const size_t in_work_area = msms_.work_area() ? msms_.work_area()->bytes() / vec : 0;
  const std::string name = "h 2^" + std::to_string(log_n);
  // The full twiddle table first, then the compact one (the kind's vectors matter more).
  const auto plan = [&](Plan::Kind kind, size_t vectors, const std::string& choice,
                        size_t chunk = 0) -> std::optional<Plan> {
    const size_t borrowed = std::min(vectors - (keep ? 1 : 0), in_work_area);
    for (const bool compact : {false, true}) {
      const size_t bytes = (vectors - borrowed) * vec + fixed_bytes(log_n, compact) + 2 * chunk * sizeof(Fr);
      if (bytes > avail) continue;
      // (compact fits only where it is smaller: below 2^21 both tables are the same)
      const std::string where = (compact ? "; twiddles in two tables" : "") +
                                (borrowed ? "; " + std::to_string(borrowed) + " of " +
                                                std::to_string(vectors) + " vectors in the MSM work area"
                                          : "") +
                                (keep ? "; h kept on the device" : "");
      return Plan{kind, borrowed, chunk, StagePlan{name, choice + where, bytes}, keep, compact};
    }
    return std::nullopt;
  };
  // A fourth vector keeps a·b for the row check, so each transform still starts as soon as its
  // vector has crossed instead of after all three have.
  if (check_rows)
    if (auto p = plan(Plan::Kind::checked, 4, kHChecked)) return *p;
  if (auto p = plan(Plan::Kind::resident, 3, kHResident)) return *p;
  if (auto p = plan(Plan::Kind::pair, 2, kHPair)) return *p;
  // One vector on the device; b and c transformed one at a time through it, then streamed back
  // in chunks for the pointwise step.
  for (size_t chunk = std::min<size_t>(n, size_t(1) << 22); chunk >= (size_t(1) << 12); chunk /= 2)
    if (auto p = plan(Plan::Kind::lean, 1, "one vector + b, c streamed in chunks of " + std::to_string(chunk),
                      chunk))
      return *p;
  return make_error("device " + std::to_string(dev_.device()) + ": the H stage of 2^" +
                    std::to_string(log_n) + " needs at least " +
                    mib(vec + fixed_bytes(log_n, true) + 2 * 4096 * sizeof(Fr)) + " but the budget leaves " +
                    mib(avail) + " (budget " + mib(dev_.budget) + ", resident " + mib(dev_.resident) + ")");
}

bool HStage::evict_for_stage() { return msms_.evict_one_idle() || compiled_.evict_idle(); }

Status HStage::compute(const HRequest& rq) {
  CUZK_TRY_STATUS(check_h_request(rq));
  if (rq.rows) return compute_from_rows(rq);
  dev_.kept.drop();
  const bool check = rq.check_rows > 0;
  auto p = plan(rq.log_n, check, rq.keep_on_device);
  // Resident bases of other parameter sets (not used by this call) give way before a stage fails.
  while (!p && evict_for_stage()) p = plan(rq.log_n, check, rq.keep_on_device);
  if (!p && rq.keep_on_device) p = plan(rq.log_n, check);  // then h comes back
  if (!p) return p.error();
  dev_.record(p->stage);
  const auto t0 = std::chrono::steady_clock::now();
  CUZK_TRY_STATUS(run_planned(rq, *p));
  dev_.finish(t0);
  return Status::Ok();
}

Status HStage::compute_from_rows(const HRequest& rq) {
  const CompiledRows& rows = *rq.rows;
  dev_.kept.drop();
  // The three vectors on the device (the lean plan has one: the rows then go through the host),
  // the matrices resident if they fit beside them and the witness, else streamed in chunks.
  std::optional<Plan> p;
  FromRows from;
  for (;;) {
    auto hp = plan(rq.log_n, false, rq.keep_on_device);
    if (!hp && rq.keep_on_device) hp = plan(rq.log_n, false);
    if (hp && hp->kind == Plan::Kind::resident) {
      auto f = rows_beside(rows, hp->stage.bytes);
      if (!f) return f.error();
      if (*f) {
        from = **f;
        p = *hp;
        break;
      }
    }
    if (!evict_for_stage()) break;
  }
  if (!p) {
    // No room for three vectors: where two fit, and the witness beside one, the pair plan over a
    // formed in place; else the device's product forms the sides one at a time, each to host
    // memory, and the stage plans again over them (pair or lean); where not even the witness and
    // one vector fit, the host's product does (4.4 s for a PoRep partition on 16 cores).
    auto paired = rows_to_pair(rq);
    if (!paired) return paired.error();
    if (*paired) return Status::Ok();
    HostSides sides;
    auto formed = rows_through_host(rq, sides);
    if (!formed) return formed.error();
    if (*formed) return compute(cpu::with_rows_formed(rq, sides.b.span(), sides.c.span()));
    CUZK_TRY_STATUS(dev_.wait_witness_on_host());
    return cpu::compute_h_from_host_rows(
        rq, [this](const HRequest& r) { return compute(r); }, ThreadPool::shared());
  }
  p->stage.bytes += from.spmv.stage_bytes;
  p->stage.choice += "; " + from.spmv.choice;
  dev_.record(p->stage);
  const auto t0 = std::chrono::steady_clock::now();
  CUZK_TRY_STATUS(run_planned(rq, *p, &from));
  dev_.finish(t0);
  return Status::Ok();
}

Status HStage::HostSides::allocate(size_t n, const CompiledRows& rows) {
  CUZK_TRY_STATUS(b.allocate(n, "the sparse products' b"));
  if (rows.matrices.has_c()) CUZK_TRY_STATUS(c.allocate(n, "the sparse products' c"));
  return Status::Ok();
}

Result<std::optional<HStage::FromRows>> HStage::rows_beside(const CompiledRows& rows, size_t beside) {
  auto resident = compiled_.get(rows, beside + rows.matrices.num_wires() * sizeof(Fr));
  if (!resident) return resident.error();
  const size_t avail = dev_.available();
  if (avail <= beside) return std::optional<FromRows>();
  auto sp = plan_spmv(rows.matrices, *resident != nullptr, avail - beside);
  if (!sp) return std::optional<FromRows>();
  return std::optional<FromRows>(FromRows{*resident, *sp, &rows});
}

Result<bool> HStage::rows_to_pair(const HRequest& rq) {
  const CompiledRows& rows = *rq.rows;
  const size_t n = size_t(1) << rq.log_n, vec = n * sizeof(Fr);
  for (;;) {
    auto hp = plan(rq.log_n, false, rq.keep_on_device);
    if (!hp && rq.keep_on_device) hp = plan(rq.log_n, false);
    if (!hp || hp->kind != Plan::Kind::pair) return false;
    // The product runs before the second vector is taken: the witness and the matrices (or their
    // streaming chunks) have its room and the room left beside the plan.
    const bool second_own = hp->borrowed < (hp->keep ? 1u : 2u);
    const size_t beside = hp->stage.bytes - (second_own ? vec : 0);
    auto f = rows_beside(rows, beside);
    if (!f) return f.error();
    if (!*f) {
      if (evict_for_stage()) continue;
      return false;
    }
    const FromRows& from = **f;
    HostSides sides;
    CUZK_TRY_STATUS(sides.allocate(n, rows));
    Plan p = *hp;
    p.stage.bytes = std::max(p.stage.bytes, beside + from.spmv.stage_bytes);
    p.stage.choice += "; " + from.spmv.choice + "; a formed in the first vector, b" +
                      (rows.matrices.has_c() ? ", c" : "") + " through it to the host";
    dev_.record(p.stage);
    const auto t0 = std::chrono::steady_clock::now();
    CUZK_TRY_STATUS(run_planned(cpu::with_rows_formed(rq, sides.b.span(), sides.c.span()), p, &from));
    dev_.finish(t0);
    return true;
  }
}

Result<bool> HStage::rows_through_host(const HRequest& rq, HostSides& sides) {
  const CompiledRows& rows = *rq.rows;
  const size_t n = size_t(1) << rq.log_n, vec = n * sizeof(Fr);
  for (;;) {
    // The vector goes into the idle MSM work area when it is large enough (as the stage's would).
    MsmWorkspace* const work = msms_.work_area();
    const size_t own = work && work->bytes() >= vec ? 0 : vec;
    auto f = rows_beside(rows, own);
    if (!f) return f.error();
    if (!*f) {
      if (evict_for_stage()) continue;
      return false;
    }
    const FromRows& from = **f;
    CUZK_TRY_STATUS(sides.allocate(n, rows));
    dev_.record(StagePlan{"h 2^" + std::to_string(rq.log_n) + " rows",
                          from.spmv.choice + (own ? "" : "; the vector in the MSM work area") +
                              "; each side through one vector to the host",
                          own + from.spmv.stage_bytes});
    const auto t0 = std::chrono::steady_clock::now();
    std::optional<DeviceBuffer<Fr>> owned;
    Fr* v = nullptr;
    if (own) {
      auto b = dev_.cache.take<Fr>(n);
      if (!b) return b.error();
      owned.emplace(std::move(*b));
      v = owned->data();
    } else {
      work->touch();  // the sorted digits an MSM left there are overwritten
      v = reinterpret_cast<Fr*>(work->data());
    }
    CUZK_TRY_STATUS(evaluate_witness_to_host(dev_, {from.resident, rows.matrices, rows.inputs, rows.aux},
                                             from.spmv, DeviceSpan<Fr>(dev_.device(), v, n), rq.a,
                                             sides.b.span(), sides.c.span()));
    dev_.finish(t0);
    return true;
  }
}

Status HStage::run_planned(const HRequest& rq, const Plan& plan, const FromRows* rows) {
  const unsigned log_n = rq.log_n;
  const size_t n = size_t(1) << log_n;
  const Stream& s = dev_.stream();
  auto ntt = NttPlan::create(s, log_n, rq.convention, h_ntt_tuning(plan.compact_twiddles), &dev_.cache);
  if (!ntt) return ntt.error();
  // The inverse transforms skip their n^-1, a multiplication per element each (2^27 at a time):
  // before a coset forward it is folded into the forward coset table, and the coset inverse and
  // c's inverse (bellman's H) leave it to z. Bellman divides by Z(g·ω^j) = g^n − 1 on the coset
  // (times n^-1 here); z is folded into the inverse coset table and c's inverse. snarkjs does
  // not divide, and has no coset inverse.
  const Fr n_inv = Fr::from_u64(uint64_t(n)).inverse();
  const Fr shift = ntt->default_coset_shift(log_n);
  const Fr z = rq.mode == HMode::divide_by_z_on_coset ? (shift.pow(uint64_t(n)) - Fr::one()).inverse() * n_inv
                                                      : Fr::one();
  auto coset = ntt->coset_powers(s, log_n, shift, &dev_.cache, NttCosetFactors{n_inv, z});
  if (!coset) return coset.error();
  Run run{rq,         plan, rows, n,      std::move(*ntt), std::move(*coset), z, msms_.work_area(),
          dev_.cache, {},   0,    nullptr};
  if (plan.borrowed) run.work->touch();  // the sorted digits an MSM left there are overwritten
  // Copies into the stage's vectors go on the copy stream, after the compute stream's earlier
  // work (the last call's MSMs may still read the blocks).
  CUZK_TRY_STATUS(dev_.copies_after_compute());
  auto a = run.vector();
  if (!a) return a.error();
  run.a = *a;
  switch (plan.kind) {
    case Plan::Kind::lean:
      return run_lean(run);
    case Plan::Kind::pair:
      return run_pair(run);
    default:
      return run_on_device(run);
  }
}

Status HStage::run_on_device(Run& r) {
  const HRequest& rq = r.rq;
  const Stream& s = dev_.stream();
  const size_t n = r.n, bytes = n * sizeof(Fr);
  Fr* const a = r.a;
  RowVerdict verdict;
  if (rq.check_rows) {
    auto first = dev_.cache.take<unsigned long long>(1);
    if (!first) return first.error();
    verdict = RowVerdict{std::move(*first), rq.check_rows};
  }
  auto b = r.vector();
  if (!b) return b.error();
  auto c = r.vector();
  if (!c) return c.error();
  // Each vector's upload (host threads + DMA on the copy stream) overlaps the transforms of the one
  // before it. The row check is a few ms of device work instead of a pass over 12 GB on the host's
  // cores: beside the transforms when a fourth vector fits (a copied, then times b, by the first
  // pass of each one's transform; then against c), else before them, once all three have crossed.
  if (r.rows) {
    // a, b (and c) from the witness on the device; c = a∘b formed by the transforms' first passes
    // when the circuit has no C.
    const CompiledRows& rows = *r.rows->rows;
    const bool with_c = rows.matrices.has_c();
    const int d = dev_.device();
    CUZK_TRY_STATUS(evaluate_witness(dev_, {r.rows->resident, rows.matrices, rows.inputs, rows.aux},
                                     r.rows->spmv, DeviceSpan<Fr>(d, a, n), DeviceSpan<Fr>(d, *b, n),
                                     with_c ? DeviceSpan<Fr>(d, *c, n) : DeviceSpan<Fr>()));
    CUZK_TRY_STATUS(r.to_coset(s, a, with_c ? NttTap{} : NttTap{*c, n, false}));
    CUZK_TRY_STATUS(r.to_coset(s, *b, with_c ? NttTap{} : NttTap{*c, n, true}));
  } else if (rq.check_rows && r.plan.kind == Plan::Kind::checked) {
    auto ab = r.vector();
    if (!ab) return ab.error();
    CUZK_TRY_STATUS(dev_.to_device_overlapped(a, rq.a.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, a, NttTap{*ab, rq.check_rows, false}));
    CUZK_TRY_STATUS(dev_.to_device_overlapped(*b, rq.b.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, *b, NttTap{*ab, rq.check_rows, true}));
    CUZK_TRY_STATUS(dev_.to_device_overlapped(*c, rq.c.data(), bytes));
    CUZK_TRY_STATUS(verdict.queue(s, *ab, nullptr, *c));
  } else if (rq.check_rows) {
    CUZK_TRY_STATUS(dev_.to_device_overlapped(a, rq.a.data(), bytes));
    CUZK_TRY_STATUS(dev_.to_device_overlapped(*b, rq.b.data(), bytes));
    CUZK_TRY_STATUS(dev_.to_device_overlapped(*c, rq.c.data(), bytes));
    CUZK_TRY_STATUS(verdict.queue(s, a, *b, *c));
    CUZK_TRY_STATUS(r.to_coset(s, a));
    CUZK_TRY_STATUS(r.to_coset(s, *b));
  } else if (rq.c_from_ab) {
    // c = a∘b formed here: a copied by its transform's first pass, times b by b's, instead of
    // 4 GiB crossing the bus.
    CUZK_TRY_STATUS(dev_.to_device_overlapped(a, rq.a.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, a, NttTap{*c, n, false}));
    CUZK_TRY_STATUS(dev_.to_device_overlapped(*b, rq.b.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, *b, NttTap{*c, n, true}));
  } else {
    CUZK_TRY_STATUS(dev_.to_device_overlapped(a, rq.a.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, a));
    CUZK_TRY_STATUS(dev_.to_device_overlapped(*b, rq.b.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, *b));
    CUZK_TRY_STATUS(dev_.to_device_overlapped(*c, rq.c.data(), bytes));
  }
  // Six transforms (bellman) instead of seven: c takes only its inverse (Run::transform_c).
  CUZK_TRY_STATUS(r.transform_c(s, *c));
  CUZK_TRY_STATUS(r.finish(s, a, *b, *c));
  CUZK_TRY_STATUS(verdict.read(s));  // a bad witness leaves the caller's a as it was
  return deliver(rq, a, r.kept_buffer());
}

Status HStage::run_pair(Run& r) {
  // Two vectors, x (the result's) and y. c's transform needs neither a nor b once c is formed, so
  // it runs first and waits in host memory (the caller's c, or scratch when c stands for a∘b, which
  // the first transform's tap forms on the device) while A and B are formed and multiplied; then
  // it crosses back for the last step. 20 GiB over PCIe at 2^27 (c, A∘B's inputs, c's transform
  // both ways), against 28 for the lean plan and its host product.
  const HRequest& rq = r.rq;
  const Stream& s = dev_.stream();
  const size_t n = r.n, bytes = n * sizeof(Fr);
  Fr* const x = r.a;
  CUZK_TRY_STATUS(cpu::check_rows(rq.a.data(), rq.b.data(), rq.c.data(), rq.check_rows));
  if (const FromRows* f = r.rows) {  // a into x; b (and c) into rq's host arrays
    const CompiledRows& rows = *f->rows;
    CUZK_TRY_STATUS(evaluate_witness_to_host(dev_, {f->resident, rows.matrices, rows.inputs, rows.aux},
                                             f->spmv, DeviceSpan<Fr>(dev_.device(), x, n), {}, rq.b, rq.c));
  }
  auto y_or = r.vector();
  if (!y_or) return y_or.error();
  Fr* const y = *y_or;
  cpu::ScratchValues scratch;
  std::span<Fr> c_t = rq.c;  // where c's transform waits
  if (rq.c_from_ab) {
    CUZK_TRY_STATUS(scratch.allocate(n, "c's transform"));
    c_t = scratch.span();
    if (!r.rows) CUZK_TRY_STATUS(dev_.to_device(x, rq.a.data(), bytes));
    CUZK_TRY_STATUS(dev_.to_device(y, rq.b.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, x, NttTap{y, n, true}));  // y ← a∘b = c; x ← A
    CUZK_TRY_STATUS(r.transform_c(s, y));
    CUZK_TRY_STATUS(dev_.to_host(c_t.data(), y, bytes));
  } else {
    CUZK_TRY_STATUS(dev_.to_device(y, rq.c.data(), bytes));
    CUZK_TRY_STATUS(r.transform_c(s, y));
    CUZK_TRY_STATUS(dev_.to_host(c_t.data(), y, bytes));
    if (!r.rows) CUZK_TRY_STATUS(dev_.to_device(x, rq.a.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, x));
  }
  CUZK_TRY_STATUS(dev_.to_device(y, rq.b.data(), bytes));
  CUZK_TRY_STATUS(r.to_coset(s, y));
  CUZK_TRY_STATUS(mul_sub_scale(s, x, y, nullptr, Fr::one(), n));  // A∘B
  CUZK_TRY_STATUS(dev_.to_device(y, c_t.data(), bytes));
  CUZK_TRY_STATUS(r.finish(s, x, nullptr, y));
  return deliver(rq, x, r.kept_buffer());
}

Status HStage::run_lean(Run& r) {
  // b and c through the one device vector, back to host memory as coset evaluations. Without room
  // for all three on the device, the rows are checked on the host, and c = a∘b (when the caller
  // left it out) is formed there: this plan keeps a vector per side on the host.
  const HRequest& rq = r.rq;
  const Stream& s = dev_.stream();
  const size_t n = r.n, bytes = n * sizeof(Fr);
  Fr* const a = r.a;
  cpu::ScratchValues formed_c;
  auto c = cpu::host_c_values(rq, formed_c);
  if (!c) return c.error();
  const std::span<Fr> host_c = *c;
  CUZK_TRY_STATUS(cpu::check_rows(rq.a.data(), rq.b.data(), host_c.data(), rq.check_rows));
  for (std::span<Fr> v : {rq.b, host_c}) {
    CUZK_TRY_STATUS(dev_.to_device(a, v.data(), bytes));
    CUZK_TRY_STATUS(r.to_coset(s, a));
    CUZK_TRY_STATUS(dev_.to_host(v.data(), a, bytes));
  }
  CUZK_TRY_STATUS(dev_.to_device(a, rq.a.data(), bytes));
  CUZK_TRY_STATUS(r.to_coset(s, a));
  const size_t chunk = r.plan.chunk;
  auto sb = dev_.cache.take<Fr>(chunk);
  if (!sb) return sb.error();
  auto sc = dev_.cache.take<Fr>(chunk);
  if (!sc) return sc.error();
  for (size_t off = 0; off < n; off += chunk) {
    const size_t len = std::min(chunk, n - off);
    CUZK_TRY_STATUS(dev_.to_device(sb->data(), rq.b.data() + off, len * sizeof(Fr)));
    CUZK_TRY_STATUS(dev_.to_device(sc->data(), host_c.data() + off, len * sizeof(Fr)));
    // z waits in the coset inverse's table (bellman); snarkjs's is 1.
    CUZK_TRY_STATUS(mul_sub_scale(s, a + off, sb->data(), sc->data(), Fr::one(), len));
  }
  if (rq.mode == HMode::divide_by_z_on_coset)
    CUZK_TRY_STATUS(r.ntt.coset_inverse(s, a, r.coset, NttOrder::natural, NttOrder::natural));
  return deliver(rq, a, r.kept_buffer());
}

Status HStage::deliver(const HRequest& rq, const Fr* a, DeviceBuffer<Fr>* own) {
  if (!own) return dev_.to_host(rq.a.data(), a, rq.a.size() * sizeof(Fr));
  dev_.kept.buffer.emplace(std::move(*own));
  dev_.kept.host = rq.a.data();
  dev_.kept.call = dev_.calls;
  return Status::Ok();
}

}  // namespace cuzk::cuda
