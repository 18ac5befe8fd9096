// The execution service's gRPC handlers (proto/boneyard/v1/execution.proto): Play, the stream
// that carries nearly every call, on gRPC's async API with completion queues of the service's
// own (services/common/async_queues.h says why); the others on the callback API. They are
// thin: each decodes the call (its bearer token and request), hands it to the MatchHost and
// encodes the host's answer; the host does the work and answers later on one of its threads.
// No handler ever blocks.
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
#include <memory>
#include <utility>

#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/execution.pb.h"
#include "services/common/async_queues.h"
#include "services/execution/match_host.h"

namespace boneyard::execution {

// Every method on the callback API but Play, which is on the async API. (Play is marked async
// first, in the innermost base: gRPC drops a method's handler when it turns from sync to async,
// not from callback to async.)
using ExecutionServiceBase = v1::ExecutionService::WithCallbackMethod_CreateMatch<
    v1::ExecutionService::WithCallbackMethod_GetMatch<
        v1::ExecutionService::WithCallbackMethod_ListMatches<
            v1::ExecutionService::WithCallbackMethod_SubmitAction<
                v1::ExecutionService::WithCallbackMethod_WatchMatch<
                    v1::ExecutionService::WithCallbackMethod_GetRecord<
                        v1::ExecutionService::WithCallbackMethod_AbortMatch<
                            v1::ExecutionService::WithAsyncMethod_Play<
                                v1::ExecutionService::Service>>>>>>>>;

class ExecutionServiceImpl final : public ExecutionServiceBase, public AsyncService {
 public:
  // `host` must outlive the service (and so the gRPC server it is registered with).
  // `play_queues` completion queues, each with a thread, carry the Play streams; 0 means one per
  // core. A queue per core keeps each queue's list of outstanding operations short (Debian's
  // libgrpc scans it on every completion) while few threads wake: with eight queues on two
  // cores, a sleeping queue thread was woken for most reads and writes, two context switches
  // an action more (docs/performance.md).
  explicit ExecutionServiceImpl(MatchHost& host, int play_queues = 0);

  ExecutionServiceImpl(const ExecutionServiceImpl&) = delete;
  ExecutionServiceImpl& operator=(const ExecutionServiceImpl&) = delete;

  grpc::ServerUnaryReactor* CreateMatch(grpc::CallbackServerContext* context,
                                        const v1::CreateMatchRequest* request,
                                        v1::CreateMatchResponse* response) override;
  grpc::ServerUnaryReactor* GetMatch(grpc::CallbackServerContext* context,
                                     const v1::GetMatchRequest* request,
                                     v1::Match* response) override;
  grpc::ServerUnaryReactor* ListMatches(grpc::CallbackServerContext* context,
                                        const v1::ListMatchesRequest* request,
                                        v1::ListMatchesResponse* response) override;
  grpc::ServerUnaryReactor* SubmitAction(grpc::CallbackServerContext* context,
                                         const v1::SubmitActionRequest* request,
                                         v1::SeatView* response) override;
  grpc::ServerWriteReactor<v1::WatchMatchResponse>* WatchMatch(
      grpc::CallbackServerContext* context, const v1::WatchMatchRequest* request) override;
  grpc::ServerUnaryReactor* GetRecord(grpc::CallbackServerContext* context,
                                      const v1::GetRecordRequest* request,
                                      v1::Record* response) override;
  grpc::ServerUnaryReactor* AbortMatch(grpc::CallbackServerContext* context,
                                       const v1::AbortMatchRequest* request,
                                       v1::Match* response) override;

  // AsyncService: the Play streams.
  int completion_queues() const override { return play_queues_; }
  void RequestCalls(grpc::ServerCompletionQueue* queue) override;

 private:
  MatchHost& host_;
  const int play_queues_;
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
