// The jobs of the cuzk.v1 service by (client, request id), and what engine events say of them.
//
// request_id is Curio's idempotency key: the same id from the same client names the same job while
// that job is queued, running or done (its proof is handed out again), so a retried call never
// proves twice. A job that failed or was cancelled gives its id up: Curio retries a failed task
// under the same id, and that retry is a new job. The same id with a different request (another
// kind, sector, randomness or input) while its job lives is a conflict. Two calls that claim one id
// at once are ordered: the second waits for the first's submit and then sees its job.
//
// Ids are kept for the engine's result_ttl after their job ends. With a journal (curio_journal.hpp)
// every bind is on disk before its submit answers, and restore() brings the ids of the jobs the
// engine still has back after a restart: AwaitProof, GetStatus and a retried SubmitProof by
// request_id find the same job. Without one, a restarted daemon's jobs still finish, but their
// request ids name new jobs.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "engine/engine.hpp"
#include "server/curio_journal.hpp"

namespace cuzk::server::curio {

class CurioJobs {
 public:
  // Ended jobs' ids are forgotten `keep` after the end. `journal`: where binds and ends are
  // written (it outlives this object); null: in memory only.
  explicit CurioJobs(std::chrono::seconds keep, CurioJournal* journal = nullptr)
      : keep_(keep), journal_(journal) {}

  // The journal's ids whose jobs `exists(job, client)` says the engine still has, before any call;
  // the journal is compacted to them. A job ended per its end record, else queued (events and
  // waits move it on).
  Status restore(const std::function<bool(engine::JobId, const std::string& client)>& exists);

  enum class Claim {
    claimed,   // the caller submits, then bind()s or release()s
    existing,  // `existing` holds the id's job
    conflict,  // the id's job was asked with a different request
  };
  Claim claim(const std::string& client, const std::string& request_id, const std::string& fingerprint,
              engine::JobId& existing);
  // Binds the claimed id to its submitted job, journaled first: an error leaves the claim as it
  // was (the caller releases it and cancels the job).
  Status bind(const std::string& client, const std::string& request_id, engine::JobId id,
              engine::JobKind kind);
  void release(const std::string& client, const std::string& request_id);
  // The engine no longer has the id's job (its result expired).
  void forget(const std::string& client, const std::string& request_id);

  std::optional<engine::JobId> find(const std::string& client, const std::string& request_id) const;
  // A partition of the job was admitted and the job has not ended.
  bool is_running(engine::JobId id) const;

  // The engine's observer calls this on engine threads.
  void on_event(const engine::EngineEvent& e);
  // A wait saw the job in `state` (a job that ended while the daemon was down sends no event).
  void on_result(engine::JobId id, engine::JobState state);

  struct KindCounts {
    uint32_t pending = 0, in_progress = 0;
  };
  std::map<engine::JobKind, KindCounts> queues() const;
  // A job proving on `device` now, if any: its request id and kind.
  std::optional<std::pair<std::string, engine::JobKind>> on_device(uint32_t device) const;

 private:
  using Key = std::pair<std::string, std::string>;  // client, request id
  enum class State { claiming, queued, running, done, ended_without_proof };
  struct Entry {
    State state = State::claiming;
    engine::JobId id = 0;
    engine::JobKind kind = engine::JobKind::generic;
    std::string fingerprint;
    std::chrono::steady_clock::time_point ended{};
  };
  // What events said of a job before it was bound (a job may be admitted, or even end, before
  // its submit returns).
  struct Early {
    State state = State::queued;
    std::chrono::steady_clock::time_point at{};
  };

  // Moves an entry on; an end is journaled (without an fsync). With mutex_ held.
  void apply(Entry& entry, State state);
  void sweep();      // with mutex_ held
  Status compact();  // with mutex_ held: the journal rewritten to the live entries

  std::chrono::seconds keep_;
  CurioJournal* journal_;
  mutable std::mutex mutex_;
  std::condition_variable claimed_;
  std::map<Key, Entry> entries_;
  std::unordered_map<engine::JobId, Key> by_id_;
  std::unordered_map<engine::JobId, Early> early_;
  std::map<uint32_t, std::map<engine::JobId, int>> proving_;  // device -> job -> partitions
};

}  // namespace cuzk::server::curio
