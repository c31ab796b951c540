// File names that clients send (a parameter file, a witness on the daemon's host) are confined to
// folders the operator configured: a name outside them is refused with a message that says
// nothing of the file (whether it exists, what it holds), and a name inside must be a regular
// file, checked on a descriptor opened without blocking (a FIFO or a device is never read).
#pragma once

#include <string>
#include <vector>

#include "common/result.hpp"

namespace cuzk::server {

class AllowedFolders {
 public:
  // `what` names the files in errors ("parameter files"); `key` the setting that lists the
  // folders ("daemon.params_dirs"). Folders that do not exist are left out.
  AllowedFolders(const std::vector<std::string>& dirs, std::string what, std::string key);

  // The canonical path of `path` when it is a regular file under one of the folders.
  Result<std::string> check(const std::string& path) const;
  const std::vector<std::string>& folders() const { return dirs_; }

 private:
  std::vector<std::string> dirs_;  // canonical, each ending in '/'
  std::string what_, key_;
};

// "printable ASCII, at most 128 bytes": names that go into log lines as they are.
Status check_printable(const std::string& text, const char* what);

}  // namespace cuzk::server
