#include "services/client/client_queues.h"

#include <algorithm>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "services/common/thread_name.h"

namespace boneyard::client {

ClientQueues::ClientQueues(int count) {
  count = std::max(1, count);
  for (int i = 0; i < count; ++i) queues_.push_back(std::make_unique<grpc::CompletionQueue>());
  for (auto& queue : queues_) {
    threads_.emplace_back([queue = queue.get()] {
      SetThreadName("client-queue");
      void* tag = nullptr;
      bool ok = false;
      while (queue->Next(&tag, &ok)) static_cast<AsyncTag*>(tag)->Complete(ok);
    });
  }
}

ClientQueues::~ClientQueues() {
  for (auto& queue : queues_) queue->Shutdown();
  for (std::thread& thread : threads_) thread.join();
}

std::shared_ptr<ClientQueues> ClientQueues::Shared() {
  static absl::Mutex mu(absl::kConstInit);
  static std::weak_ptr<ClientQueues>* shared ABSL_GUARDED_BY(mu) = new std::weak_ptr<ClientQueues>;
  absl::MutexLock lock(&mu);
  if (std::shared_ptr<ClientQueues> queues = shared->lock()) return queues;
  auto queues = std::make_shared<ClientQueues>(
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  *shared = queues;
  return queues;
}

grpc::CompletionQueue* ClientQueues::Pick() {
  return queues_[next_.fetch_add(1, std::memory_order_relaxed) % queues_.size()].get();
}

}  // namespace boneyard::client
