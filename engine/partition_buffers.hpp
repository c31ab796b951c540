// Host buffers for partitions' a, b, c and aux vectors, kept from one proof to the next.
//
// At PoRep size a partition's vectors are 16 GiB. Allocating them afresh for every partition costs
// the page faults of a first touch (most of a synthetic partition's synthesis), and ordinary
// memory reaches a GPU only through the backend's staging copies. A pooled set is allocated once,
// pinned once (DeviceSet::pin_host) so the GPU reads it by direct DMA, and reused: synthesis writes
// into pages already mapped, and the prover keeps the storage (groth16::compute_h_in_place).
//
// Every set carries its own reservation of the host budget, split off the reservation of the
// partition that made it, so memory held by idle sets is visible in the budget. Idle sets are kept
// up to a limit and are the first thing dropped when the budget runs short.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/devices.hpp"
#include "engine/log.hpp"
#include "engine/memory_budget.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::engine {

// The capacities of one set: a, b and c hold the domain (the prover pads to it), aux the key's
// auxiliary wires. A set for partitions that leave c to the prover (r1cs::Assignment::c_from_ab)
// has no c; one for witnesses (r1cs::Assignment::witness_only: a receives h, the compiled circuit
// stands for b and c) has neither b nor c.
struct BufferShape {
  uint64_t domain = 0, aux = 0;
  bool c = true;
  bool b = true;
  uint64_t bytes() const { return ((1 + b + c) * domain + aux) * sizeof(Fr); }
  friend bool operator==(const BufferShape&, const BufferShape&) = default;
};

class PartitionBufferPool;

// One set, lent to a partition. Its vectors are moved into the partition's assignment (lend_to)
// and back (take_back); destroying the lease returns the set to the pool.
class PartitionBuffers {
 public:
  PartitionBuffers();
  PartitionBuffers(PartitionBuffers&&) noexcept;
  PartitionBuffers& operator=(PartitionBuffers&&) noexcept;
  ~PartitionBuffers();

  bool held() const { return set_ != nullptr; }
  bool pinned() const;
  const BufferShape& shape() const;
  uint64_t bytes() const { return held() ? shape().bytes() : 0; }

  // Moves the set's full-capacity vectors into `as`. Writing within their capacity keeps them in
  // place, so they stay pinned. They are lent as the last partition left them (a new set's are
  // empty): a writer sizes each with resize, which writes only what it adds, and then writes every
  // element it keeps. Clearing them instead made every synthesis zero-fill 17 GB at PoRep size
  // before writing it (0.65 of 1.85 s at 2^27 on the H200 host).
  void lend_to(r1cs::Assignment& as);
  // Moves them back out of `as`, sizes and values as they are; b or c of a set without them (a
  // backend's own, formed for a witness) are freed instead. A vector that moved (it was
  // reallocated) is not pooled again.
  void take_back(r1cs::Assignment& as);

 private:
  friend class PartitionBufferPool;
  struct Set;
  PartitionBufferPool* pool_ = nullptr;
  std::unique_ptr<Set> set_;
};

class PartitionBufferPool {
 public:
  // `max_idle`: sets of one shape kept when no partition uses them (0: none are kept; every set is
  // freed when its partition is done). `pin` may be empty (no device to pin for). `touch_threads`: threads
  // that map a new set's pages before it is pinned.
  PartitionBufferPool(size_t max_idle, HostPinner pin, Logger log, unsigned touch_threads = 1);
  ~PartitionBufferPool();

  // An idle set of this shape, or none.
  PartitionBuffers take_idle(const BufferShape& shape);
  // A new set of this shape; its reservation is split off `from`, which must hold shape.bytes().
  // The vectors are allocated and their pages touched here, then pinned (a pin that fails only
  // costs speed: the copies go through the backend's staging). Memory the host cannot allocate
  // gives no set (not held; `from` keeps its bytes): the partition then makes its own vectors.
  PartitionBuffers make(const BufferShape& shape, MemoryBudget::Reservation& from, const std::string& who);

  // Makes sets of this shape until `count` of them are idle (at most the pool's max_idle), each
  // from a reservation the host budget gives without waiting; stops where it gives none. For a
  // time when no proof runs: pinning a set stalls every CUDA call of the process (cuda::PinnedRange).
  // Returns the idle sets of this shape.
  size_t prepare(const BufferShape& shape, size_t count, MemoryBudget& host, const std::string& who);

  // Frees idle sets until at least `bytes` are released or none is left; returns the bytes freed.
  uint64_t drop_idle(uint64_t bytes);

  size_t idle() const;
  size_t idle_of(const BufferShape& shape) const;
  size_t max_idle() const { return max_idle_; }
  uint64_t idle_bytes() const;
  size_t made() const;  // sets made so far (to see reuse)

 private:
  friend class PartitionBuffers;
  void give_back(std::unique_ptr<PartitionBuffers::Set> set);
  size_t idle_of_locked(const BufferShape& shape) const;  // under mu_

  const size_t max_idle_;
  const HostPinner pin_;
  const Logger log_;
  const unsigned touch_threads_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<PartitionBuffers::Set>> idle_;  // most recently returned last
  size_t made_ = 0;
};

}  // namespace cuzk::engine
