// A fixed pool of worker threads, and strands on top of it. A strand runs its tasks one at a
// time, in the order they were posted, on whichever worker is free: each live match owns one,
// so a match is never touched by two threads at once while thousands of matches share a few
// threads.
#ifndef BONEYARD_SERVICES_EXECUTION_THREAD_POOL_H_
#define BONEYARD_SERVICES_EXECUTION_THREAD_POOL_H_

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace boneyard::execution {

class ThreadPool {
 public:
  // `threads` workers; 0 or less means one per core.
  explicit ThreadPool(int threads);
  // Stop()s.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs `task` on a worker. After Stop() the task is dropped (returns false).
  bool Post(std::function<void()> task);
  // Runs every task already queued, then joins the workers. Idempotent.
  void Stop();
  int size() const { return static_cast<int>(workers_.size()); }

 private:
  void Work();
  bool HasWorkOrStopping() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return stopping_ || !queue_.empty();
  }

  mutable absl::Mutex mu_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;
};

// Serialises tasks over a pool. Always held by shared_ptr: a scheduled run keeps it alive.
class Strand : public std::enable_shared_from_this<Strand> {
 public:
  static std::shared_ptr<Strand> Make(ThreadPool& pool) {
    return std::shared_ptr<Strand>(new Strand(pool));
  }
  // Runs `task` after every task posted before it, never at the same time as another task of
  // this strand.
  void Post(std::function<void()> task);

 private:
  explicit Strand(ThreadPool& pool) : pool_(pool) {}
  void Run();

  // A strand gives its worker back after this many tasks, so one busy match cannot starve the
  // others queued behind it.
  static constexpr int kMaxTasksPerRun = 16;

  ThreadPool& pool_;
  absl::Mutex mu_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool scheduled_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_THREAD_POOL_H_
