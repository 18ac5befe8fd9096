#include "services/execution/timer_queue.h"

#include <utility>

#include "services/common/threads.h"

namespace boneyard::execution {

TimerQueue::TimerQueue()
    : thread_([this] {
        SetThreadName("timers");
        Run();
      }) {}

TimerQueue::~TimerQueue() { Stop(); }

void TimerQueue::Schedule(absl::Time when, std::function<void()> fn) {
  absl::MutexLock lock(&mu_);
  if (stopping_) return;
  entries_.push(Entry{when, next_order_++, std::move(fn)});
  wake_.Signal();
}

void TimerQueue::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    wake_.Signal();
  }
  if (thread_.joinable()) thread_.join();
}

void TimerQueue::Run() {
  mu_.Lock();
  while (!stopping_) {
    if (entries_.empty()) {
      wake_.Wait(&mu_);
      continue;
    }
    const absl::Time when = entries_.top().when;
    if (absl::Now() < when) {
      // Schedule() and Stop() signal, so an earlier entry or a stop is seen at once.
      wake_.WaitWithDeadline(&mu_, when);
      continue;
    }
    std::function<void()> fn = std::move(const_cast<Entry&>(entries_.top()).fn);
    entries_.pop();
    mu_.Unlock();
    fn();
    mu_.Lock();
  }
  mu_.Unlock();
}

}  // namespace boneyard::execution
