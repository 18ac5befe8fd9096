#include "services/execution/execution_service.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "services/common/auth.h"
#include "services/common/bearer.h"
#include "services/common/call_lifetime.h"
#include "services/common/grpc_status.h"
#include "services/common/logging.h"
#include "services/common/threads.h"
#include "spdlog/spdlog.h"

namespace boneyard::execution {
namespace {

using execution_internal::OutgoingQueue;

// ----- Streams ------------------------------------------------------------------------------

// The operations a ServerStream starts on its gRPC call (PlayCall, WatchCall).
template <class Response>
class StreamOps {
 public:
  virtual void StartReadOp() = 0;
  virtual void StartWriteOp(const Response* message) = 0;
  virtual void FinishOp(grpc::Status status) = 0;

 protected:
  ~StreamOps() = default;
};

// The outgoing side of a server stream, shared by its call and the host (it is the host's
// sink), so it outlives the call: after the call's Done, Send returns false and nothing
// touches the call again.
//
// Every operation on the call (Read, Write, Finish) is started by Pump, which runs on one
// thread at a time (`pumping_`) and calls gRPC without holding the mutex (a completion may run
// on another thread meanwhile and take it). Because only the pumping thread starts operations,
// no operation can be started after Finish, and the call cannot reach Done (which needs
// Finish) while an operation is being started. Rules kept: one write in flight (its message
// held in `writing_` until WriteDone); one read in flight; Finish only with no write in
// flight (a read may be: it then completes with ok = false), after the queue has drained,
// except on cancellation, which drops the queue.
template <class Response>
class ServerStream final : public StreamSink<Response>,
                           public std::enable_shared_from_this<ServerStream<Response>> {
 public:
  explicit ServerStream(StreamOps<Response>* ops) : ops_(ops) {}

  // StreamSink, from the host's threads.
  bool Send(std::shared_ptr<const Response> message) override {
    if (message == nullptr) return true;
    int64_t dropped = 0;
    {
      absl::MutexLock lock(&mu_);
      if (ops_ == nullptr || cancelled_ || finish_.has_value()) return false;
      if (queue_.Push(std::move(message))) dropped = ++dropped_views_;
    }
    if (dropped > 0) {
      spdlog::debug("slow stream: dropped a superseded view {}", Fields().Add("dropped", dropped));
    }
    Pump();
    return true;
  }

  void Close(absl::Status status) override { FinishWith(ToGrpcStatus(status)); }
  bool Alive() const override { return !Ending(); }

  // Ends the stream with `status` once everything queued has been written. The first status
  // given (by Close, an error or a cancellation) is the one sent.
  void FinishWith(grpc::Status status) {
    {
      absl::MutexLock lock(&mu_);
      if (!finish_.has_value()) finish_ = std::move(status);
    }
    Pump();
  }

  // Asks for one more read from the client; it starts once the queue has room.
  void WantRead() {
    {
      absl::MutexLock lock(&mu_);
      want_read_ = true;
    }
    Pump();
  }

  // Completions, from the call.
  void ReadDone() {
    absl::MutexLock lock(&mu_);
    reading_ = false;
  }
  void WriteDone(bool ok) {
    {
      absl::MutexLock lock(&mu_);
      writing_.reset();
      if (!ok) Break("the stream broke");
    }
    Pump();
  }
  void Cancelled() {
    {
      absl::MutexLock lock(&mu_);
      Break("the call was cancelled");
    }
    Pump();
  }
  void Done() {
    absl::MutexLock lock(&mu_);
    ops_ = nullptr;
    finished_ = true;
    want_read_ = false;
    queue_.clear();
  }

  // The stream is finishing or gone: what the client sends now is not acted on.
  bool Ending() const {
    absl::MutexLock lock(&mu_);
    return ops_ == nullptr || cancelled_ || finish_.has_value();
  }

 private:
  enum class Op { kNone, kRead, kWrite, kFinish };

  void Break(const char* why) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    cancelled_ = true;
    want_read_ = false;
    queue_.clear();
    if (!finish_.has_value()) finish_ = grpc::Status(grpc::StatusCode::CANCELLED, why);
  }

