#include "engine/partition_buffers.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <exception>

#include "common/parallel_ranges.hpp"

namespace cuzk::engine {

struct PartitionBuffers::Set {
  BufferShape shape;
  std::vector<Fr> a, b, c, aux;
  std::array<const Fr*, 4> base{};  // where each vector's storage began when it was made
  MemoryBudget::Reservation reservation;
  // Declared last, so the ranges are unpinned before the vectors are freed.
  std::vector<std::shared_ptr<void>> pins;

  std::array<std::vector<Fr>*, 4> vectors() { return {&a, &b, &c, &aux}; }
  bool intact() {
    const auto v = vectors();
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i]->data() != base[i]) return false;
    return true;
  }
};

PartitionBuffers::PartitionBuffers() = default;
PartitionBuffers::PartitionBuffers(PartitionBuffers&& o) noexcept { *this = std::move(o); }

PartitionBuffers& PartitionBuffers::operator=(PartitionBuffers&& o) noexcept {
  if (this != &o) {
    if (set_ && pool_) pool_->give_back(std::move(set_));
    pool_ = o.pool_;
    set_ = std::move(o.set_);
    o.pool_ = nullptr;
  }
  return *this;
}

PartitionBuffers::~PartitionBuffers() {
  if (set_ && pool_) pool_->give_back(std::move(set_));
}

bool PartitionBuffers::pinned() const { return set_ && !set_->pins.empty(); }

const BufferShape& PartitionBuffers::shape() const {
  static const BufferShape none;
  return set_ ? set_->shape : none;
}

void PartitionBuffers::lend_to(r1cs::Assignment& as) {
  if (!set_) return;
  as.a = std::move(set_->a);
  as.b = std::move(set_->b);
  as.c = std::move(set_->c);
  as.aux_assignment = std::move(set_->aux);
}

void PartitionBuffers::take_back(r1cs::Assignment& as) {
  if (!set_) return;
  set_->a = std::move(as.a);
  set_->aux = std::move(as.aux_assignment);
  // A vector the set does not hold (a witness's b and c, formed by a backend without the sparse
  // product) is the partition's own: freed here, with the rest of what the set lends.
  if (set_->shape.b) {
    set_->b = std::move(as.b);
  } else {
    std::vector<Fr>().swap(as.b);
  }
  if (set_->shape.c) {
    set_->c = std::move(as.c);
  } else {
    std::vector<Fr>().swap(as.c);
  }
}

namespace {

// Maps every page of the vectors' storage, on several threads. cudaHostRegister would otherwise
// fault them in on one thread (measured on the H200 host: 17 GB in 6.4 s, and registrations from
// several synthesis workers at once serialize), and synthesis would take the faults instead when
// nothing pins.
void touch_pages(const std::array<std::vector<Fr>*, 4>& vectors, unsigned threads) {
  for (auto* v : vectors) {
    auto* p = reinterpret_cast<unsigned char*>(v->data());
    (void)parallel_ranges(
        v->capacity() * sizeof(Fr), size_t(64) << 20,
        [p](size_t b, size_t e) {
          std::memset(p + b, 0, e - b);
          return Status::Ok();
        },
        threads);
  }
}

}  // namespace

PartitionBufferPool::PartitionBufferPool(size_t max_idle, HostPinner pin, Logger log, unsigned touch_threads)
    : max_idle_(max_idle),
      pin_(std::move(pin)),
      log_(std::move(log)),
      touch_threads_(std::max(1u, touch_threads)) {}

PartitionBufferPool::~PartitionBufferPool() = default;

PartitionBuffers PartitionBufferPool::take_idle(const BufferShape& shape) {
  PartitionBuffers lease;
  std::lock_guard lock(mu_);
  // The most recently returned set of this shape: its pages are the likeliest to be warm.
  for (auto it = idle_.rbegin(); it != idle_.rend(); ++it)
    if ((*it)->shape == shape) {
      lease.pool_ = this;
      lease.set_ = std::move(*it);
      idle_.erase(std::next(it).base());
      break;
    }
  return lease;
}

