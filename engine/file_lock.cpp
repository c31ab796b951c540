#include "engine/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <utility>

namespace cuzk::engine {

namespace {

// The pid the owner wrote, or "" when the file holds none (an owner between open and write).
std::string owner_pid(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  std::string pid;
  for (ssize_t i = 0; i < n && std::isdigit(static_cast<unsigned char>(buf[i])); ++i) pid += buf[i];
  return pid;
}

}  // namespace

Result<FileLock> FileLock::acquire(const std::string& lock_path, const std::string& what) {
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
  if (fd < 0)
    return make_error("cannot open the lock file " + lock_path + " of " + what + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const std::string pid = owner_pid(fd);
    ::close(fd);
    if (err == EWOULDBLOCK)
      return make_error(what + " is in use by another process" + (pid.empty() ? "" : " (pid " + pid + ")") +
                        ", which holds " + lock_path +
                        ": stop it, or give this one its own journal and listen address");
    return make_error("cannot lock " + lock_path + ": " + std::strerror(err));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
    // The lock holds without the pid; a refused process then names no pid.
  }
  FileLock l;
  l.fd_ = fd;
  l.path_ = lock_path;
  return l;
}

FileLock::FileLock(FileLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)), path_(std::move(o.path_)) {}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    path_ = std::move(o.path_);
  }
  return *this;
}

// The file stays: removing it would let a third process lock a new file of the same name while a
// second still waits on the old one.
FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace cuzk::engine
