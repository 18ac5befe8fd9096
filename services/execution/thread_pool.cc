#include "services/execution/thread_pool.h"

#include <utility>

#include "services/common/threads.h"

namespace boneyard::execution {

ThreadPool::ThreadPool(int threads, std::string name) {
  if (threads <= 0) threads = CoreCount();
  workers_.reserve(threads);
  for (int i = 0; i < threads; ++i) {
    workers_.emplace_back([this, name] {
      SetThreadName(name);
      Work();
    });
  }
}

ThreadPool::~ThreadPool() { Stop(); }

bool ThreadPool::Post(std::function<void()> task) {
  absl::MutexLock lock(&mu_);
  if (stopping_) return false;
  queue_.push_back(std::move(task));
  return true;
}

void ThreadPool::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    // What runs on callers' threads may still post: let it finish before the workers go.
    mu_.Await(absl::Condition(this, &ThreadPool::NoneEntered));
  }
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

bool ThreadPool::Enter() {
  absl::MutexLock lock(&mu_);
  if (stopping_) return false;
  ++entered_;
  return true;
}

void ThreadPool::Leave() {
  absl::MutexLock lock(&mu_);
  --entered_;
}

void ThreadPool::Work() {
  for (;;) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(this, &ThreadPool::HasWorkOrStopping));
      if (queue_.empty()) return;  // stopping, and everything queued has run
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

void Strand::Post(std::function<void()> task) {
  {
    absl::MutexLock lock(&mu_);
    queue_.push_back(std::move(task));
    if (scheduled_) return;
    scheduled_ = true;
  }
  const std::shared_ptr<Strand> self = shared_from_this();
  if (!pool_.Post([self] { self->Run(); })) DropQueued();
}

void Strand::DropQueued() {
  std::deque<std::function<void()>> dropped;
  {
    absl::MutexLock lock(&mu_);
    dropped.swap(queue_);
    scheduled_ = false;
  }
  // Destroyed here, outside the lock: a task may hold the last reference to the strand's owner.
}

void Strand::Dispatch(std::function<void()> task) {
  {
    absl::MutexLock lock(&mu_);
    if (scheduled_) {
      queue_.push_back(std::move(task));
      return;
    }
    scheduled_ = true;
  }
  // The strand is ours now: nothing else runs it until it is idle again or handed to a worker.
  // A task may drop the last reference to the strand's owner, and so to the strand.
  const std::shared_ptr<Strand> self = shared_from_this();
  if (!pool_.Enter()) {  // stopping: dropped, like Post
    DropQueued();
    return;
  }
  task();
  const bool idle = RunQueued(kMaxTasksPerRun - 1);
  pool_.Leave();
  if (!idle && !pool_.Post([self] { self->Run(); })) DropQueued();
}

bool Strand::RunQueued(int limit) {
  for (int done = 0; done < limit; ++done) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mu_);
      if (queue_.empty()) {
        scheduled_ = false;
        return true;
      }
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
  return false;
}

void Strand::Run() {
  // More tasks wait after a full run: go to the back of the pool's queue.
  if (RunQueued(kMaxTasksPerRun)) return;
  const std::shared_ptr<Strand> self = shared_from_this();
  if (!pool_.Post([self] { self->Run(); })) DropQueued();
}

}  // namespace boneyard::execution
