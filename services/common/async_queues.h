// Methods served on gRPC's async API, on completion queues of the service's own.
//
// Why not the callback API, which every other method uses: in libgrpc 1.51 every callback-API
// server shares one process-wide completion queue, and Debian's libgrpc is built with its debug
// checks, which scan that queue's list of outstanding operations on every completion. A Play
// stream always keeps a read outstanding, so at 2,000 matches that scan was a fifth of the
// execution service's CPU (docs/performance.md). Spreading the streams over several queues of
// our own divides the list, and so the scan, by their number.
//
// A service with such methods derives from AsyncService as well as from its grpc::Service;
// GrpcServer (server.h) sees it, adds the queues to the builder, hands them over once the
// server has started, and stops them once the server has shut down. Every tag put on the
// queues is an AsyncTag.
#ifndef BONEYARD_SERVICES_COMMON_ASYNC_QUEUES_H_
#define BONEYARD_SERVICES_COMMON_ASYNC_QUEUES_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <thread>
#include <vector>

namespace boneyard {

// What a completion queue's tag is: the queue's thread calls Complete with the operation's
// outcome.
class AsyncTag {
 public:
  virtual void Complete(bool ok) = 0;

 protected:
  ~AsyncTag() = default;
};

// Completion queues and one thread draining each.
class CompletionQueueThreads {
 public:
  CompletionQueueThreads() = default;
  CompletionQueueThreads(const CompletionQueueThreads&) = delete;
  CompletionQueueThreads& operator=(const CompletionQueueThreads&) = delete;
  // Stops them if Stop was not called.
  ~CompletionQueueThreads();

  // Starts a thread draining each queue; `on_start(queue)` runs first on the caller's thread,
  // for each queue, so the service can ask for its first calls.
  template <class OnStart>
  void Start(std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues, OnStart on_start) {
    queues_ = std::move(queues);
    for (auto& queue : queues_) on_start(queue.get());
    for (auto& queue : queues_) threads_.emplace_back([q = queue.get()] { Drain(q); });
  }

  // Shuts the queues down and waits until every tag has completed. Only after the server has
  // shut down: gRPC may not put tags on a queue that is shut down.
  void Stop();

  // Drains a queue that no thread serves (a server that failed to start).
  static void ShutDownAndDrain(grpc::ServerCompletionQueue& queue);

 private:
  static void Drain(grpc::ServerCompletionQueue* queue);

  std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues_;
  std::vector<std::thread> threads_;
};

// A grpc::Service that serves some methods on the async API also derives from this.
class AsyncService {
 public:
  virtual ~AsyncService() = default;

  // How many completion queues it wants.
  virtual int completion_queues() const = 0;

  // Called once the server has started, with the queues it added for this service; from now on
  // the service asks for calls on them and drains them.
  virtual void Serve(grpc::Server& server,
                     std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues) = 0;

  // Called once the server has shut down (every call has ended): shuts the queues down and
  // waits for their threads.
  virtual void StopServing() = 0;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_ASYNC_QUEUES_H_
