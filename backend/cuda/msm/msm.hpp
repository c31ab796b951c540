// Multi-scalar multiplication on a CUDA device for G1 and G2: Σ s_i·P_i, Pippenger's bucket method.
//
// The pipeline, per chunk of points (msm/pipeline.cuh runs it; the kernels are msm/digit_kernels.cuh
// and msm/bucket_kernels.cuh, the window and layout rules msm/window.hpp):
//   1. scalars (Fr, Montgomery or canonical, on the host or the device) become signed c-bit digits
//      (the top W·c − 256 windows c − 1 bits wide, when each window is its own set: fewer buckets),
//      one (key, value) pair per window: key = bucket of the digit's magnitude in its bucket set,
//      value = index of the (precomputed) base with the sign in the top bit; zero digits take no
//      pair (a count per block and a scan place each block's digits);
//   2. CUB's radix sort orders the pairs by bucket;
//   3. buckets are split into items of at most `bucket_run` points, each item summed by one thread
//      into an XYZZ point (items sorted by length, longest first, so a warp's threads finish
//      together; a bucket's first item starts from the bucket's sum over earlier chunks); a bucket's
//      only item writes the bucket, and the items of the others are summed again in rounds of 16
//      until one is left (so a bucket holding most of the points, e.g. every scalar equal to 1, is
//      summed in parallel, not by one thread);
//   4. after the last chunk, each bucket set is reduced on the device by one level of running sums
//      and sums by index bit, and the host combines the sets' few sums in one pass of doublings.
//
// Fixed bases allow precomputation: with `precompute` = m tables holding 2^(c·j)·P (j < m), windows
// w and w + m share a bucket set, so ceil(W/m) sets remain; m = W leaves a single set, whose small
// reduction lets c grow and the window count W = ceil(256/c) shrink. The tables cost m·N affine
// points of device memory and are built once, when the bases are set.
//
// Scalars 0 contribute nothing (all digits zero). A scalar 1 has one nonzero digit, so it costs one
// mixed addition into the bucket of value 1, which step 3 sums in parallel however many there are:
// the 0/1 "batch addition" of the Groth16 prover is this same path.
//
// Inputs larger than the device allows are processed in chunks of `chunk_points` scalars: host
// scalars (and host bases, when they are not resident) are copied on the context's own copy stream
// into two alternating buffers, so the copy of chunk k+1 overlaps the compute of chunk k. Pageable
// host memory goes through a HostStager (set_stager) at PCIe speed; without one the driver copies
// it synchronously at a few GB/s.
//
// Nothing here is global: a context belongs to one device, allocates its memory once in create(),
// and every call names the stream it runs on. Errors, CUDA's included, come back as Status. A context
// runs one MSM at a time (its buffers are reused between runs): give each worker its own.
//
// Typical use (bases resident with full precomputation, scalars from the prover's host memory):
//   auto plan = Msm<G1Affine>::plan(n, {.precompute = 0});            // bytes, for the planner
//   auto msm = Msm<G1Affine>::create(device, n, {.precompute = 0});    // allocates plan->total_bytes()
//   msm->set_bases(bases, n, Memory::host, stream);                    // once per parameter set
//   auto r = msm->run(scalars, n, Memory::host, ScalarForm::montgomery, stream);
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "backend/cuda/msm/window.hpp"
#include "backend/cuda/runtime/runtime.hpp"
#include "common/result.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

class HostStager;

