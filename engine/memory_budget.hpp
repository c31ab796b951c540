// A byte budget (host RAM, or the VRAM of one device) handed out as RAII reservations.
//
// Work is admitted only with a reservation for what it will use, so concurrency follows from
// memory: nothing allocates first and hopes. Waiters are served strictly in priority order
// (priority, then age), so a large CRITICAL partition is never starved by a stream of small NORMAL
// ones. Every reservation and release is logged with its size and what is left.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "common/result.hpp"
#include "engine/log.hpp"

namespace cuzk::engine {

// Who waits first: higher priority, then lower sequence number (older).
struct WaitKey {
  uint8_t priority = 0;
  uint64_t seq = 0;
  friend bool operator<(const WaitKey& x, const WaitKey& y) {
    return std::tuple(-int(x.priority), x.seq) < std::tuple(-int(y.priority), y.seq);
  }
};

// Allocations are planned against the host budget, but a budget set above what the host can give
// (or memory taken by other processes) still ends in std::bad_alloc: the callers that allocate
// gigabytes turn it into this error, never a crash.
std::string host_out_of_memory(const std::string& while_doing);

class MemoryBudget {
  struct State;

 public:
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& o) noexcept { *this = std::move(o); }
    Reservation& operator=(Reservation&& o) noexcept;
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    ~Reservation() { release(); }

    uint64_t bytes() const { return bytes_; }
    bool held() const { return state_ != nullptr; }
    void release();
    // Moves `bytes` of this reservation into a new one held by `who` (they are released
    // separately); the budget's total is unchanged. Requires bytes ≤ this->bytes().
    Reservation split(uint64_t bytes, const std::string& who);

   private:
    friend class MemoryBudget;
    std::shared_ptr<State> state_;
    uint64_t bytes_ = 0;
    std::string who_;
  };

  // `name` appears in every log line ("host", "device0").
  MemoryBudget(std::string name, uint64_t capacity, Logger log);

  // What a waiter may do when it is first in line and still short by `short_by` bytes: free memory
  // (a cache drops idle entries) and return 0, or cover part of the request with memory it comes to
  // hold under a reservation of its own (a pooled buffer set) and return how many bytes that covers;
  // the request shrinks by as much.
  using Relieve = std::function<uint64_t(uint64_t short_by)>;

  // Blocks until `bytes` fit and no waiter ranked before `key` is waiting. Before each wait it
  // calls `relieve` (without any lock held); it gives up with an error when `abandon()` turns true
  // (checked on every wake: call wake_all() after changing what it reads) or at once when `bytes`
  // exceeds the capacity. The reservation may hold less than `bytes`: what `relieve` covered.
  Result<Reservation> acquire(uint64_t bytes, WaitKey key, const std::string& who,
                              const std::function<bool()>& abandon, const Relieve& relieve = {});
  // A reservation now, or none, ignoring waiters' order (for opportunistic caching).
  std::optional<Reservation> try_acquire(uint64_t bytes, const std::string& who);

  // Wakes every waiter to re-check its abandon() predicate.
  void wake_all();

  const std::string& name() const;
  uint64_t capacity() const;
  uint64_t reserved() const;
  size_t reservations() const;  // live
  size_t waiters() const;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace cuzk::engine