PartitionBuffers PartitionBufferPool::make(const BufferShape& shape, MemoryBudget::Reservation& from,
                                           const std::string& who) {
  const auto t0 = std::chrono::steady_clock::now();
  auto set = std::make_unique<PartitionBuffers::Set>();
  set->shape = shape;
  try {
    set->a.reserve(shape.domain);
    set->b.reserve(shape.b ? shape.domain : 0);
    set->c.reserve(shape.c ? shape.domain : 0);
    set->aux.reserve(shape.aux);
  } catch (const std::exception& e) {  // bad_alloc, length_error: the host cannot give it
    log_->warn("{} event=buffers_alloc_failed bytes={} error=\"{}\"", who, shape.bytes(), e.what());
    return {};
  }
  set->reservation = from.split(shape.bytes(), "buffers(" + who + ")");
  const auto v = set->vectors();
  for (size_t i = 0; i < v.size(); ++i) set->base[i] = v[i]->data();
  touch_pages(v, touch_threads_);
  std::vector<HostRange> ranges;
  for (auto* vec : v) ranges.push_back({vec->data(), vec->capacity() * sizeof(Fr)});
  set->pins = pin_ranges(pin_, ranges, log_, who);
  size_t made;
  {
    std::lock_guard lock(mu_);
    made = ++made_;
  }
  log_->info("{} event=buffers_made bytes={} pinned={} sets_made={} ms={:.0f}", who, shape.bytes(),
             set->pins.size(), made,
             std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  PartitionBuffers lease;
  lease.pool_ = this;
  lease.set_ = std::move(set);
  return lease;
}

void PartitionBufferPool::give_back(std::unique_ptr<PartitionBuffers::Set> set) {
  if (!set->intact()) {
    // A vector was reallocated under its pin: never reuse it (and the old range is gone).
    log_->warn("event=buffers_dropped reason=\"a vector moved while lent\" bytes={}", set->shape.bytes());
    return;
  }
  std::unique_ptr<PartitionBuffers::Set> drop;  // freed outside the lock
  std::lock_guard lock(mu_);
  if (max_idle_ == 0) {
    drop = std::move(set);
    return;
  }
  // The bound is per shape: a WinningPoSt's small sets coming back never push out a PoRep set
  // (which would be made and pinned again, stalling the device, at the next PoRep partition).
  const BufferShape shape = set->shape;
  idle_.push_back(std::move(set));
  if (idle_of_locked(shape) > max_idle_) {
    const auto oldest =
        std::find_if(idle_.begin(), idle_.end(), [&](const auto& s) { return s->shape == shape; });
    drop = std::move(*oldest);
    idle_.erase(oldest);
  }
}

uint64_t PartitionBufferPool::drop_idle(uint64_t bytes) {
  std::vector<std::unique_ptr<PartitionBuffers::Set>> drop;
  uint64_t freed = 0;
  {
    std::lock_guard lock(mu_);
    while (freed < bytes && !idle_.empty()) {
      freed += idle_.front()->shape.bytes();
      drop.push_back(std::move(idle_.front()));
      idle_.erase(idle_.begin());
    }
  }
  if (!drop.empty())
    log_->info("event=buffers_dropped sets={} bytes={} reason=\"host budget\"", drop.size(), freed);
  return freed;
}

size_t PartitionBufferPool::prepare(const BufferShape& shape, size_t count, MemoryBudget& host,
                                    const std::string& who) {
  count = std::min(count, max_idle_);
  while (idle_of(shape) < count) {
    auto reservation = host.try_acquire(shape.bytes(), who);
    if (!reservation) break;
    auto lease = make(shape, *reservation, who);
    if (!lease.held()) break;
  }  // each lease, returned here, is an idle set
  return idle_of(shape);
}

size_t PartitionBufferPool::idle_of(const BufferShape& shape) const {
  std::lock_guard lock(mu_);
  return idle_of_locked(shape);
}

size_t PartitionBufferPool::idle_of_locked(const BufferShape& shape) const {
  return size_t(
      std::count_if(idle_.begin(), idle_.end(), [&](const auto& set) { return set->shape == shape; }));
}

size_t PartitionBufferPool::idle() const {
  std::lock_guard lock(mu_);
  return idle_.size();
}

uint64_t PartitionBufferPool::idle_bytes() const {
  std::lock_guard lock(mu_);
  uint64_t n = 0;
  for (const auto& s : idle_) n += s->shape.bytes();
  return n;
}

size_t PartitionBufferPool::made() const {
  std::lock_guard lock(mu_);
  return made_;
}

}  // namespace cuzk::engine
