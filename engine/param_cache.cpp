#include "engine/param_cache.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "io/bellman.hpp"

namespace cuzk::engine {

struct ParamCache::Entry {
  std::shared_ptr<ParamSet> set;
  bool registered = false;
  bool loading = false;
  uint32_t leases = 0;
  uint64_t last_used = 0;
  MemoryBudget::Reservation host;
  std::map<uint32_t, MemoryBudget::Reservation> resident;

  bool idle() const { return !registered && !loading && leases == 0 && set != nullptr; }
};

namespace {

uint64_t key_bytes(const groth16::ProvingKey& k) {
  return (k.h.size() + k.l.size() + k.a.size() + k.b_g1.size() + k.vk.ic.size()) * sizeof(G1Affine) +
         k.b_g2.size() * sizeof(G2Affine);
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Result<std::shared_ptr<ParamSet>> make_param_set(const std::string& name,
                                                 std::shared_ptr<const groth16::ProvingKey> key) {
  if (!key) return make_error("parameter set '" + name + "': no key");
  if (auto st = key->check_shape(); !st) return make_error("parameter set '" + name + "': " + st.message());
  auto pvk = groth16::prepare_verifying_key(key->vk);
  if (!pvk) return make_error("parameter set '" + name + "': " + pvk.message());
  auto set = std::make_shared<ParamSet>();
  set->name = name;
  set->pvk = std::move(*pvk);
  set->host_bytes = key_bytes(*key);
  set->shape.domain_size = key->domain_size;
  set->shape.h_points = key->h.size();
  set->shape.l_points = key->l.size();
  set->shape.a_points = key->a.size();
  set->shape.b_g1_points = key->b_g1.size();
  set->shape.b_g2_points = key->b_g2.size();
  set->key = std::move(key);
  return set;
}

ParamCache::Lease& ParamCache::Lease::operator=(Lease&& o) noexcept {
  if (this != &o) {
    release();
    cache_ = o.cache_;
    set_ = std::move(o.set_);
    o.cache_ = nullptr;
    o.set_ = nullptr;
  }
  return *this;
}

void ParamCache::Lease::release() {
  if (cache_ && set_) cache_->unlease(set_->name);
  cache_ = nullptr;
  set_ = nullptr;
}

ParamCache::ParamCache(MemoryBudget& host, std::map<uint32_t, MemoryBudget*> devices, bool keep_on_device,
                       bool trusted, Logger log, HostPinner pin_host)
    : host_(host),
      devices_(std::move(devices)),
      pin_host_(std::move(pin_host)),
      keep_on_device_(keep_on_device),
      trusted_(trusted),
      log_(std::move(log)) {}

ParamCache::~ParamCache() = default;

void ParamCache::pin(ParamSet& set) const {
  if (!pin_host_) return;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<HostRange> ranges;
  for (const auto& r : set.key->point_arrays()) ranges.push_back({r.data, r.bytes});
  set.pins = pin_ranges(pin_host_, ranges, log_, "params=" + set.name);
  log_->info("params={} event=pinned ranges={} ms={:.0f}", set.name, set.pins.size(),
             std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
}

Status ParamCache::register_key(const std::string& name, std::shared_ptr<const groth16::ProvingKey> key) {
  auto set = make_param_set(name, std::move(key));
  if (!set) return set.error();
  pin(**set);
  std::lock_guard lock(mutex_);
  auto& e = entries_[name];
  if (e && (e->leases > 0 || e->loading))
    return make_error("parameter set '" + name + "' is in use; it cannot be replaced now");
  e = std::make_unique<Entry>();
  e->set = std::move(*set);
  e->registered = true;
  e->last_used = ++clock_;
  log_->info("params={} event=register host_bytes={}", name, e->set->host_bytes);
  return {};
}

Result<std::shared_ptr<ParamSet>> ParamCache::load(const std::string& name, WaitKey wait,
                                                   const std::string& who,
                                                   const std::function<bool()>& abandon) {
  std::error_code ec;
  const auto file_bytes = std::filesystem::file_size(name, ec);
  if (ec) return make_error("parameter set '" + name + "' is neither registered nor a readable file");
  const bool is_zkey = ends_with(name, ".zkey");
  // Decoded points take about what the uncompressed file does; a zkey's coefficients are kept too.
  const uint64_t estimate = file_bytes + file_bytes / 8;
  auto reservation =
      host_.acquire(estimate, wait, who + " params=" + name, abandon, [this](uint64_t short_by) {
        relieve_host(short_by);
        return uint64_t(0);
      });
  if (!reservation) return reservation.error();
  const Check check = trusted_ ? Check::curve_only : Check::full;
  std::shared_ptr<const groth16::ProvingKey> key;
  std::shared_ptr<SnarkjsZkey> matrices;
  if (is_zkey) {
    auto zkey = read_zkey(name, check);
    if (!zkey) return make_error("parameter set '" + name + "': " + zkey.message());
    matrices = std::make_shared<SnarkjsZkey>();
    matrices->n_vars = zkey->n_vars;
    matrices->n_public = zkey->n_public;
    matrices->domain_size = zkey->domain_size;
    matrices->coefficients = std::move(zkey->coefficients);
    auto pk = proving_key_from_zkey(std::move(*zkey));
    if (!pk) return make_error("parameter set '" + name + "': " + pk.message());
    key = std::make_shared<groth16::ProvingKey>(std::move(*pk));
  } else {
    auto params = read_bellman_params(name, check);
    if (!params) return make_error("parameter set '" + name + "': " + params.message());
    auto pk = proving_key_from_bellman(std::move(*params));
    if (!pk) return make_error("parameter set '" + name + "': " + pk.message());
    key = std::make_shared<groth16::ProvingKey>(std::move(*pk));
  }
  auto set = make_param_set(name, std::move(key));
  if (!set) return set.error();
  (*set)->zkey_matrices = std::move(matrices);
  pin(**set);
  std::lock_guard lock(mutex_);
  entries_.at(name)->host = std::move(*reservation);
  return set;
}

Result<ParamCache::Lease> ParamCache::acquire(const std::string& name, WaitKey wait, const std::string& who,
                                              const std::function<bool()>& abandon, double* load_ms) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    if (load_ms)
      *load_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  bool waited = false;  // the time counts as parameter loading only if this call waited or loaded
  std::unique_lock lock(mutex_);
  for (;;) {
    auto it = entries_.find(name);
    if (it != entries_.end() && it->second->loading) {
      waited = true;
      loaded_.wait(lock);
      continue;
    }
    if (it != entries_.end()) {
      Entry& e = *it->second;
      ++e.leases;
      e.last_used = ++clock_;
      Lease lease;
      lease.cache_ = this;
      lease.set_ = e.set;
      if (waited) elapsed();
      return lease;
    }
    entries_[name] = std::make_unique<Entry>();
    entries_[name]->loading = true;
    lock.unlock();
    log_->info("{} params={} event=load_start", who, name);
    auto set = load(name, wait, who, abandon);
    lock.lock();
    if (!set) {
      entries_.erase(name);
      loaded_.notify_all();
      log_->warn("{} params={} event=load_failed error=\"{}\"", who, name, set.message());
      return set.error();
    }
    Entry& e = *entries_.at(name);
    e.set = std::move(*set);
    e.loading = false;
    loaded_.notify_all();
    log_->info("{} params={} event=loaded host_bytes={} reserved_bytes={}", who, name, e.set->host_bytes,
               e.host.bytes());
    waited = true;
  }
}

void ParamCache::unlease(const std::string& name) {
  std::lock_guard lock(mutex_);
  if (auto it = entries_.find(name); it != entries_.end() && it->second->leases > 0) {
    --it->second->leases;
    it->second->last_used = ++clock_;
  }
}

Status ParamCache::preload(const std::string& name) {
  auto lease = acquire(name, WaitKey{3, 0}, "preload", {});
  if (!lease) return lease.error();
  for (const auto& [index, budget] : devices_) make_resident(*lease, index);
  return {};
}

Status ParamCache::evict(const std::string& name) {
  std::unique_ptr<Entry> gone;  // destroyed (reservations released) after the lock
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(name);
    if (it == entries_.end()) return make_error("parameter set '" + name + "' is not loaded");
    if (it->second->registered)
      return make_error("parameter set '" + name + "' was registered in memory and cannot be evicted");
    if (!it->second->idle())
      return make_error("parameter set '" + name + "' is in use by " + std::to_string(it->second->leases) +
                        " partitions");
    gone = std::move(it->second);
    entries_.erase(it);
  }
  log_->info("params={} event=evict reason=request host_bytes={}", name, gone->host.bytes());
  return {};
}

bool ParamCache::make_resident(const Lease& lease, uint32_t device) {
  if (!keep_on_device_ || !lease) return false;
  auto budget = devices_.find(device);
  if (budget == devices_.end()) return false;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(lease->name);
  if (it == entries_.end()) return false;
  Entry& e = *it->second;
  if (e.resident.count(device)) return true;
  auto r = budget->second->try_acquire(params_device_bytes(lease->shape),
                                       "params=" + lease->name + " device=" + std::to_string(device));
  if (!r) return false;
  e.resident.emplace(device, std::move(*r));
  log_->info("params={} device={} event=resident bytes={}", lease->name, device,
             params_device_bytes(lease->shape));
  return true;
}

bool ParamCache::is_resident(const Lease& lease, uint32_t device) const {
  if (!lease) return false;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(lease->name);
  return it != entries_.end() && it->second->resident.count(device) > 0;
}

void ParamCache::relieve_host(uint64_t bytes) {
  if (relieve_first_) {
    const uint64_t freed = relieve_first_(bytes);
    if (freed >= bytes) return;
    bytes -= freed;
  }
  std::vector<std::unique_ptr<Entry>> gone;
  {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<uint64_t, std::string>> idle;
    for (const auto& [name, e] : entries_)
      if (e->idle()) idle.emplace_back(e->last_used, name);
    std::sort(idle.begin(), idle.end());
    uint64_t freed = 0;
    for (const auto& [tick, name] : idle) {
      if (freed >= bytes) break;
      freed += entries_.at(name)->host.bytes();
      log_->info("params={} event=evict reason=host_pressure host_bytes={}", name,
                 entries_.at(name)->host.bytes());
      gone.push_back(std::move(entries_.at(name)));
      entries_.erase(name);
    }
  }
}

void ParamCache::relieve_device(uint32_t device, uint64_t bytes) {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<uint64_t, Entry*>> idle;
  for (const auto& [name, e] : entries_)
    if (e->leases == 0 && e->resident.count(device)) idle.emplace_back(e->last_used, e.get());
  std::sort(idle.begin(), idle.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  uint64_t freed = 0;
  for (const auto& [tick, e] : idle) {
    if (freed >= bytes) break;
    auto node = e->resident.extract(device);
    freed += node.mapped().bytes();
    log_->info("params={} device={} event=evict_device reason=device_pressure bytes={}", e->set->name, device,
               node.mapped().bytes());
  }
}

std::vector<ParamSetStatus> ParamCache::status() const {
  std::lock_guard lock(mutex_);
  std::vector<ParamSetStatus> out;
  for (const auto& [name, e] : entries_) {
    ParamSetStatus s;
    s.name = name;
    s.registered = e->registered;
    s.loading = e->loading;
    s.host_bytes = e->set ? e->set->host_bytes : 0;
    s.leases = e->leases;
    for (const auto& [d, r] : e->resident) s.resident_on.push_back(d);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace cuzk::engine
