// The engine's API: creation and resume from the journal, submit, await, cancel, status, params.
// The workers are in workers.cpp.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "engine/engine_impl.hpp"
#include "engine/filecoin_input.hpp"
#include "engine/input_shape.hpp"

namespace cuzk::engine {

int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const char* to_string(EngineEvent::Type t) {
  static constexpr const char* names[] = {"submitted",      "admitted",          "synthesized", "proving",
                                          "partition_done", "partition_retry",   "job_done",    "job_failed",
                                          "job_cancelled",  "device_quarantined"};
  return names[size_t(t)];
}

namespace {

uint64_t default_host_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return uint64_t(16) << 30;
  return uint64_t(pages) * uint64_t(page) / 4 * 3;
}

}  // namespace

unsigned auto_synthesis_threads(unsigned hardware_threads, unsigned running) {
  return std::max(1u, hardware_threads / std::max(1u, running));
}

bool is_brief_synthesis(uint64_t rows) { return rows < (uint64_t(1) << 22); }

unsigned auto_partitions_ahead(unsigned synthesis_workers, unsigned device_workers) {
  return std::max({1u, synthesis_workers, device_workers + 1});
}

// ------------------------------------------------------------------ lifetime

Engine::Impl::Impl(EngineConfig c) : config(std::move(c)) {
  log = config.logger ? config.logger : make_stderr_logger();
  paused_ = config.start_paused;
}

Engine::Impl::~Impl() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  done_cv_.notify_all();
  wake_budgets();
  for (auto& t : threads_) t.join();
  if (journal && !journal->healthy()) {
    if (auto st = journal->flush(); !st)
      log->error(
          "event=journal_writes_lost writes={} error=\"{}\" note=\"their jobs' results were not handed out; "
          "those jobs run again at the next start\"",
          journal->backlog(), st.message());
  }
  log->info("event=engine_stopped");
}

