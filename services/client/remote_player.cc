#include "services/client/remote_player.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "engine/core/rng.h"
#include "grpcpp/alarm.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/async_stream.h"
#include "services/client/channel.h"
#include "services/common/async_tag.h"
#include "services/common/engine_proto.h"
#include "services/common/status_detail.h"

namespace boneyard::client {

Chooser RandomChooser(uint64_t seed) {
  auto rng = std::make_shared<Rng>(seed);
  return [rng](const v1::SeatView& view) -> std::optional<std::string> {
    if (view.legal_actions_size() == 0) return std::nullopt;
    const uint32_t index = rng->Below(static_cast<uint32_t>(view.legal_actions_size()));
    return view.legal_actions(static_cast<int>(index)).text();
  };
}

google::protobuf::FieldMask PlayingViewMask() {
  google::protobuf::FieldMask mask;
  for (const char* field :
       {"seat", "sequence", "current_seat", "terminal", "legal_actions", "last_event"}) {
    mask.add_paths(field);
  }
  return mask;
}

namespace {

// How many WrongReplica answers in a row a player follows at once before it backs off (and
// starts again from its home address): bounds the bouncing while replicas disagree.
constexpr int kMaxFollows = 16;

bool MayAct(const v1::SeatView& view) {
  return !view.terminal() && view.current_seat() == view.seat() &&
         view.legal_actions_size() > 0;
}

}  // namespace

// The player's state, shared by the RemotePlayer, its streams and its reconnect alarms, so
// that whichever finishes last frees it. Gets one stream's responses at a time (a new stream
// is opened only after the previous one is done), so views are handled in order.
//
// Locking: mu_ is never held while calling into gRPC (TryCancel, StartCall, Alarm::Cancel) or
// the caller's callbacks.
class RemotePlayer::Core : public std::enable_shared_from_this<RemotePlayer::Core> {
 public:
  // What a stream does after a response: send an action, or cancel itself (the player gave up).
  struct Reaction {
    std::optional<v1::PlayRequest> send;
    // How long to wait before sending (RemotePlayerOptions::think).
    absl::Duration delay;
    bool cancel = false;
  };

  Core(v1::ExecutionService::StubInterface& stub, ClientQueues& queues, std::string match,
       std::string token, Chooser chooser, RemotePlayerOptions options)
      : stub_(stub),
        queues_(queues),
        match_(std::move(match)),
        token_(std::move(token)),
        chooser_(std::move(chooser)),
        options_(std::move(options)) {}

  void Start();
  void Cancel();
  // May take the view out of `response` (it is kept as the last view without a copy).
  Reaction OnResponse(v1::PlayResponse& response);
  // The action sent at `seen_sequence` has just gone out, after its think time.
  void NoteSent(int64_t seen_sequence);
  // `stream` is the finished stream's last owning reference but current_'s; it is destroyed
  // before the player finishes or reconnects.
  void OnStreamDone(const grpc::Status& status, std::shared_ptr<Stream> stream);
  absl::Status Wait();
  std::optional<absl::Status> WaitFor(absl::Duration timeout);
  bool done() const;
  RemotePlayerStats stats() const;
  std::optional<v1::SeatView> last_view() const;

 private:
  struct Pending {
    int64_t seen_sequence;
    absl::Time sent;
  };

