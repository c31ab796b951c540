// The process's resident memory, for the benchmarks' reports: now (VmRSS), the peak (VmHWM), and a
// reset of the peak (Linux: "5" to /proc/self/clear_refs) so that each phase's peak can be told
// apart. Zero where /proc is not there.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

namespace cuzk::cli {

// A "Name:   1234 kB" line of /proc/self/status, in bytes.
inline uint64_t proc_status_bytes(const std::string& name) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(name + ":", 0) == 0) return std::stoull(line.substr(name.size() + 1)) * 1024;
  return 0;
}

inline uint64_t rss_bytes() { return proc_status_bytes("VmRSS"); }
inline uint64_t peak_rss_bytes() { return proc_status_bytes("VmHWM"); }

// Sets the peak to the present RSS; false where the kernel does not allow it.
inline bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return bool(out);
}

}  // namespace cuzk::cli
