// The cuzk.v1 request ids on disk: which job each (client, request_id) names, so that Curio's
// AwaitProof and GetStatus by request_id, and a retried SubmitProof, find the job after a restart of
// the daemon (the engine's journal keeps the job itself).
//
// A text file beside the engine's journal ("<journal>.curio"), created 0600, one record a line after
// a header line:
//   {"op":"bind","client":C,"request_id":R,"job":J,"kind":K,"fingerprint":F}   R names job J
//   {"op":"end","job":J,"proof":true|false}                                    J ended (with a proof?)
// A later bind of the same (client, request_id) replaces the earlier one (a retry after a failure).
//
// Guarantees, as the engine's journal gives them: one owner (an exclusive flock on "<path>.lock",
// taken before the file is read, naming the owner when refused); write-through (a bind is written,
// and with `sync_full` fsynced, before the SubmitProof that made it answers); a crash mid-append
// leaves a torn last line, which reading drops. End records are written without an fsync: one
// lost in a power cut leaves the job's id bound until its first wait shows how the job ended.
// rewrite() compacts the file (a new file, fsynced, renamed over the old one, the folder fsynced).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "engine/file_lock.hpp"
#include "engine/job.hpp"

namespace cuzk::server::curio {

struct CurioRecord {
  enum class Op : uint8_t { bind, end };
  Op op = Op::bind;
  std::string client, request_id, fingerprint;  // bind
  engine::JobId job = 0;
  engine::JobKind kind = engine::JobKind::generic;  // bind
  bool proof = false;                               // end: the job ended with a proof (done)

  bool operator==(const CurioRecord&) const = default;
};

// The records of a journal's text. A last line without its newline (a torn append) is dropped and
// counted in `torn`; any other line that is not a record is an error naming `origin` and the line.
Result<std::vector<CurioRecord>> parse_curio_journal(std::string_view text, const std::string& origin,
                                                     size_t* torn = nullptr);
// One record as its line (newline included). Errors: text that is not UTF-8.
Result<std::string> curio_record_line(const CurioRecord& record);

class CurioJournal {
 public:
  static constexpr const char* kHeader = "cuzkd cuzk.v1 request ids, version 1\n";

  // Takes "<path>.lock", then reads the file (created if missing).
  static Result<std::unique_ptr<CurioJournal>> open(const std::string& path, bool sync_full);
  ~CurioJournal();
  CurioJournal(const CurioJournal&) = delete;
  CurioJournal& operator=(const CurioJournal&) = delete;

  // The records read at open(), in file order.
  const std::vector<CurioRecord>& records() const { return read_; }
  const std::string& path() const { return path_; }

  // Appends one record; `sync`: fsynced (when the journal syncs at all) before it returns.
  Status append(const CurioRecord& record, bool sync);
  // Replaces the file's records by `records` (compaction).
  Status rewrite(const std::vector<CurioRecord>& records);
  // Records appended since open() or the last rewrite(), plus those it wrote.
  size_t lines() const { return lines_; }

 private:
  CurioJournal() = default;

  engine::FileLock lock_;  // first declared, last released
  std::string path_;
  bool sync_full_ = true;
  int fd_ = -1;
  size_t lines_ = 0;
  std::vector<CurioRecord> read_;
};

}  // namespace cuzk::server::curio
