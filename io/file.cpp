#include "io/file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

namespace cuzk {

namespace {

std::string errno_text() { return std::strerror(errno); }

// Closes a descriptor on every path out of a function.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<int> open_regular_file(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO with no writer (or a device) must not wait; a regular file ignores it.
  FdGuard fd{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (fd.fd < 0) return make_error("cannot open " + path.string() + ": " + errno_text());
  struct stat st;
  if (::fstat(fd.fd, &st) != 0) return make_error("cannot stat " + path.string() + ": " + errno_text());
  if (!S_ISREG(st.st_mode)) return make_error(path.string() + " is not a regular file");
  return std::exchange(fd.fd, -1);
}

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
  auto opened = open_regular_file(path);
  if (!opened.ok()) return opened.error();
  FdGuard fd{*opened};
  struct stat st;
  if (::fstat(fd.fd, &st) != 0) return make_error("cannot stat " + path.string() + ": " + errno_text());
  const size_t size = size_t(st.st_size);
  if (size == 0) return MappedFile(nullptr, 0);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.fd, 0);
  if (p == MAP_FAILED) return make_error("cannot map " + path.string() + ": " + errno_text());
  return MappedFile(static_cast<const uint8_t*>(p), size);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    unmap();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() { unmap(); }

void MappedFile::unmap() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

void MappedFile::advise_sequential() const {
  if (data_ != nullptr) ::madvise(const_cast<uint8_t*>(data_), size_, MADV_SEQUENTIAL);
}

Result<std::vector<uint8_t>> read_file_bytes(const std::filesystem::path& path) {
  auto m = MappedFile::open(path);
  if (!m.ok()) return m.error();
  auto b = m->bytes();
  return std::vector<uint8_t>(b.begin(), b.end());
}

namespace {
constexpr size_t kWriteBuffer = size_t(8) << 20;

std::string random_suffix() {
  static std::atomic<uint64_t> counter{0};
  char buf[40];
  std::snprintf(buf, sizeof(buf), ".tmp-%d-%llu", int(::getpid()),
                static_cast<unsigned long long>(counter.fetch_add(1)));
  return buf;
}

}  // namespace

Result<FileWriter> FileWriter::create(const std::filesystem::path& given) {
  FileWriter w;
  std::filesystem::path path = given;
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    std::error_code ec;
    path = std::filesystem::canonical(given, ec);
    if (ec) return make_error("cannot write " + given.string() + ": a symbolic link to nothing");
  }
  w.path_ = path;
  w.buffer_.reserve(kWriteBuffer);
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return make_error("cannot write " + given.string() + ": it is a folder");
    // A device or a FIFO: written in place (a FIFO needs its reader now).
    w.fd_ = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (w.fd_ < 0) return make_error("cannot write " + given.string() + ": " + errno_text());
    ::fcntl(w.fd_, F_SETFL, ::fcntl(w.fd_, F_GETFL) & ~O_NONBLOCK);
    w.through_ = true;
    w.tmp_ = path;
    return w;
  }
  w.tmp_ = path.string() + random_suffix();
  w.fd_ = ::open(w.tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (w.fd_ < 0) return make_error("cannot create " + w.tmp_.string() + ": " + errno_text());
  return w;
}

FileWriter::FileWriter(FileWriter&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      through_(other.through_),
      path_(std::move(other.path_)),
      tmp_(std::move(other.tmp_)),
      buffer_(std::move(other.buffer_)) {}

FileWriter& FileWriter::operator=(FileWriter&& other) noexcept {
  if (this != &other) {
    abandon();
    fd_ = std::exchange(other.fd_, -1);
    through_ = other.through_;
    path_ = std::move(other.path_);
    tmp_ = std::move(other.tmp_);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

FileWriter::~FileWriter() { abandon(); }

void FileWriter::abandon() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (!through_) ::unlink(tmp_.c_str());
  fd_ = -1;
}

Status FileWriter::write(std::span<const uint8_t> bytes) {
  if (fd_ < 0) return make_error("write to a file that is not open");
  if (buffer_.size() + bytes.size() > kWriteBuffer) CUZK_TRY_STATUS(flush());
  if (bytes.size() >= kWriteBuffer) return write_all(bytes);  // large blocks skip the buffer
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
  return Status::Ok();
}

Status FileWriter::write_all(std::span<const uint8_t> bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error("cannot write " + tmp_.string() + ": " + errno_text());
    }
    done += size_t(n);
  }
  return Status::Ok();
}

Status FileWriter::flush() {
  CUZK_TRY_STATUS(write_all(buffer_));
  buffer_.clear();
  return Status::Ok();
}

Status FileWriter::commit() {
  if (fd_ < 0) return make_error("commit of a file that is not open");
  CUZK_TRY_STATUS(flush());
  if (through_) {  // a device or a FIFO: nothing to sync or rename
    const int rc = ::close(std::exchange(fd_, -1));
    if (rc != 0) return make_error("cannot write " + path_.string() + ": " + errno_text());
    return Status::Ok();
  }
  if (::fsync(fd_) != 0) return make_error("cannot sync " + tmp_.string() + ": " + errno_text());
  if (::close(fd_) != 0) {
    fd_ = -1;
    ::unlink(tmp_.c_str());
    return make_error("cannot close " + tmp_.string() + ": " + errno_text());
  }
  fd_ = -1;
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp_.c_str());
    return make_error("cannot rename " + tmp_.string() + " to " + path_.string() + ": " + why);
  }
  return Status::Ok();
}

Status write_file_bytes(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  auto w = FileWriter::create(path);
  if (!w.ok()) return w.error();
  CUZK_TRY_STATUS(w->write(bytes));
  return w->commit();
}

}  // namespace cuzk
