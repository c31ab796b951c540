#include "engine/journal.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>

#include "engine/request_codec.hpp"
#include "io/proof.hpp"

namespace cuzk::engine {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS jobs(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  request TEXT NOT NULL,
  volatile INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  submitted_ms INTEGER NOT NULL,
  finished_ms INTEGER NOT NULL DEFAULT 0,
  expires_ms INTEGER NOT NULL DEFAULT 0,
  timings TEXT NOT NULL DEFAULT '{}',
  retries INTEGER NOT NULL DEFAULT 0,
  completions INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS partitions(
  job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  proof BLOB NOT NULL,
  inputs BLOB NOT NULL,
  PRIMARY KEY(job_id, idx));
CREATE TABLE IF NOT EXISTS probe(at INTEGER NOT NULL);
)sql";

// One prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  Statement& bind(int i, int64_t v) {
    if (ok()) rc_ = sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Statement& bind(int i, const std::string& v) {
    if (ok()) rc_ = sqlite3_bind_text(stmt_, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind_blob(int i, std::span<const uint8_t> v) {
    if (ok()) rc_ = sqlite3_bind_blob(stmt_, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return ok() ? sqlite3_step(stmt_) : rc_; }
  int64_t column_int(int i) { return sqlite3_column_int64(stmt_, i); }
  std::string column_text(int i) {
    const auto* p = sqlite3_column_text(stmt_, i);
    return p ? std::string(reinterpret_cast<const char*>(p), size_t(sqlite3_column_bytes(stmt_, i))) : "";
  }
  std::span<const uint8_t> column_blob(int i) {
    const auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(stmt_, i));
    return {p, size_t(sqlite3_column_bytes(stmt_, i))};
  }
  Status error(const std::string& what) const {
    return make_error("journal: " + what + ": " + sqlite3_errmsg(db_));
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_ = SQLITE_OK;
};

Status run_done(Statement& s, const std::string& what) {
  if (s.step() != SQLITE_DONE) return s.error(what);
  return {};
}

// Creates the file 0600 before SQLite opens it (its -wal and -shm files take its mode), and takes
// a mode wider than that back to 0600.
Status make_private(const std::string& path) {
  const int fd =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0600);
  if (fd < 0) return make_error("journal " + path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  Status result;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    result = make_error("journal " + path + " is not a regular file");
  else if ((st.st_mode & 077) != 0 && ::fchmod(fd, 0600) != 0)
    result = make_error("journal " + path + ": cannot make it private (0600): " + std::strerror(errno));
  ::close(fd);
  return result;
}

}  // namespace

JobId random_job_id() {
  uint64_t v = 0;
  if (::getrandom(&v, sizeof(v), 0) != ssize_t(sizeof(v))) {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    v = rng();
  }
  v &= (uint64_t(1) << 53) - 1;
  return v == 0 ? 1 : v;
}

Result<std::unique_ptr<Journal>> Journal::open(const std::string& path, bool sync_full,
                                               std::shared_ptr<FileLock> lock) {
  if (!lock || !lock->held()) {
    auto taken = FileLock::acquire(path + ".lock", "the journal " + path);
    if (!taken) return taken.error();
    lock = std::make_shared<FileLock>(std::move(*taken));
  }
  if (auto st = make_private(path); !st) return st.error();
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "cannot allocate";
    sqlite3_close(db);
    return make_error("journal " + path + ": " + msg);
  }
  std::unique_ptr<Journal> j(new Journal(db));
  j->lock_ = std::move(lock);
  sqlite3_busy_timeout(db, 10000);
  for (const std::string& sql : {std::string("PRAGMA journal_mode=WAL"),
                                 std::string("PRAGMA synchronous=") + (sync_full ? "FULL" : "NORMAL"),
                                 std::string("PRAGMA foreign_keys=ON"), std::string(kSchema)}) {
    if (auto st = j->exec(sql); !st) return make_error("journal " + path + ": " + st.message());
  }
  return j;
}

Journal::~Journal() { sqlite3_close(db_); }

Status Journal::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    return make_error(msg);
  }
  return {};
}

Status Journal::injected_fault() const {
  if (fault_ && fault_()) return make_error("journal: database or disk is full (injected write fault)");
  return {};
}

