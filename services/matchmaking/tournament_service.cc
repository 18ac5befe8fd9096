#include "services/matchmaking/tournament_service.h"

#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {

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

grpc::Status TournamentServiceImpl::WatchTournament(
    grpc::ServerContext* context, const v1::WatchTournamentRequest* request,
    grpc::ServerWriter<v1::TournamentUpdate>* writer) {
  absl::StatusOr<std::unique_ptr<TournamentWatch>> watch =
      logic_.WatchTournament(BearerToken(*context), *request);
  if (!watch.ok()) return ToGrpcStatus(watch.status());
  if (!writer->Write((*watch)->first())) return grpc::Status::OK;  // the client went away
  while (!(*watch)->done()) {
    if (context->IsCancelled()) {
      return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the watch");
    }
    if (stopping_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the service is stopping");
    // Waits at most a fifth of a second, so a cancel or a shutdown is seen soon.
    absl::StatusOr<std::optional<v1::TournamentUpdate>> next =
        (*watch)->Next(absl::Now() + absl::Milliseconds(200));
    if (!next.ok()) return ToGrpcStatus(next.status());
    if (next->has_value() && !writer->Write(**next)) return grpc::Status::OK;
  }
  return grpc::Status::OK;  // FINISHED: sent, done
}

}  // namespace boneyard::matchmaking
