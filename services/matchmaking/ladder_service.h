// The LadderService's gRPC handlers (proto/boneyard/v1/ladder.proto), served by the matchmaking
// process. Thin: each reads the call's bearer token and request, calls LadderLogic and encodes
// its answer. The unary calls block on PostgreSQL, so they are on the synchronous API.
// WatchEvents (a bot account keeps one open) is on the callback API: an open stream holds no
// thread and reads nothing itself once it has its backlog; one LadderFeed reads every watched
// player's changes for all of them, and a small worker pool does the blocking reads (token,
// backlog, catching up).
#ifndef BONEYARD_SERVICES_MATCHMAKING_LADDER_SERVICE_H_
#define BONEYARD_SERVICES_MATCHMAKING_LADDER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <map>
#include <memory>

#include "boneyard/v1/ladder.grpc.pb.h"
#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "services/matchmaking/ladder_feed.h"
#include "services/matchmaking/ladder_logic.h"
#include "services/matchmaking/stream_support.h"

namespace boneyard::matchmaking {

// WatchEvents' settings (boneyard-matchmaking's flags; docs/bots.md).
struct LadderWatchOptions {
  // How often the feed reads the watched players' changes (at once after a change made in
  // this process).
  absl::Duration feed_interval = absl::Milliseconds(250);
  // Open streams of one player, and of one client (for WatchEvents, always a player, so the
  // smaller of the two applies); past either a new stream ends at once with
  // RESOURCE_EXHAUSTED. 0: no cap.
  int max_per_player = 64;
  int max_per_client = 4000;
  // Threads for the streams' blocking reads.
  int start_workers = 2;
};

class LadderServiceImpl final
    : public v1::LadderService::WithCallbackMethod_WatchEvents<v1::LadderService::Service> {
 public:
  // `logic` must outlive the service.
  explicit LadderServiceImpl(LadderLogic& logic, LadderWatchOptions options = {});
  ~LadderServiceImpl() override;
  grpc::Status CreateLadder(grpc::ServerContext* context, const v1::CreateLadderRequest* request,
                            v1::Ladder* response) override;
  grpc::Status GetLadder(grpc::ServerContext* context, const v1::GetLadderRequest* request,
                         v1::Ladder* response) override;
  grpc::Status ListLadders(grpc::ServerContext* context, const v1::ListLaddersRequest* request,
                           v1::ListLaddersResponse* response) override;
  grpc::Status JoinLadder(grpc::ServerContext* context, const v1::JoinLadderRequest* request,
                          v1::LadderMember* response) override;
  grpc::Status ListLadderStandings(grpc::ServerContext* context,
                                   const v1::ListLadderStandingsRequest* request,
                                   v1::ListLadderStandingsResponse* response) override;
  grpc::Status CreateChallenge(grpc::ServerContext* context,
                               const v1::CreateChallengeRequest* request,
                               v1::Challenge* response) override;
  grpc::Status GetChallenge(grpc::ServerContext* context, const v1::GetChallengeRequest* request,
                            v1::Challenge* response) override;
  grpc::Status AcceptChallenge(grpc::ServerContext* context,
                               const v1::AcceptChallengeRequest* request,
                               v1::Challenge* response) override;
  grpc::Status DeclineChallenge(grpc::ServerContext* context,
                                const v1::DeclineChallengeRequest* request,
                                v1::Challenge* response) override;
  grpc::ServerWriteReactor<v1::LadderEvent>* WatchEvents(
      grpc::CallbackServerContext* context, const v1::WatchEventsRequest* request) override;

  // Ends open WatchEvents streams, and those that start later, with UNAVAILABLE so that a
  // shutdown need not wait for them. Idempotent.
  void Stop();

  // The feed all streams share (tests: its reads).
  const LadderFeed& feed() const { return feed_; }

 private:
  class EventStream;

  LadderLogic& logic_;
  LadderFeed feed_;
  StreamCaps caps_;
  // Every open stream, owned here until its OnDone.
  StreamRegistry<EventStream> streams_;
  // Last: destroyed first, so no read runs on a half-destroyed service.
  StreamWorkers workers_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_LADDER_SERVICE_H_