  // The next operation to start, marked as started.
  Op Next(const Response*& message, grpc::Status& status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (ops_ == nullptr || finished_) return Op::kNone;
    if (want_read_ && !reading_ && !cancelled_ && !finish_.has_value() && !queue_.full()) {
      want_read_ = false;
      reading_ = true;
      return Op::kRead;
    }
    if (writing_ != nullptr) return Op::kNone;
    if (!queue_.empty()) {
      writing_ = queue_.Pop();
      message = writing_.get();
      return Op::kWrite;
    }
    if (finish_.has_value()) {
      finished_ = true;
      status = *finish_;
      return Op::kFinish;
    }
    return Op::kNone;
  }

  void Pump() ABSL_LOCKS_EXCLUDED(mu_) {
    // Keeps the stream alive to the end of the loop even if the call's Done drops its
    // reference meanwhile.
    const std::shared_ptr<ServerStream> self = this->shared_from_this();
    mu_.Lock();
    if (pumping_) {
      // The pumping thread looks at the state again after its current operation.
      mu_.Unlock();
      return;
    }
    pumping_ = true;
    for (;;) {
      const Response* message = nullptr;
      grpc::Status status;
      const Op op = Next(message, status);
      if (op == Op::kNone) break;
      StreamOps<Response>* const ops = ops_;
      mu_.Unlock();
      switch (op) {
        case Op::kRead:
          ops->StartReadOp();
          break;
        case Op::kWrite:
          ops->StartWriteOp(message);
          break;
        case Op::kFinish:
          ops->FinishOp(std::move(status));
          break;
        case Op::kNone:
          break;
      }
      mu_.Lock();
    }
    pumping_ = false;
    mu_.Unlock();
  }

  mutable absl::Mutex mu_;
  // Null once the call is done.
  StreamOps<Response>* ops_ ABSL_GUARDED_BY(mu_);
  OutgoingQueue<Response> queue_ ABSL_GUARDED_BY(mu_);
  // The message being written.
  std::shared_ptr<const Response> writing_ ABSL_GUARDED_BY(mu_);
  // The status to finish with, once set; nothing more is queued then.
  std::optional<grpc::Status> finish_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;   // Finish started (or the call is done)
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;  // nothing more can be written
  bool want_read_ ABSL_GUARDED_BY(mu_) = false;
  bool reading_ ABSL_GUARDED_BY(mu_) = false;
  bool pumping_ ABSL_GUARDED_BY(mu_) = false;
  int64_t dropped_views_ ABSL_GUARDED_BY(mu_) = 0;
};

// What PlayCall and WatchCall share: one object a call on gRPC's async API, which asks for the
// next call on its queue when one arrives and lives until the call is done. Its operations are
// started by its ServerStream's Pump (on any thread) and complete on the queue's thread. It
// deletes itself once Finish has completed, no operation is outstanding and (if it asked)
// gRPC has said the call is done (CallLifetime): Finish is always started (a cancellation
// finishes the stream too), and the Pump starts nothing after it, so then nothing can touch
// the call again.
//
// `Derived` (final, befriending StreamCall) asks gRPC for its call (AskForCall, with
// `arrived_tag_`), acts on its arrival (Arrived) and on its reads (ReadDone, with `read_tag_`),
// and starts reads (StartReadOp). `Stream` is gRPC's async stream of the call's kind.
// `Derived::kDoneEvent` says whether it asks gRPC for the done event: a call that keeps a read
// outstanding learns of a cancellation from it (or from its next write) and goes without, as
// each outstanding tag costs every completion on the queue a little (async_queues.h).
template <class Derived, class Response, class Stream>
class StreamCall : protected StreamOps<Response> {
 public:
  // Asks for the next call on `queue`; `metrics` (or null) records the call when it finishes.
  static void Await(ExecutionServiceBase& service, MatchHost& host, RpcMetrics* metrics,
                    grpc::ServerCompletionQueue* queue) {
    auto* call = new Derived(service, host, queue);
    call->metrics_ = metrics;
    if (Derived::kDoneEvent) call->context_.AsyncNotifyWhenDone(&call->done_tag_);
    call->AskForCall();
  }

