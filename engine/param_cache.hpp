// The parameter cache: each parameter set (SRS) is loaded once and shared by every partition that
// proves under it.
//
// A set is either registered in memory (the caller's key; never evicted) or named by a file path
// (.params or .zkey) and loaded on first use, with a host-memory reservation for its size. Leases
// count the partitions using a set; a set with no lease is idle, and idle sets are evicted in
// least-recently-used order when the host budget runs short (or on request). Where a device's
// budget allows, a set is also kept resident on the device, which shrinks every later plan there;
// idle residencies are dropped first when a worker's plan does not fit.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "engine/devices.hpp"
#include "engine/log.hpp"
#include "engine/memory_budget.hpp"
#include "groth16/keys.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_zkey.hpp"

namespace cuzk::engine {

struct ParamSet {
  std::string name;
  std::shared_ptr<const groth16::ProvingKey> key;
  groth16::PreparedVerifyingKey pvk;
  // For a .zkey: its counts and coefficients (no points), which circom witnesses are evaluated with.
  std::shared_ptr<const SnarkjsZkey> zkey_matrices;
  uint64_t host_bytes = 0;  // what its points take in host memory
  PlanShape shape;          // domain and point counts, for planning device memory
  // Pinned ranges of the key's points (DeviceSet::pin_host); declared last, so they are released
  // before the key they pin.
  std::vector<std::shared_ptr<void>> pins;
};

struct ParamSetStatus {
  std::string name;
  bool registered = false;  // in memory from the caller, not evictable
  bool loading = false;
  uint64_t host_bytes = 0;
  uint32_t leases = 0;
  std::vector<uint32_t> resident_on;  // device indices
};

class ParamCache {
 public:
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& o) noexcept { *this = std::move(o); }
    Lease& operator=(Lease&& o) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { release(); }
    const ParamSet* operator->() const { return set_.get(); }
    const ParamSet& operator*() const { return *set_; }
    explicit operator bool() const { return set_ != nullptr; }
    void release();

   private:
    friend class ParamCache;
    ParamCache* cache_ = nullptr;
    std::shared_ptr<const ParamSet> set_;
  };

  // `devices` are the per-device budgets (by device index) residency may use; `trusted` skips the
  // subgroup checks of file points (curve checks remain).
  ParamCache(MemoryBudget& host, std::map<uint32_t, MemoryBudget*> devices, bool keep_on_device, bool trusted,
             Logger log, HostPinner pin_host = {});
  ~ParamCache();

  // A key the caller keeps in memory, usable by `name` from now on.
  Status register_key(const std::string& name, std::shared_ptr<const groth16::ProvingKey> key);

  // The set `name`, loaded if needed (waiting for host memory in `key` order; `abandon` as in
  // MemoryBudget::acquire). `load_ms` receives the time this call spent loading or waiting for a
  // load.
  Result<Lease> acquire(const std::string& name, WaitKey key, const std::string& who,
                        const std::function<bool()>& abandon, double* load_ms = nullptr);
  // Loads `name` (and makes it resident on every device whose budget allows).
  Status preload(const std::string& name);
  // Frees a loaded, idle set (host and devices). An error when it is in use or registered.
  Status evict(const std::string& name);

  // Makes the leased set resident on `device` if its budget has room now; true when resident.
  bool make_resident(const Lease& lease, uint32_t device);
  bool is_resident(const Lease& lease, uint32_t device) const;

  // Evicts idle sets, least recently used first, until `bytes` of host memory are freed or no idle
  // set is left. For MemoryBudget's relieve hook.
  void relieve_host(uint64_t bytes);
  // Another holder of idle host memory (the partition buffer pool), asked first by relieve_host:
  // it frees what it can of the bytes asked and returns what it freed.
  void set_host_relief(std::function<uint64_t(uint64_t)> first) { relieve_first_ = std::move(first); }
  // The same for residencies on one device.
  void relieve_device(uint32_t device, uint64_t bytes);

  std::vector<ParamSetStatus> status() const;

 private:
  struct Entry;
  Result<std::shared_ptr<ParamSet>> load(const std::string& name, WaitKey key, const std::string& who,
                                         const std::function<bool()>& abandon);
  void unlease(const std::string& name);

  void pin(ParamSet& set) const;  // pins the key's point arrays when a pinner was given

  MemoryBudget& host_;
  std::map<uint32_t, MemoryBudget*> devices_;
  HostPinner pin_host_;
  std::function<uint64_t(uint64_t)> relieve_first_;
  bool keep_on_device_, trusted_;
  Logger log_;
  mutable std::mutex mutex_;
  std::condition_variable loaded_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
  uint64_t clock_ = 0;  // LRU ticks
};

// A parameter set's derived facts, for a key from anywhere.
Result<std::shared_ptr<ParamSet>> make_param_set(const std::string& name,
                                                 std::shared_ptr<const groth16::ProvingKey> key);

}  // namespace cuzk::engine
