// A fixed pool of worker threads, and strands on top of it. A strand runs its tasks one at a
// time, in the order they were posted, on whichever worker is free: each live match owns one,
// so a match is never touched by two threads at once while thousands of matches share a few
// threads.
//
// A strand can also run a task on the thread that hands it over (Dispatch), when nothing of the
// strand is running or queued. Under load every hand-off to a worker is a wake-up and a
// context switch, and on two cores they were the execution service's largest cost
// (docs/performance.md): a player's action now runs on the gRPC thread that read it. The commit
// writer still hands its answers to workers, since it is wanted for the next commit.
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
  // `threads` workers; 0 or less means one per core. They carry `name` (SetThreadName).
  explicit ThreadPool(int threads, std::string name = "pool");
  // Stop()s.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs `task` on a worker. After Stop() the task is dropped (returns false).
  bool Post(std::function<void()> task);
  // Runs every task already queued, waits for the tasks running on other threads (Enter), then
  // joins the workers. Idempotent.
  void Stop();
  int size() const { return static_cast<int>(workers_.size()); }

  // A task about to run on the caller's thread instead of a worker: false once the pool is
  // stopping (the task is dropped, as Post would drop it). Each true is followed by Leave, and
  // Stop waits for it.
  bool Enter();
  void Leave();

 private:
  void Work();
  bool HasWorkOrStopping() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return stopping_ || !queue_.empty();
  }
  bool NoneEntered() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return entered_ == 0; }

  mutable absl::Mutex mu_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int entered_ ABSL_GUARDED_BY(mu_) = 0;  // tasks running on callers' threads
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
  // Like Post, but when the strand is idle `task` runs at once on the calling thread, followed
  // by whatever it posts meanwhile (up to kMaxTasksPerRun; the rest goes to a worker). The
  // caller must hold no lock a task may take, and must not be a task of this strand (that
  // would only queue it, as Post does).
  void Dispatch(std::function<void()> task);

  // A strand gives its worker (or the dispatching thread) back after this many tasks, so one
  // busy match cannot starve the others queued behind it.
  static constexpr int kMaxTasksPerRun = 16;

 private:
  explicit Strand(ThreadPool& pool) : pool_(pool) {}
  void Run();
  // Runs queued tasks, at most `limit`; true when the queue was found empty (the strand is
  // then idle again).
  bool RunQueued(int limit);
  // The pool stopped and will run nothing more: drops what is queued, so that a task holding
  // the strand's owner (a match whose strand holds the task) does not keep both alive for
  // good — a cycle LeakSanitizer found at every graceful stop of the execution service.
  void DropQueued();

  ThreadPool& pool_;
  absl::Mutex mu_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool scheduled_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_THREAD_POOL_H_
