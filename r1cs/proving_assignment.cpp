#include "r1cs/proving_assignment.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <thread>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk::r1cs {

namespace {

// <lc, w>, setting the density bit of every variable whose merged coefficient is non-zero
// (bellperson's lc::eval_with_trackers). Null trackers are not tracked.
Fr eval_tracked(const LinearCombination& lc, DensityBitmap* input_density, DensityBitmap* aux_density,
                const std::vector<Fr>& inputs, const std::vector<Fr>& aux) {
  Fr acc = Fr::zero();
  for (const Term& t : lc.terms()) {
    if (t.coeff.is_zero()) continue;
    const uint32_t i = t.var.index;
    const Fr& v = t.var.is_input() ? inputs[i] : aux[i];
    // Most variables of real circuits are bits: skip the product for 0 and 1.
    if (t.coeff.is_one()) {
      acc += v;
    } else if (v.is_one()) {
      acc += t.coeff;
    } else if (!v.is_zero()) {
      acc += v * t.coeff;
    }
    DensityBitmap* d = t.var.is_input() ? input_density : aux_density;
    if (d != nullptr) d->set(i);
  }
  return acc;
}

// OS hints for the big vectors, Linux only; a kernel without them refuses, and nothing changes.
enum class Hint { huge_pages, populate };

void advise(const void* begin, const void* end, Hint hint) {
#if defined(__linux__)
  const uintptr_t page = hint == Hint::huge_pages ? uintptr_t(2) << 20 : uintptr_t(4096);
  const uintptr_t b = (uintptr_t(begin) + page - 1) & ~(page - 1), e = uintptr_t(end) & ~(page - 1);
  if (e <= b) return;
#if defined(MADV_HUGEPAGE)
  if (hint == Hint::huge_pages) (void)madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#endif
  // MADV_POPULATE_WRITE (Linux 5.14) is 23; older headers lack the name.
  if (hint == Hint::populate) (void)madvise(reinterpret_cast<void*>(b), e - b, 23);
#else
  (void)begin, (void)end, (void)hint;
#endif
}

// [data + size, data + capacity) of v: room reserved and not yet used.
template <class T>
void advise_room(const std::vector<T>& v, Hint hint) {
  advise(v.data() + v.size(), v.data() + v.capacity(), hint);
}

// Pieces of at least this many rows are joined with their vectors copied side by side.
constexpr size_t kParallelJoinRows = size_t(1) << 18;

template <class T>
void append_from(std::vector<T>& dst, const std::vector<T>& src, size_t from) {
  dst.insert(dst.end(), src.begin() + ptrdiff_t(from), src.end());
}

}  // namespace

ProvingAssignment::ProvingAssignment() : ProvingAssignment(Mode::full) {}

ProvingAssignment::ProvingAssignment(Mode mode) : mode_(mode) { alloc_input(Fr::one()); }

ProvingAssignment ProvingAssignment::witness_only(std::vector<Fr> storage) {
  ProvingAssignment cs(Mode::witness_only);
  cs.out_.aux_assignment = std::move(storage);
  return cs;
}

void ProvingAssignment::size_witness_storage(size_t aux) {
  if (placed_) return;  // a piece forked into a room has no storage of its own
  std::vector<Fr>& v = out_.aux_assignment;
  if (v.size() >= aux) return;  // adopted storage: nothing is written over it
  if (v.capacity() < aux) {
    std::vector<Fr> bigger;
    bigger.reserve(aux);
    bigger.insert(bigger.end(), v.begin(), v.begin() + ptrdiff_t(aux_count_));
    v = std::move(bigger);
    advise_room(v, Hint::huge_pages);
    // The kernel maps and clears fresh pages one fault at a time: have it do so on every thread,
    // so that the zero-fill below runs at memory speed.
    const Fr* begin = v.data() + v.size();
    const size_t n = v.capacity() - v.size();
    const size_t per_thread = (size_t(64) << 20) / sizeof(Fr);  // below 64 MiB a thread is not worth it
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const auto threads = unsigned(std::clamp<size_t>(n / per_thread, 1, cores));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back(
          [=] { advise(begin + n * t / threads, begin + n * (t + 1) / threads, Hint::populate); });
    for (std::thread& th : pool) th.join();
  }
  v.resize(aux);
}

void ProvingAssignment::reserve(size_t constraints, size_t aux, size_t inputs) {
  out_.input_assignment.reserve(inputs);
  if (is_witness_only()) return size_witness_storage(aux);
  out_.aux_assignment.reserve(aux);
  // Room for the prover's zero padding to the domain size, so that it does not reallocate.
  const size_t domain = std::bit_ceil(constraints + inputs);
  out_.a.reserve(domain);
  out_.b.reserve(domain);
  out_.c.reserve(domain);
  out_.a_aux_density.words.reserve((aux + 63) / 64);
  out_.b_aux_density.words.reserve((aux + 63) / 64);
  for (const auto* v : {&out_.a, &out_.b, &out_.c, &out_.aux_assignment}) advise_room(*v, Hint::huge_pages);
}

