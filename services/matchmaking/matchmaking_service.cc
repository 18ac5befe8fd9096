#include "services/matchmaking/matchmaking_service.h"

#include <utility>

#include "services/common/auth.h"
#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {

grpc::Status MatchmakingServiceImpl::CreatePlayer(grpc::ServerContext* context,
                                                  const v1::CreatePlayerRequest* request,
                                                  v1::CreatePlayerResponse* response) {
  return Reply(logic_.CreatePlayer(BearerToken(*context), *request), response);
}

grpc::Status MatchmakingServiceImpl::GetPlayer(grpc::ServerContext*,
                                               const v1::GetPlayerRequest* request,
                                               v1::PlayerAccount* response) {
  return Reply(logic_.GetPlayer(*request), response);
}

grpc::Status MatchmakingServiceImpl::ListPlayers(grpc::ServerContext*,
                                                 const v1::ListPlayersRequest* request,
                                                 v1::ListPlayersResponse* response) {
  return Reply(logic_.ListPlayers(*request), response);
}

grpc::Status MatchmakingServiceImpl::RotatePlayerToken(grpc::ServerContext* context,
                                                       const v1::RotatePlayerTokenRequest* request,
                                                       v1::RotatePlayerTokenResponse* response) {
  return Reply(logic_.RotatePlayerToken(BearerToken(*context), *request), response);
}

}  // namespace boneyard::matchmaking