Status Engine::Impl::start() {
  if (config.devices.devices.empty()) return make_error("engine: no devices configured");
  if (!config.devices.factory) return make_error("engine: no backend factory configured");
  if (!config.devices.planner) config.devices.planner = default_plan_bytes;
  if (config.synthesis_workers == 0) return make_error("engine: synthesis_workers must be at least 1");
  if (config.max_attempts == 0) config.max_attempts = 1;
  if (config.quarantine_after == 0) config.quarantine_after = 1;
  const uint64_t host_bytes = config.host_memory_budget ? config.host_memory_budget : default_host_budget();
  host = std::make_unique<MemoryBudget>("host", host_bytes, log);
  std::map<uint32_t, MemoryBudget*> device_budgets;
  for (const auto& d : config.devices.devices) {
    if (device_budgets.count(d.index))
      return make_error("engine: device " + std::to_string(d.index) + " is listed twice");
    if (d.workers == 0) return make_error("engine: device " + std::to_string(d.index) + " has no workers");
    auto dev = std::make_unique<DeviceState>();
    dev->desc = d;
    dev->budget = std::make_unique<MemoryBudget>("device" + std::to_string(d.index), d.memory_budget, log);
    device_budgets[d.index] = dev->budget.get();
    devices.push_back(std::move(dev));
  }
  params = std::make_unique<ParamCache>(*host, device_budgets,
                                        config.params_on_device && !config.devices.backend_manages_residency,
                                        config.trusted_params, log, config.devices.pin_host);
  size_t device_workers = 0;
  for (const auto& d : config.devices.devices) device_workers += d.workers;
  partitions_ahead = config.max_partitions_ahead
                         ? config.max_partitions_ahead
                         : auto_partitions_ahead(config.synthesis_workers, unsigned(device_workers));
  // By default as many idle sets as partitions can be in flight, so that none is freed (and
  // unpinned) in a steady stream.
  buffers = std::make_unique<PartitionBufferPool>(
      config.idle_buffer_sets >= 0 ? size_t(config.idle_buffer_sets) : partitions_ahead + device_workers,
      config.devices.pin_host, log,
      config.synthesis_threads ? config.synthesis_threads
                               : auto_synthesis_threads(hardware_threads, config.synthesis_workers));
  if (config.compiled_circuits) {
    compiled = std::make_unique<CompiledCache>(compiled_circuit_dir(config.compiled_dir), *host,
                                               std::map<uint32_t, MemoryBudget*>{}, log);
    // Idle buffer sets, then idle compiled circuits, give way to parameters; idle buffer sets give
    // way to compiled circuits (never parameters to circuits: the reliefs would call each other).
    params->set_host_relief([pool = buffers.get(), cc = compiled.get()](uint64_t bytes) {
      const uint64_t freed = pool->drop_idle(bytes);
      return freed >= bytes ? freed : freed + cc->drop_idle(bytes - freed);
    });
    compiled->set_host_relief([pool = buffers.get()](uint64_t bytes) { return pool->drop_idle(bytes); });
  } else {
    params->set_host_relief([pool = buffers.get()](uint64_t bytes) { return pool->drop_idle(bytes); });
  }
  for (const auto& [name, key] : config.keys)
    if (auto st = params->register_key(name, key); !st) return st;
  if (!config.journal_path.empty()) {
    auto j = Journal::open(config.journal_path, config.journal_sync_full, config.journal_lock);
    if (!j) return j.error();
    journal = std::move(*j);
    if (config.journal_write_fault) journal->set_write_fault(config.journal_write_fault);
    if (auto st = resume_from_journal(); !st) return st;
    threads_.emplace_back([this] { journal_flusher(); });
  }
  log->info(
      "event=engine_started host_budget={} devices={} synthesis_workers={} synthesis_threads={} journal={}",
      host_bytes, devices.size(), config.synthesis_workers,
      config.synthesis_threads ? std::to_string(config.synthesis_threads) : std::string("auto"),
      config.journal_path.empty() ? "none" : config.journal_path);
  for (unsigned n = 0; n < config.synthesis_workers + config.express_synthesis_workers; ++n)
    threads_.emplace_back(
        [this, n, express = n >= config.synthesis_workers] { synthesis_worker(n, express); });
  for (auto& dev : devices)
    for (uint32_t w = 0; w < dev->desc.workers + dev->desc.express_workers; ++w)
      threads_.emplace_back([this, d = dev.get(), w] { device_worker(*d, w); });
  return {};
}

Status Engine::Impl::resume_from_journal() {
  const int64_t now = unix_ms_now();
  if (auto removed = journal->remove_expired(now); !removed) return removed.error();
  auto stored = journal->load_all();
  if (!stored) return stored.error();
  size_t resumed = 0, kept = 0;
  std::vector<std::shared_ptr<JobRecord>> to_close;
  for (auto& s : *stored) {
    auto job = std::make_shared<JobRecord>();
    job->id = s.id;
    job->seq = next_seq_++;  // load_all() gives the jobs oldest first
    job->request = std::move(s.request);
    job->priority = job->request.priority.value_or(default_priority(job->request.kind));
    job->submitted_ms = s.submitted_ms;
    job->retries = s.retries;
    const size_t n = job->request.partitions.size();
    job->proofs.resize(n);
    job->public_inputs.resize(n);
    for (auto& [index, p] : s.partitions) {
      if (index >= n) continue;
      job->proofs[index] = p.proof;
      job->public_inputs[index] = std::move(p.public_inputs);
      ++job->proved;
    }
    jobs_[job->id] = job;
    if (is_terminal(s.state)) {
      job->state = s.state;
      job->closed = true;
      job->error = s.error;
      job->timings = s.timings;
      job->expires_ms = s.expires_ms;
      job->recorded = true;
      ++kept;
      continue;
    }
    ++resumed;
    if (s.volatile_inputs) {
      to_close.push_back(job);
      job->error =
          "the engine restarted before this job finished, and its partitions were given in memory only: "
          "submit it "
          "again";
      continue;
    }
    if (job->proved == n) {
      to_close.push_back(job);  // every proof was stored; only the outcome was not
      continue;
    }
    job->state = job->proved > 0 ? JobState::running : JobState::queued;
    for (uint32_t i = 0; i < n; ++i) {
      if (job->proofs[i]) continue;
      auto item = std::make_unique<WorkItem>();
      item->job = job;
      item->partition = i;
      synth_queue_.emplace(queue_key(*item), std::move(item));
    }
    log->info("{} event=resumed kind={} priority={} partitions={} proved={}", job_context(job->id),
              to_string(job->request.kind), to_string(job->priority), n, job->proved);
  }
  for (auto& job : to_close) {
    {
      std::lock_guard lock(mu_);
      const bool lost = !job->error.empty();
      close_job_locked(*job, lost ? JobState::failed : JobState::done, job->error);
    }
    after_close(job);
  }
  if (resumed || kept) log->info("event=journal_loaded resumed={} results_kept={}", resumed, kept);
  return {};
}

