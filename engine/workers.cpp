// The engine's workers: synthesis workers (admission against the host budget, then the CPU
// synthesis) and device workers (a VRAM reservation for the plan, the proof, the pairing check),
// and what happens when a device stage fails.
#include <algorithm>
#include <new>

#include "engine/engine_impl.hpp"
#include "engine/input_shape.hpp"
#include "engine/thread_priority.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::engine {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

std::string worker_context(const WorkItem& w, const std::string& worker, int device = -1) {
  std::string s = job_context(w.job->id, int(w.partition)) + " worker=" + worker;
  if (device >= 0) s += " device=" + std::to_string(device);
  return s;
}

}  // namespace

// ------------------------------------------------------------------ synthesis

void Engine::Impl::synthesis_worker(unsigned n, bool express) {
  // The queue is ordered by priority, so its first partition is the one an express worker may take.
  const auto takes = [&] {
    return !synth_queue_.empty() &&
           (!express || synth_queue_.begin()->second->job->priority >= Priority::high);
  };
  // Ordinary synthesis runs niced: it may use every core, and still yields them at once to the
  // device workers' host steps (uploads, launches, the pairing check) when those need them. With
  // no such yielding, threads left idle for them are the better trade when the GPU is the bound
  // and the worse one when synthesis is.
  if (!express && config.synthesis_nice > 0)
    if (auto st = lower_thread_priority(config.synthesis_nice); !st.ok())
      log->warn("worker=synth{} event=synthesis_nice_failed reason=\"{}\"", n, st.message());
  std::unique_lock lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stopping_ || (!paused_ && takes() && may_synthesize_locked()); });
    if (stopping_) return;
    auto node = synth_queue_.extract(synth_queue_.begin());
    WorkPtr item = std::move(node.mapped());
    if (item->job->closed) continue;
    ++synthesizing_;
    lock.unlock();
    const bool queued = synthesize(std::move(item), n);
    lock.lock();
    if (!queued) --synthesizing_;  // a queued partition was moved from one count to the other at once
    work_cv_.notify_all();         // one fewer is being synthesized
  }
}

bool Engine::Impl::may_synthesize_locked() const {
  if (device_queue_.size() + synthesizing_ < partitions_ahead) return true;
  // A partition that outranks every one waiting for a device (a WinningPoSt behind PoRep
  // partitions) is never held back by them. (With none waiting, the bound is all synthesis in
  // flight: the default bound, at least the synthesis workers, leaves a free synthesis worker room.)
  return !device_queue_.empty() && synth_queue_.begin()->first < device_queue_.begin()->first;
}