Result<JobId> Journal::insert_job(const JobRequest& request, int64_t submitted_ms) {
  std::lock_guard lock(mutex_);
  // A job stored behind a backlog would be durable before the state of older jobs: refuse it.
  if (auto st = flush_locked(); !st) return make_error("journal: cannot be written: " + st.message());
  if (auto st = injected_fault(); !st) {
    unwritable_ = true;
    backlog_error_ = st.message();
    return st.error();
  }
  const std::string json = request_to_json(request);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const JobId id = random_job_id();
    Statement s(
        db_, "INSERT INTO jobs(id, request, volatile, state, submitted_ms) VALUES(?1, ?2, ?3, 'queued', ?4)");
    s.bind(1, int64_t(id)).bind(2, json).bind(3, has_volatile_inputs(request) ? 1 : 0).bind(4, submitted_ms);
    const int rc = s.step();
    if (rc == SQLITE_DONE) return id;
    if ((rc & 0xff) != SQLITE_CONSTRAINT) {
      // Not held (the job is refused), but the file is known unwritable until a write succeeds.
      const Status st = s.error("recording a job");
      unwritable_ = true;
      backlog_error_ = st.message();
      return st.error();
    }
  }
  return make_error("journal: no free job id after 8 draws");
}

Status Journal::write(JobId id, bool result, std::function<Status()> op) {
  std::lock_guard lock(mutex_);
  if (backlog_.empty()) {
    Status st = injected_fault();
    if (st) st = op();
    if (st) {
      unwritable_ = false;
      return st;
    }
    backlog_error_ = st.message();
    backlog_.push_back({id, result, std::move(op)});
    return st;
  }
  backlog_.push_back({id, result, std::move(op)});
  if (auto st = flush_locked(); !st) return make_error(st.message() + " (held in memory, retried)");
  return {};
}

Status Journal::flush_locked() {
  if (backlog_.empty() && unwritable_) {
    // Nothing held, but the last write failed: a write of its own says whether there is room now.
    Status st = injected_fault();
    if (st) {
      Statement s(db_, "INSERT OR REPLACE INTO probe(rowid, at) VALUES(1, ?1)");
      s.bind(1, int64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count()));
      st = run_done(s, "a test write");
    }
    if (!st) {
      backlog_error_ = st.message();
      return st;
    }
    unwritable_ = false;
  }
  while (!backlog_.empty()) {
    Status st = injected_fault();
    if (st) st = backlog_.front().op();
    if (!st) {
      backlog_error_ = st.message();
      return st;
    }
    backlog_.pop_front();
  }
  backlog_error_.clear();
  return {};
}

Status Journal::flush() {
  std::lock_guard lock(mutex_);
  return flush_locked();
}

bool Journal::healthy() const {
  std::lock_guard lock(mutex_);
  return backlog_.empty() && !unwritable_;
}

std::string Journal::last_error() const {
  std::lock_guard lock(mutex_);
  return backlog_error_;
}

size_t Journal::backlog() const {
  std::lock_guard lock(mutex_);
  return backlog_.size();
}

bool Journal::pending(JobId id) const {
  std::lock_guard lock(mutex_);
  for (const auto& h : backlog_)
    if (h.id == id && h.result) return true;
  return false;
}

void Journal::set_write_fault(std::function<bool()> fail) {
  std::lock_guard lock(mutex_);
  fault_ = std::move(fail);
}

Status Journal::save_partition(JobId id, uint32_t index, const groth16::Proof& proof,
                               std::span<const Fr> inputs) {
  const auto bytes = proof_to_bytes(proof);
  std::vector<uint8_t> in(inputs.size() * Fr::BYTES);
  for (size_t i = 0; i < inputs.size(); ++i) inputs[i].to_bytes_le(in.data() + i * Fr::BYTES);
  return write(id, true, [this, id, index, bytes, in = std::move(in)] {
    Statement s(db_, "INSERT OR REPLACE INTO partitions(job_id, idx, proof, inputs) VALUES(?1, ?2, ?3, ?4)");
    s.bind(1, int64_t(id)).bind(2, int64_t(index)).bind_blob(3, bytes).bind_blob(4, in);
    return run_done(s, "recording a partition proof");
  });
}

Status Journal::set_running(JobId id) {
  return write(id, false, [this, id] {
    Statement s(db_, "UPDATE jobs SET state='running' WHERE id=?1 AND state='queued'");
    s.bind(1, int64_t(id));
    return run_done(s, "marking a job running");
  });
}

