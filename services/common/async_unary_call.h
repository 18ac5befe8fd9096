// Unary methods served on gRPC's async API (async_queues.h says why a service would), with the
// same shape as a callback-API handler: the service gets the call's context and request and
// answers once, from any thread, through a callback taking absl::StatusOr<Response>.
//
//   // A member of the service, built once; the service derives from
//   // Service::WithAsyncMethod_GetMatch<...>.
//   AsyncUnaryMethod<v1::GetMatchRequest, v1::Match> get_match_{
//       [this](auto&&... args) { RequestGetMatch(args...); },
//       [this](grpc::ServerContext&, v1::GetMatchRequest request, auto done) {
//         host_.GetMatch(request.name(), std::move(done));
//       }};
//   // In AsyncService::RequestCalls, for each queue:
//   get_match_.Await(queue);
//
// Each call asks for the next one as soon as it arrives, so one call of each method is always
// awaited on each queue. A call deletes itself when its Finish has completed. The server's
// Shutdown waits for every call it handed out to be finished, so an answer given late (after
// the shutdown began) is still sent or, after the grace period, dropped by gRPC; the queues are
// shut down only after that.
#ifndef BONEYARD_SERVICES_COMMON_ASYNC_UNARY_CALL_H_
#define BONEYARD_SERVICES_COMMON_ASYNC_UNARY_CALL_H_

#include <grpcpp/grpcpp.h>

#include <functional>
#include <utility>

#include "absl/status/statusor.h"
#include "services/common/async_tag.h"
#include "services/common/grpc_status.h"

namespace boneyard {

template <class Request, class Response>
class AsyncUnaryMethod {
 public:
  // A generated Service::RequestXxx, bound to the service.
  using RequestFn =
      std::function<void(grpc::ServerContext* context, Request* request,
                         grpc::ServerAsyncResponseWriter<Response>* writer,
                         grpc::CompletionQueue* call_queue,
                         grpc::ServerCompletionQueue* notification_queue, void* tag)>;
  using Done = std::function<void(absl::StatusOr<Response>)>;
  // Handles one call; calls `done` exactly once, now or later, from any thread. The context is
  // valid until then.
  using Handler =
      std::function<void(grpc::ServerContext& context, Request request, Done done)>;

  AsyncUnaryMethod(RequestFn request, Handler handle)
      : request_(std::move(request)), handle_(std::move(handle)) {}

  AsyncUnaryMethod(const AsyncUnaryMethod&) = delete;
  AsyncUnaryMethod& operator=(const AsyncUnaryMethod&) = delete;

  // Awaits the next call of the method on `queue`.
  void Await(grpc::ServerCompletionQueue* queue) const {
    auto* call = new Call(*this, queue);
    request_(&call->context_, &call->request_, &call->writer_, queue, queue, call);
  }

 private:
  class Call final : public AsyncTag {
   public:
    Call(const AsyncUnaryMethod& method, grpc::ServerCompletionQueue* queue)
        : method_(method), queue_(queue), writer_(&context_) {}

    void Complete(bool ok) override {
      if (arrived_) {  // the Finish completed (ok or not: nothing more to do either way)
        delete this;
        return;
      }
      if (!ok) {  // the server is shutting down: no call came, and none will
        delete this;
        return;
      }
      arrived_ = true;
      method_.Await(queue_);
      method_.handle_(context_, std::move(request_), [this](absl::StatusOr<Response> result) {
        if (result.ok()) {
          writer_.Finish(*result, grpc::Status::OK, this);
        } else {
          writer_.FinishWithError(ToGrpcStatus(result.status()), this);
        }
      });
    }

   private:
    friend class AsyncUnaryMethod;

    const AsyncUnaryMethod& method_;
    grpc::ServerCompletionQueue* const queue_;
    grpc::ServerContext context_;
    Request request_;
    grpc::ServerAsyncResponseWriter<Response> writer_;
    bool arrived_ = false;
  };

  const RequestFn request_;
  const Handler handle_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_ASYNC_UNARY_CALL_H_
