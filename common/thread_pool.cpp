#include "common/thread_pool.hpp"

#include <algorithm>

namespace cuzk {
namespace {
// Set while this thread runs a task of any pool: a nested run() then loops inline instead of
// waiting for workers that may all be busy in the outer loop.
thread_local bool in_task = false;
}  // namespace

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  size_ = threads;
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

ThreadPool& ThreadPool::shared() {
  static ThreadPool pool(0);
  return pool;
}

void ThreadPool::work_on_current_job() {
  const bool was_in_task = in_task;
  in_task = true;
  for (;;) {
    size_t i;
    const std::function<void(size_t)>* task;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (next_ >= n_) break;
      i = next_++;
      task = task_;
    }
    (*task)(i);
    bool all_done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      all_done = ++finished_ == n_;
    }
    if (all_done) done_.notify_all();
  }
  in_task = was_in_task;
}

void ThreadPool::worker_loop() {
  unsigned long seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    work_on_current_job();
  }
}

void ThreadPool::run(size_t n, const std::function<void(size_t)>& task) {
  if (n == 0) return;
  if (workers_.empty() || n == 1 || in_task) {
    const bool was_in_task = in_task;
    in_task = true;
    for (size_t i = 0; i < n; ++i) task(i);
    in_task = was_in_task;
    return;
  }
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    n_ = n;
    next_ = 0;
    finished_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  work_on_current_job();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return finished_ == n_; });
  // Workers that wake late find next_ == n_ and go back to sleep; the task is not touched again.
  task_ = nullptr;
  n_ = 0;
  next_ = 0;
}

void ThreadPool::for_ranges(size_t n, size_t min_chunk, const std::function<void(size_t, size_t)>& task,
                            unsigned per_thread) {
  if (n == 0) return;
  min_chunk = std::max<size_t>(1, min_chunk);
  size_t chunks = std::max<size_t>(1, size_t(size_) * std::max(1u, per_thread));
  chunks = std::min(chunks, (n + min_chunk - 1) / min_chunk);
  const size_t step = (n + chunks - 1) / chunks;
  chunks = (n + step - 1) / step;
  run(chunks, [&](size_t c) { task(c * step, std::min(n, (c + 1) * step)); });
}

}  // namespace cuzk