// ------------------------------------------------------------------ API

Result<JobId> Engine::Impl::submit(JobRequest request) {
  sweep_expired();
  auto normalized = normalize(std::move(request));
  if (!normalized) return make_error("submit: " + normalized.message());
  JobRequest& r = *normalized;
  {
    std::lock_guard lock(mu_);
    if (healthy_devices_locked() == 0)
      return make_error("submit: no device is in service (all " + std::to_string(devices.size()) +
                        " are quarantined); release one first");
  }
  // A partition that alone needs more host memory than the budget could never be admitted: refuse
  // the job now, before anything is allocated for it.
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    auto shape = estimate_input(r.partitions[i], max_synthesis_threads(), compiled != nullptr);
    if (!shape) return make_error("submit: partition " + std::to_string(i) + ": " + shape.message());
    if (shape->host_bytes > host->capacity())
      return make_error("submit: partition " + std::to_string(i) + ": synthesizing it takes about " +
                        format_bytes(shape->host_bytes) + " of host memory, more than the host budget (" +
                        format_bytes(host->capacity()) + ", host_memory_budget)");
  }
  auto job = std::make_shared<JobRecord>();
  job->request = r;
  job->priority = *r.priority;
  job->submitted_ms = unix_ms_now();
  const size_t n = r.partitions.size();
  job->proofs.resize(n);
  job->public_inputs.resize(n);
  if (journal) {
    auto id = journal->insert_job(r, job->submitted_ms);
    if (!id) {
      if (!journal->healthy()) journal_failed(0, id.error());
      return make_error("submit: the job is not accepted: " + id.message());
    }
    job->id = *id;
  } else {
    // Random like the journal's: an id of an earlier run never names a job of this one.
    std::lock_guard lock(mu_);
    do job->id = random_job_id();
    while (jobs_.count(job->id));
  }
  log->info("{} event=submitted kind={} priority={} partitions={} params={} client={}", job_context(job->id),
            to_string(r.kind), to_string(job->priority), n, r.params, r.client.empty() ? "-" : r.client);
  emit({EngineEvent::Type::submitted, job->id, -1, -1, -1, job->priority, {}});
  {
    std::lock_guard lock(mu_);
    job->seq = next_seq_++;
    jobs_[job->id] = job;
    for (uint32_t i = 0; i < n; ++i) {
      auto item = std::make_unique<WorkItem>();
      item->job = job;
      item->partition = i;
      synth_queue_.emplace(queue_key(*item), std::move(item));
    }
  }
  work_cv_.notify_all();
  return job->id;
}

JobResult Engine::Impl::result_of(const JobRecord& job) const {
  JobResult r;
  r.id = job.id;
  r.kind = job.request.kind;
  r.priority = job.priority;
  r.state = job.state;
  r.error = job.error;
  r.timings = job.timings;
  r.partitions = uint32_t(job.proofs.size());
  r.partitions_proved = job.proved;
  r.retries = job.retries;
  if (job.state == JobState::done) {
    for (const auto& p : job.proofs) r.proofs.push_back(*p);
    r.public_inputs = job.public_inputs;
  }
  return r;
}

