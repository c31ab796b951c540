#include "server/spool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <random>

namespace cuzk::server {

namespace fs = std::filesystem;

Result<std::unique_ptr<Spool>> Spool::open(const std::string& dir, engine::Logger log) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return make_error("cannot create the spool folder " + dir + ": " + ec.message());
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);  // witnesses are private
  return std::unique_ptr<Spool>(new Spool(dir, std::move(log)));
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
    std::snprintf(name, sizeof(name), "%016llx-%llu%s", static_cast<unsigned long long>(rng()),
                  static_cast<unsigned long long>(++spool_->counter_), suffix);
    path = (fs::path(spool_->dir_) / name).string();
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
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
    if (!entry.is_regular_file(e2)) continue;
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
