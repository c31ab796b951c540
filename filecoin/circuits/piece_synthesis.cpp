#include "filecoin/circuits/piece_synthesis.hpp"

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace cuzk::filecoin {

using r1cs::ProvingAssignment;
using r1cs::ShapeCounts;

PiecePlan plan_pieces(size_t pieces, unsigned threads) {
  const size_t t = std::max(1u, threads);
  PiecePlan plan;
  plan.workers = unsigned(std::max<size_t>(1, pieces < 2 * t ? pieces : t));
  plan.window = 2 * size_t(plan.workers);
  return plan;
}

namespace {

// A fresh system for piece i, forked from the top part's.
template <class System>
using ForkPiece = std::function<System(size_t i)>;

// synthesize_pieces with the pieces' systems made by `fork`.
template <class System>
Status run_pieces(size_t n, unsigned threads, const ForkPiece<System>& fork,
                  const SynthesizePiece& synthesize, const PieceSink<System>& take, const char* what) {
  const PiecePlan plan = plan_pieces(n, threads);
  struct Slot {
    std::optional<System> piece;
    Status status;
    bool done = false;
  };
  std::vector<Slot> slots(n);
  std::mutex m;
  std::condition_variable cv;
  size_t next = 0, taken = 0;
  bool stop = false;

  auto work = [&] {
    for (;;) {
      size_t i;
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stop || next >= n || next < taken + plan.window; });
        if (stop || next >= n) return;
        i = next++;
      }
      System piece = fork(i);
      Status s = synthesize(piece, i);
      std::lock_guard lock(m);
      slots[i].status = std::move(s);
      if (slots[i].status.ok()) slots[i].piece.emplace(std::move(piece));
      slots[i].done = true;
      cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < plan.workers; ++t) pool.emplace_back(work);

  Status result;
  for (size_t i = 0; i < n && result.ok(); ++i) {
    std::optional<System> piece;
    {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return slots[i].done; });
      if (!slots[i].status.ok()) {
        result = make_error(std::string(what) + " " + std::to_string(i) + ": " + slots[i].status.message());
        break;
      }
      piece = std::move(slots[i].piece);
      slots[i].piece.reset();
    }
    result = take(i, std::move(*piece));
    std::lock_guard lock(m);
    taken = i + 1;
    cv.notify_all();
  }
  {
    std::lock_guard lock(m);
    stop = true;
    cv.notify_all();
  }
  for (std::thread& th : pool) th.join();
  return result;
}

}  // namespace

template <class System>
Status synthesize_pieces(const System& top_system, size_t n, const ShapeCounts& piece_shape, unsigned threads,
                         const SynthesizePiece& synthesize,
                         const std::type_identity_t<PieceSink<System>>& take, const char* what) {
  const ForkPiece<System> fork = [&](size_t) {
    System piece = top_system.fork();
    piece.reserve(piece_shape.constraints, top_system.num_aux() + piece_shape.aux,
                  top_system.num_inputs() + piece_shape.inputs);
    return piece;
  };
  return run_pieces<System>(n, threads, fork, synthesize, take, what);
}

ShapeCounts whole_counts(const ShapeCounts& top, size_t n, const ShapeCounts& piece) {
  return {top.constraints + n * piece.constraints, top.inputs + n * piece.inputs, top.aux + n * piece.aux};
}

template Status synthesize_pieces<ProvingAssignment>(const ProvingAssignment&, size_t, const ShapeCounts&,
                                                     unsigned, const SynthesizePiece&,
                                                     const PieceSink<ProvingAssignment>&, const char*);
template Status synthesize_pieces<r1cs::CompilingSystem>(const r1cs::CompilingSystem&, size_t,
                                                         const ShapeCounts&, unsigned, const SynthesizePiece&,
                                                         const PieceSink<r1cs::CompilingSystem>&,
                                                         const char*);

