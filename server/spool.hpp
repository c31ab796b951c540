// The spool: witnesses and circuits uploaded as bytes are written to files here, because the engine
// journals a circom job by its file paths (that is how the job survives a restart).
//
// The daemon owns a subfolder of the configured folder, "cuzkd-uploads" (0700, the only mode it
// sets), and writes files named "upload-<random>-<n>.wtns|.r1cs" there, created exclusively.
// A job's files are removed when the job ends (done, failed or cancelled). Files of jobs that ended
// while the daemon was down are not known by job after a restart, so sweep() removes the files of
// that form older than the result lifetime (by then a job is finished and its result has
// expired), and nothing else: not a file of another name, not a link, not the folder's neighbours.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "engine/job.hpp"
#include "engine/log.hpp"

namespace cuzk::server {

class Spool {
 public:
  // Creates `parent` if needed and the daemon's subfolder in it.
  static Result<std::unique_ptr<Spool>> open(const std::string& parent, engine::Logger log);
  static constexpr const char* kSubfolder = "cuzkd-uploads";
  // Whether `name` is of the form the spool writes (and so may sweep).
  static bool is_upload_name(const std::string& name);

  // A submission in progress: the files it wrote, until bind() or abandon().
  class Upload {
   public:
    Upload(Upload&& o) noexcept : spool_(o.spool_), files_(std::move(o.files_)) { o.spool_ = nullptr; }
    Upload(const Upload&) = delete;
    Upload& operator=(const Upload&) = delete;
    Upload& operator=(Upload&&) = delete;
    // An upload neither bound nor abandoned is abandoned.
    ~Upload() {
      if (spool_) spool_->abandon(*this);
    }
    Result<std::string> store(const std::string& bytes, const char* suffix);
    const std::vector<std::string>& files() const { return files_; }

   private:
    friend class Spool;
    explicit Upload(Spool& spool) : spool_(&spool) {}
    Spool* spool_;
    std::vector<std::string> files_;
  };

  Upload begin();
  // The submission became job `id`: its files go when the job ends.
  void bind(Upload& upload, engine::JobId id);
  // The submission failed: its files go now.
  void abandon(Upload& upload);
  // Job `id` ended (from the engine's observer).
  void job_ended(engine::JobId id);
  // Removes files older than `age`; returns how many.
  size_t sweep(std::chrono::seconds age);

  const std::string& dir() const { return dir_; }

 private:
  Spool(std::string dir, engine::Logger log) : dir_(std::move(dir)), log_(std::move(log)) {}
  void remove_files(const std::vector<std::string>& files);

  std::string dir_;
  engine::Logger log_;
  std::mutex mutex_;
  std::map<engine::JobId, std::vector<std::string>> by_job_;
  // A job may end before its submission is bound; such ends are remembered while a submission is
  // in progress (and only then, so the set stays small).
  unsigned uploads_in_progress_ = 0;
  std::set<engine::JobId> ended_early_;
  uint64_t counter_ = 0;
};

}  // namespace cuzk::server