  // Opens a stream and sends its hello; mu_ not held.
  void OpenStream();
  void OnAlarm(bool ok);
  std::optional<v1::PlayRequest> Choose(const v1::SeatView& view);
  void AcknowledgeLocked(const v1::SeatView& view) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Marks the player finishing with `status`; false when it already was. The caller then
  // calls Finish() without mu_.
  bool BeginFinishLocked(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Finish();

  v1::ExecutionService::StubInterface& stub_;
  // Stubs for the replicas the player followed, by address; kept, as a stream begun on one may
  // still be finishing. `at_` is the one in use, null for `stub_` (the home address).
  absl::flat_hash_map<std::string, std::shared_ptr<v1::ExecutionService::StubInterface>> followed_
      ABSL_GUARDED_BY(mu_);
  v1::ExecutionService::StubInterface* at_ ABSL_GUARDED_BY(mu_) = nullptr;
  int follows_ ABSL_GUARDED_BY(mu_) = 0;  // since a stream last worked
  // Owned by the RemotePlayer, which outlives every operation of its streams.
  ClientQueues& queues_;
  const std::string match_;
  const std::string token_;
  Chooser chooser_;
  const RemotePlayerOptions options_;

  mutable absl::Mutex mu_;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  bool finishing_ ABSL_GUARDED_BY(mu_) = false;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
  std::optional<absl::Status> forced_status_ ABSL_GUARDED_BY(mu_);
  std::shared_ptr<Stream> current_ ABSL_GUARDED_BY(mu_);
  // The reconnect alarm waiting to fire, and whether Set() has been called on it.
  grpc::Alarm* pending_alarm_ ABSL_GUARDED_BY(mu_) = nullptr;
  bool alarm_armed_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::unique_ptr<grpc::Alarm>> alarms_ ABSL_GUARDED_BY(mu_);
  std::optional<absl::Time> failing_since_ ABSL_GUARDED_BY(mu_);
  absl::Duration backoff_ ABSL_GUARDED_BY(mu_);
  std::optional<v1::SeatView> last_view_ ABSL_GUARDED_BY(mu_);
  // The sequence number of the view last acted on: a view is acted on once.
  int64_t acted_sequence_ ABSL_GUARDED_BY(mu_) = -1;
  int consecutive_errors_ ABSL_GUARDED_BY(mu_) = 0;
  std::deque<Pending> pending_ ABSL_GUARDED_BY(mu_);
  RemotePlayerStats stats_ ABSL_GUARDED_BY(mu_);
};

// One Play call on gRPC's async API. Every operation of the call, and every think-time timer,
// completes on the one thread of the queue it was given, in order, so the stream's state needs
// no lock; only Cancel comes from other threads (TryCancel may be called from any). Owns itself
// (self_) from Begin until the call has finished and its last operation has completed; then it
// hands itself to the Core. It is shared with the Core while it is the current stream, so
// Cancel() can reach its context safely.
//
// One read is always outstanding until the reads end (the server closed the stream, or the
// call broke or was cancelled); one write at a time, the hello first. Finish is started once
// the reads have ended and no write is in flight; an action still in its think time then is
// not sent, and the stream is handed over once that time is up.
class RemotePlayer::Stream {
 public:
  Stream(std::shared_ptr<Core> core, grpc::CompletionQueue* queue)
      : core_(std::move(core)), queue_(queue) {}

  void Begin(std::shared_ptr<Stream> self, v1::ExecutionService::StubInterface& stub,
             absl::string_view token, v1::PlayRequest hello) {
    self_ = std::move(self);
    AddBearerToken(context_, token);
    writes_.push_back(std::move(hello));
    call_ = stub.PrepareAsyncPlay(&context_, queue_);
    ++outstanding_;
    // From here on the stream belongs to its queue's thread.
    call_->StartCall(&started_tag_);
  }

  void Cancel() { context_.TryCancel(); }

 private:
  enum class Event { kStarted, kRead, kWritten, kFinished };

  using Tag = EventTag<Stream, Event>;
  friend Tag;

  // An action held back for its think time: a timer of the stream's queue thread.
  class DelayedSend final : public AsyncTag {
   public:
    DelayedSend(Stream* stream, v1::PlayRequest request)
        : stream_(stream), request_(std::move(request)) {}
    void Complete(bool) override { stream_->DelayedSendDue(this); }
    v1::PlayRequest& request() { return request_; }

   private:
    Stream* const stream_;
    v1::PlayRequest request_;
  };

  void Completed(Event event, bool ok) {
    --outstanding_;
    switch (event) {
      case Event::kStarted:
        if (ok) {
          started_ = true;
          StartRead();
          WriteNext();
        } else {
          reads_over_ = true;  // the call never started; Finish says why
        }
        break;
      case Event::kRead:
        if (ok) {
          OnRead();
        } else {
          reads_over_ = true;  // the server closed the stream, or the call is gone
        }
        break;
      case Event::kWritten:
        writing_ = false;
        writes_.pop_front();
        if (ok) {
          WriteNext();
        } else {
          writes_.clear();  // the stream is broken; the reads end too, and Finish says why
          broken_ = true;
        }
        break;
      case Event::kFinished:
        finished_ = true;
        break;
    }
    FinishOrHandOver();
  }

