// The TournamentService's gRPC handlers (proto/boneyard/v1/tournament.proto), served by the
// matchmaking process. Thin: each reads the call's bearer token and request, calls
// TournamentLogic and encodes its answer. All block on PostgreSQL, so they are on the
// synchronous API (gRPC's own thread pool); WatchTournament holds a thread per stream.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SERVICE_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <atomic>

#include "boneyard/v1/tournament.grpc.pb.h"
#include "services/matchmaking/tournament_logic.h"

namespace boneyard::matchmaking {

class TournamentServiceImpl final : public v1::TournamentService::Service {
 public:
  // `logic` must outlive the service.
  explicit TournamentServiceImpl(TournamentLogic& logic) : logic_(logic) {}
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
  grpc::Status WatchTournament(grpc::ServerContext* context,
                               const v1::WatchTournamentRequest* request,
                               grpc::ServerWriter<v1::TournamentUpdate>* writer) override;

  // Ends open WatchTournament streams (UNAVAILABLE) so that a shutdown need not wait for them.
  void Stop() { stopping_ = true; }

 private:
  TournamentLogic& logic_;
  std::atomic<bool> stopping_ = false;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SERVICE_H_