bool Engine::Impl::synthesize(WorkPtr item, unsigned n) {
  const std::shared_ptr<JobRecord> job = item->job;
  const std::string who = worker_context(*item, "synth" + std::to_string(n));
  auto abandon = [this, job] { return abandoned(*job); };

  double load_ms = 0;
  auto lease = params->acquire(job->request.params, job->wait_key(), who, abandon, &load_ms);
  if (!lease) {
    if (!abandoned(*job)) fail_job(job, "parameters: " + lease.message());
    return false;
  }
  // Pooled buffers first: a set already made (pinned, its pages mapped) brings its own share of the
  // host budget, and the partition reserves only the rest. A set that turns idle while this
  // partition waits for the budget is taken too, never dropped to make room for a new one: making
  // a set costs seconds of page mapping and pinning, and stalls the device workers while it pins.
  const PartitionInput& input = job->request.partitions.at(item->partition);
  // The input's own shape, before anything is allocated for it: rows the domain cannot hold fail
  // the job now, and synthesis is admitted for the larger of its own peak and the pooled vectors.
  auto estimate = estimate_input(input, max_synthesis_threads(), compiled != nullptr);
  if (estimate && estimate->rows > (**lease).key->domain_size)
    estimate = make_error("the partition does not fit parameter set '" + (**lease).name + "': about " +
                          std::to_string(estimate->rows) + " constraint rows, more than its domain of " +
                          std::to_string((**lease).key->domain_size));
  if (!estimate) {
    fail_job(job, "partition " + std::to_string(item->partition) + ": " + estimate.message());
    return false;
  }
  const bool pooled = uses_pooled_buffers(input, compiled != nullptr);
  const BufferShape shape = buffer_shape(**lease, input, compiled != nullptr);
  PartitionBuffers buffers;
  if (pooled) buffers = this->buffers->take_idle(shape);
  const uint64_t vectors = partition_host_bytes(
      **lease,
      partition_extras(input, **lease, config.devices.h_on_device, compiled != nullptr, &config.devices));
  const uint64_t bytes = std::max(vectors, estimate->host_bytes) - std::min(buffers.bytes(), vectors);
  auto reservation = host->acquire(bytes, job->wait_key(), who, abandon, [&](uint64_t short_by) -> uint64_t {
    if (pooled && !buffers.held()) {
      buffers = this->buffers->take_idle(shape);
      if (buffers.held()) return buffers.bytes();
    }
    params->relieve_host(short_by);
    return 0;
  });
  if (!reservation) {
    if (!abandoned(*job))
      fail_job(job, "partition " + std::to_string(item->partition) + ": " + reservation.message());
    return false;
  }
  if (pooled && !buffers.held()) buffers = this->buffers->make(shape, *reservation, who);
  bool first_admission = false;
  {
    std::lock_guard lock(mu_);
    if (job->closed) return false;
    if (!job->admitted) {
      job->admitted = first_admission = true;
      job->timings.queue_wait_ms = double(std::max<int64_t>(0, unix_ms_now() - job->submitted_ms));
      job->state = JobState::running;
    }
    job->timings.param_load_ms += load_ms;
  }
  if (first_admission && journal)
    if (auto st = journal->set_running(job->id); !st) journal_failed(job->id, st);
  emit({EngineEvent::Type::admitted, job->id, int(item->partition), -1, -1, job->priority, {}});

  const auto start = Clock::now();
  const auto threads = synthesis_threads(estimate->rows);
  const bool defer = config.device_witness && config.devices.fills_witness_on_device;
  auto synthesized =
      synthesize_partition(input, **lease, threads.count, std::move(buffers), compiled.get(), defer);
  const double synth_ms = ms_since(start);
  if (!synthesized) {
    log->warn("{} event=synthesis_failed error=\"{}\"", who, synthesized.message());
    fail_job(job, "partition " + std::to_string(item->partition) + ": " + synthesized.message());
    return false;
  }
  log->info("{} event=synthesized ms={:.1f} threads={} constraints={}", who, synth_ms, threads.count,
            synthesized->assignment.a.size());
  item->host = std::move(*reservation);
  item->params = std::move(*lease);
  item->synthesized = std::move(*synthesized);
  const uint32_t partition = item->partition;
  {
    std::lock_guard lock(mu_);
    job->timings.synthesis_ms += synth_ms;
    if (job->closed) return false;  // the item is dropped after the lock is released
    device_queue_.emplace(queue_key(*item), std::move(item));
    --synthesizing_;  // in the same critical section, so that no count holds it twice
  }
  work_cv_.notify_all();
  emit({EngineEvent::Type::synthesized, job->id, int(partition), -1, -1, job->priority, {}});
  return true;
}

// ------------------------------------------------------------------ devices

void Engine::Impl::device_worker(DeviceState& dev, uint32_t worker) {
  const bool express = dev.desc.is_express(worker);
  const std::string name = "gpu" + std::to_string(dev.desc.index) + "." + std::to_string(worker);
  auto backend = config.devices.factory(dev.desc, worker);
  if (!backend && express) {
    // The device's ordinary workers still serve PoSt partitions, only not ahead of running ones.
    log->warn("worker={} device={} event=express_worker_unavailable reason=\"{}\"", name, dev.desc.index,
              backend.message());
    return;
  }
  if (!backend) {
    std::vector<std::shared_ptr<JobRecord>> closed;
    std::vector<WorkPtr> drop;
    {
      std::lock_guard lock(mu_);
      dev.last_error = "cannot create a backend: " + backend.message();
      dev.quarantined = true;
      log->error("worker={} device={} event=device_quarantined reason=\"{}\"", name, dev.desc.index,
                 dev.last_error);
      if (healthy_devices_locked() == 0) fail_all_without_devices_locked(closed, drop);
    }
    drop.clear();
    for (auto& j : closed) after_close(j);
    emit({EngineEvent::Type::device_quarantined, 0, -1, int(dev.desc.index), int(worker), Priority::normal,
          dev.last_error});
    return;
  }
  log->info("worker={} device={} event=worker_started express={} backend={}", name, dev.desc.index, express,
            (*backend)->name());

  std::unique_lock lock(mu_);
  for (;;) {
    // The first queued partition this device may take: one that has not failed here, unless it
    // has failed on every device in service.
    auto eligible = device_queue_.end();
    const auto fits_express = [&](const auto& e) {
      return e.second->job->priority >= Priority::high &&
             e.second->params->shape.domain_size <= dev.desc.express_max_domain;
    };
    if (express) ++dev.express_waiting;
    work_cv_.wait(lock, [&] {
      if (stopping_) return true;
      if (dev.quarantined) return false;
      const size_t healthy = healthy_devices_locked();
      eligible = std::find_if(device_queue_.begin(), device_queue_.end(), [&](const auto& e) {
        if (express && !fits_express(e)) return false;
        // What an idle express worker of this device can take is left to it: its streams go first
        // on the SMs, so a WinningPoSt beside another proof on the card is not slowed by it.
        if (!express && dev.express_waiting > 0 && fits_express(e)) return false;
        const auto& failed = e.second->failed_on;
        if (!failed.count(dev.desc.index)) return true;
        size_t failed_healthy = 0;
        for (const auto& d : devices)
          if (!d->quarantined && failed.count(d->desc.index)) ++failed_healthy;
        return failed_healthy >= healthy;
      });
      return eligible != device_queue_.end();
    });
    if (express) --dev.express_waiting;
    if (stopping_) return;
    WorkPtr item = std::move(eligible->second);
    device_queue_.erase(eligible);
    ++dev.busy;
    ++proving_;
    lock.unlock();
    work_cv_.notify_all();  // a synthesis worker held back by max_partitions_ahead may start
    prove(std::move(item), dev, worker, **backend);
    lock.lock();
    --dev.busy;
    --proving_;
  }
}