struct MsmConfig {
  unsigned window_bits = 0;  // c, in 1..24; 0 picks the cheapest by msm_pick_window (window.hpp)
  unsigned precompute = 1;   // m tables of multiples; 1 = none, 0 = one table per window (single set)
  size_t chunk_points = 0;   // scalars per pass; 0 = all of them in one pass
  unsigned bucket_run = 0;   // the most points one thread adds in step 3; 0: about twice the mean bucket
  bool profile = false;      // time the phases with events (last_timings()); adds a sync per chunk
  // Bases already on the device, held elsewhere (DeviceBases): the context allocates no tables and
  // set_bases takes them by reference (device memory only; precompute must be 1).
  bool referenced_bases = false;
  // The most bases set_bases will be given, when fewer than the scalars (density form: only the
  // present variables have bases); 0: as many as max_points. Sizes the tables.
  size_t max_bases = 0;
  // Passes by groups of bucket sets: each pass takes every point of its chunk (all of them for
  // device scalars) for a group of sets, so each bucket is summed in one pass instead of in every
  // pass, and the item buffers hold one group's buckets. Every run of such a context goes so, at a
  // read of the scalars per pass: for uniform scalars that need several passes (the H query), not
  // for sparse ones that fit one pass of digits. Takes effect when chunk_points < max_points, there
  // are two sets or more, c >= 8, and chunk_points·W digits hold a set of every point.
  bool set_passes = false;
  // Windows of c − 1 bits where W·c exceeds 256 (with m = 1): the same digits over fewer buckets
  // (DigitShape::wide). False keeps every window c bits wide (for comparisons).
  bool narrow_windows = true;
};

// Device milliseconds per phase of the last run, summed over chunks (MsmConfig::profile).
struct MsmTimings {
  float digits_ms = 0, sort_ms = 0, offsets_ms = 0, schedule_ms = 0, accumulate_ms = 0, rounds_ms = 0,
        reduce_ms = 0;
  float finish_ms = 0;  // host: each set's sum from the device's, and the sets' combination
  unsigned passes = 0;  // sort-and-sum passes (chunks of points, or groups of windows)
};

// Where scalars and bases live and how scalars are encoded.
enum class Memory { host, device };
enum class ScalarForm { montgomery, canonical };

// The shape a context is created for, once c and m are resolved, and its device memory.
struct MsmPlan {
  unsigned window_bits = 0;     // c
  unsigned windows = 0;         // W = ceil(256 / c)
  unsigned narrow_windows = 0;  // of them, the top ones of c − 1 bits (MsmConfig::narrow_windows)
  unsigned precompute = 0;      // m (tables of bases)
  unsigned sets = 0;            // ceil(W / m) bucket sets
  unsigned bucket_run = 0;      // L, resolved
  size_t chunk_points = 0;      // scalars per pass
  size_t base_bytes = 0;        // resident bases and tables (0 for bases streamed from the host)
  size_t work_bytes = 0;        // everything else: digits, sort, items, buckets, staging
  size_t total_bytes() const { return base_bytes + work_bytes; }
};

// Device memory for the work buffers (digits, sort, buckets, staging) of MSM contexts that never
// run at the same time: one backend's resident contexts share one, so keeping five base arrays
// resident costs five base arrays and one work area, not five.
class MsmWorkspace {
 public:
  static Result<std::shared_ptr<MsmWorkspace>> create(int device, size_t bytes) {
    auto mem = DeviceBuffer<unsigned char>::alloc(device, bytes);
    if (!mem) return mem.error();
    return std::shared_ptr<MsmWorkspace>(new MsmWorkspace(std::move(*mem)));
  }
  int device() const { return mem_.device(); }
  size_t bytes() const { return mem_.size(); }
  unsigned char* data() const { return mem_.data(); }
  // Counts the uses of the memory: every run, and every borrower that writes it (the H stage), calls
  // touch(), so a context can tell whether the sorted digits its last run left are still there
  // (Msm::run_sorted_by).
  uint64_t touch() { return ++uses_; }
  uint64_t uses() const { return uses_; }

 private:
  explicit MsmWorkspace(DeviceBuffer<unsigned char> mem) : mem_(std::move(mem)) {}
  DeviceBuffer<unsigned char> mem_;
  uint64_t uses_ = 0;
};

