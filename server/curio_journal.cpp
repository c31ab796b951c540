#include "server/curio_journal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

namespace cuzk::server::curio {
namespace {

using json = nlohmann::json;

std::string errno_text() { return std::strerror(errno); }

// A record from one parsed line; an empty message on success.
std::string record_of(const json& j, CurioRecord& r) {
  if (!j.is_object() || !j.contains("op") || !j["op"].is_string()) return "not a record (no \"op\")";
  if (!j.contains("job") || !j["job"].is_number_unsigned()) return "no job id";
  r.job = j["job"].get<uint64_t>();
  const std::string op = j["op"].get<std::string>();
  if (op == "end") {
    if (!j.contains("proof") || !j["proof"].is_boolean()) return "an end record without \"proof\"";
    r.op = CurioRecord::Op::end;
    r.proof = j["proof"].get<bool>();
    return "";
  }
  if (op != "bind") return "an unknown op \"" + op.substr(0, 16) + "\"";
  for (const char* key : {"client", "request_id", "fingerprint"})
    if (!j.contains(key) || !j[key].is_string()) return std::string("a bind record without \"") + key + "\"";
  if (!j.contains("kind") || !j["kind"].is_number_unsigned() ||
      j["kind"].get<uint64_t>() > uint64_t(engine::JobKind::generic))
    return "a bind record without a valid \"kind\"";
  r.op = CurioRecord::Op::bind;
  r.client = j["client"].get<std::string>();
  r.request_id = j["request_id"].get<std::string>();
  r.fingerprint = j["fingerprint"].get<std::string>();
  r.kind = engine::JobKind(j["kind"].get<uint64_t>());
  if (r.request_id.empty()) return "a bind record with an empty request_id";
  return "";
}

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error("cannot write " + path + ": " + errno_text());
    }
    done += size_t(n);
  }
  return {};
}

Status sync_folder(const std::string& path) {
  auto folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return make_error("cannot open the folder " + folder.string() + ": " + errno_text());
  const int rc = ::fsync(fd);
  const std::string why = rc != 0 ? errno_text() : "";
  ::close(fd);
  if (rc != 0) return make_error("cannot sync the folder " + folder.string() + ": " + why);
  return {};
}

Result<std::string> read_text(int fd, const std::string& path) {
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error("cannot read " + path + ": " + errno_text());
    }
    if (n == 0) return text;
    text.append(buf, size_t(n));
  }
}

}  // namespace

Result<std::vector<CurioRecord>> parse_curio_journal(std::string_view text, const std::string& origin,
                                                     size_t* torn) {
  if (torn) *torn = 0;
  std::vector<CurioRecord> out;
  if (text.empty()) return out;
  const std::string_view header = CurioJournal::kHeader;
  if (text.substr(0, header.size()) != header) {
    if (header.substr(0, text.size()) == text) {  // the header itself torn: a crash at creation
      if (torn) *torn = 1;
      return out;
    }
    return make_error(origin + " is not a cuzkd request-id journal (its first line is not \"" +
                      std::string(header.substr(0, header.size() - 1)) + "\")");
  }
  size_t line_no = 1;
  for (size_t at = header.size(); at < text.size();) {
    ++line_no;
    const size_t end = text.find('\n', at);
    if (end == std::string_view::npos) {  // a torn append
      if (torn) *torn = 1;
      break;
    }
    const auto j = json::parse(text.substr(at, end - at), nullptr, false);
    CurioRecord r;
    const std::string why = j.is_discarded() ? "not JSON" : record_of(j, r);
    if (!why.empty()) return make_error(origin + " line " + std::to_string(line_no) + ": " + why);
    out.push_back(std::move(r));
    at = end + 1;
  }
  return out;
}

Result<std::string> curio_record_line(const CurioRecord& r) {
  json j;
  if (r.op == CurioRecord::Op::end) {
    j = {{"op", "end"}, {"job", r.job}, {"proof", r.proof}};
  } else {
    j = {{"op", "bind"}, {"client", r.client},       {"request_id", r.request_id},
         {"job", r.job}, {"kind", uint64_t(r.kind)}, {"fingerprint", r.fingerprint}};
  }
  try {
    return j.dump() + "\n";
  } catch (const json::exception&) {
    return make_error("a request-id record that is not UTF-8 (client \"" + r.client + "\")");
  }
}

Result<std::unique_ptr<CurioJournal>> CurioJournal::open(const std::string& path, bool sync_full) {
  std::unique_ptr<CurioJournal> j(new CurioJournal());
  auto lock = engine::FileLock::acquire(path + ".lock", "the request-id journal " + path);
  if (!lock) return lock.error();
  j->lock_ = std::move(*lock);
  j->path_ = path;
  j->sync_full_ = sync_full;
  j->fd_ = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
  if (j->fd_ < 0) return make_error("cannot open the request-id journal " + path + ": " + errno_text());
  struct stat st {};
  if (::fstat(j->fd_, &st) != 0 || !S_ISREG(st.st_mode))
    return make_error("the request-id journal " + path + " is not a regular file");
  auto text = read_text(j->fd_, path);
  if (!text) return text.error();
  size_t torn = 0;
  auto records = parse_curio_journal(*text, "the request-id journal " + path, &torn);
  if (!records) return records.error();
  j->read_ = std::move(*records);
  j->lines_ = j->read_.size();
  // A torn tail is cut by the rewrite the daemon makes at start; until then nothing is appended.
  if (text->empty()) {
    if (auto st = write_all(j->fd_, kHeader, path); !st) return st.error();
    if (sync_full && ::fsync(j->fd_) != 0) return make_error("cannot sync " + path + ": " + errno_text());
  } else if (torn) {
    if (auto st = j->rewrite(j->read_); !st) return st.error();
  }
  return j;
}

CurioJournal::~CurioJournal() {
  if (fd_ >= 0) ::close(fd_);
}

Status CurioJournal::append(const CurioRecord& record, bool sync) {
  auto line = curio_record_line(record);
  if (!line) return line.error();
  if (auto st = write_all(fd_, *line, path_); !st) return st;
  if (sync && sync_full_ && ::fdatasync(fd_) != 0)
    return make_error("cannot sync " + path_ + ": " + errno_text());
  ++lines_;
  return {};
}

Status CurioJournal::rewrite(const std::vector<CurioRecord>& records) {
  std::string text = kHeader;
  for (const auto& r : records) {
    auto line = curio_record_line(r);
    if (!line) return line.error();
    text += *line;
  }
  const std::string tmp = path_ + ".rewrite";
  ::unlink(tmp.c_str());  // left by a crash during an earlier rewrite; ours (we hold the lock)
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return make_error("cannot create " + tmp + ": " + errno_text());
  Status st = write_all(fd, text, tmp);
  if (st && ::fsync(fd) != 0) st = make_error("cannot sync " + tmp + ": " + errno_text());
  ::close(fd);
  if (st && ::rename(tmp.c_str(), path_.c_str()) != 0)
    st = make_error("cannot rename " + tmp + " to " + path_ + ": " + errno_text());
  if (!st) {
    ::unlink(tmp.c_str());
    return st;
  }
  if (auto synced = sync_folder(path_); !synced) return synced;
  // Appends go to the new file from now on.
  const int fresh = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
  if (fresh < 0) return make_error("cannot reopen " + path_ + ": " + errno_text());
  ::close(fd_);
  fd_ = fresh;
  lines_ = records.size();
  return {};
}

}  // namespace cuzk::server::curio
