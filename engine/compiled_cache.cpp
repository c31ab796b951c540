#include "engine/compiled_cache.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>
#include <system_error>
#include <utility>

#include "common/hex.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "io/checksum.hpp"
#include "io/compiled_circuit_file.hpp"

namespace cuzk::engine {

namespace fs = std::filesystem;
using r1cs::CompiledCircuit;

struct CompiledCache::Entry {
  bool loading = true;
  std::optional<Error> failed;  // set when the load or build this entry stood for failed
  CompiledHandle circuit;
  bool from_file = false;
  MemoryBudget::Reservation host;
  std::map<uint32_t, MemoryBudget::Reservation> resident;
  uint64_t last_used = 0;
  // Pinned ranges of the circuit's arrays; declared last, so they are released before it.
  std::vector<std::shared_ptr<void>> pins;

  // Held by nobody but the cache (a handle can only be copied from one already held, so the count
  // cannot rise behind the cache's lock).
  bool idle() const { return !loading && circuit && circuit.use_count() == 1; }
};

struct CompiledCache::Loaded {
  CompiledHandle circuit;  // empty: left in its file (a background load the budget had no room for)
  bool from_file = false;
  MemoryBudget::Reservation host;
  std::vector<std::shared_ptr<void>> pins;
};

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string tag_of(const std::string& who, const std::string& key) {
  return (who.empty() ? "" : who + " ") + "compiled=\"" + key + "\"";
}

}  // namespace

fs::path compiled_circuit_dir(const std::string& configured, const std::string& param_dir) {
  if (!configured.empty()) return configured;
  return filecoin::resolve_parameter_directory(param_dir) / "cuzk-compiled";
}

std::string compiled_file_name(const std::string& key) {
  std::string name;
  for (char ch : key.substr(0, 80)) {
    const bool safe = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                      ch == '.' || ch == '-' || ch == '_';
    name.push_back(safe ? ch : '_');
  }
  const auto digest = io::sha256(std::span(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
  return name + "-" + to_hex(std::span(digest).first(8)) + ".cuzkc";
}

CompiledCache::CompiledCache(fs::path dir, MemoryBudget& host, std::map<uint32_t, MemoryBudget*> devices,
                             Logger log, HostPinner pin_host)
    : dir_(std::move(dir)),
      host_(host),
      devices_(std::move(devices)),
      log_(std::move(log)),
      pin_host_(std::move(pin_host)) {}

CompiledCache::~CompiledCache() {
  stopping_ = true;
  host_.wake_all();
  wake_all();
  std::list<Background> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(background_);
  }
  for (auto& b : all) b.thread.join();
}

fs::path CompiledCache::path_of(const std::string& key) const { return dir_ / compiled_file_name(key); }

void CompiledCache::prefetch(const std::string& key, CompiledBuilder builder) {
  std::lock_guard lock(mutex_);
  reap_background();
  if (stopping_ || entries_.count(key)) return;
  // Claimed now, so that a caller arriving before the thread runs waits for it instead of building.
  auto e = std::make_shared<Entry>();
  entries_[key] = e;
  auto done = std::make_shared<std::atomic<bool>>(false);
  try {
    std::thread t([this, key, e, builder = std::move(builder), done] {
      auto r = run_load(key, e, builder, WaitKey{0, UINT64_MAX}, "prefetch", {}, true);
      if (!r) log_->warn("{} event=prefetch_failed error=\"{}\"", tag_of("prefetch", key), r.message());
      {
        std::lock_guard lock(mutex_);  // so that drain() cannot miss it
        done->store(true);
      }
      changed_.notify_all();
    });
    background_.push_back({std::move(t), std::move(done)});
  } catch (const std::system_error& err) {
    entries_.erase(key);
    changed_.notify_all();
    log_->warn("{} event=prefetch_failed error=\"no thread: {}\"", tag_of("prefetch", key), err.what());
  }
}

void CompiledCache::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    return std::all_of(background_.begin(), background_.end(),
                       [](const Background& b) { return b.done->load(); });
  });
  reap_background();
}

void CompiledCache::reap_background() {
  for (auto it = background_.begin(); it != background_.end();) {
    if (!it->done->load()) {
      ++it;
      continue;
    }
    it->thread.join();  // it has finished its work and takes no lock to end
    it = background_.erase(it);
  }
}

Result<CompiledHandle> CompiledCache::get_or_build(const std::string& key, const CompiledBuilder& builder,
                                                   WaitKey wait, const std::string& who,
                                                   const std::function<bool()>& abandon) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (auto it = entries_.find(key); it != entries_.end()) {
      const std::shared_ptr<Entry> e = it->second;
      if (!e->loading) {
        e->last_used = ++clock_;
        return e->circuit;
      }
      changed_.wait(lock, [&] { return !e->loading || stopping_ || (abandon && abandon()); });
      if (e->loading) return make_error(tag_of(who, key) + ": gave up waiting for its load");
      if (e->failed) return *e->failed;
      continue;  // ready, or left in its file by a background load: look again
    }
    if (stopping_) return make_error(tag_of(who, key) + ": the compiled circuit cache is shutting down");
    auto e = std::make_shared<Entry>();
    entries_[key] = e;
    lock.unlock();
    return run_load(key, e, builder, wait, who, abandon, false);
  }
}

