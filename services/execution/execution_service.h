// The execution service's gRPC handlers (proto/boneyard/v1/execution.proto), all on gRPC's
// async API with completion queues of the service's own (services/common/async_queues.h says
// why). They are thin: each decodes the call (its bearer token and request), hands it to the
// MatchHost and encodes the host's answer; the host does the work and answers later on one of
// its threads. No handler ever blocks.
//
// The two streaming RPCs share one piece of plumbing, the outgoing queue of a stream: the host
// sends each view to a sink (StreamSink in match_host.h) from its own threads; the sink queues
// it and the stream writes one message at a time. A slow client's queue is bounded: when it is
// full, the oldest queued view that a later view supersedes is dropped (a view is a full
// snapshot), never a rejection; and a Play stream stops reading the client's actions while its
// queue is full, so rejections cannot pile up either.
#ifndef BONEYARD_SERVICES_EXECUTION_EXECUTION_SERVICE_H_
#define BONEYARD_SERVICES_EXECUTION_EXECUTION_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/execution.pb.h"
#include "services/common/async_queues.h"
#include "services/common/async_unary_call.h"
#include "services/common/metrics.h"
#include "services/common/replica_router.h"
#include "services/execution/match_host.h"
#include "services/execution/placement.h"

namespace boneyard::execution {

// Every method on the async API, on completion queues of the service's own
// (services/common/async_queues.h says why): Play, which carries nearly every call, because of
// gRPC's scan of a queue's outstanding operations; the others too, because a single
// callback-API method gives the server gRPC's callback threads, which poll the sockets and then
// wake the thread each read is for (docs/performance.md).
using ExecutionServiceBase = v1::ExecutionService::WithAsyncMethod_CreateMatch<
    v1::ExecutionService::WithAsyncMethod_GetMatch<
        v1::ExecutionService::WithAsyncMethod_ListMatches<
            v1::ExecutionService::WithAsyncMethod_SubmitAction<
                v1::ExecutionService::WithAsyncMethod_WatchMatch<
                    v1::ExecutionService::WithAsyncMethod_GetRecord<
                        v1::ExecutionService::WithAsyncMethod_AbortMatch<
                            v1::ExecutionService::WithAsyncMethod_ListParkedResults<
                                v1::ExecutionService::WithAsyncMethod_RetryParkedResult<
                                    v1::ExecutionService::WithAsyncMethod_DropParkedResult<
                                        v1::ExecutionService::WithAsyncMethod_Play<
                                            v1::ExecutionService::Service>>>>>>>>>>>;

class ExecutionServiceImpl final : public ExecutionServiceBase, public AsyncService {
 public:
  // `host` must outlive the service (and so the gRPC server it is registered with).
  // `queues` completion queues, each with a thread, carry the calls; 0 means one per core. A
  // queue per core keeps each queue's list of outstanding operations short (Debian's libgrpc
  // scans it on every completion) while few threads wake: with eight queues on two cores, a
  // sleeping queue thread was woken for most reads and writes, two context switches an action
  // more (docs/performance.md).
  // With `placement`, a CreateMatch that another replica should play (placement.h) is sent
  // there (marked, so it is not sent on again) and its answer returned; when that replica
  // cannot be reached or refuses the call's credential (or, for a request with a request id,
  // the call broke without an answer), the match is created here.
  explicit ExecutionServiceImpl(MatchHost& host, int queues = 0, Placement* placement = nullptr);

  ExecutionServiceImpl(const ExecutionServiceImpl&) = delete;
  ExecutionServiceImpl& operator=(const ExecutionServiceImpl&) = delete;

  // AsyncService.
  int completion_queues() const override { return queues_; }
  void RequestCalls(grpc::ServerCompletionQueue* queue) override;
  // The streams (Play, WatchMatch) record themselves when they finish.
  void UseRpcMetrics(RpcMetrics& metrics) override;

 private:
  using CreateDone = std::function<void(absl::StatusOr<v1::CreateMatchResponse>)>;
  void HandleCreateMatch(grpc::ServerContext& context, v1::CreateMatchRequest request,
                         CreateDone done);
  void CreateOn(const std::string& address, std::optional<std::string> token,
                v1::CreateMatchRequest request, CreateDone done);

  MatchHost& host_;
  const int queues_;
  Placement* const placement_;
  ReplicaRouter peers_{""};        // stubs for the replicas matches are placed on
  RpcMetrics* metrics_ = nullptr;  // set before the server starts, if at all
  const AsyncUnaryMethod<v1::CreateMatchRequest, v1::CreateMatchResponse> create_match_;
  const AsyncUnaryMethod<v1::GetMatchRequest, v1::Match> get_match_;
  const AsyncUnaryMethod<v1::ListMatchesRequest, v1::ListMatchesResponse> list_matches_;
  const AsyncUnaryMethod<v1::SubmitActionRequest, v1::SeatView> submit_action_;
  const AsyncUnaryMethod<v1::GetRecordRequest, v1::Record> get_record_;
  const AsyncUnaryMethod<v1::AbortMatchRequest, v1::Match> abort_match_;
  const AsyncUnaryMethod<v1::ListParkedResultsRequest, v1::ListParkedResultsResponse>
      list_parked_results_;
  const AsyncUnaryMethod<v1::RetryParkedResultRequest, v1::ParkedResult> retry_parked_result_;
  const AsyncUnaryMethod<v1::DropParkedResultRequest, v1::ParkedResult> drop_parked_result_;
};

namespace execution_internal {

// How many messages a stream queues for a slow client before views are dropped.
inline constexpr std::size_t kMaxQueuedMessages = 1024;

// Whether a later view makes `message` useless: every view does; a rejection never does.
inline bool IsView(const v1::PlayResponse& message) { return message.has_view(); }
inline bool IsView(const v1::WatchMatchResponse&) { return true; }

// A stream's queue of messages not yet written (the policy only; the caller locks). Exposed for
// tests.
template <class Message>
class OutgoingQueue {
 public:
  explicit OutgoingQueue(std::size_t capacity = kMaxQueuedMessages) : capacity_(capacity) {}

  // Appends `message`. When the queue is full, it first drops the oldest queued view that a
  // later view (one queued after it, or `message` itself) supersedes; with no such view, the
  // queue grows past its capacity rather than lose the latest view or a rejection. Returns
  // whether a view was dropped.
  bool Push(std::shared_ptr<const Message> message) {
    bool dropped = false;
    if (queue_.size() >= capacity_) {
      // The newest queued view is kept unless `message` is itself a view.
      auto last_view = queue_.end();
      for (auto it = queue_.begin(); it != queue_.end(); ++it) {
        if (IsView(**it)) last_view = it;
      }
      for (auto it = queue_.begin(); it != queue_.end(); ++it) {
        if (!IsView(**it)) continue;
        if (it == last_view && !IsView(*message)) break;
        queue_.erase(it);
        dropped = true;
        break;
      }
    }
    queue_.push_back(std::move(message));
    return dropped;
  }

  std::shared_ptr<const Message> Pop() {
    std::shared_ptr<const Message> front = std::move(queue_.front());
    queue_.pop_front();
    return front;
  }

  bool empty() const { return queue_.empty(); }
  std::size_t size() const { return queue_.size(); }
  // Full: a Play stream reads no more actions until writes make room.
  bool full() const { return queue_.size() >= capacity_; }
  void clear() { queue_.clear(); }

 private:
  std::size_t capacity_;
  std::deque<std::shared_ptr<const Message>> queue_;
};

}  // namespace execution_internal
}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_EXECUTION_SERVICE_H_
