#include "services/matchmaking/tournament_service.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {
namespace {

grpc::Status WatchStreamStopping() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the service is stopping");
}

}  // namespace

grpc::Status TournamentServiceImpl::CreateTournament(grpc::ServerContext* context,
                                                     const v1::CreateTournamentRequest* request,
                                                     v1::Tournament* response) {
  return Reply(logic_.CreateTournament(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::GetTournament(grpc::ServerContext*,
                                                  const v1::GetTournamentRequest* request,
                                                  v1::Tournament* response) {
  return Reply(logic_.GetTournament(*request), response);
}

grpc::Status TournamentServiceImpl::ListTournaments(grpc::ServerContext*,
                                                    const v1::ListTournamentsRequest* request,
                                                    v1::ListTournamentsResponse* response) {
  return Reply(logic_.ListTournaments(*request), response);
}

grpc::Status TournamentServiceImpl::RegisterPlayer(grpc::ServerContext* context,
                                                   const v1::RegisterPlayerRequest* request,
                                                   v1::Entrant* response) {
  return Reply(logic_.RegisterPlayer(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::RegisterTeam(grpc::ServerContext* context,
                                                 const v1::RegisterTeamRequest* request,
                                                 v1::Entrant* response) {
  return Reply(logic_.RegisterTeam(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::WithdrawPlayer(grpc::ServerContext* context,
                                                   const v1::WithdrawPlayerRequest* request,
                                                   v1::Entrant* response) {
  return Reply(logic_.WithdrawPlayer(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::ListEntrants(grpc::ServerContext*,
                                                 const v1::ListEntrantsRequest* request,
                                                 v1::ListEntrantsResponse* response) {
  return Reply(logic_.ListEntrants(*request), response);
}

grpc::Status TournamentServiceImpl::StartTournament(grpc::ServerContext* context,
                                                    const v1::StartTournamentRequest* request,
                                                    v1::Tournament* response) {
  return Reply(logic_.StartTournament(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::AdvanceTournament(grpc::ServerContext* context,
                                                      const v1::AdvanceTournamentRequest* request,
                                                      v1::Tournament* response) {
  return Reply(logic_.AdvanceTournament(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::ListRounds(grpc::ServerContext* context,
                                               const v1::ListRoundsRequest* request,
                                               v1::ListRoundsResponse* response) {
  return Reply(logic_.ListRounds(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::GetPairings(grpc::ServerContext* context,
                                                const v1::GetPairingsRequest* request,
                                                v1::Round* response) {
  return Reply(logic_.GetPairings(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::GetStandings(grpc::ServerContext*,
                                                 const v1::GetStandingsRequest* request,
                                                 v1::Standings* response) {
  return Reply(logic_.GetStandings(*request), response);
}

grpc::Status TournamentServiceImpl::SetResult(grpc::ServerContext* context,
                                              const v1::SetResultRequest* request,
                                              v1::Pairing* response) {
  return Reply(logic_.SetResult(BearerToken(*context), *request), response);
}

grpc::Status TournamentServiceImpl::ExportTrf(grpc::ServerContext*,
                                              const v1::ExportTrfRequest* request,
                                              v1::ExportTrfResponse* response) {
  return Reply(logic_.ExportTrf(*request), response);
}

grpc::Status TournamentServiceImpl::ImportTournament(grpc::ServerContext* context,
                                                     const v1::ImportTournamentRequest* request,
                                                     v1::Tournament* response) {
  return Reply(logic_.ImportTournament(BearerToken(*context), *request), response);
}

// One WatchTournament stream. Its start (token, caps, subscription, first snapshot) runs on a
// worker; then the feed's updates arrive on the feed's thread. One write is in flight at a
// time; an update that arrives meanwhile replaces the one waiting (the kind of the message is
// named when it is written, from what this stream sent last), so a slow reader holds at most
// one update, however fast the event changes.
//
// Locks: the stream's mu_ may be held while calling the feed or the caps (never the other
// way round: the feed delivers with no lock held), and is never held while calling gRPC.
class TournamentServiceImpl::WatchStream final
    : public grpc::ServerWriteReactor<v1::TournamentUpdate>,
      public TournamentFeed::Subscriber,
      public std::enable_shared_from_this<WatchStream> {
 public:
  // The token and the peer are copied now: the context is not to be read after OnDone, and a
  // worker may still be starting then.
  WatchStream(TournamentServiceImpl& service, grpc::CallbackServerContext& context,
              const v1::WatchTournamentRequest& request)
      : service_(service),
        token_(BearerToken(context)),
        peer_(context.peer()),
        request_(request) {}

  void Begin() {
    std::shared_ptr<WatchStream> self = shared_from_this();
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

  void OnUpdate(const std::shared_ptr<const v1::TournamentUpdate>& update,
                int64_t version) override {
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || done_) return;
      pending_ = {update, version};
      // Before the snapshot is out, or while a write is in flight, the update waits.
      if (watch_ == nullptr || writing_ || !TakePending()) return;
    }
    StartWrite(&message_);
  }

  void OnWriteDone(bool ok) override {
    std::optional<grpc::Status> finish;
    {
      absl::MutexLock lock(&mu_);
      writing_ = false;
      if (!ok) {
        finish = grpc::Status::OK;  // the client went away
      } else if (finish_after_write_.has_value()) {
        finish = *finish_after_write_;
      } else if (!TakePending()) {
        return;
      }
      if (finish.has_value()) {
        if (finished_) return;
        finished_ = true;
      }
    }
    if (finish.has_value()) {
      Finish(*finish);
    } else {
      StartWrite(&message_);
    }
  }

  void OnCancel() override {
    End(grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the watch"));
  }

  void OnDone() override {
    std::shared_ptr<WatchStream> self = shared_from_this();  // alive to the end of this call
    {
      absl::MutexLock lock(&mu_);
      done_ = true;
      if (target_.has_value()) {
        service_.feed_.Unsubscribe(target_->id, this);
        service_.caps_.Release(Resource(), client_);
      }
    }
    service_.streams_.Forget(this);
  }

 private:
  static grpc::Status Stopping() { return WatchStreamStopping(); }
  std::string Resource() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return absl::StrCat("tournaments/", target_->id);
  }

  // On a worker: everything that blocks.
  void Open() {
    if (service_.streams_.stopping()) return End(Stopping());
    absl::StatusOr<TournamentLogic::WatchTarget> target =
        service_.logic_.WatchTargetOf(token_, request_);
    if (!target.ok()) return End(ToGrpcStatus(target.status()));
    absl::Status capped;
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || done_) return;
      client_ = StreamClient(target->viewer, peer_);
      capped = service_.caps_.Acquire(absl::StrCat("tournaments/", target->id), client_);
      if (!capped.ok()) {
        finished_ = true;  // Finish below, outside the lock
      } else {
        target_ = *target;
        // Subscribed before the snapshot is read: a change after the read reaches the feed's
        // next read, which delivers it (or a later version); what the snapshot showed
        // already is dropped by TournamentWatch::Next's version check.
        service_.feed_.Subscribe(target_->id, target_->viewer, shared_from_this());
      }
    }
    if (!capped.ok()) return Finish(ToGrpcStatus(capped));
    absl::StatusOr<std::unique_ptr<TournamentWatch>> watch =
        service_.logic_.WatchTournament(*target);
    if (!watch.ok()) return End(ToGrpcStatus(watch.status()));
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || done_) return;
      watch_ = *std::move(watch);
      message_ = watch_->first();
      writing_ = true;
      if (watch_->done()) finish_after_write_ = grpc::Status::OK;  // FINISHED already
    }
    StartWrite(&message_);
  }

  // Makes the waiting update the next message; false when there is none to send.
  bool TakePending() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (!pending_.has_value() || watch_ == nullptr || watch_->done()) return false;
    std::optional<v1::TournamentUpdate> next = watch_->Next(*pending_->first, pending_->second);
    pending_.reset();
    if (!next.has_value()) return false;
    message_ = *std::move(next);
    writing_ = true;
    // FINISHED: sent, done.
    if (watch_->done() && !finish_after_write_.has_value()) finish_after_write_ = grpc::Status::OK;
    return true;
  }

  TournamentServiceImpl& service_;
  const std::optional<std::string> token_;
  const std::string peer_;
  const v1::WatchTournamentRequest request_;

  absl::Mutex mu_;
  std::optional<TournamentLogic::WatchTarget> target_ ABSL_GUARDED_BY(mu_);  // once counted
  std::string client_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<TournamentWatch> watch_ ABSL_GUARDED_BY(mu_);  // once the snapshot is read
  std::optional<std::pair<std::shared_ptr<const v1::TournamentUpdate>, int64_t>> pending_
      ABSL_GUARDED_BY(mu_);
  // The message being written: changed only while no write is in flight.
  v1::TournamentUpdate message_;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> finish_after_write_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;  // Finish called
  bool done_ ABSL_GUARDED_BY(mu_) = false;      // OnDone called
};

TournamentServiceImpl::TournamentServiceImpl(TournamentLogic& logic,
                                             TournamentWatchOptions options)
    : logic_(logic),
      feed_(logic, {.interval = options.feed_interval}),
      caps_({.per_resource = options.max_per_tournament,
             .per_client = options.max_per_client,
             .per_resource_name = "--max_watchers_per_tournament",
             .per_client_name = "--max_watchers_per_client"}),
      workers_(options.start_workers, "watch-tournament") {}

TournamentServiceImpl::~TournamentServiceImpl() {
  workers_.Stop();
  feed_.Stop();
}

grpc::ServerWriteReactor<v1::TournamentUpdate>* TournamentServiceImpl::WatchTournament(
    grpc::CallbackServerContext* context, const v1::WatchTournamentRequest* request) {
  auto stream = std::make_shared<WatchStream>(*this, *context, *request);
  streams_.Add(stream);
  stream->Begin();
  return stream.get();
}

void TournamentServiceImpl::Stop() {
  for (const std::shared_ptr<WatchStream>& stream : streams_.Stop()) {
    stream->End(WatchStreamStopping());
  }
  // The starts already queued run now and end their streams the same way.
  workers_.Stop();
  feed_.Stop();
}

}  // namespace boneyard::matchmaking