Result<CompiledHandle> CompiledCache::run_load(const std::string& key, const std::shared_ptr<Entry>& e,
                                               const CompiledBuilder& builder, WaitKey wait,
                                               const std::string& who, const std::function<bool()>& abandon,
                                               bool background) {
  auto loaded = load_or_build(key, builder, wait, who, abandon, background);
  std::lock_guard lock(mutex_);
  e->loading = false;
  if (!loaded || !loaded->circuit) {
    if (!loaded) e->failed = loaded.error();
    entries_.erase(key);
    changed_.notify_all();
    if (!loaded) return loaded.error();
    return CompiledHandle{};
  }
  e->circuit = std::move(loaded->circuit);
  e->from_file = loaded->from_file;
  e->host = std::move(loaded->host);
  e->pins = std::move(loaded->pins);
  e->last_used = ++clock_;
  changed_.notify_all();
  return e->circuit;
}

Result<CompiledCache::Loaded> CompiledCache::load_or_build(const std::string& key,
                                                           const CompiledBuilder& builder, WaitKey wait,
                                                           const std::string& who,
                                                           const std::function<bool()>& abandon,
                                                           bool background) {
  const std::string tag = tag_of(who, key);
  const fs::path path = path_of(key);
  const auto t0 = std::chrono::steady_clock::now();
  Result<CompiledCircuit> circuit = make_error("no file");
  bool from_file = false;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(path, ec))) {
    circuit = io::open_compiled_circuit(path, key);
    if (circuit) {
      from_file = true;
      log_->info("{} event=compiled_mapped path={} bytes={} ms={:.0f}", tag, path.string(), circuit->bytes(),
                 ms_since(t0));
    } else {
      log_->warn("{} event=compiled_rejected error=\"{}\" note=\"rebuilding it\"", tag, circuit.message());
    }
  }
  if (!circuit) {
    circuit = build(key, builder, tag, from_file);
    if (!circuit) return circuit.error();
  }
  Loaded out;
  auto handle = std::make_shared<const CompiledCircuit>(std::move(*circuit));
  auto r = reserve(handle->bytes(), wait, tag, abandon, background);
  if (!r) {
    if (!background) return r.error();
    log_->info("{} event=compiled_not_kept reason=host_budget bytes={} note=\"{}\"", tag, handle->bytes(),
               from_file ? "left in its file for the first proof to map" : "its file could not be written");
    return out;
  }
  out.pins = pin(*handle, key);
  out.circuit = std::move(handle);
  out.from_file = from_file;
  out.host = std::move(*r);
  return out;
}

Result<CompiledCircuit> CompiledCache::build(const std::string& key, const CompiledBuilder& builder,
                                             const std::string& tag, bool& from_file) {
  from_file = false;
  const fs::path path = path_of(key);
  const auto t0 = std::chrono::steady_clock::now();
  log_->info("{} event=compiled_build_start", tag);
  Result<CompiledCircuit> built = make_error("no builder was given");
  try {
    if (builder) built = builder();
  } catch (const std::bad_alloc&) {
    built = make_error(host_out_of_memory("compiling a circuit"));
  } catch (const std::exception& e) {
    built = make_error(std::string("the builder failed: ") + e.what());
  }
  if (!built) return make_error("building the compiled circuit '" + key + "': " + built.message());
  log_->info("{} event=compiled_built bytes={} ms={:.0f}", tag, built->bytes(), ms_since(t0));

  std::error_code ec;
  fs::create_directories(dir_, ec);
  Status st = ec ? Status(make_error("cannot create the folder " + dir_.string() + ": " + ec.message()))
                 : io::write_compiled_circuit(path, *built, key);
  if (!st) {
    log_->warn("{} event=compiled_write_failed error=\"{}\" note=\"serving it from memory\"", tag,
               st.message());
    return built;
  }
  auto mapped = io::open_compiled_circuit(path, key);
  if (!mapped) {
    log_->warn("{} event=compiled_reopen_failed error=\"{}\" note=\"serving it from memory\"", tag,
               mapped.message());
    return built;
  }
  from_file = true;
  log_->info("{} event=compiled_written path={} ms={:.0f}", tag, path.string(), ms_since(t0));
  return mapped;
}

