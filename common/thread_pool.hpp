// The project's thread pool: a fixed set of worker threads that run the iterations of a loop.
// Every parallel routine of the CPU backend, the setup and the prover's host steps takes a
// ThreadPool&, so the caller decides how many cores a job may use (one pool per job, or the shared
// one).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk {

class ThreadPool {
 public:
  // `threads` counts the calling thread too: ThreadPool(1) starts no worker and runs loops
  // inline. 0 means std::thread::hardware_concurrency().
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return size_; }

  // Runs task(i) for every i in [0, n) and returns when all have finished. Iterations are
  // handed out one at a time, so uneven tasks balance themselves; the caller works too.
  // A call made from inside a task (nested) runs its loop inline on that thread, and calls
  // from several outside threads take turns, so neither can deadlock.
  void run(size_t n, const std::function<void(size_t)>& task);

  // Splits [0, n) into about `size() * per_thread` contiguous ranges of at least `min_chunk`
  // items and runs task(begin, end) on each.
  void for_ranges(size_t n, size_t min_chunk, const std::function<void(size_t, size_t)>& task,
                  unsigned per_thread = 4);

  // A process-wide pool with one thread per hardware thread, started on first use.
  static ThreadPool& shared();

 private:
  void worker_loop();
  void work_on_current_job();

  unsigned size_;
  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one run() at a time

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  bool stopping_ = false;
  unsigned long generation_ = 0;
  const std::function<void(size_t)>* task_ = nullptr;
  size_t n_ = 0;
  size_t next_ = 0;      // next iteration to hand out (guarded by mutex_)
  size_t finished_ = 0;  // iterations finished
};

}  // namespace cuzk
