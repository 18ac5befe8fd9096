// Completion queues for a client's streams on gRPC's async API, each drained by a thread of
// its own: the remote players' Play streams (remote_player.h) run on them.
//
// Why not the callback API: a callback-API client's operations complete on gRPC's own threads
// through one queue per channel, and Debian's libgrpc is built with its debug checks, which
// scan a queue's outstanding operations on every completion; in `boneyard load`, with thousands
// of streams, that scan, the hand-offs between gRPC's threads and its alarms were a third of
// the machine's CPU (docs/performance.md). Here every operation of a stream, and its think-time
// timers (RunLater), complete on the one thread of the queue it was given, in order, so a
// stream needs no lock of its own.
//
//   std::shared_ptr<ClientQueues> queues = ClientQueues::Shared();
//   grpc::CompletionQueue* queue = queues->Pick();   // round robin
//   ... operations with an AsyncTag* as their tag ...
#ifndef BONEYARD_SERVICES_CLIENT_CLIENT_QUEUES_H_
#define BONEYARD_SERVICES_CLIENT_CLIENT_QUEUES_H_

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "grpcpp/client_context.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/support/async_unary_call.h"
#include "services/client/channel.h"
#include "services/common/async_tag.h"

namespace boneyard::client {

class ClientQueues {
 public:
  // `count` queues (at least one), each with a thread.
  explicit ClientQueues(int count);
  // Shuts the queues down and joins their threads once every operation has completed. Never
  // on one of the queues' threads.
  ~ClientQueues();
  ClientQueues(const ClientQueues&) = delete;
  ClientQueues& operator=(const ClientQueues&) = delete;

  // The process's queues, one per core, made when first asked for and gone when the last
  // holder lets go (remote players hold them).
  static std::shared_ptr<ClientQueues> Shared();

  // The next queue, round robin. Every tag put on it must be an AsyncTag.
  grpc::CompletionQueue* Pick();
  int size() const { return static_cast<int>(queues_.size()); }

  // On a queue's thread only (from a tag's Complete): `tag` completes (ok = true) on this same
  // thread once `when` has come. For the players' think times, instead of a grpc::Alarm: an
  // alarm adds an operation to the queue's list, which Debian's debug-built libgrpc scans on
  // every completion, and wakes gRPC's timer thread, which then wakes the queue's. A timer
  // cannot be cancelled; its owner waits for it.
  static void RunLater(absl::Time when, AsyncTag* tag);

 private:
  class Timers;
  // The timers of the queue whose thread this is; null on any other thread.
  static thread_local Timers* current_timers_;

  // A queue's thread: completions and due timers, until the queue is shut down and drained.
  static void Serve(grpc::CompletionQueue& queue);

  std::vector<std::unique_ptr<grpc::CompletionQueue>> queues_;
  std::vector<std::thread> threads_;
  std::atomic<unsigned> next_{0};
};

// One unary call on a client queue: `done` gets the status and the response on the queue's
// thread. The call carries `token` and the default deadline (PrepareUnaryContext) and owns
// itself until `done` has run. With `wait_for_ready`, a call made while the channel is
// reconnecting waits for it (within the deadline) instead of failing at once.
//
//   QueuedUnaryCall<v1::AbortMatchRequest, v1::Match>::Start(
//       queues->Pick(), token, std::move(request),
//       [&stub](grpc::ClientContext* context, const v1::AbortMatchRequest& request,
//               grpc::CompletionQueue* queue) {
//         return stub.PrepareAsyncAbortMatch(context, request, queue);
//       },
//       [](const grpc::Status& status, v1::Match& match) { ... });
template <class Request, class Response>
class QueuedUnaryCall final : public AsyncTag {
 public:
  using Done = std::function<void(const grpc::Status&, Response&)>;

  // `prepare(context, request, queue)` is the stub's PrepareAsync method.
  template <class Prepare>
  static void Start(grpc::CompletionQueue* queue, absl::string_view token, Request request,
                    const Prepare& prepare, Done done, bool wait_for_ready = false) {
    auto* call = new QueuedUnaryCall(std::move(request), std::move(done));
    PrepareUnaryContext(call->context_, token);
    call->context_.set_wait_for_ready(wait_for_ready);
    call->reader_ = prepare(&call->context_, call->request_, queue);
    call->reader_->StartCall();
    call->reader_->Finish(&call->response_, &call->status_, call);
  }

  void Complete(bool) override {
    done_(status_, response_);
    delete this;
  }

 private:
  QueuedUnaryCall(Request request, Done done)
      : request_(std::move(request)), done_(std::move(done)) {}

  grpc::ClientContext context_;
  const Request request_;
  const Done done_;
  std::unique_ptr<grpc::ClientAsyncResponseReader<Response>> reader_;
  Response response_;
  grpc::Status status_;
};

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_CLIENT_QUEUES_H_
