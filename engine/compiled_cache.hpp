// The cache of compiled circuits (r1cs/compiled/compiled_circuit.hpp): one per circuit shape, named
// by a shape key the caller chooses (for a Filecoin proof, its proof type and parameter file; for
// a circom circuit, its r1cs), kept in a folder beside the parameters and mapped from there.
//
// get_or_build(key, builder) returns the circuit of `key`: the one in memory, else the file's (its
// magic, version, key, sizes and checksum checked, io/compiled_circuit_file.hpp), else the
// builder's, which is written to the file and served mapped from it. A file that is missing,
// corrupt, truncated or for another shape is rebuilt, never used. Concurrent callers for one key
// share one load or build: the others wait for it (and get its error when it fails). prefetch()
// starts that work in the background, so that the first proof of a shape announced early does not
// wait. A file that cannot be written (a read-only folder, a full disk) costs a warning: the built
// circuit is served from memory.
//
// Memory: every circuit in memory holds a reservation of the engine's host budget for its arrays
// (CompiledCircuit::bytes(), its file less the header), taken once it is mapped or built: until
// then a mapped file's pages are clean page cache the kernel may drop, and a build's working memory
// is not known before it runs (it is not reserved). A circuit nobody holds is idle; idle circuits are
// dropped, least recently used first, when the budget runs short (drop_idle) or on request (evict). Where a
// device's budget allows, a circuit is also accounted resident there (make_resident), like a parameter set;
// idle residencies go first when a device's plan does not fit (relieve_device).
//
// A circuit is handed out as std::shared_ptr<const CompiledCircuit>, the type r1cs::Assignment's
// `compiled` field holds: holding it is what keeps the circuit in use.
//
// A key names everything the builder's output depends on, since a file is trusted for its key: the
// circuit (a Filecoin proof type's parameter file name, e.g. "v28-stacked-proof-of-replication-…
// .params", rather than its path, so that moving the folder keeps the files good), and the
// compiler's version, so that a cuzk whose compiler orders rows differently never maps an older
// file. A synthesis worker then needs one call:
//   auto compiled = cache.get_or_build(key, [&] { return compile(circuit); }, wait, who, abandon);
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/result.hpp"
#include "engine/devices.hpp"
#include "engine/log.hpp"
#include "engine/memory_budget.hpp"
#include "r1cs/compiled/compiled_circuit.hpp"

namespace cuzk::engine {

using CompiledHandle = std::shared_ptr<const r1cs::CompiledCircuit>;
// Makes a shape's compiled circuit (the compiler, run on the shape's circuit). Called on the thread
// that needs the circuit, or on a background thread for prefetch().
using CompiledBuilder = std::function<Result<r1cs::CompiledCircuit>()>;

// The folder of compiled circuits: `configured` when not empty, else "cuzk-compiled" in the
// Filecoin parameter directory (`param_dir` when not empty, else $FIL_PROOFS_PARAMETER_CACHE, else
// /var/tmp/filecoin-proof-parameters/; filecoin/proofs/parameter_lookup.hpp).
std::filesystem::path compiled_circuit_dir(const std::string& configured, const std::string& param_dir = "");

// The file name of a shape key: its first 80 characters with every one but letters, digits, '.',
// '-' and '_' replaced by '_', then '-', 16 hex digits of the key's SHA-256, ".cuzkc". Two keys
// never share a name unless their hashes' first 64 bits agree.
std::string compiled_file_name(const std::string& key);

struct CompiledCircuitStatus {
  std::string key;
  std::filesystem::path path;
  bool loading = false;    // being loaded or built
  bool from_file = false;  // mapped from its file (else built in memory: the file could not be written)
  uint64_t host_bytes = 0;
  long users = 0;  // handles held outside the cache
  std::vector<uint32_t> resident_on;
};

class CompiledCache {
 public:
  // `dir` is created when the first file is written. The budgets must outlive the cache. `devices` are the
  // per-device budgets (by index) residency may use; `pin_host`, when given, pins each circuit's arrays for
  // fast copies.
  CompiledCache(std::filesystem::path dir, MemoryBudget& host, std::map<uint32_t, MemoryBudget*> devices,
                Logger log, HostPinner pin_host = {});
  // Waits for background loads and builds to end (a running builder is not interrupted).
  ~CompiledCache();
  CompiledCache(const CompiledCache&) = delete;
  CompiledCache& operator=(const CompiledCache&) = delete;

