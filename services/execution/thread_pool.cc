#include "services/execution/thread_pool.h"

#include <utility>

namespace boneyard::execution {

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::thread::hardware_concurrency());
  if (threads <= 0) threads = 1;
  workers_.reserve(threads);
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { Work(); });
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
  }
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
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
  pool_.Post([self = shared_from_this()] { self->Run(); });
}

void Strand::Run() {
  for (int done = 0; done < kMaxTasksPerRun; ++done) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mu_);
      if (queue_.empty()) {
        scheduled_ = false;
        return;
      }
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
  // More tasks wait: go to the back of the pool's queue.
  pool_.Post([self = shared_from_this()] { self->Run(); });
}

}  // namespace boneyard::execution