  void StartRead() {
    ++outstanding_;
    call_->Read(&response_, &read_tag_);
  }

  void OnRead() {
    Core::Reaction reaction = core_->OnResponse(response_);
    if (reaction.cancel) {
      context_.TryCancel();  // the read below then fails, and the stream finishes
    } else if (reaction.send.has_value()) {
      if (reaction.delay > absl::ZeroDuration()) {
        ++outstanding_;
        ClientQueues::RunLater(absl::Now() + reaction.delay,
                               new DelayedSend(this, *std::move(reaction.send)));
      } else {
        Send(*std::move(reaction.send));
      }
    }
    StartRead();
  }

  void DelayedSendDue(DelayedSend* delayed) {
    --outstanding_;
    if (!reads_over_) {
      core_->NoteSent(delayed->request().seen_sequence());
      Send(std::move(delayed->request()));
    }
    delete delayed;
    FinishOrHandOver();
  }

  void Send(v1::PlayRequest request) {
    if (broken_ || reads_over_) return;
    writes_.push_back(std::move(request));
    WriteNext();
  }

  // Deque elements stay put while others are added, so the front outlives its write.
  void WriteNext() {
    if (!started_ || writing_ || broken_ || reads_over_ || writes_.empty()) return;
    writing_ = true;
    ++outstanding_;
    call_->Write(writes_.front(), &written_tag_);
  }

  // Once the reads have ended, finishes the call when no write is in flight; once the call has
  // finished and nothing is outstanding (a think time still running included), hands the
  // stream over (which may destroy it: nothing of `this` is used after that).
  void FinishOrHandOver() {
    if (reads_over_ && !finish_started_) {
      if (!writing_) {
        finish_started_ = true;
        ++outstanding_;
        call_->Finish(&status_, &finished_tag_);
      }
    }
    if (finished_ && outstanding_ == 0) {
      std::shared_ptr<Core> core = core_;
      core->OnStreamDone(grpc::Status(status_), std::move(self_));
    }
  }