Status Journal::finish_job(JobId id, JobState state, const std::string& error, const JobTimings& timings,
                           uint32_t retries, int64_t finished_ms, int64_t expires_ms) {
  return write(
      id, true, [this, id, state, error, t = timings_to_json(timings), retries, finished_ms, expires_ms] {
        Statement s(
            db_,
            "UPDATE jobs SET state=?2, error=?3, timings=?4, retries=?5, finished_ms=?6, expires_ms=?7, "
            "completions=completions+1 WHERE id=?1");
        s.bind(1, int64_t(id)).bind(2, std::string(to_string(state))).bind(3, error).bind(4, t);
        s.bind(5, int64_t(retries)).bind(6, finished_ms).bind(7, expires_ms);
        return run_done(s, "recording a job's outcome");
      });
}

Status Journal::set_expiry(JobId id, int64_t expires_ms) {
  return write(id, false, [this, id, expires_ms] {
    Statement s(db_, "UPDATE jobs SET expires_ms=?2 WHERE id=?1");
    s.bind(1, int64_t(id)).bind(2, expires_ms);
    return run_done(s, "setting a result's expiry");
  });
}

Status Journal::remove_job(JobId id) {
  return write(id, false, [this, id] {
    Statement s(db_, "DELETE FROM jobs WHERE id=?1");
    s.bind(1, int64_t(id));
    return run_done(s, "removing a job");
  });
}

Result<size_t> Journal::remove_expired(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  // Not held for a retry: the next sweep does it again. Not before the backlog either (it may
  // hold the outcome that makes a job expire).
  if (!backlog_.empty()) return size_t(0);
  if (auto st = injected_fault(); !st) return st.error();
  Statement s(
      db_,
      "DELETE FROM jobs WHERE state IN ('done','failed','cancelled') AND expires_ms > 0 AND expires_ms < ?1");
  s.bind(1, now_ms);
  if (auto st = run_done(s, "removing expired results"); !st) return st.error();
  return size_t(sqlite3_changes(db_));
}

Result<std::vector<StoredJob>> Journal::load_all() {
  std::lock_guard lock(mutex_);
  std::vector<StoredJob> jobs;
  std::map<JobId, size_t> at;
  {
    Statement s(db_,
                "SELECT id, request, volatile, state, error, submitted_ms, finished_ms, expires_ms, timings, "
                "retries, completions FROM jobs ORDER BY submitted_ms, rowid");
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
      StoredJob j;
      j.id = JobId(s.column_int(0));
      auto request = request_from_json(s.column_text(1));
      auto state = parse_job_state(s.column_text(3));
      if (!request || !state) {
        return make_error("journal: job " + std::to_string(j.id) +
                          " is unreadable: " + (request ? state.message() : request.message()));
      }
      j.request = std::move(*request);
      j.volatile_inputs = s.column_int(2) != 0;
      j.state = *state;
      j.error = s.column_text(4);
      j.submitted_ms = s.column_int(5);
      j.finished_ms = s.column_int(6);
      j.expires_ms = s.column_int(7);
      j.timings = timings_from_json(s.column_text(8));
      j.retries = uint32_t(s.column_int(9));
      j.completions = uint32_t(s.column_int(10));
      at[j.id] = jobs.size();
      jobs.push_back(std::move(j));
    }
    if (rc != SQLITE_DONE) return s.error("reading jobs").error();
  }
  Statement s(db_, "SELECT job_id, idx, proof, inputs FROM partitions");
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) {
    const JobId id = JobId(s.column_int(0));
    auto it = at.find(id);
    if (it == at.end()) continue;
    StoredPartition p;
    auto proof = proof_from_bytes(s.column_blob(2));
    if (!proof)
      return make_error("journal: job " + std::to_string(id) + ": stored proof: " + proof.message());
    p.proof = *proof;
    const auto in = s.column_blob(3);
    for (size_t off = 0; off + Fr::BYTES <= in.size(); off += Fr::BYTES) {
      Fr x;
      if (!x.from_bytes_le(in.data() + off))
        return make_error("journal: job " + std::to_string(id) + ": bad input");
      p.public_inputs.push_back(x);
    }
    jobs[it->second].partitions[uint32_t(s.column_int(1))] = std::move(p);
  }
  if (rc != SQLITE_DONE) return s.error("reading partitions").error();
  return jobs;
}

}  // namespace cuzk::engine
