#include "services/common/async_queues.h"

#include "services/common/threads.h"

namespace boneyard {

void CompletionQueueThreads::Start() {
  for (auto& queue : queues_) {
    threads_.emplace_back([q = queue.get()] {
      SetThreadName("grpc-queue");
      Drain(*q);
    });
  }
}

void CompletionQueueThreads::Stop() {
  for (auto& queue : queues_) queue->Shutdown();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
  // Drained already when their threads ran; a queue no thread served is drained here.
  for (auto& queue : queues_) Drain(*queue);
  queues_.clear();
}

void CompletionQueueThreads::Drain(grpc::ServerCompletionQueue& queue) {
  void* tag = nullptr;
  bool ok = false;
  while (queue.Next(&tag, &ok)) static_cast<AsyncTag*>(tag)->Complete(ok);
}

}  // namespace boneyard