 protected:
  enum class Event { kArrived, kRead, kWritten, kFinished, kDone };
  using Tag = EventTag<StreamCall, Event>;
  friend Tag;

  StreamCall(ExecutionServiceBase& service, MatchHost& host, grpc::ServerCompletionQueue* queue)
      : service_(service),
        host_(host),
        queue_(queue),
        stream_(&context_),
        out_(std::make_shared<ServerStream<Response>>(static_cast<StreamOps<Response>*>(this))) {}
  ~StreamCall() = default;

  // StreamOps, from the Pump.
  void StartWriteOp(const Response* message) override {
    lifetime_.Started();
    stream_.Write(*message, &written_tag_);
  }
  void FinishOp(grpc::Status status) override {
    if (metrics_ != nullptr) {
      metrics_->RecordCall(Derived::FullMethod(), status.error_code(),
                           absl::Now() - arrival_time_);
    }
    lifetime_.Started();
    stream_.Finish(status, &finished_tag_);
  }

  ExecutionServiceBase& service_;
  MatchHost& host_;
  grpc::ServerCompletionQueue* const queue_;
  grpc::ServerContext context_;
  Stream stream_;
  Tag arrived_tag_{this, Event::kArrived};
  Tag read_tag_{this, Event::kRead};
  // The outgoing stream, which is also the host's sink, so it may outlive the call.
  const std::shared_ptr<ServerStream<Response>> out_;
  CallLifetime lifetime_{Derived::kDoneEvent};

 private:
  void Completed(Event event, bool ok) {
    Derived& call = static_cast<Derived&>(*this);
    switch (event) {
      case Event::kArrived:
        if (!ok) {  // the server is shutting down: no call came, and none will
          delete &call;
          return;
        }
        arrival_time_ = absl::Now();
        Await(service_, host_, metrics_, queue_);
        call.Arrived();
        return;
      case Event::kRead:
        call.ReadDone(ok);
        break;
      case Event::kWritten:
        out_->WriteDone(ok);
        break;
      case Event::kFinished:
        break;
      case Event::kDone:
        if (context_.IsCancelled()) out_->Cancelled();
        break;
    }
    const bool last = event == Event::kDone ? lifetime_.Done()
                                            : lifetime_.Completed(event == Event::kFinished);
    if (last) {
      out_->Done();
      delete &call;
    }
  }