  // The circuit of `key`, loaded or built if needed. Memory is waited for in `wait` order; `abandon`
  // as in MemoryBudget::acquire (also checked while waiting for another caller's build: call
  // wake_all() after changing what it reads). `who` prefixes the log lines ("job=3 part=1").
  Result<CompiledHandle> get_or_build(const std::string& key, const CompiledBuilder& builder,
                                      WaitKey wait = {}, const std::string& who = "",
                                      const std::function<bool()>& abandon = {});

  // Starts loading or building `key` on a background thread and returns at once; nothing when it is
  // in memory or under way. Callers of get_or_build for `key` from now on wait for that work. A background
  // circuit takes host memory only if the budget has room now (after dropping idle circuits): otherwise it is
  // left in its file for the first caller to map. A failure is logged; the next get_or_build tries again.
  void prefetch(const std::string& key, CompiledBuilder builder);
  // Waits for the background loads and builds started so far to end.
  void drain();

  // The circuit of `key` if it is in memory now (no loading, no waiting).
  CompiledHandle find(const std::string& key) const;
  // The file `key` is kept in.
  std::filesystem::path path_of(const std::string& key) const;

  // Drops `key` from memory (its file stays). An error when it is not in memory, or in use.
  Status evict(const std::string& key);
  // Drops idle circuits, least recently used first, until `bytes` are freed or none is idle; returns
  // the bytes freed. For the engine's host relief (ParamCache::set_host_relief, MemoryBudget).
  uint64_t drop_idle(uint64_t bytes);
  // Who else may free host memory when a circuit's reservation does not fit after drop_idle (the
  // parameter cache's relieve_host, say); returns what it freed.
  void set_host_relief(std::function<uint64_t(uint64_t)> others) { relieve_others_ = std::move(others); }

  // Accounts `key`'s circuit resident on `device` if its budget has room now; true when resident.
  bool make_resident(const std::string& key, uint32_t device);
  bool is_resident(const std::string& key, uint32_t device) const;
  // Drops idle residencies on `device`, least recently used first, until `bytes` are freed; returns
  // the bytes freed.
  uint64_t relieve_device(uint32_t device, uint64_t bytes);

  // Wakes callers waiting for another caller's build to re-check their abandon() predicates.
  void wake_all();

  std::vector<CompiledCircuitStatus> status() const;

 private:
  struct Entry;
  struct Loaded;
  struct Background {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };

  // Loads or builds `key` for the entry `e` this thread claimed, then settles the entry; an empty
  // handle when a background load left the circuit in its file.
  Result<CompiledHandle> run_load(const std::string& key, const std::shared_ptr<Entry>& e,
                                  const CompiledBuilder& builder, WaitKey wait, const std::string& who,
                                  const std::function<bool()>& abandon, bool background);
  Result<Loaded> load_or_build(const std::string& key, const CompiledBuilder& builder, WaitKey wait,
                               const std::string& who, const std::function<bool()>& abandon, bool background);
  Result<r1cs::CompiledCircuit> build(const std::string& key, const CompiledBuilder& builder,
                                      const std::string& who, bool& from_file);
  Result<MemoryBudget::Reservation> reserve(uint64_t bytes, WaitKey wait, const std::string& who,
                                            const std::function<bool()>& abandon, bool background);
  std::vector<std::shared_ptr<void>> pin(const r1cs::CompiledCircuit& c, const std::string& key) const;
  void reap_background();  // joins finished background threads

  std::filesystem::path dir_;
  MemoryBudget& host_;
  std::map<uint32_t, MemoryBudget*> devices_;
  Logger log_;
  HostPinner pin_host_;
  std::function<uint64_t(uint64_t)> relieve_others_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;  // an entry finished loading, or wake_all()
  std::map<std::string, std::shared_ptr<Entry>> entries_;
  uint64_t clock_ = 0;  // LRU ticks
  std::atomic<bool> stopping_{false};
  std::list<Background> background_;  // guarded by mutex_
};

}  // namespace cuzk::engine