Result<JobResult> Engine::Impl::await(JobId id, std::chrono::milliseconds timeout) {
  sweep_expired();
  std::unique_lock lock(mu_);
  auto it = jobs_.find(id);
  if (it == jobs_.end())
    return make_error("job " + std::to_string(id) + " is unknown (never submitted, or its result expired)");
  std::shared_ptr<JobRecord> job = it->second;
  done_cv_.wait_for(lock, timeout, [&] { return (job->recorded && !journal_pending(id)) || stopping_; });
  JobResult r = result_of(*job);
  if (is_terminal(job->state) && (!job->recorded || journal_pending(id))) {
    // Not handed out before the journal holds it: a result handed out is never proved again.
    r.state = JobState::running;
    r.proofs.clear();
    r.public_inputs.clear();
    r.error.clear();
    return r;
  }
  if (!is_terminal(job->state) || job->fetched) return r;
  job->fetched = true;
  const int64_t grace = unix_ms_now() + int64_t(config.fetched_result_grace.count()) * 1000;
  job->expires_ms = std::min(job->expires_ms, grace);
  const int64_t expires = job->expires_ms;
  lock.unlock();
  if (journal)
    if (auto st = journal->set_expiry(id, expires); !st) journal_failed(id, st);
  return r;
}

Status Engine::Impl::check_owner(JobId id, const std::string& owner) const {
  std::lock_guard lock(mu_);
  auto it = jobs_.find(id);
  if (it == jobs_.end() || it->second->request.owner != owner)
    return make_error("job " + std::to_string(id) + " is unknown (never submitted, or its result expired)");
  return {};
}

void Engine::Impl::journal_failed(JobId id, const Status& st) {
  if (!journal_failing_.exchange(true))
    log->error(
        "{} event=journal_write_failed error=\"{}\" note=\"no new jobs and no results handed out until the "
        "journal can be written (retried every half second); accepted jobs go on\"",
        job_context(id), st.message());
}

void Engine::Impl::journal_flusher() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    work_cv_.wait_for(lock, std::chrono::milliseconds(500), [&] { return stopping_.load(); });
    if (stopping_ || !journal_failing_) continue;
    lock.unlock();
    const Status st = journal->flush();
    lock.lock();
    if (!st) continue;
    journal_failing_ = false;
    log->info("event=journal_recovered note=\"held writes made; intake and dispatch resume\"");
    done_cv_.notify_all();
    work_cv_.notify_all();
  }
}

Status Engine::Impl::cancel(JobId id) {
  std::shared_ptr<JobRecord> job;
  std::vector<WorkPtr> drop;
  {
    std::lock_guard lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return make_error("cancel: job " + std::to_string(id) + " is unknown");
    job = it->second;
    if (is_terminal(job->state))
      return make_error("cancel: job " + std::to_string(id) + " already " + to_string(job->state));
    drop = close_job_locked(*job, JobState::cancelled, "cancelled by request");
  }
  drop.clear();
  wake_budgets();
  after_close(job);
  return {};
}