Result<MemoryBudget::Reservation> CompiledCache::reserve(uint64_t bytes, WaitKey wait, const std::string& who,
                                                         const std::function<bool()>& abandon,
                                                         bool background) {
  if (background) {
    // Speculative: only room there is now, or that idle circuits leave.
    if (auto r = host_.try_acquire(bytes, who)) return std::move(*r);
    const uint64_t left = host_.capacity() - std::min(host_.capacity(), host_.reserved());
    if (bytes > left) drop_idle(bytes - left);
    if (auto r = host_.try_acquire(bytes, who)) return std::move(*r);
    return make_error(who + ": no room in the host budget now");
  }
  auto relieve = [this](uint64_t short_by) {
    const uint64_t freed = drop_idle(short_by);
    if (freed < short_by && relieve_others_) relieve_others_(short_by - freed);
    return uint64_t(0);
  };
  auto give_up = [&] { return stopping_.load() || (abandon && abandon()); };
  return host_.acquire(bytes, wait, who, give_up, relieve);
}

std::vector<std::shared_ptr<void>> CompiledCache::pin(const CompiledCircuit& c,
                                                      const std::string& key) const {
  if (!pin_host_) return {};
  std::vector<HostRange> ranges = {{c.coeffs().data(), c.coeffs().size_bytes()}};
  for (unsigned s = 0; s < 3; ++s) {
    const r1cs::CompiledSide& side = c.side(r1cs::Side(s));
    for (auto span : {side.row_start, side.wire, side.coeff})
      ranges.push_back({span.data(), span.size_bytes()});
  }
  return pin_ranges(pin_host_, ranges, log_, tag_of("", key));
}

CompiledHandle CompiledCache::find(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  return it == entries_.end() || it->second->loading ? nullptr : it->second->circuit;
}

Status CompiledCache::evict(const std::string& key) {
  std::shared_ptr<Entry> gone;  // released after the lock
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return make_error("compiled circuit '" + key + "' is not in memory");
    if (it->second->loading) return make_error("compiled circuit '" + key + "' is being loaded");
    if (!it->second->idle())
      return make_error("compiled circuit '" + key + "' is in use by " +
                        std::to_string(it->second->circuit.use_count() - 1) + " holders");
    gone = std::move(it->second);
    entries_.erase(it);
  }
  log_->info("{} event=evict reason=request host_bytes={}", tag_of("", key), gone->host.bytes());
  return {};
}

uint64_t CompiledCache::drop_idle(uint64_t bytes) {
  std::vector<std::shared_ptr<Entry>> gone;  // released after the lock
  uint64_t freed = 0;
  {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<uint64_t, std::string>> idle;
    for (const auto& [key, e] : entries_)
      if (e->idle()) idle.emplace_back(e->last_used, key);
    std::sort(idle.begin(), idle.end());
    for (const auto& [tick, key] : idle) {
      if (freed >= bytes) break;
      auto it = entries_.find(key);
      freed += it->second->host.bytes();
      log_->info("{} event=evict reason=host_pressure host_bytes={}", tag_of("", key),
                 it->second->host.bytes());
      gone.push_back(std::move(it->second));
      entries_.erase(it);
    }
  }
  return freed;
}

bool CompiledCache::make_resident(const std::string& key, uint32_t device) {
  auto budget = devices_.find(device);
  if (budget == devices_.end()) return false;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second->loading) return false;
  Entry& e = *it->second;
  if (e.resident.count(device)) return true;
  const uint64_t bytes = e.circuit->bytes();
  auto r = budget->second->try_acquire(bytes, tag_of("", key) + " device=" + std::to_string(device));
  if (!r) return false;
  e.resident.emplace(device, std::move(*r));
  log_->info("{} device={} event=resident bytes={}", tag_of("", key), device, bytes);
  return true;
}

bool CompiledCache::is_resident(const std::string& key, uint32_t device) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  return it != entries_.end() && it->second->resident.count(device) > 0;
}

uint64_t CompiledCache::relieve_device(uint32_t device, uint64_t bytes) {
  std::vector<MemoryBudget::Reservation> gone;  // released after the lock
  uint64_t freed = 0;
  {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<uint64_t, std::string>> idle;
    for (const auto& [key, e] : entries_)
      if (e->idle() && e->resident.count(device)) idle.emplace_back(e->last_used, key);
    std::sort(idle.begin(), idle.end());
    for (const auto& [tick, key] : idle) {
      if (freed >= bytes) break;
      auto node = entries_.at(key)->resident.extract(device);
      freed += node.mapped().bytes();
      log_->info("{} device={} event=evict_device reason=device_pressure bytes={}", tag_of("", key), device,
                 node.mapped().bytes());
      gone.push_back(std::move(node.mapped()));
    }
  }
  return freed;
}

void CompiledCache::wake_all() {
  { std::lock_guard lock(mutex_); }
  changed_.notify_all();
}

std::vector<CompiledCircuitStatus> CompiledCache::status() const {
  std::lock_guard lock(mutex_);
  std::vector<CompiledCircuitStatus> out;
  for (const auto& [key, e] : entries_) {
    CompiledCircuitStatus s;
    s.key = key;
    s.path = path_of(key);
    s.loading = e->loading;
    s.from_file = e->from_file;
    s.host_bytes = e->host.bytes();
    s.users = e->circuit ? e->circuit.use_count() - 1 : 0;
    for (const auto& [d, r] : e->resident) s.resident_on.push_back(d);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace cuzk::engine