  const std::shared_ptr<Core> core_;
  grpc::CompletionQueue* const queue_;
  std::shared_ptr<Stream> self_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientAsyncReaderWriterInterface<v1::PlayRequest, v1::PlayResponse>> call_;
  Tag started_tag_{this, Event::kStarted};
  Tag read_tag_{this, Event::kRead};
  Tag written_tag_{this, Event::kWritten};
  Tag finished_tag_{this, Event::kFinished};
  v1::PlayResponse response_;
  grpc::Status status_;
  // The writes not yet done; the front is being written while writing_.
  std::deque<v1::PlayRequest> writes_;
  int outstanding_ = 0;  // operations and think times started and not yet completed
  bool started_ = false;
  bool writing_ = false;
  bool broken_ = false;
  bool reads_over_ = false;
  bool finish_started_ = false;
  bool finished_ = false;
};

void RemotePlayer::Core::Start() {
  {
    absl::MutexLock lock(&mu_);
    if (started_ || finishing_) return;
    started_ = true;
  }
  OpenStream();
}

void RemotePlayer::Core::OpenStream() {
  auto stream = std::make_shared<Stream>(shared_from_this(), queues_.Pick());
  bool finish = false;
  {
    absl::MutexLock lock(&mu_);
    if (cancelled_) {
      finish = BeginFinishLocked(absl::CancelledError("cancelled"));
    } else {
      current_ = stream;
      // The hello's view says where the match stands; act on it even if its sequence number
      // is the one acted on before (that action's answer was lost with the old stream).
      acted_sequence_ = -1;
    }
  }
  if (finish) {
    Finish();
    return;
  }
  v1::PlayRequest hello;
  hello.set_name(match_);
  *hello.mutable_view_mask() = options_.view_mask;
  hello.set_replay_events(options_.replay_events);
  v1::ExecutionService::StubInterface* stub = &stub_;
  {
    absl::MutexLock lock(&mu_);
    if (at_ != nullptr) stub = at_;
  }
  stream->Begin(stream, *stub, token_, std::move(hello));
}

void RemotePlayer::Core::Cancel() {
  std::shared_ptr<Stream> stream;
  grpc::Alarm* alarm = nullptr;
  bool finish_now = false;
  {
    absl::MutexLock lock(&mu_);
    if (finishing_ || cancelled_) return;
    cancelled_ = true;
    stream = current_;
    // An alarm not yet set is cancelled by the thread setting it, once it sees cancelled_.
    if (alarm_armed_) alarm = pending_alarm_;
    if (!started_) finish_now = BeginFinishLocked(absl::CancelledError("cancelled before it started"));
  }
  if (stream != nullptr) stream->Cancel();
  if (alarm != nullptr) alarm->Cancel();
  if (finish_now) Finish();
}

std::optional<v1::PlayRequest> RemotePlayer::Core::Choose(const v1::SeatView& view) {
  std::optional<std::string> text = chooser_(view);
  if (!text.has_value()) return std::nullopt;
  v1::PlayRequest request;
  request.set_name(match_);
  request.mutable_action()->set_text(*std::move(text));
  request.set_seen_sequence(view.sequence());
  absl::MutexLock lock(&mu_);
  ++stats_.actions_sent;
  pending_.push_back({view.sequence(), absl::Now()});
  return request;
}

void RemotePlayer::Core::NoteSent(int64_t seen_sequence) {
  absl::MutexLock lock(&mu_);
  for (Pending& pending : pending_) {
    if (pending.seen_sequence == seen_sequence) pending.sent = absl::Now();
  }
}

void RemotePlayer::Core::AcknowledgeLocked(const v1::SeatView& view) {
  const bool ours = view.has_last_event() && view.last_event().seat() == view.seat();
  if (ours && !pending_.empty() && view.sequence() > pending_.front().seen_sequence) {
    const absl::Time now = absl::Now();
    stats_.latencies.push_back(now - pending_.front().sent);
    stats_.acknowledged_at.push_back(now);
    stats_.applied_at.push_back(view.last_event().has_create_time()
                                    ? FromTimestamp(view.last_event().create_time())
                                    : absl::InfinitePast());
    ++stats_.actions_acknowledged;
    pending_.pop_front();
    consecutive_errors_ = 0;
  }
  // An action sent at sequence s is event s + 1 if it is played at all; once the match is past
  // that without acknowledging it, its answer was lost (a reconnect) or is a rejection still
  // on its way. Either way it can no longer be acknowledged.
  while (!pending_.empty() && pending_.front().seen_sequence + 1 < view.sequence()) {
    pending_.pop_front();
  }
}

RemotePlayer::Core::Reaction RemotePlayer::Core::OnResponse(v1::PlayResponse& response) {
  Reaction reaction;
  if (response.has_view()) {
    v1::SeatView& view = *response.mutable_view();
    if (options_.on_view) options_.on_view(view);
    bool act = false;
    {
      absl::MutexLock lock(&mu_);
      ++stats_.views;
      failing_since_.reset();  // a stream that delivers views works
      follows_ = 0;
      AcknowledgeLocked(view);
      act = !finishing_ && !cancelled_ && MayAct(view) && view.sequence() != acted_sequence_;
      if (act) acted_sequence_ = view.sequence();
    }
    if (act) {
      reaction.send = Choose(view);
      reaction.delay = options_.think ? options_.think() : absl::ZeroDuration();
    }
    absl::MutexLock lock(&mu_);
    if (!last_view_.has_value()) last_view_.emplace();
    last_view_->Swap(&view);
    return reaction;
  }
  if (!response.has_rejected()) return reaction;

  const v1::ActionRejected& rejected = response.rejected();
  if (options_.on_rejected) options_.on_rejected(rejected);
  std::optional<v1::SeatView> retry_from;
  {
    absl::MutexLock lock(&mu_);
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
      return p.seen_sequence == rejected.seen_sequence();
    });
    if (it != pending_.end()) pending_.erase(it);
    if (rejected.code() == static_cast<int>(grpc::StatusCode::ABORTED)) {
      ++stats_.stale_rejections;  // another event came first; its view is on the way
      return reaction;
    }
    ++stats_.error_rejections;
    ++consecutive_errors_;
    if (consecutive_errors_ >= options_.max_consecutive_errors) {
      if (!forced_status_.has_value()) {
        forced_status_ = absl::FailedPreconditionError(absl::StrCat(
            "gave up after ", consecutive_errors_, " rejected actions in a row; the last, '",
            rejected.action().text(), "' at sequence ", rejected.seen_sequence(), ", got code ",
            rejected.code(), ": ", rejected.message()));
      }
      reaction.cancel = true;
      return reaction;
    }
    if (last_view_.has_value() && last_view_->sequence() == rejected.seen_sequence() &&
        MayAct(*last_view_) && !cancelled_ && !finishing_) {
      retry_from = *last_view_;
    }
  }
  if (retry_from.has_value()) reaction.send = Choose(*retry_from);
  return reaction;
}

