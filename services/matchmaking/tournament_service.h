// The TournamentService's gRPC handlers (proto/boneyard/v1/tournament.proto), served by the
// matchmaking process. Thin: each reads the call's bearer token and request, calls
// TournamentLogic and encodes its answer. The unary calls block on PostgreSQL, so they are on
// the synchronous API (gRPC's own thread pool). WatchTournament is on the callback API: an
// open stream holds no thread and reads nothing itself; one TournamentFeed reads for all of
// them, and a small worker pool does each stream's blocking start (token, first snapshot).
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SERVICE_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <map>
#include <memory>

#include "boneyard/v1/tournament.grpc.pb.h"
#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "services/matchmaking/stream_support.h"
#include "services/matchmaking/tournament_feed.h"
#include "services/matchmaking/tournament_logic.h"

namespace boneyard::matchmaking {

// WatchTournament's settings (boneyard-matchmaking's flags; docs/tournaments.md).
struct TournamentWatchOptions {
  // How often the feed reads the watched events' versions.
  absl::Duration feed_interval = absl::Milliseconds(250);
  // Open streams on one tournament, and of one client (a player, else a peer address); past
  // either a new stream ends at once with RESOURCE_EXHAUSTED. 0: no cap.
  int max_per_tournament = 10000;
  int max_per_client = 4000;
  // Threads for the streams' blocking starts.
  int start_workers = 2;
};

class TournamentServiceImpl final
    : public v1::TournamentService::WithCallbackMethod_WatchTournament<
          v1::TournamentService::Service> {
 public:
  // `logic` must outlive the service.
  explicit TournamentServiceImpl(TournamentLogic& logic, TournamentWatchOptions options = {});
  ~TournamentServiceImpl() override;
  grpc::Status CreateTournament(grpc::ServerContext* context,
                                const v1::CreateTournamentRequest* request,
                                v1::Tournament* response) override;
  grpc::Status GetTournament(grpc::ServerContext* context, const v1::GetTournamentRequest* request,
                             v1::Tournament* response) override;
  grpc::Status ListTournaments(grpc::ServerContext* context,
                               const v1::ListTournamentsRequest* request,
                               v1::ListTournamentsResponse* response) override;
  grpc::Status RegisterPlayer(grpc::ServerContext* context,
                              const v1::RegisterPlayerRequest* request,
                              v1::Entrant* response) override;
  grpc::Status RegisterTeam(grpc::ServerContext* context, const v1::RegisterTeamRequest* request,
                            v1::Entrant* response) override;
  grpc::Status WithdrawPlayer(grpc::ServerContext* context,
                              const v1::WithdrawPlayerRequest* request,
                              v1::Entrant* response) override;
  grpc::Status ListEntrants(grpc::ServerContext* context, const v1::ListEntrantsRequest* request,
                            v1::ListEntrantsResponse* response) override;
  grpc::Status StartTournament(grpc::ServerContext* context,
                               const v1::StartTournamentRequest* request,
                               v1::Tournament* response) override;
  grpc::Status AdvanceTournament(grpc::ServerContext* context,
                                 const v1::AdvanceTournamentRequest* request,
                                 v1::Tournament* response) override;
  grpc::Status ListRounds(grpc::ServerContext* context, const v1::ListRoundsRequest* request,
                          v1::ListRoundsResponse* response) override;
  grpc::Status GetPairings(grpc::ServerContext* context, const v1::GetPairingsRequest* request,
                           v1::Round* response) override;
  grpc::Status GetStandings(grpc::ServerContext* context, const v1::GetStandingsRequest* request,
                            v1::Standings* response) override;
  grpc::Status SetResult(grpc::ServerContext* context, const v1::SetResultRequest* request,
                         v1::Pairing* response) override;
  grpc::Status ExportTrf(grpc::ServerContext* context, const v1::ExportTrfRequest* request,
                         v1::ExportTrfResponse* response) override;
  grpc::Status ImportTournament(grpc::ServerContext* context,
                                const v1::ImportTournamentRequest* request,
                                v1::Tournament* response) override;
  grpc::ServerWriteReactor<v1::TournamentUpdate>* WatchTournament(
      grpc::CallbackServerContext* context, const v1::WatchTournamentRequest* request) override;

  // Ends open WatchTournament streams, and those that start later, with UNAVAILABLE so that
  // a shutdown need not wait for them. Idempotent.
  void Stop();

  // The feed all streams share (tests: its reads).
  const TournamentFeed& feed() const { return feed_; }

 private:
  class WatchStream;

  TournamentLogic& logic_;
  TournamentFeed feed_;
  StreamCaps caps_;
  // Every open stream, owned here until its OnDone.
  StreamRegistry<WatchStream> streams_;
  // Last: destroyed first, so no start runs on a half-destroyed service.
  StreamWorkers workers_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SERVICE_H_
