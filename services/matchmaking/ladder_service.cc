#include "services/matchmaking/ladder_service.h"

#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {
namespace {

// The most events a stream holds for a slow reader; past it, it drops what the feed hands it
// and reads again from the database (from the last event it holds) once its client has read
// those it holds.
constexpr size_t kMaxQueued = 1000;

grpc::Status Stopping() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the service is stopping");
}

}  // namespace

grpc::Status LadderServiceImpl::CreateLadder(grpc::ServerContext* context,
                                             const v1::CreateLadderRequest* request,
                                             v1::Ladder* response) {
  return Reply(logic_.CreateLadder(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::GetLadder(grpc::ServerContext*, const v1::GetLadderRequest* request,
                                          v1::Ladder* response) {
  return Reply(logic_.GetLadder(*request), response);
}

grpc::Status LadderServiceImpl::ListLadders(grpc::ServerContext*,
                                            const v1::ListLaddersRequest* request,
                                            v1::ListLaddersResponse* response) {
  return Reply(logic_.ListLadders(*request), response);
}

grpc::Status LadderServiceImpl::JoinLadder(grpc::ServerContext* context,
                                           const v1::JoinLadderRequest* request,
                                           v1::LadderMember* response) {
  return Reply(logic_.JoinLadder(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::ListLadderStandings(grpc::ServerContext*,
                                                    const v1::ListLadderStandingsRequest* request,
                                                    v1::ListLadderStandingsResponse* response) {
  return Reply(logic_.ListLadderStandings(*request), response);
}

grpc::Status LadderServiceImpl::CreateChallenge(grpc::ServerContext* context,
                                                const v1::CreateChallengeRequest* request,
                                                v1::Challenge* response) {
  return Reply(logic_.CreateChallenge(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::GetChallenge(grpc::ServerContext* context,
                                             const v1::GetChallengeRequest* request,
                                             v1::Challenge* response) {
  return Reply(logic_.GetChallenge(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::AcceptChallenge(grpc::ServerContext* context,
                                                const v1::AcceptChallengeRequest* request,
                                                v1::Challenge* response) {
  return Reply(logic_.AcceptChallenge(BearerToken(*context), *request), response);
}

grpc::Status LadderServiceImpl::DeclineChallenge(grpc::ServerContext* context,
                                                 const v1::DeclineChallengeRequest* request,
                                                 v1::Challenge* response) {
  return Reply(logic_.DeclineChallenge(BearerToken(*context), *request), response);
}

// One WatchEvents stream. Its reads from the database (token, caps, backlog, catching up) run
// on a worker; the feed's events arrive on the feed's thread. One write is in flight at a time;
// events wait in a bounded queue.
//
// Nothing is missed or sent twice or out of order across the backlog and the feed: the stream
// subscribes first, then reads (LadderFeed's comment: the read finds every change up to where
// the feed starts for it). While a read is under way, what the feed hands over waits aside;
// when the read is back, those numbered above the read's last are queued after it, in order
// (numbers commit in order, so one committed after the read's snapshot is numbered above all
// the read found). A read cut at a page, or a stream whose queue overflowed ("behind"), reads
// again from its last queued number when its client has read the queue: the feed's events are
// dropped meanwhile, since that later read will find them.
//
// Locks: mu_ may be held while calling the feed, the caps or the workers' Post, never while
// calling gRPC.
class LadderServiceImpl::EventStream final : public grpc::ServerWriteReactor<v1::LadderEvent>,
                                             public LadderFeed::Subscriber,
                                             public std::enable_shared_from_this<EventStream> {
 public:
  // The token and the peer are copied now: a worker may still be reading after OnDone.
  EventStream(LadderServiceImpl& service, grpc::CallbackServerContext& context,
              const v1::WatchEventsRequest& request)
      : service_(service),
        token_(BearerToken(context)),
        peer_(context.peer()),
        after_(request.after_sequence()) {}

  void Begin() {
    std::shared_ptr<EventStream> self = shared_from_this();
    if (service_.streams_.stopping() || !service_.workers_.Post([self] { self->Open(); })) {
      End(Stopping());
    }
  }

  // Ends the stream with `status` (after the write in flight, if any). Idempotent.
  void End(const grpc::Status& status) {
    {
      absl::MutexLock lock(&mu_);
      if (finished_) return;
      if (writing_) {
        if (!finish_after_write_.has_value()) finish_after_write_ = status;
        return;
      }
      finished_ = true;
    }
    Finish(status);
  }

  void OnEvent(const std::shared_ptr<const v1::LadderEvent>& event, int64_t sequence) override {
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || done_) return;
      if (reading_) {
        if (aside_.size() < kMaxQueued) {
          aside_.emplace_back(event, sequence);
        } else {
          aside_lost_ = true;
        }
        return;
      }
      if (sequence <= mark_ || behind_) return;  // sent already, or the next read finds it
      if (queue_.size() >= kMaxQueued) {
        behind_ = true;
        return;
      }
      queue_.push_back(event);
      mark_ = sequence;
      if (writing_ || !TakeNext()) return;
    }
    StartWrite(&message_);
  }

  void OnWriteDone(bool ok) override {
    std::optional<grpc::Status> finish;
    bool read = false;
    {
      absl::MutexLock lock(&mu_);
      writing_ = false;
      if (!ok) {
        finish = grpc::Status::OK;  // the client went away
      } else if (finish_after_write_.has_value()) {
        finish = *finish_after_write_;
      } else if (!TakeNext()) {
        read = NeedRead();
        if (!read) return;
      }
      if (finish.has_value()) {
        if (finished_) return;
        finished_ = true;
      }
    }
    if (finish.has_value()) {
      Finish(*finish);
    } else if (read) {
      PostRead();
    } else {
      StartWrite(&message_);
    }
  }

  void OnCancel() override {
    End(grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the stream"));
  }

  void OnDone() override {
    std::shared_ptr<EventStream> self = shared_from_this();  // alive to the end of this call
    {
      absl::MutexLock lock(&mu_);
      done_ = true;
      if (player_.has_value()) {
        service_.feed_.Unsubscribe(*player_, this);
        service_.caps_.Release(absl::StrCat("players/", *player_), client_);
      }
    }
    service_.streams_.Forget(this);
  }

 private:
  // On a worker: the token, the caps, the subscription and the backlog.
  void Open() {
    if (service_.streams_.stopping()) return End(Stopping());
    absl::StatusOr<std::string> player = service_.logic_.Watcher(token_);
    if (!player.ok()) return End(ToGrpcStatus(player.status()));
    absl::Status capped;
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || done_) return;
      client_ = StreamClient(*player, peer_);
      capped = service_.caps_.Acquire(absl::StrCat("players/", *player), client_);
      if (!capped.ok()) {
        finished_ = true;  // Finish below, outside the lock
      } else {
        player_ = *player;
        reading_ = true;
        service_.feed_.Subscribe(*player_, shared_from_this());  // first, then read
      }
    }
    if (!capped.ok()) return Finish(ToGrpcStatus(capped));
    Read(service_.logic_.FirstEvents(*player, after_), /*first=*/true);
  }

  // On a worker: the events after the last one queued.
  void CatchUp() {
    if (service_.streams_.stopping()) return End(Stopping());
    std::string player;
    int64_t after = 0;
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || done_) return;
      player = *player_;
      after = mark_;
    }
    Read(service_.logic_.EventsAfter(player, after), /*first=*/false);
  }

  // A read is back: queue what it found, then what the feed handed over meanwhile.
  void Read(absl::StatusOr<LadderLogic::Batch> batch, bool first) {
    if (!batch.ok()) return End(ToGrpcStatus(batch.status()));
    bool write = false, read = false;
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || done_) return;
      reading_ = false;
      // The first read of a new stream lists the open challenges, numbered anywhere up to the
      // clock it read first (batch->sequence); later reads are numbered above the mark.
      for (v1::LadderEvent& event : batch->events) {
        if (!first && event.challenge().sequence() <= mark_) continue;
        queue_.push_back(std::make_shared<const v1::LadderEvent>(std::move(event)));
      }
      mark_ = std::max(mark_, batch->sequence);
      behind_ = batch->more || aside_lost_;
      if (!behind_) {
        for (const auto& [event, sequence] : aside_) {
          if (sequence <= mark_) continue;
          queue_.push_back(event);
          mark_ = sequence;
        }
      }
      aside_.clear();
      aside_lost_ = false;
      if (!writing_) {
        write = TakeNext();
        if (!write) read = NeedRead();
      }
    }
    if (write) StartWrite(&message_);
    if (read) PostRead();
  }

  void PostRead() {
    std::shared_ptr<EventStream> self = shared_from_this();
    if (!service_.workers_.Post([self] { self->CatchUp(); })) End(Stopping());
  }

  // Makes the queue's next event the message being written; false when the queue is empty.
  bool TakeNext() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (queue_.empty() || finished_) return false;
    message_ = *queue_.front();
    queue_.pop_front();
    writing_ = true;
    return true;
  }
  // Whether to read from the database now (behind, with nothing left to write); if so it is
  // marked as under way.
  bool NeedRead() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (!behind_ || reading_ || writing_ || !queue_.empty() || finished_) return false;
    reading_ = true;
    return true;
  }

  LadderServiceImpl& service_;
  const std::optional<std::string> token_;
  const std::string peer_;
  const int64_t after_;

  absl::Mutex mu_;
  std::optional<std::string> player_ ABSL_GUARDED_BY(mu_);  // once counted and subscribed
  std::string client_ ABSL_GUARDED_BY(mu_);
  std::deque<std::shared_ptr<const v1::LadderEvent>> queue_ ABSL_GUARDED_BY(mu_);
  int64_t mark_ ABSL_GUARDED_BY(mu_) = 0;  // the highest number queued (or read up to)
  bool reading_ ABSL_GUARDED_BY(mu_) = false;
  bool behind_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::pair<std::shared_ptr<const v1::LadderEvent>, int64_t>> aside_
      ABSL_GUARDED_BY(mu_);
  bool aside_lost_ ABSL_GUARDED_BY(mu_) = false;
  // The message being written: changed only while no write is in flight.
  v1::LadderEvent message_;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> finish_after_write_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
};

LadderServiceImpl::LadderServiceImpl(LadderLogic& logic, LadderWatchOptions options)
    : logic_(logic),
      feed_(logic, {.interval = options.feed_interval}),
      caps_({.per_resource = options.max_per_player,
             .per_client = options.max_per_client,
             .per_resource_name = "--max_event_streams_per_player",
             .per_client_name = "--max_watchers_per_client"}),
      workers_(options.start_workers, "watch-events") {}

LadderServiceImpl::~LadderServiceImpl() {
  workers_.Stop();
  feed_.Stop();
}

grpc::ServerWriteReactor<v1::LadderEvent>* LadderServiceImpl::WatchEvents(
    grpc::CallbackServerContext* context, const v1::WatchEventsRequest* request) {
  auto stream = std::make_shared<EventStream>(*this, *context, *request);
  streams_.Add(stream);
  stream->Begin();
  return stream.get();
}

void LadderServiceImpl::Stop() {
  for (const std::shared_ptr<EventStream>& stream : streams_.Stop()) stream->End(Stopping());
  workers_.Stop();  // the reads already queued run now and end their streams the same way
  feed_.Stop();
}

}  // namespace boneyard::matchmaking
