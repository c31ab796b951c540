#include "server/curio_jobs.hpp"

namespace cuzk::server::curio {
namespace {

using Clock = std::chrono::steady_clock;
using T = engine::EngineEvent::Type;

// Events that change a job's state here; nullopt for the others.
template <class State>
std::optional<State> state_after(T type) {
  switch (type) {
    case T::admitted:
    case T::synthesized:
    case T::proving:
      return State::running;
    case T::job_done:
      return State::done;
    case T::job_failed:
    case T::job_cancelled:
      return State::ended_without_proof;
    default:
      return std::nullopt;
  }
}

}  // namespace

void CurioJobs::sweep() {
  const auto now = Clock::now();
  for (auto it = entries_.begin(); it != entries_.end();) {
    const bool ended = it->second.state == State::done || it->second.state == State::ended_without_proof;
    if (ended && now - it->second.ended > keep_) {
      by_id_.erase(it->second.id);
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
  // Jobs that ended without ever being bound here (the daemon's own API's): a minute is plenty.
  for (auto it = early_.begin(); it != early_.end();) {
    const bool ended = it->second.state == State::done || it->second.state == State::ended_without_proof;
    it = ended && now - it->second.at > std::chrono::minutes(1) ? early_.erase(it) : std::next(it);
  }
  // Two records at most per live entry: compact when the file holds far more.
  if (journal_ && journal_->lines() > 4096 && journal_->lines() > 4 * entries_.size()) (void)compact();
}

CurioJobs::Claim CurioJobs::claim(const std::string& client, const std::string& request_id,
                                  const std::string& fingerprint, engine::JobId& existing) {
  std::unique_lock lock(mutex_);
  sweep();
  const Key key{client, request_id};
  for (;;) {
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      entries_.emplace(key, Entry{State::claiming, 0, engine::JobKind::generic, fingerprint, {}});
      return Claim::claimed;
    }
    Entry& e = it->second;
    if (e.state == State::claiming) {
      claimed_.wait(lock);
      continue;
    }
    if (e.state == State::ended_without_proof) {  // a retry: the id is free again
      by_id_.erase(e.id);
      e = Entry{State::claiming, 0, engine::JobKind::generic, fingerprint, {}};
      return Claim::claimed;
    }
    if (e.fingerprint != fingerprint) return Claim::conflict;
    existing = e.id;
    return Claim::existing;
  }
}

Status CurioJobs::bind(const std::string& client, const std::string& request_id, engine::JobId id,
                       engine::JobKind kind) {
  {
    std::lock_guard lock(mutex_);
    Entry& e = entries_[Key{client, request_id}];
    if (journal_) {
      CurioRecord r;
      r.client = client;
      r.request_id = request_id;
      r.job = id;
      r.kind = kind;
      r.fingerprint = e.fingerprint;
      if (auto st = journal_->append(r, true); !st) return st;
    }
    e.id = id;
    e.kind = kind;
    e.state = State::queued;
    by_id_[id] = Key{client, request_id};
    if (auto early = early_.find(id); early != early_.end()) {
      apply(e, early->second.state);
      early_.erase(early);
    }
  }
  claimed_.notify_all();
  return {};
}

Status CurioJobs::restore(const std::function<bool(engine::JobId, const std::string&)>& exists) {
  if (!journal_) return {};
  std::lock_guard lock(mutex_);
  std::map<engine::JobId, bool> ends;  // job -> with a proof
  for (const auto& r : journal_->records())
    if (r.op == CurioRecord::Op::end) ends[r.job] = r.proof;
  for (const auto& r : journal_->records()) {
    if (r.op != CurioRecord::Op::bind || !exists(r.job, r.client)) continue;
    const Key key{r.client, r.request_id};
    if (auto old = entries_.find(key); old != entries_.end()) by_id_.erase(old->second.id);  // a retry's
    Entry& e = entries_[key];
    e = Entry{State::queued, r.job, r.kind, r.fingerprint, {}};
    by_id_[r.job] = key;
    if (auto end = ends.find(r.job); end != ends.end()) {
      e.state = end->second ? State::done : State::ended_without_proof;
      e.ended = Clock::now();
    }
    // Events of resumed jobs may have come before this (the engine starts first).
    if (auto early = early_.find(r.job); early != early_.end()) {
      apply(e, early->second.state);
      early_.erase(early);
    }
  }
  return compact();
}

void CurioJobs::release(const std::string& client, const std::string& request_id) {
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(Key{client, request_id});
    if (it != entries_.end() && it->second.state == State::claiming) entries_.erase(it);
  }
  claimed_.notify_all();
}

void CurioJobs::forget(const std::string& client, const std::string& request_id) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(Key{client, request_id});
  if (it == entries_.end() || it->second.state == State::claiming) return;
  by_id_.erase(it->second.id);
  entries_.erase(it);
}

