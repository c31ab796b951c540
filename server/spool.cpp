#include "server/spool.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <string_view>

#include <filesystem>
#include <random>

namespace cuzk::server {

namespace fs = std::filesystem;

Result<std::unique_ptr<Spool>> Spool::open(const std::string& parent, engine::Logger log) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) return make_error("cannot create the spool folder " + parent + ": " + ec.message());
  const std::string dir = (fs::path(parent) / kSubfolder).string();
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return make_error("cannot create the spool folder " + dir + ": " + std::strerror(errno));
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
    return make_error("the spool folder " + dir + " is not a folder of this user (a link, or another's)");
  if ((st.st_mode & 0777) != 0700 && ::chmod(dir.c_str(), 0700) != 0)  // witnesses are private
    return make_error("cannot make the spool folder " + dir + " private (0700): " + std::strerror(errno));
  return std::unique_ptr<Spool>(new Spool(dir, std::move(log)));
}

bool Spool::is_upload_name(const std::string& name) {
  // upload-<16 hex>-<digits>.wtns|.r1cs
  static constexpr std::string_view prefix = "upload-";
  if (name.size() < prefix.size() + 16 + 2 + 5 || name.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string_view suffix(name.data() + name.size() - 5, 5);
  if (suffix != ".wtns" && suffix != ".r1cs") return false;
  size_t i = prefix.size();
  for (size_t end = i + 16; i < end; ++i)
    if (!std::isxdigit(static_cast<unsigned char>(name[i]))) return false;
  if (name[i++] != '-') return false;
  const size_t digits_end = name.size() - 5;
  if (i == digits_end) return false;
  for (; i < digits_end; ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  return true;
}

Spool::Upload Spool::begin() {
  std::lock_guard lock(mutex_);
  ++uploads_in_progress_;
  return Upload(*this);
}

Result<std::string> Spool::Upload::store(const std::string& bytes, const char* suffix) {
  std::string path;
  {
    std::lock_guard lock(spool_->mutex_);
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    char name[64];
    std::snprintf(name, sizeof(name), "upload-%016llx-%llu%s", static_cast<unsigned long long>(rng()),
                  static_cast<unsigned long long>(++spool_->counter_), suffix);
    path = (fs::path(spool_->dir_) / name).string();
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return make_error("spool: cannot create " + path);
  files_.push_back(path);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      ::close(fd);
      return make_error("spool: cannot write " + path + " (disk full?)");
    }
    done += size_t(n);
  }
  // The job is journaled as durable once submit returns; so must its witness be.
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) return make_error("spool: cannot sync " + path);
  return path;
}

void Spool::bind(Upload& upload, engine::JobId id) {
  std::vector<std::string> now;
  {
    std::lock_guard lock(mutex_);
    if (ended_early_.erase(id))
      now = std::move(upload.files_);
    else
      by_job_[id] = std::move(upload.files_);
    if (--uploads_in_progress_ == 0) ended_early_.clear();
  }
  upload.files_.clear();
  upload.spool_ = nullptr;
  remove_files(now);
}

void Spool::abandon(Upload& upload) {
  {
    std::lock_guard lock(mutex_);
    if (--uploads_in_progress_ == 0) ended_early_.clear();
  }
  remove_files(upload.files_);
  upload.files_.clear();
  upload.spool_ = nullptr;
}

void Spool::job_ended(engine::JobId id) {
  std::vector<std::string> files;
  {
    std::lock_guard lock(mutex_);
    auto it = by_job_.find(id);
    if (it == by_job_.end()) {
      if (uploads_in_progress_) ended_early_.insert(id);
      return;
    }
    files = std::move(it->second);
    by_job_.erase(it);
  }
  remove_files(files);
}

size_t Spool::sweep(std::chrono::seconds age) {
  size_t removed = 0;
  std::error_code ec;
  const auto cutoff = fs::file_time_type::clock::now() - age;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    std::error_code e2;
    if (!is_upload_name(entry.path().filename().string())) continue;  // not a file the spool wrote
    if (!entry.is_regular_file(e2) || entry.is_symlink(e2)) continue;
    if (entry.last_write_time(e2) < cutoff && !e2) removed += fs::remove(entry.path(), e2);
  }
  if (removed) log_->info("event=spool_swept files={} older_than_s={}", removed, age.count());
  return removed;
}

void Spool::remove_files(const std::vector<std::string>& files) {
  for (const auto& f : files) {
    std::error_code ec;
    fs::remove(f, ec);
    if (ec) log_->warn("event=spool_remove_failed file={} error=\"{}\"", f, ec.message());
  }
}

}  // namespace cuzk::server
