// Methods served on gRPC's async API, on completion queues of the service's own.
//
// Why not the callback API: in libgrpc 1.51 every callback-API server shares one process-wide
// completion queue, and Debian's libgrpc is built with its debug checks, which scan that
// queue's list of outstanding operations on every completion. A Play stream always keeps a
// read outstanding, so at 2,000 matches that scan was a fifth of the execution service's CPU
// (docs/performance.md). Spreading the streams over several queues of our own divides the
// list, and so the scan, by their number. And a server with even one callback method gets
// that queue's threads, which poll the sockets alongside ours and then wake the thread each
// read is for: the execution service serves every method, and health checking
// (health_service.h), on the async API, so it has none.
//
// A service with such methods derives from AsyncService as well as from its grpc::Service.
// GrpcServer (server.h) adds the queues it asks for to the builder; once the server has
// started, it lets the service ask for its first calls on each queue and starts one thread
// draining each; once the server has shut down, it shuts the queues down and joins the threads.
// Every tag put on the queues is an AsyncTag.
#ifndef BONEYARD_SERVICES_COMMON_ASYNC_QUEUES_H_
#define BONEYARD_SERVICES_COMMON_ASYNC_QUEUES_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <thread>
#include <vector>

#include "services/common/async_tag.h"

namespace boneyard {

class RpcMetrics;

// A grpc::Service that serves some methods on the async API also derives from this.
class AsyncService {
 public:
  virtual ~AsyncService() = default;

  // How many completion queues it wants.
  virtual int completion_queues() const = 0;

  // Asks for the first calls on `queue`, once the server has started (for each of its queues,
  // before their threads start). As calls arrive, the service asks for more itself.
  virtual void RequestCalls(grpc::ServerCompletionQueue* queue) = 0;

  // The server's per-RPC metrics, given before the server starts (if it has them), for the
  // methods whose calls the service records itself (RpcMetrics::RecordedByService). They
  // outlive the server.
  virtual void UseRpcMetrics(RpcMetrics& /*metrics*/) {}
};

// Completion queues and one thread draining each.
class CompletionQueueThreads {
 public:
  explicit CompletionQueueThreads(std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues)
      : queues_(std::move(queues)) {}
  CompletionQueueThreads(const CompletionQueueThreads&) = delete;
  CompletionQueueThreads& operator=(const CompletionQueueThreads&) = delete;
  // Stops them if Stop was not called.
  ~CompletionQueueThreads() { Stop(); }

  // Starts a thread draining each queue.
  void Start();

  // Shuts the queues down and returns once every tag has completed (drained by their threads,
  // or here if they never started). Only after the server has shut down: gRPC may not put tags
  // on a queue that is shut down. Idempotent.
  void Stop();

 private:
  static void Drain(grpc::ServerCompletionQueue& queue);

  std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues_;
  std::vector<std::thread> threads_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_ASYNC_QUEUES_H_