namespace {

// The pieces joined into `base` (which holds the top part), in room reserved for the whole circuit.
template <class System>
Status join_pieces(System& base, size_t n, const ShapeCounts& piece, unsigned threads,
                   const SynthesizePiece& synthesize, const char* what) {
  const System top_system = base.fork();
  const ShapeCounts top{base.num_constraints(), base.num_inputs(), base.num_aux()};
  reserve_whole(base, top, n, piece);  // nothing to do when the caller reserved it
  ForkPiece<System> fork = [&](size_t) {
    System p = top_system.fork();
    p.reserve(piece.constraints, top.aux + piece.aux, top.inputs + piece.inputs);
    return p;
  };
  if constexpr (std::is_same_v<System, ProvingAssignment>) {
    // A witness's pieces write their variables where they end up: no piece vectors, no copies.
    std::vector<std::span<Fr>> rooms;
    for (size_t i = 0; base.is_witness_only() && i < n; ++i) {
      rooms.push_back(base.aux_room(top.aux + i * piece.aux, piece.aux));
      if (rooms.back().data() == nullptr) rooms.clear();  // storage not reserved: pieces of their own
      if (rooms.empty()) break;
    }
    if (!rooms.empty()) fork = [&, rooms](size_t i) { return top_system.fork_into(rooms[i]); };
  }
  PrefaultThread prefault(base);
  return run_pieces<System>(
      n, threads, fork, synthesize,
      [&](size_t i, System&& p) {
        prefault.join();
        // The compiler's terms: every piece has the first one's.
        if constexpr (requires { base.reserve_terms(p, n); }) {
          if (i == 0) base.reserve_terms(p, n);
        }
        return base.extend(std::move(p));
      },
      what);
}

}  // namespace

Result<r1cs::Assignment> synthesize_joined(ProvingAssignment base, size_t n, const ShapeCounts& piece,
                                           unsigned threads, const SynthesizePiece& synthesize,
                                           const char* what) {
  CUZK_TRY_STATUS(join_pieces(base, n, piece, threads, synthesize, what));
  return base.finish();
}

Result<r1cs::CompiledCircuit> compile_joined(r1cs::CompilingSystem base, size_t n, const ShapeCounts& piece,
                                             unsigned threads, const SynthesizePiece& synthesize,
                                             const char* what) {
  CUZK_TRY_STATUS(join_pieces(base, n, piece, threads, synthesize, what));
  return base.finish();
}

namespace {

constexpr uint64_t kFr = 32;
// Reserved room is advised for transparent huge pages, so a vector's last page may be mapped whole.
constexpr uint64_t kHugePage = uint64_t(2) << 20;

// A system's variables and their bitmaps.
uint64_t variables_bytes(uint64_t inputs, uint64_t aux) {
  return (inputs + aux) * kFr + (2 * aux + inputs) / 8 + 192;
}

// A system's own vectors: a, b and c of `rows`, its variables, and the huge-page rounding of each.
uint64_t system_bytes(uint64_t rows, uint64_t inputs, uint64_t aux) {
  return 3 * rows * kFr + variables_bytes(inputs, aux) + 4 * kHugePage;
}

}  // namespace

uint64_t SynthesisFootprint::peak_bytes() const {
  const uint64_t domain = std::bit_ceil(uint64_t(whole.rows()));
  uint64_t bytes = system_bytes(domain, whole.inputs, whole.aux);
  if (pieces_alive == 0) return bytes;
  const uint64_t prefix_bytes = variables_bytes(prefix.inputs, prefix.aux);
  bytes += prefix_bytes;  // the top part's copy every fork is made from
  bytes +=
      pieces_alive * system_bytes(piece.constraints, prefix.inputs + piece.inputs, prefix.aux + piece.aux);
  // A fork's first copy of the prefix, until the piece's reserved room takes it over.
  bytes += forking * prefix_bytes;
  return bytes;
}

uint64_t SynthesisFootprint::witness_peak_bytes() const {
  const uint64_t domain = std::bit_ceil(uint64_t(whole.rows()));
  uint64_t bytes = (domain + whole.inputs + whole.aux) * kFr + 3 * kHugePage;
  if (pieces_alive == 0) return bytes;
  // The top part's copy the pieces are forked from; the pieces write their auxiliaries into the
  // system's storage (ProvingAssignment::fork_into) and hold copies of the inputs alone.
  bytes += (prefix.inputs + prefix.aux) * kFr;
  bytes += pieces_alive * (prefix.inputs + piece.inputs) * kFr;
  return bytes;
}

SynthesisFootprint joined_footprint(const ShapeCounts& top, size_t n, const ShapeCounts& piece,
                                    unsigned threads) {
  SynthesisFootprint f;
  f.whole = whole_counts(top, n, piece);
  f.prefix = top;
  f.piece = piece;
  const PiecePlan plan = plan_pieces(n, threads);
  f.pieces_alive = std::min(n, plan.window);
  f.forking = plan.workers;
  return f;
}

}  // namespace cuzk::filecoin
