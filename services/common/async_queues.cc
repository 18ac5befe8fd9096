#include "services/common/async_queues.h"

namespace boneyard {

CompletionQueueThreads::~CompletionQueueThreads() { Stop(); }

void CompletionQueueThreads::Stop() {
  for (auto& queue : queues_) queue->Shutdown();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
  queues_.clear();
}

void CompletionQueueThreads::ShutDownAndDrain(grpc::ServerCompletionQueue& queue) {
  queue.Shutdown();
  Drain(&queue);
}

void CompletionQueueThreads::Drain(grpc::ServerCompletionQueue* queue) {
  void* tag = nullptr;
  bool ok = false;
  while (queue->Next(&tag, &ok)) static_cast<AsyncTag*>(tag)->Complete(ok);
}

}  // namespace boneyard