void Engine::Impl::prove(WorkPtr item, DeviceState& dev, uint32_t worker, ComputeBackend& backend) {
  const std::shared_ptr<JobRecord> job = item->job;
  const int d = int(dev.desc.index);
  const std::string who = worker_context(*item, "gpu" + std::to_string(d) + "." + std::to_string(worker), d);
  if (abandoned(*job)) return;
  emit({EngineEvent::Type::proving, job->id, int(item->partition), d, int(worker), job->priority, {}});

  PlanShape shape = item->params->shape;
  shape.attempt = item->attempt;
  shape.express = dev.desc.is_express(worker);
  shape.params_resident = params->make_resident(item->params, dev.desc.index);
  const uint64_t plan = config.devices.planner(shape);
  auto vram = dev.budget->acquire(
      plan, job->wait_key(), who, [this, job] { return abandoned(*job); },
      [this, &dev](uint64_t short_by) {
        params->relieve_device(dev.desc.index, short_by);
        return uint64_t(0);
      });
  if (!vram) {
    if (abandoned(*job)) return;
    // The plan does not fit this device at all: not the device's fault; try another.
    stage_failed(std::move(item), dev, vram.message(), false);
    return;
  }
  const auto rs =
      job->request.randomness_seed
          ? groth16::ProofRandomness::from_seed(*job->request.randomness_seed * 1000003 + item->partition)
          : groth16::ProofRandomness::fresh();
  log->info("{} event=prove_start attempt={} plan_bytes={} params_resident={} backend={}", who, item->attempt,
            plan, shape.params_resident, backend.name());
  const auto start = Clock::now();
  Result<groth16::Proof> proof = make_error("not proved");
  bool host_fault = false;
  try {
    // Synthesis checked the counts and densities; the backend checks a·b = c on its copies of the
    // rows (on a GPU, a few ms there instead of a pass over 12 GB on the host's cores).
    // With release_inputs_early (off by default: engine.hpp says why) the partition's pooled set
    // goes back as soon as the backend has copied what it reads (on a GPU, once the H stage and the
    // scalars' upload are done), so the next synthesis need not wait for this proof. A retry then
    // synthesizes the partition again.
    groth16::ProveOptions options;
    if (config.release_inputs_early)
      options.inputs_consumed = [this, &item, &who] {
        if (!item->synthesized->buffers.held()) return;
        item->synthesized->release_buffers();
        log->info("{} event=inputs_released", who);
        host->wake_all();  // a synthesis waiting for the host budget may take the set now
      };
    proof = groth16::create_proof(*item->params->key, item->synthesized->assignment, rs, backend, options);
  } catch (const std::bad_alloc&) {
    proof = make_error(host_out_of_memory("proving"));
    host_fault = true;
  }
  const double gpu_ms = ms_since(start);
  // Every device stage with its plan, size and the budget left beside it: an incident can be
  // reconstructed from these lines alone.
  for (const auto& st : backend.take_stage_log())
    log->info("{} event=device_stage stage=\"{}\" plan=\"{}\" bytes={} budget_left={} ms={:.1f}", who,
              st.stage, st.choice, st.bytes, st.budget_left, st.ms);
  vram->release();
  {
    std::lock_guard lock(mu_);
    job->timings.gpu_ms += gpu_ms;
    dev.busy_seconds += gpu_ms / 1000;
  }
  if (!proof && proof.error().bad_input) {
    // The partition itself is wrong (a witness that does not satisfy its constraints): no device is
    // to blame and no retry can help.
    log->warn("{} event=bad_input error=\"{}\"", who, proof.message());
    fail_job(job, "partition " + std::to_string(item->partition) + ": " + proof.message());
    return;
  }
  if (!proof) {
    stage_failed(std::move(item), dev, proof.message(),
                 !host_fault);  // host memory is not the device's fault
    return;
  }
  const auto verify_start = Clock::now();
  auto ok = groth16::verify_proof(item->params->pvk, *proof, item->synthesized->public_inputs);
  const double verify_ms = ms_since(verify_start);
  {
    std::lock_guard lock(mu_);
    job->timings.verify_ms += verify_ms;
  }
  if (!ok || (!*ok && !config.ignore_verify_for_benchmarks)) {
    stage_failed(std::move(item), dev,
                 ok ? std::string("the proof failed its pairing check")
                    : "the proof cannot be checked: " + ok.message(),
                 true);
    return;
  }
  log->info("{} event=proved gpu_ms={:.1f} verify_ms={:.1f}", who, gpu_ms, verify_ms);
  {
    std::lock_guard lock(mu_);
    ++dev.proofs_done;
    dev.consecutive_failures = 0;
  }
  partition_done(std::move(item), *proof);
}