  RpcMetrics* metrics_ = nullptr;
  absl::Time arrival_time_;  // set before any operation starts
  Tag written_tag_{this, Event::kWritten};
  Tag finished_tag_{this, Event::kFinished};
  Tag done_tag_{this, Event::kDone};
};

// Play: the first message names the match and opens the seat's stream at the host; later
// messages are hellos or actions for it. Reading goes on until the client half-closes (the
// stream then stays open for views until the host closes it) or the call ends.
//
// It has no done event: there are two Play streams a match, and that tag would double the
// list the queue scans on every completion. A failed read is a half-close or a cancellation,
// which it cannot tell apart, so it keeps the stream open either way: if the call is gone,
// the next view's write fails and finishes it; if no view comes, the host finishes it when
// the match ends, when the seat opens too many streams (kMaxStreamsPerSeat) or at shutdown.
class PlayCall final
    : public StreamCall<PlayCall, v1::PlayResponse,
                        grpc::ServerAsyncReaderWriter<v1::PlayResponse, v1::PlayRequest>> {
 public:
  // "/boneyard.v1.ExecutionService/Play"
  static const std::string& FullMethod() {
    static const auto* const kMethod =
        new std::string(absl::StrCat("/", v1::ExecutionService::service_full_name(), "/Play"));
    return *kMethod;
  }

 private:
  friend StreamCall;
  static constexpr bool kDoneEvent = false;

  PlayCall(ExecutionServiceBase& service, MatchHost& host, grpc::ServerCompletionQueue* queue)
      : StreamCall(service, host, queue), session_(std::make_shared<Session>()) {}

  void AskForCall() {
    service_.RequestPlay(&context_, &stream_, queue_, queue_, &arrived_tag_);
  }

  void Arrived() {
    token_ = BearerToken(context_);
    out_->WantRead();
  }

  void StartReadOp() override {
    lifetime_.Started();
    stream_.Read(&request_, &read_tag_);
  }

  void ReadDone(bool ok) {
    ServerStream<v1::PlayResponse>& out = *out_;
    out.ReadDone();
    if (!ok) {
      // The client half-closed, or the call is gone. Without a first message there is no
      // stream to keep open: the host answers for the missing name (after checking the token,
      // as for any call), which finishes the call either way.
      if (first_ && !out.Ending()) Open(std::string(), {}, false, std::nullopt, 0);
      return;
    }
    if (out.Ending()) return;
    if (first_) {
      std::optional<v1::Action> action;
      if (request_.has_action()) action = request_.action();
      Open(request_.name(), request_.view_mask(), request_.replay_events(), std::move(action),
           request_.seen_sequence());
      return;
    }
    if (!request_.name().empty() && request_.name() != name_) {
      out.FinishWith(grpc::Status(
          grpc::StatusCode::INVALID_ARGUMENT,
          absl::StrCat("this stream plays \"", name_, "\"; a later message names \"",
                       request_.name(), "\"")));
      return;
    }
    std::shared_ptr<SeatStream> seat;
    {
      absl::MutexLock lock(&session_->mu);
      seat = session_->seat;
    }
    if (request_.has_action()) {
      seat->Play(request_.action(), request_.seen_sequence());
    } else {
      seat->Hello();
    }
    out.WantRead();
  }

  // The seat stream the host opened, which the host's callback sets: like `out_`, it may
  // outlive the call.
  struct Session {
    absl::Mutex mu;
    std::shared_ptr<SeatStream> seat ABSL_GUARDED_BY(mu);
  };

  // Opens the seat's stream; on success plays the first message's action, if any, and reads on.
  void Open(std::string name, const google::protobuf::FieldMask& view_mask, bool replay_events,
            std::optional<v1::Action> action, int64_t seen_sequence) {
    first_ = false;
    name_ = name;
    const bool named = !name.empty();
    host_.OpenSeatStream(
        token_, std::move(name), view_mask, replay_events, out_,
        [out_stream = out_, session = session_, named, action = std::move(action),
         seen_sequence](absl::StatusOr<std::shared_ptr<SeatStream>> seat) mutable {
          ServerStream<v1::PlayResponse>& out = *out_stream;
          if (!seat.ok()) {
            out.FinishWith(ToGrpcStatus(seat.status()));
            return;
          }
          if (!named) {  // the host accepted no name: it cannot have, but say what is wrong
            out.FinishWith(grpc::Status(
                grpc::StatusCode::INVALID_ARGUMENT,
                "the first message must name the match (\"matches/{id}\")"));
            return;
          }
          if (*seat == nullptr) {
            out.FinishWith(grpc::Status(grpc::StatusCode::INTERNAL, "no seat stream"));
            return;
          }
          {
            absl::MutexLock lock(&session->mu);
            session->seat = *seat;
          }
          if (out.Ending()) return;
          if (action.has_value()) (*seat)->Play(*std::move(action), seen_sequence);
          out.WantRead();
        });
  }

  // Set when the call arrives, before any operation starts.
  std::optional<std::string> token_;
  const std::shared_ptr<Session> session_;
  // Touched only by the read in flight and its completion (one at a time).
  v1::PlayRequest request_;
  bool first_ = true;
  std::string name_;
};

// WatchMatch: the host sends public views to the stream until it closes it.
class WatchCall final
    : public StreamCall<WatchCall, v1::WatchMatchResponse,
                        grpc::ServerAsyncWriter<v1::WatchMatchResponse>> {
 public:
  // "/boneyard.v1.ExecutionService/WatchMatch"
  static const std::string& FullMethod() {
    static const auto* const kMethod = new std::string(
        absl::StrCat("/", v1::ExecutionService::service_full_name(), "/WatchMatch"));
    return *kMethod;
  }

 private:
  friend StreamCall;
  // Nothing to read: only the done event tells it of a cancellation between views.
  static constexpr bool kDoneEvent = true;

  using StreamCall::StreamCall;

  void AskForCall() {
    service_.RequestWatchMatch(&context_, &request_, &stream_, queue_, queue_, &arrived_tag_);
  }

  void Arrived() {
    host_.Watch(request_.name(), request_.view_mask(), out_, [out = out_](absl::Status status) {
      if (!status.ok()) out->FinishWith(ToGrpcStatus(status));
    });
  }

  void ReadDone(bool) {}       // nothing to read on a server-streaming call
  void StartReadOp() override {}

  v1::WatchMatchRequest request_;
};

// Marks a CreateMatch one replica sent another (placement): it is created where it arrives.
constexpr char kPlacedHeader[] = "boneyard-placed";
constexpr absl::Duration kPlacementDeadline = absl::Seconds(10);

// Whether a placed CreateMatch that failed with `code` may be created here instead: when the
// replica was not reached or refused the credential (replicas configured with different
// tokens); and, for a request with a request id — which makes creating it twice impossible —
// also when the call broke without an answer (that replica stopping).
bool CreateHereInstead(grpc::StatusCode code, bool has_request_id) {
  if (code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::UNAUTHENTICATED ||
      code == grpc::StatusCode::PERMISSION_DENIED || code == grpc::StatusCode::UNIMPLEMENTED) {
    return true;
  }
  return has_request_id &&
         (code == grpc::StatusCode::CANCELLED || code == grpc::StatusCode::DEADLINE_EXCEEDED);
}

}  // namespace

