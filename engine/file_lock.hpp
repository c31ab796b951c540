// An exclusive, advisory lock on a file beside what it guards ("<path>.lock"), held for the life of
// the object: one process owns a journal, or a unix socket path, at a time.
//
// The lock is flock(2) on an open descriptor, so the kernel drops it when the owner exits, however
// it exits (kill -9 included): a stale lock file never blocks a restart. The owner's pid is written
// into the file so that a refused process can name it.
#pragma once

#include <string>

#include "common/result.hpp"

namespace cuzk::engine {

class FileLock {
 public:
  // Takes the lock on `lock_path` (created 0600 if missing) without waiting. `what` names the
  // guarded thing in the error ("journal /var/lib/cuzk/journal.db").
  static Result<FileLock> acquire(const std::string& lock_path, const std::string& what);

  FileLock() = default;
  FileLock(FileLock&& o) noexcept;
  FileLock& operator=(FileLock&& o) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  bool held() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace cuzk::engine
