// One thread that runs callbacks at given times: the move clocks and the built-in bots' pause.
// Callbacks must be short (they post to a strand); a callback whose match has moved on since it
// was scheduled finds that out itself (by sequence number), so timers are never cancelled.
#ifndef BONEYARD_SERVICES_EXECUTION_TIMER_QUEUE_H_
#define BONEYARD_SERVICES_EXECUTION_TIMER_QUEUE_H_

#include <functional>
#include <queue>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace boneyard::execution {

class TimerQueue {
 public:
  TimerQueue();
  ~TimerQueue();  // Stop()
  TimerQueue(const TimerQueue&) = delete;
  TimerQueue& operator=(const TimerQueue&) = delete;

  // Runs `fn` on the timer thread at `when` (at once if it has passed). Dropped after Stop().
  void Schedule(absl::Time when, std::function<void()> fn);
  // Drops every pending callback and joins the thread. Idempotent.
  void Stop();

 private:
  struct Entry {
    absl::Time when;
    uint64_t order;  // ties run in scheduling order
    std::function<void()> fn;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.when != b.when ? a.when > b.when : a.order > b.order;
    }
  };
  void Run();

  absl::Mutex mu_;
  absl::CondVar wake_;
  std::priority_queue<Entry, std::vector<Entry>, Later> entries_ ABSL_GUARDED_BY(mu_);
  uint64_t next_order_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_TIMER_QUEUE_H_