void ProvingAssignment::prefault() {
  // One thread a vector: the kernel maps pages of separate ranges side by side.
  std::vector<std::thread> pool;
  for (const auto* v : {&out_.b, &out_.c, &out_.aux_assignment})
    pool.emplace_back([v] { advise_room(*v, Hint::populate); });
  advise_room(out_.a, Hint::populate);
  for (std::thread& t : pool) t.join();
}

Variable ProvingAssignment::alloc(const Fr& value) {
  if (finished_ && misuse_.empty()) misuse_ = "alloc after finish()";
  if (is_witness_only()) return alloc_witness(value);
  const auto index = uint32_t(out_.aux_assignment.size());
  out_.aux_assignment.push_back(value);
  out_.a_aux_density.push(false);
  out_.b_aux_density.push(false);
  return Variable::aux(index);
}

Variable ProvingAssignment::alloc_witness(const Fr& value) {
  const size_t index = aux_count_++;
  if (placed_) {
    const size_t own = index - prefix_aux_;
    if (own < room_.size()) {
      room_[own] = value;
    } else if (misuse_.empty()) {
      misuse_ = "a piece allocated more auxiliaries than its room of " + std::to_string(room_.size());
    }
    return Variable::aux(uint32_t(index));
  }
  if (index < room_claimed_end_ && misuse_.empty())
    misuse_ = "alloc while pieces forked into its room are out";
  std::vector<Fr>& v = out_.aux_assignment;
  if (index < v.size()) {
    v[index] = value;
  } else {
    v.push_back(value);
  }
  return Variable::aux(uint32_t(index));
}

void ProvingAssignment::put_aux(const Fr* values, size_t n) {
  std::vector<Fr>& v = out_.aux_assignment;
  const size_t fit = std::min(n, v.size() - std::min(v.size(), aux_count_));
  std::copy(values, values + fit, v.begin() + ptrdiff_t(aux_count_));
  v.insert(v.end(), values + fit, values + n);
  aux_count_ += n;
}

Variable ProvingAssignment::alloc_input(const Fr& value) {
  if (finished_ && misuse_.empty()) misuse_ = "alloc_input after finish()";
  const auto index = uint32_t(out_.input_assignment.size());
  out_.input_assignment.push_back(value);
  if (!is_witness_only()) out_.b_input_density.push(false);
  return Variable::input(index);
}

void ProvingAssignment::enforce(const LinearCombination& a, const LinearCombination& b,
                                const LinearCombination& c) {
  if (finished_ && misuse_.empty()) misuse_ = "enforce after finish()";
  ++constraints_;
  if (is_witness_only()) return;
  const auto& in = out_.input_assignment;
  const auto& aux = out_.aux_assignment;
  out_.a.push_back(eval_tracked(a, nullptr, &out_.a_aux_density, in, aux));
  out_.b.push_back(eval_tracked(b, &out_.b_input_density, &out_.b_aux_density, in, aux));
  out_.c.push_back(eval_tracked(c, nullptr, nullptr, in, aux));
}

void ProvingAssignment::count_constraints(size_t n) {
  if (!is_witness_only()) {
    if (misuse_.empty()) misuse_ = "count_constraints on a system that keeps its rows";
    return;
  }
  if (finished_ && misuse_.empty()) misuse_ = "enforce after finish()";
  constraints_ += n;
}

ProvingAssignment ProvingAssignment::fork() const {
  ProvingAssignment piece(mode_);
  piece.out_.input_assignment = out_.input_assignment;
  // A piece forked into a room holds its own variables there, not here: it cannot be forked.
  const size_t aux = placed_ ? 0 : num_aux();
  piece.out_.aux_assignment.assign(out_.aux_assignment.begin(), out_.aux_assignment.begin() + ptrdiff_t(aux));
  piece.aux_count_ = aux;
  if (placed_) piece.misuse_ = "fork of a piece forked into a room";
  if (!is_witness_only()) {
    piece.out_.b_input_density.resize(out_.input_assignment.size());
    piece.out_.a_aux_density.resize(out_.aux_assignment.size());
    piece.out_.b_aux_density.resize(out_.aux_assignment.size());
  }
  piece.prefix_inputs_ = out_.input_assignment.size();
  piece.prefix_aux_ = out_.aux_assignment.size();
  if (finished_) piece.misuse_ = "fork of a finished system";
  return piece;
}

ProvingAssignment ProvingAssignment::fork_into(std::span<Fr> room) const {
  ProvingAssignment piece(mode_);
  piece.out_.input_assignment = out_.input_assignment;
  piece.prefix_inputs_ = out_.input_assignment.size();
  piece.prefix_aux_ = piece.aux_count_ = num_aux();
  piece.placed_ = true;
  piece.room_ = room;
  if (finished_) piece.misuse_ = "fork of a finished system";
  if (placed_) piece.misuse_ = "fork_into of a piece forked into a room";
  if (!is_witness_only()) piece.misuse_ = "fork_into of a full system (only a witness is written in place)";
  return piece;
}

std::span<Fr> ProvingAssignment::aux_room(size_t at, size_t count) {
  std::vector<Fr>& v = out_.aux_assignment;
  if (!is_witness_only() || finished_ || placed_ || at < aux_count_ || at > v.size() || count > v.size() - at)
    return {};
  room_claimed_end_ = std::max(room_claimed_end_, at + count);
  return {v.data() + at, count};
}