void Engine::Impl::sweep_expired() {
  const int64_t now = unix_ms_now();
  {
    std::lock_guard lock(mu_);
    for (auto it = jobs_.begin(); it != jobs_.end();) {
      const JobRecord& j = *it->second;
      if (is_terminal(j.state) && j.expires_ms > 0 && j.expires_ms < now) {
        log->info("{} event=result_expired state={} fetched={}", job_context(j.id), to_string(j.state),
                  j.fetched);
        it = jobs_.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (journal)
    if (auto removed = journal->remove_expired(now); !removed)
      log->warn("event=journal_error error=\"{}\"", removed.message());
}

EngineStatus Engine::Impl::status() {
  sweep_expired();
  EngineStatus s;
  std::lock_guard lock(mu_);
  for (const auto& [id, j] : jobs_) {
    if (j->state == JobState::queued) ++s.queued_jobs[size_t(j->priority)];
    if (j->state == JobState::running) ++s.running_jobs;
  }
  s.partitions_waiting_synthesis = uint32_t(synth_queue_.size());
  s.partitions_synthesizing = synthesizing_;
  s.partitions_waiting_device = uint32_t(device_queue_.size());
  s.partitions_proving = proving_;
  s.jobs_done = jobs_done_;
  s.jobs_failed = jobs_failed_;
  s.jobs_cancelled = jobs_cancelled_;
  s.host_budget = host->capacity();
  s.host_reserved = host->reserved();
  s.buffer_sets_made = buffers->made();
  s.buffer_sets_idle = buffers->idle();
  s.buffer_idle_bytes = buffers->idle_bytes();
  s.paused = paused_;
  if (journal && journal_failing_) {
    s.journal_backlog = journal->backlog();
    s.journal_error = journal->last_error();
  }
  for (const auto& d : devices) {
    DeviceStatus ds;
    ds.index = d->desc.index;
    ds.workers = d->desc.workers;
    ds.express_workers = d->desc.express_workers;
    ds.busy_workers = d->busy;
    ds.memory_budget = d->budget->capacity();
    ds.memory_reserved = d->budget->reserved();
    ds.reservations = uint32_t(d->budget->reservations());
    ds.proofs_done = d->proofs_done;
    ds.failures = d->failures;
    ds.consecutive_failures = d->consecutive_failures;
    ds.quarantined = d->quarantined;
    ds.last_error = d->last_error;
    ds.busy_seconds = d->busy_seconds;
    if (config.devices.shared_bases) ds.shared_bases = config.devices.shared_bases(d->desc.index);
    s.devices.push_back(std::move(ds));
  }
  s.params = params->status();
  return s;
}

// ------------------------------------------------------------------ terminal transitions

std::vector<WorkPtr> Engine::Impl::close_job_locked(JobRecord& job, JobState state,
                                                    const std::string& error) {
  std::vector<WorkPtr> drop;
  if (is_terminal(job.state)) return drop;
  job.state = state;
  job.closed = true;
  job.error = state == JobState::done ? "" : error;
  job.timings.total_ms = double(std::max<int64_t>(0, unix_ms_now() - job.submitted_ms));
  job.expires_ms = unix_ms_now() + int64_t(config.result_ttl.count()) * 1000;
  if (state == JobState::done) ++jobs_done_;
  if (state == JobState::failed) ++jobs_failed_;
  if (state == JobState::cancelled) ++jobs_cancelled_;
  for (auto* q : {&synth_queue_, &device_queue_}) {
    for (auto it = q->begin(); it != q->end();) {
      if (it->second->job->id == job.id) {
        drop.push_back(std::move(it->second));
        it = q->erase(it);
      } else {
        ++it;
      }
    }
  }
  done_cv_.notify_all();
  work_cv_.notify_all();  // fewer partitions ahead of the devices now
  return drop;
}

void Engine::Impl::after_close(const std::shared_ptr<JobRecord>& job) {
  JobState state;
  std::string error;
  JobTimings timings;
  uint32_t retries;
  int64_t expires;
  {
    std::lock_guard lock(mu_);
    state = job->state;
    error = job->error;
    timings = job->timings;
    retries = job->retries;
    expires = job->expires_ms;
  }
  if (journal)
    if (auto st = journal->finish_job(job->id, state, error, timings, retries, unix_ms_now(), expires); !st)
      journal_failed(job->id, st);
  {
    std::lock_guard lock(mu_);
    job->recorded = true;
  }
  done_cv_.notify_all();
  const auto level = state == JobState::done ? spdlog::level::info : spdlog::level::warn;
  log->log(
      level,
      "{} event=job_{} priority={} retries={} queue_wait_ms={:.1f} param_load_ms={:.1f} synthesis_ms={:.1f} "
      "gpu_ms={:.1f} verify_ms={:.1f} total_ms={:.1f}{}",
      job_context(job->id), to_string(state), to_string(job->priority), retries, timings.queue_wait_ms,
      timings.param_load_ms, timings.synthesis_ms, timings.gpu_ms, timings.verify_ms, timings.total_ms,
      error.empty() ? "" : " error=\"" + error + "\"");
  const auto type = state == JobState::done     ? EngineEvent::Type::job_done
                    : state == JobState::failed ? EngineEvent::Type::job_failed
                                                : EngineEvent::Type::job_cancelled;
  emit({type, job->id, -1, -1, -1, job->priority, error});
}

void Engine::Impl::fail_job(const std::shared_ptr<JobRecord>& job, const std::string& error) {
  std::vector<WorkPtr> drop;
  {
    std::lock_guard lock(mu_);
    if (is_terminal(job->state)) return;
    drop = close_job_locked(*job, JobState::failed, error);
  }
  drop.clear();
  wake_budgets();
  after_close(job);
}

size_t Engine::Impl::healthy_devices_locked() const {
  return size_t(std::count_if(devices.begin(), devices.end(), [](const auto& d) { return !d->quarantined; }));
}

void Engine::Impl::fail_all_without_devices_locked(std::vector<std::shared_ptr<JobRecord>>& closed,
                                                   std::vector<WorkPtr>& drop) {
  std::string why = "no device is in service: all " + std::to_string(devices.size()) + " are quarantined";
  for (const auto& d : devices)
    why += "; device " + std::to_string(d->desc.index) + ": " + (d->last_error.empty() ? "?" : d->last_error);
  for (auto& [id, job] : jobs_) {
    if (is_terminal(job->state)) continue;
    auto more = close_job_locked(*job, JobState::failed, why);
    for (auto& w : more) drop.push_back(std::move(w));
    closed.push_back(job);
  }
}

void Engine::Impl::wake_budgets() {
  host->wake_all();
  for (auto& d : devices) d->budget->wake_all();
}

void Engine::Impl::emit(EngineEvent ev) const {
  if (!config.observer) return;
  config.observer(ev);
}

// ------------------------------------------------------------------ Engine

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

Result<std::unique_ptr<Engine>> Engine::create(EngineConfig config) {
  auto impl = std::make_unique<Impl>(std::move(config));
  if (auto st = impl->start(); !st) return st.error();
  return std::unique_ptr<Engine>(new Engine(std::move(impl)));
}

Result<JobId> Engine::submit(JobRequest request) { return impl_->submit(std::move(request)); }
Result<JobResult> Engine::await(JobId id, std::chrono::milliseconds timeout) {
  return impl_->await(id, timeout);
}
Status Engine::cancel(JobId id) { return impl_->cancel(id); }
Status Engine::check_owner(JobId id, const std::string& owner) const { return impl_->check_owner(id, owner); }
EngineStatus Engine::status() const { return impl_->status(); }

Result<SynthesizedPartition> Engine::synthesize(const std::string& name, const PartitionInput& input) {
  auto lease = impl_->params->acquire(name, WaitKey{uint8_t(Priority::normal), 0}, "synthesize", {});
  if (!lease) return lease.error();
  const auto threads = impl_->synthesis_threads();
  return synthesize_partition(input, **lease, threads.count, {}, impl_->compiled.get());
}

Status Engine::register_params(const std::string& name, std::shared_ptr<const groth16::ProvingKey> key) {
  return impl_->params->register_key(name, std::move(key));
}
Status Engine::evict_params(const std::string& name) { return impl_->params->evict(name); }

void Engine::pause() {
  std::lock_guard lock(impl_->mu_);
  impl_->paused_ = true;
  impl_->log->info("event=paused");
}

void Engine::resume() {
  {
    std::lock_guard lock(impl_->mu_);
    impl_->paused_ = false;
    impl_->log->info("event=resumed_dispatch");
  }
  impl_->work_cv_.notify_all();
}

Status Engine::release_device(uint32_t index) {
  {
    std::lock_guard lock(impl_->mu_);
    auto it = std::find_if(impl_->devices.begin(), impl_->devices.end(),
                           [&](const auto& d) { return d->desc.index == index; });
    if (it == impl_->devices.end())
      return make_error("device " + std::to_string(index) + " is not configured");
    (*it)->quarantined = false;
    (*it)->consecutive_failures = 0;
    impl_->log->info("device={} event=released_from_quarantine", index);
  }
  impl_->work_cv_.notify_all();
  return {};
}

}  // namespace cuzk::engine