void ExecutionServiceImpl::HandleCreateMatch(grpc::ServerContext& context,
                                             v1::CreateMatchRequest request, CreateDone done) {
  std::optional<std::string> token = BearerToken(context);
  if (placement_ != nullptr && context.client_metadata().count(kPlacedHeader) == 0) {
    if (std::optional<std::string> there = placement_->Choose(host_.live_matches())) {
      return CreateOn(*there, std::move(token), std::move(request), std::move(done));
    }
  }
  host_.CreateMatch(std::move(token), std::move(request), std::move(done));
}

void ExecutionServiceImpl::CreateOn(const std::string& address, std::optional<std::string> token,
                                    v1::CreateMatchRequest request, CreateDone done) {
  struct Call {
    grpc::ClientContext context;
    v1::CreateMatchRequest request;
    v1::CreateMatchResponse response;
    std::optional<std::string> token;
    CreateDone done;
  };
  auto call = std::make_shared<Call>();
  call->request = std::move(request);
  call->token = std::move(token);
  call->done = std::move(done);
  if (call->token.has_value()) AddBearerToken(call->context, *call->token);
  call->context.AddMetadata(kPlacedHeader, "1");
  call->context.set_deadline(absl::ToChronoTime(absl::Now() + kPlacementDeadline));
  peers_.At(address).async()->CreateMatch(
      &call->context, &call->request, &call->response, [this, call, address](grpc::Status status) {
        if (status.ok()) return call->done(std::move(call->response));
        if (!CreateHereInstead(status.error_code(), !call->request.request_id().empty())) {
          return call->done(FromGrpcStatus(status));
        }
        spdlog::warn("placement: {} did not take a new match ({}); created here", address,
                     status.error_message());
        host_.CreateMatch(std::move(call->token), std::move(call->request), std::move(call->done));
      });
}