void Engine::Impl::partition_done(WorkPtr item, const groth16::Proof& proof) {
  const std::shared_ptr<JobRecord> job = item->job;
  const uint32_t p = item->partition;
  std::vector<Fr> inputs = std::move(item->synthesized->public_inputs);
  item.reset();             // the host reservation and the parameter lease go back now
  if (job->closed) return;  // (a stopping engine still journals the proof: it is not redone on restart)
  if (journal)
    if (auto st = journal->save_partition(job->id, p, proof, inputs); !st) journal_failed(job->id, st);
  bool complete = false;
  {
    std::lock_guard lock(mu_);
    if (job->closed || job->proofs[p]) return;
    job->proofs[p] = proof;
    job->public_inputs[p] = std::move(inputs);
    complete = ++job->proved == job->proofs.size();
    if (complete) (void)close_job_locked(*job, JobState::done, "");
  }
  emit({EngineEvent::Type::partition_done, job->id, int(p), -1, -1, job->priority, {}});
  if (complete) after_close(job);
}

void Engine::Impl::stage_failed(WorkPtr item, DeviceState& dev, const std::string& error, bool device_fault) {
  const std::shared_ptr<JobRecord> job = item->job;
  const int d = int(dev.desc.index);
  const uint32_t p = item->partition;
  bool quarantined_now = false, give_up = false;
  std::vector<std::shared_ptr<JobRecord>> closed;
  std::vector<WorkPtr> drop;
  {
    std::lock_guard lock(mu_);
    if (device_fault) {
      ++dev.failures;
      ++dev.consecutive_failures;
      dev.last_error = error;
      if (!dev.quarantined && dev.consecutive_failures >= config.quarantine_after) {
        dev.quarantined = quarantined_now = true;
        if (healthy_devices_locked() == 0) fail_all_without_devices_locked(closed, drop);
      }
    }
    ++job->retries;
    item->failed_on.insert(dev.desc.index);
    give_up = ++item->attempt >= config.max_attempts;
  }
  log->warn("{} event=stage_failed device={} attempt={} device_fault={} error=\"{}\"",
            job_context(job->id, int(p)), d, item->attempt, device_fault, error);
  if (quarantined_now) {
    log->error("device={} event=device_quarantined consecutive_failures={} last_error=\"{}\"", d,
               config.quarantine_after, error);
    emit({EngineEvent::Type::device_quarantined, 0, -1, d, -1, Priority::normal, error});
  }
  drop.clear();
  for (auto& j : closed) after_close(j);
  if (give_up) {
    fail_job(job, "partition " + std::to_string(p) + " failed " + std::to_string(item->attempt) +
                      " times; last on device " + std::to_string(d) + ": " + error);
    return;
  }
  // Back to synthesis: the prover spent the a, b, c vectors (their buffers go back to the pool), and
  // the retry may run elsewhere.
  item->synthesized.reset();
  item->host.release();
  item->params.release();
  emit({EngineEvent::Type::partition_retry, job->id, int(p), d, -1, job->priority, error});
  {
    std::lock_guard lock(mu_);
    if (job->closed) return;
    synth_queue_.emplace(queue_key(*item), std::move(item));
  }
  work_cv_.notify_all();
}

}  // namespace cuzk::engine
