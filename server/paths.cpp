#include "server/paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

namespace cuzk::server {
namespace {

std::string canonical(const std::string& path) {
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf)) return "";
  return buf;
}

}  // namespace

AllowedFolders::AllowedFolders(const std::vector<std::string>& dirs, std::string what, std::string key)
    : what_(std::move(what)), key_(std::move(key)) {
  for (const auto& d : dirs) {
    std::string c = canonical(d);
    if (c.empty()) continue;
    if (c.back() != '/') c += '/';
    dirs_.push_back(std::move(c));
  }
}

Result<std::string> AllowedFolders::check(const std::string& path) const {
  // One message for a missing file, a file outside, and a folder not configured: a client learns
  // nothing of the host's files from it.
  const auto refused = [&] {
    return make_error("\"" + path + "\" is not one of the daemon's " + what_ +
                      ": the daemon reads only files under " +
                      (dirs_.empty() ? std::string("the folders of ") + key_ + " (none configured)"
                                     : "the folders of " + key_));
  };
  const std::string c = canonical(path);
  if (c.empty()) return refused();
  bool inside = false;
  for (const auto& d : dirs_) inside |= c.compare(0, d.size(), d) == 0;
  if (!inside) return refused();
  const int fd = ::open(c.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return make_error("\"" + path + "\" cannot be opened by the daemon");
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(fd);
  if (!regular) return make_error("\"" + path + "\" is not a regular file");
  return c;
}

Status check_printable(const std::string& text, const char* what) {
  if (text.size() > 128) return make_error(std::string(what) + " is longer than 128 bytes");
  for (unsigned char ch : text)
    if (ch < 0x20 || ch > 0x7e)
      return make_error(std::string(what) + " must be printable ASCII (no control characters)");
  return {};
}

}  // namespace cuzk::server
