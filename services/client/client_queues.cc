#include "services/client/client_queues.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <queue>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "services/common/threads.h"

namespace boneyard::client {

// A queue thread's timers, earliest first (ties in the order they were set).
class ClientQueues::Timers {
 public:
  void Add(absl::Time when, AsyncTag* tag) { heap_.push(Entry{when, next_order_++, tag}); }
  // When the earliest is due; absl::InfiniteFuture() with none.
  absl::Time Next() const { return heap_.empty() ? absl::InfiniteFuture() : heap_.top().when; }
  // Completes every timer due by `now`.
  void RunDue(absl::Time now) {
    while (!heap_.empty() && heap_.top().when <= now) {
      AsyncTag* tag = heap_.top().tag;
      heap_.pop();
      tag->Complete(true);
    }
  }

 private:
  struct Entry {
    absl::Time when;
    uint64_t order;
    AsyncTag* tag;
    bool operator>(const Entry& other) const {
      return when != other.when ? when > other.when : order > other.order;
    }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  uint64_t next_order_ = 0;
};

thread_local ClientQueues::Timers* ClientQueues::current_timers_ = nullptr;

ClientQueues::ClientQueues(int count) {
  count = std::max(1, count);
  for (int i = 0; i < count; ++i) queues_.push_back(std::make_unique<grpc::CompletionQueue>());
  for (auto& queue : queues_) {
    threads_.emplace_back([queue = queue.get()] {
      SetThreadName("client-queue");
      Serve(*queue);
    });
  }
}

void ClientQueues::Serve(grpc::CompletionQueue& queue) {
  Timers timers;
  current_timers_ = &timers;
  for (;;) {
    void* tag = nullptr;
    bool ok = false;
    const absl::Time deadline = timers.Next();
    const grpc::CompletionQueue::NextStatus status =
        deadline == absl::InfiniteFuture()
            ? (queue.Next(&tag, &ok) ? grpc::CompletionQueue::GOT_EVENT
                                     : grpc::CompletionQueue::SHUTDOWN)
            : queue.AsyncNext(&tag, &ok, absl::ToChronoTime(deadline));
    if (status == grpc::CompletionQueue::SHUTDOWN) break;
    if (status == grpc::CompletionQueue::GOT_EVENT) static_cast<AsyncTag*>(tag)->Complete(ok);
    timers.RunDue(absl::Now());
  }
  current_timers_ = nullptr;
}

void ClientQueues::RunLater(absl::Time when, AsyncTag* tag) {
  if (current_timers_ == nullptr) {
    std::fputs("ClientQueues::RunLater called off a client queue's thread\n", stderr);
    std::abort();
  }
  current_timers_->Add(when, tag);
}

ClientQueues::~ClientQueues() {
  for (auto& queue : queues_) queue->Shutdown();
  for (std::thread& thread : threads_) thread.join();
}

std::shared_ptr<ClientQueues> ClientQueues::Shared() {
  // Leaked on purpose: no static destructor at exit races a player still holding the queues.
  static absl::Mutex mu(absl::kConstInit);
  static std::weak_ptr<ClientQueues>* shared = new std::weak_ptr<ClientQueues>;  // guarded by mu
  absl::MutexLock lock(&mu);
  if (std::shared_ptr<ClientQueues> queues = shared->lock()) return queues;
  auto queues = std::make_shared<ClientQueues>(CoreCount());
  *shared = queues;
  return queues;
}

grpc::CompletionQueue* ClientQueues::Pick() {
  return queues_[next_.fetch_add(1, std::memory_order_relaxed) % queues_.size()].get();
}

}  // namespace boneyard::client
