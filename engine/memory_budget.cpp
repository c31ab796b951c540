#include "engine/memory_budget.hpp"

#include <algorithm>

namespace cuzk::engine {

struct MemoryBudget::State {
  std::string name;
  uint64_t capacity = 0;
  Logger log;
  mutable std::mutex mutex;
  std::condition_variable changed;
  uint64_t reserved = 0;
  size_t live = 0;
  std::multiset<WaitKey> waiting;

  // Called with `mutex` held.
  void grant(Reservation& r, const std::shared_ptr<State>& self, uint64_t bytes, const std::string& who) {
    reserved += bytes;
    ++live;
    r.state_ = self;
    r.bytes_ = bytes;
    r.who_ = who;
    log->info("{} budget={} event=reserve bytes={} reserved={} left={}", who, name, bytes, reserved,
              capacity - reserved);
  }
};

MemoryBudget::Reservation& MemoryBudget::Reservation::operator=(Reservation&& o) noexcept {
  if (this != &o) {
    release();
    state_ = std::move(o.state_);
    bytes_ = o.bytes_;
    who_ = std::move(o.who_);
    o.state_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void MemoryBudget::Reservation::release() {
  if (!state_) return;
  {
    std::lock_guard lock(state_->mutex);
    state_->reserved -= bytes_;
    --state_->live;
    state_->log->info("{} budget={} event=release bytes={} reserved={} left={}", who_, state_->name, bytes_,
                      state_->reserved, state_->capacity - state_->reserved);
  }
  state_->changed.notify_all();
  state_.reset();
  bytes_ = 0;
}

std::string host_out_of_memory(const std::string& while_doing) {
  return "out of host memory while " + while_doing +
         " (the host budget exceeds what this host can allocate; lower engine.host_memory_budget)";
}

MemoryBudget::Reservation MemoryBudget::Reservation::split(uint64_t bytes, const std::string& who) {
  Reservation part;
  if (!state_ || bytes > bytes_) return part;
  std::lock_guard lock(state_->mutex);
  bytes_ -= bytes;
  ++state_->live;
  part.state_ = state_;
  part.bytes_ = bytes;
  part.who_ = who;
  state_->log->info("{} budget={} event=split bytes={} from=\"{}\" reserved={}", who, state_->name, bytes,
                    who_, state_->reserved);
  return part;
}

MemoryBudget::MemoryBudget(std::string name, uint64_t capacity, Logger log)
    : state_(std::make_shared<State>()) {
  state_->name = std::move(name);
  state_->capacity = capacity;
  state_->log = std::move(log);
}

Result<MemoryBudget::Reservation> MemoryBudget::acquire(uint64_t bytes, WaitKey key, const std::string& who,
                                                        const std::function<bool()>& abandon,
                                                        const Relieve& relieve) {
  State& s = *state_;
  if (bytes > s.capacity)
    return make_error(who + ": needs " + std::to_string(bytes) + " bytes of " + s.name +
                      " memory, more than its " + "whole budget of " + std::to_string(s.capacity) + " bytes");
  std::unique_lock lock(s.mutex);
  const auto me = s.waiting.insert(key);
  bool logged_wait = false;
  for (;;) {
    if (abandon && abandon()) {
      s.waiting.erase(me);
      lock.unlock();
      s.changed.notify_all();  // the next waiter may now be first
      return make_error(who + ": gave up waiting for " + s.name + " memory");
    }
    const bool first = s.waiting.begin() == me || !(*s.waiting.begin() < key);
    const uint64_t left = s.capacity - s.reserved;
    if (first && bytes <= left) {
      s.waiting.erase(me);
      Reservation r;
      s.grant(r, state_, bytes, who);
      lock.unlock();
      s.changed.notify_all();
      return r;
    }
    if (first && relieve) {
      lock.unlock();
      bytes -= std::min(bytes, relieve(bytes - left));
      lock.lock();
      if (s.capacity - s.reserved >= bytes) continue;
    }
    if (!logged_wait) {
      s.log->info("{} budget={} event=wait bytes={} reserved={} left={} waiters={}", who, s.name, bytes,
                  s.reserved, s.capacity - s.reserved, s.waiting.size());
      logged_wait = true;
    }
    s.changed.wait(lock);
  }
}

std::optional<MemoryBudget::Reservation> MemoryBudget::try_acquire(uint64_t bytes, const std::string& who) {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  if (bytes > s.capacity - s.reserved) return std::nullopt;
  Reservation r;
  s.grant(r, state_, bytes, who);
  return r;
}

void MemoryBudget::wake_all() {
  { std::lock_guard lock(state_->mutex); }
  state_->changed.notify_all();
}

const std::string& MemoryBudget::name() const { return state_->name; }
uint64_t MemoryBudget::capacity() const { return state_->capacity; }
uint64_t MemoryBudget::reserved() const {
  std::lock_guard lock(state_->mutex);
  return state_->reserved;
}
size_t MemoryBudget::reservations() const {
  std::lock_guard lock(state_->mutex);
  return state_->live;
}
size_t MemoryBudget::waiters() const {
  std::lock_guard lock(state_->mutex);
  return state_->waiting.size();
}

}  // namespace cuzk::engine
