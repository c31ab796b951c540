#include "engine/thread_priority.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace cuzk::engine {

#ifdef __linux__
namespace {
id_t this_thread_id() { return id_t(::syscall(SYS_gettid)); }
}  // namespace

int thread_nice() {
  errno = 0;
  const int n = ::getpriority(PRIO_PROCESS, this_thread_id());
  return errno == 0 ? n : 0;
}

Status lower_thread_priority(int increment) {
  if (increment <= 0) return Status::Ok();
  const int target = std::min(19, thread_nice() + increment);
  if (::setpriority(PRIO_PROCESS, this_thread_id(), target) != 0)
    return make_error(std::string("setpriority: ") + std::strerror(errno));
  return Status::Ok();
}
#else
int thread_nice() { return 0; }
Status lower_thread_priority(int) { return Status::Ok(); }
#endif

}  // namespace cuzk::engine