void RemotePlayer::Core::OnStreamDone(const grpc::Status& status,
                                      std::shared_ptr<Stream> stream) {
  grpc::Alarm* alarm = nullptr;
  absl::Duration delay;
  bool finish = false;
  std::shared_ptr<Stream> current;
  {
    absl::MutexLock lock(&mu_);
    current = std::move(current_);
    const bool ended = last_view_.has_value() && last_view_->terminal();
    if (forced_status_.has_value()) {
      finish = BeginFinishLocked(*forced_status_);
    } else if (ended) {
      // The match is over; how the stream ended after that does not matter.
      finish = BeginFinishLocked(absl::OkStatus());
    } else if (cancelled_) {
      finish = BeginFinishLocked(status.ok() ? absl::CancelledError("cancelled")
                                             : FromGrpc(status));
    } else if ((status.error_code() == grpc::StatusCode::UNAVAILABLE ||
                // Not ours (cancelled_ is false): a server that shut down cancelling calls.
                status.error_code() == grpc::StatusCode::CANCELLED) &&
               options_.reconnect.has_value()) {
      const ReconnectPolicy& policy = *options_.reconnect;
      const absl::Time now = absl::Now();
      if (!failing_since_.has_value()) {
        failing_since_ = now;
        backoff_ = policy.initial_backoff;
      }
      // Another replica plays the match: go there at once (a bounded number of times, so two
      // replicas that disagree cannot bounce the player for ever).
      absl::Status answer = FromGrpc(status);
      std::optional<v1::WrongReplica> where = GetStatusDetail<v1::WrongReplica>(answer);
      const bool follow =
          where.has_value() && options_.follow_replica != nullptr && follows_ < kMaxFollows;
      if (follow) {
        ++follows_;
        std::shared_ptr<v1::ExecutionService::StubInterface>& there = followed_[where->address()];
        if (there == nullptr) there = options_.follow_replica(where->address());
        at_ = there.get();
      } else {
        // The replica followed to is gone (killed, or restarting), or the replicas disagree for
        // now: after a backoff, the home address says afresh who plays the match.
        at_ = nullptr;
        follows_ = 0;
      }
      if (follow || now - *failing_since_ < policy.give_up_after) {
        delay = follow ? absl::ZeroDuration() : backoff_;
        if (!follow) backoff_ = std::min(backoff_ * 2, policy.max_backoff);
        alarms_.push_back(std::make_unique<grpc::Alarm>());
        alarm = alarms_.back().get();
        pending_alarm_ = alarm;
        alarm_armed_ = false;
      } else {
        finish = BeginFinishLocked(absl::UnavailableError(
            absl::StrCat("no working Play stream for ", absl::FormatDuration(now - *failing_since_),
                         "; last error: ", status.error_message())));
      }
    } else if (status.ok()) {
      finish = BeginFinishLocked(
          absl::InternalError("the Play stream closed before the match ended"));
    } else {
      finish = BeginFinishLocked(FromGrpc(status));
    }
  }
  // Destroyed here, outside mu_ (unless Cancel() still holds it for a moment).
  current.reset();
  stream.reset();
  if (alarm != nullptr) {
    std::weak_ptr<Core> weak = weak_from_this();
    alarm->Set(absl::ToChronoTime(absl::Now() + delay), [weak](bool ok) {
      if (std::shared_ptr<Core> core = weak.lock()) core->OnAlarm(ok);
    });
    // A Cancel() that came before the alarm was set left cancelling it to us.
    bool cancel = false;
    {
      absl::MutexLock lock(&mu_);
      alarm_armed_ = true;
      cancel = cancelled_ && pending_alarm_ == alarm;
    }
    if (cancel) alarm->Cancel();
  }
  if (finish) Finish();
}