ExecutionServiceImpl::ExecutionServiceImpl(MatchHost& host, int queues, Placement* placement)
    : host_(host),
      queues_(queues > 0 ? queues : CoreCount()),
      placement_(placement),
      create_match_(
          [this](auto&&... args) { RequestCreateMatch(args...); },
          [this](grpc::ServerContext& context, v1::CreateMatchRequest request, auto done) {
            HandleCreateMatch(context, std::move(request), std::move(done));
          }),
      get_match_([this](auto&&... args) { RequestGetMatch(args...); },
                 [this](grpc::ServerContext&, v1::GetMatchRequest request, auto done) {
                   host_.GetMatch(std::move(*request.mutable_name()), std::move(done));
                 }),
      list_matches_([this](auto&&... args) { RequestListMatches(args...); },
                    [this](grpc::ServerContext&, v1::ListMatchesRequest request, auto done) {
                      host_.ListMatches(std::move(request), std::move(done));
                    }),
      submit_action_(
          [this](auto&&... args) { RequestSubmitAction(args...); },
          [this](grpc::ServerContext& context, v1::SubmitActionRequest request, auto done) {
            host_.SubmitAction(BearerToken(context), std::move(request), std::move(done));
          }),
      get_record_([this](auto&&... args) { RequestGetRecord(args...); },
                  [this](grpc::ServerContext&, v1::GetRecordRequest request, auto done) {
                    host_.GetRecord(std::move(*request.mutable_name()), std::move(done));
                  }),
      abort_match_([this](auto&&... args) { RequestAbortMatch(args...); },
                   [this](grpc::ServerContext& context, v1::AbortMatchRequest request, auto done) {
                     host_.AbortMatch(BearerToken(context), std::move(request),
                                      std::move(done));
                   }),
      list_parked_results_(
          [this](auto&&... args) { RequestListParkedResults(args...); },
          [this](grpc::ServerContext& context, v1::ListParkedResultsRequest request, auto done) {
            host_.ListParkedResults(BearerToken(context), std::move(request), std::move(done));
          }),
      retry_parked_result_(
          [this](auto&&... args) { RequestRetryParkedResult(args...); },
          [this](grpc::ServerContext& context, v1::RetryParkedResultRequest request, auto done) {
            host_.RetryParkedResult(BearerToken(context), std::move(*request.mutable_name()),
                                    std::move(done));
          }),
      drop_parked_result_(
          [this](auto&&... args) { RequestDropParkedResult(args...); },
          [this](grpc::ServerContext& context, v1::DropParkedResultRequest request, auto done) {
            host_.DropParkedResult(BearerToken(context), std::move(*request.mutable_name()),
                                   std::move(done));
          }) {}

void ExecutionServiceImpl::UseRpcMetrics(RpcMetrics& metrics) {
  metrics_ = &metrics;
  metrics.RecordedByService(PlayCall::FullMethod());
  metrics.RecordedByService(WatchCall::FullMethod());
}

void ExecutionServiceImpl::RequestCalls(grpc::ServerCompletionQueue* queue) {
  PlayCall::Await(*this, host_, metrics_, queue);
  WatchCall::Await(*this, host_, metrics_, queue);
  create_match_.Await(queue);
  get_match_.Await(queue);
  list_matches_.Await(queue);
  submit_action_.Await(queue);
  get_record_.Await(queue);
  abort_match_.Await(queue);
  list_parked_results_.Await(queue);
  retry_parked_result_.Await(queue);
  drop_parked_result_.Await(queue);
}

}  // namespace boneyard::execution
