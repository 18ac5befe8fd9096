#include "services/matchmaking/execution_creator.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <utility>

#include "services/common/bearer.h"
#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {

ExecutionCreator::ExecutionCreator(std::string target, std::string token,
                                   absl::Duration deadline)
    : target_(std::move(target)),
      token_(std::move(token)),
      deadline_(deadline),
      stub_(v1::ExecutionService::NewStub(
          grpc::CreateChannel(target_, grpc::InsecureChannelCredentials()))) {}

absl::StatusOr<CreatedMatch> ExecutionCreator::CreateMatch(
    const v1::CreateMatchRequest& request) {
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + deadline_));
  AddBearerToken(context, token_);
  v1::CreateMatchResponse response;
  grpc::Status status = stub_->CreateMatch(&context, request, &response);
  if (!status.ok()) return FromGrpcStatus(status);
  CreatedMatch created{.name = response.match().name(),
                       .seat_tokens = std::vector<std::string>(response.match().seats_size())};
  for (const v1::SeatToken& token : response.seat_tokens()) {
    if (token.seat() >= 0 && token.seat() < response.match().seats_size()) {
      created.seat_tokens[token.seat()] = token.token();
    }
  }
  return created;
}

}  // namespace boneyard::matchmaking