Status ProvingAssignment::extend_placed(ProvingAssignment&& piece) {
  const size_t own = piece.aux_count_ - piece.prefix_aux_;
  const Fr* next = out_.aux_assignment.data() + aux_count_;
  if (piece.room_.data() != next || aux_count_ + own > out_.aux_assignment.size())
    return make_error(
        "ProvingAssignment::extend: the piece's room is not where this system's next "
        "auxiliaries go (joined out of order, or forked into another system)");
  if (own != piece.room_.size())
    return make_error("ProvingAssignment::extend: the piece allocated " + std::to_string(own) +
                      " auxiliaries into a room of " + std::to_string(piece.room_.size()));
  aux_count_ += own;
  append_from(out_.input_assignment, piece.out_.input_assignment, piece.prefix_inputs_);
  constraints_ += piece.constraints_;
  piece = ProvingAssignment(mode_);
  return Status::Ok();
}

Status ProvingAssignment::extend(ProvingAssignment&& piece) {
  if (finished_) return make_error("ProvingAssignment::extend on a finished system");
  if (placed_) return make_error("ProvingAssignment::extend into a piece forked into a room");
  if (piece.finished_) return make_error("ProvingAssignment::extend with a finished piece");
  if (!piece.misuse_.empty()) return make_error("ProvingAssignment::extend: piece misused: " + piece.misuse_);
  if (piece.mode_ != mode_)
    return make_error(std::string("ProvingAssignment::extend: a ") +
                      (piece.is_witness_only() ? "witness-only" : "full") + " piece joined to a " +
                      (is_witness_only() ? "witness-only" : "full") + " system");
  const size_t pin = piece.prefix_inputs_, paux = piece.prefix_aux_;
  const Assignment& p = piece.out_;
  if (pin > num_inputs() || paux > num_aux() ||
      !std::equal(p.input_assignment.begin(), p.input_assignment.begin() + ptrdiff_t(pin),
                  out_.input_assignment.begin()) ||
      (!piece.placed_ && !std::equal(p.aux_assignment.begin(), p.aux_assignment.begin() + ptrdiff_t(paux),
                                     out_.aux_assignment.begin())))
    return make_error("ProvingAssignment::extend: the piece was forked from " + std::to_string(pin) +
                      " inputs and " + std::to_string(paux) +
                      " aux that are not this system's first variables (it has " +
                      std::to_string(num_inputs()) + " inputs, " + std::to_string(num_aux()) + " aux)");
  if (piece.placed_) return extend_placed(std::move(piece));
  constraints_ += piece.constraints_;
  if (is_witness_only()) {
    put_aux(p.aux_assignment.data() + paux, piece.aux_count_ - paux);
    append_from(out_.input_assignment, p.input_assignment, pin);
    piece = ProvingAssignment(mode_);
    return Status::Ok();
  }
  out_.a_aux_density.join(p.a_aux_density, paux);
  out_.b_input_density.join(p.b_input_density, pin);
  out_.b_aux_density.join(p.b_aux_density, paux);
  // The four big copies are independent; a large piece has them made side by side.
  std::vector<std::thread> pool;
  auto append = [&pool, big = p.a.size() >= kParallelJoinRows](std::vector<Fr>& dst,
                                                               const std::vector<Fr>& src, size_t from) {
    if (big) {
      pool.emplace_back([&dst, &src, from] { append_from(dst, src, from); });
    } else {
      append_from(dst, src, from);
    }
  };
  append(out_.b, p.b, 0);
  append(out_.c, p.c, 0);
  append(out_.aux_assignment, p.aux_assignment, paux);
  append_from(out_.a, p.a, 0);
  append_from(out_.input_assignment, p.input_assignment, pin);
  for (std::thread& t : pool) t.join();
  piece = ProvingAssignment(mode_);  // its memory goes now, not when the caller drops it
  return Status::Ok();
}

Result<Assignment> ProvingAssignment::finish() {
  if (finished_) return make_error("ProvingAssignment::finish called twice");
  if (!misuse_.empty()) return make_error("ProvingAssignment misused: " + misuse_);
  if (is_witness_only()) {
    if (placed_)
      return make_error("ProvingAssignment::finish of a piece forked into a room (join it instead)");
    if (aux_count_ < room_claimed_end_)
      return make_error("ProvingAssignment::finish with pieces forked into its room not joined");
    out_.aux_assignment.resize(aux_count_);  // adopted storage may be longer; shrinking writes nothing
    out_.witness_rows = constraints_ + out_.input_assignment.size();
    finished_ = true;
    return std::move(out_);
  }
  // x_i · 0 = 0: a_j = x_i, b_j = c_j = 0. No density bit changes (A-input density is full).
  for (const Fr& x : out_.input_assignment) {
    out_.a.push_back(x);
    out_.b.push_back(Fr::zero());
    out_.c.push_back(Fr::zero());
  }
  finished_ = true;
  return std::move(out_);
}

}  // namespace cuzk::r1cs