template <class Affine>
class Msm {
 public:
  using Jacobian = curve::jacobian_t<typename Affine::field, typename Affine::params>;

  // What create() would allocate for at most `max_points` bases and scalars, without allocating:
  // for a memory planner. `streamed_bases` plans for bases that stay in host memory.
  static Result<MsmPlan> plan(size_t max_points, const MsmConfig& config = {}, bool streamed_bases = false);

  // A context on `device` for at most `max_points` bases; allocates plan().total_bytes(), or only
  // plan().base_bytes when `workspace` (of this device, at least plan().work_bytes) is given: the
  // contexts sharing one must not run at the same time.
  static Result<Msm> create(int device, size_t max_points, const MsmConfig& config = {},
                            bool streamed_bases = false, std::shared_ptr<MsmWorkspace> workspace = nullptr);

  Msm(Msm&&) noexcept;
  Msm& operator=(Msm&&) noexcept;
  Msm(const Msm&) = delete;
  Msm& operator=(const Msm&) = delete;
  ~Msm();

  const MsmPlan& plan() const;
  int device() const;
  // Moves the work buffers into `workspace` (same conditions as in create; the old one is released
  // when nothing else holds it). Not while a run is in flight.
  Status use_workspace(std::shared_ptr<MsmWorkspace> workspace);
  const MsmTimings& last_timings() const;

  // Host inputs (scalars, streamed bases) are copied through `stager` (pinned slots, PCIe speed)
  // instead of the driver's pageable path; nullptr restores the driver's. The stager must be of
  // this device and outlive the context's runs; a streamed run then copies chunk k + 1 on a host
  // thread while chunk k computes.
  void set_stager(HostStager* stager);

  // The bases, n <= max_points of them (infinity = all-zero affine). Device bases are copied into
  // the context when it precomputes (m > 1) and otherwise only referenced: they must then outlive
  // the context's runs. Host bases are uploaded once, or, for a context created with
  // streamed_bases, kept by pointer and streamed with each run (they must outlive the runs).
  // The precomputed tables are built on `s`.
  Status set_bases(const Affine* bases, size_t n, Memory where, const Stream& s);

  // Σ scalars[i]·bases[i] for i < n (n <= the number of bases). Returns when the result is on the
  // host; `s` must belong to the context's device.
  Result<Jacobian> run(const Fr* scalars, size_t n, Memory where, ScalarForm form, const Stream& s);

  // Density form (formats.md §3.2): Σ over present i < n of scalars[i]·bases[rank(i)], where i is
  // present iff bit i%64 of density[i/64] is set (a host array of ceil(n/64) words) and rank(i)
  // counts the present variables below i. The number of bases set must be the present count.
  Result<Jacobian> run(const Fr* scalars, size_t n, const uint64_t* density, Memory where, ScalarForm form,
                       const Stream& s);

  // The same MSM over the digits `source` (of either curve) sorted in its last run, with this
  // context's bases: for a request whose scalars and density are that run's, on a context of the
  // same digit layout (window, points, bases, passes) and workspace. Skips the digits, their sort,
  // the bucket offsets and the schedule (about 28 ms of a 2^27 witness MSM). can_run_sorted_by says
  // whether `source` still holds them: its last run took one pass and nothing has used the
  // workspace since. Instantiated for every pair of G1Affine and G2Affine.
  template <class SourceAffine>
  bool can_run_sorted_by(const Msm<SourceAffine>& source) const;
  template <class SourceAffine>
  Result<Jacobian> run_sorted_by(const Msm<SourceAffine>& source, const Stream& s);

  struct State;  // device buffers, streams, events (msm/context.cuh)

 private:
  template <class>
  friend class Msm;  // run_sorted_by reads the source's state, of either curve
  explicit Msm(std::unique_ptr<State> st);
  std::unique_ptr<State> st_;
};

extern template class Msm<G1Affine>;
extern template class Msm<G2Affine>;

}  // namespace cuzk::cuda