std::optional<engine::JobId> CurioJobs::find(const std::string& client, const std::string& request_id) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(Key{client, request_id});
  if (it == entries_.end() || it->second.state == State::claiming) return std::nullopt;
  return it->second.id;
}

bool CurioJobs::is_running(engine::JobId id) const {
  std::lock_guard lock(mutex_);
  if (auto key = by_id_.find(id); key != by_id_.end())
    if (auto e = entries_.find(key->second); e != entries_.end()) return e->second.state == State::running;
  return false;
}

void CurioJobs::apply(Entry& e, State state) {
  // States only move forward: a late `proving` never reopens an ended job.
  if (e.state == State::done || e.state == State::ended_without_proof) return;
  if (state == State::running && e.state == State::running) return;
  e.state = state;
  if (state != State::done && state != State::ended_without_proof) return;
  e.ended = Clock::now();
  if (!journal_ || e.id == 0) return;
  CurioRecord r;
  r.op = CurioRecord::Op::end;
  r.job = e.id;
  r.proof = state == State::done;
  // Not fatal: without the record a restart finds the job by its first wait.
  (void)journal_->append(r, false);
}

Status CurioJobs::compact() {
  if (!journal_) return {};
  std::vector<CurioRecord> live;
  for (const auto& [key, e] : entries_) {
    if (e.state == State::claiming) continue;
    CurioRecord bind;
    bind.client = key.first;
    bind.request_id = key.second;
    bind.job = e.id;
    bind.kind = e.kind;
    bind.fingerprint = e.fingerprint;
    live.push_back(std::move(bind));
    if (e.state == State::done || e.state == State::ended_without_proof) {
      CurioRecord end;
      end.op = CurioRecord::Op::end;
      end.job = e.id;
      end.proof = e.state == State::done;
      live.push_back(std::move(end));
    }
  }
  return journal_->rewrite(live);  // on failure the longer file stays, still correct
}

void CurioJobs::on_result(engine::JobId id, engine::JobState state) {
  std::lock_guard lock(mutex_);
  auto key = by_id_.find(id);
  if (key == by_id_.end()) return;
  auto e = entries_.find(key->second);
  if (e == entries_.end()) return;
  if (state == engine::JobState::done) apply(e->second, State::done);
  if (state == engine::JobState::failed || state == engine::JobState::cancelled)
    apply(e->second, State::ended_without_proof);
}

void CurioJobs::on_event(const engine::EngineEvent& e) {
  std::lock_guard lock(mutex_);
  if (e.device >= 0) {
    auto& jobs = proving_[uint32_t(e.device)];
    if (e.type == T::proving) ++jobs[e.job];
    if (e.type == T::partition_done || e.type == T::partition_retry)
      if (auto it = jobs.find(e.job); it != jobs.end() && --it->second <= 0) jobs.erase(it);
  }
  const auto state = state_after<State>(e.type);
  if (state == State::done || state == State::ended_without_proof)
    for (auto& [device, jobs] : proving_) jobs.erase(e.job);
  if (!state) return;
  if (auto it = by_id_.find(e.job); it != by_id_.end()) {
    if (auto entry = entries_.find(it->second); entry != entries_.end()) apply(entry->second, *state);
    return;
  }
  Early& early = early_[e.job];
  if (early.state != State::done && early.state != State::ended_without_proof) early.state = *state;
  early.at = Clock::now();
}

std::map<engine::JobKind, CurioJobs::KindCounts> CurioJobs::queues() const {
  std::lock_guard lock(mutex_);
  std::map<engine::JobKind, KindCounts> out;
  for (const auto& [key, e] : entries_) {
    if (e.state == State::queued) ++out[e.kind].pending;
    if (e.state == State::running) ++out[e.kind].in_progress;
  }
  return out;
}

std::optional<std::pair<std::string, engine::JobKind>> CurioJobs::on_device(uint32_t device) const {
  std::lock_guard lock(mutex_);
  auto jobs = proving_.find(device);
  if (jobs == proving_.end()) return std::nullopt;
  for (const auto& [id, partitions] : jobs->second) {
    auto key = by_id_.find(id);
    if (key == by_id_.end()) continue;
    auto entry = entries_.find(key->second);
    if (entry != entries_.end()) return std::make_pair(key->second.second, entry->second.kind);
  }
  return std::nullopt;
}

}  // namespace cuzk::server::curio