void RemotePlayer::Core::OnAlarm(bool ok) {
  bool finish = false;
  {
    absl::MutexLock lock(&mu_);
    pending_alarm_ = nullptr;
    alarm_armed_ = false;
    if (cancelled_ || !ok) {
      finish = BeginFinishLocked(absl::CancelledError("cancelled while reconnecting"));
    } else {
      ++stats_.reconnects;
    }
  }
  if (finish) {
    Finish();
    return;
  }
  OpenStream();
}

bool RemotePlayer::Core::BeginFinishLocked(absl::Status status) {
  if (finishing_) return false;
  finishing_ = true;
  status_ = std::move(status);
  return true;
}

void RemotePlayer::Core::Finish() {
  absl::Status status;
  {
    absl::MutexLock lock(&mu_);
    status = status_;
  }
  // on_done runs before done_ is set, so Wait() returns only after it.
  if (options_.on_done) options_.on_done(status);
  absl::MutexLock lock(&mu_);
  done_ = true;
}

absl::Status RemotePlayer::Core::Wait() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(&done_));
  return status_;
}

std::optional<absl::Status> RemotePlayer::Core::WaitFor(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  if (!mu_.AwaitWithTimeout(absl::Condition(&done_), timeout)) return std::nullopt;
  return status_;
}

bool RemotePlayer::Core::done() const {
  absl::MutexLock lock(&mu_);
  return done_;
}

RemotePlayerStats RemotePlayer::Core::stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

std::optional<v1::SeatView> RemotePlayer::Core::last_view() const {
  absl::MutexLock lock(&mu_);
  return last_view_;
}

StubFactory StubsOf(std::shared_ptr<ReplicaRouter> router) {
  return [router = std::move(router)](
             const std::string& address) -> std::shared_ptr<v1::ExecutionService::StubInterface> {
    // The router keeps its stubs for its life; the pointer keeps the router alive.
    return std::shared_ptr<v1::ExecutionService::StubInterface>(router, &router->At(address));
  };
}

StubFactory PlaintextStubs() { return StubsOf(std::make_shared<ReplicaRouter>("")); }

RemotePlayer::RemotePlayer(v1::ExecutionService::StubInterface& stub, std::string match,
                           std::string seat_token, Chooser chooser, RemotePlayerOptions options)
    : match_(match),
      queues_(ClientQueues::Shared()),
      core_(std::make_shared<Core>(stub, *queues_, std::move(match), std::move(seat_token),
                                   std::move(chooser), std::move(options))) {}

RemotePlayer::~RemotePlayer() {
  core_->Cancel();
  core_->Wait().IgnoreError();  // the owner asked for the player to go, not for its result
}

void RemotePlayer::Start() { core_->Start(); }
void RemotePlayer::Cancel() { core_->Cancel(); }
absl::Status RemotePlayer::Wait() { return core_->Wait(); }
std::optional<absl::Status> RemotePlayer::WaitFor(absl::Duration timeout) {
  return core_->WaitFor(timeout);
}
bool RemotePlayer::done() const { return core_->done(); }
RemotePlayerStats RemotePlayer::stats() const { return core_->stats(); }
std::optional<v1::SeatView> RemotePlayer::last_view() const { return core_->last_view(); }

}  // namespace boneyard::client
