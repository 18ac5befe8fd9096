#include "services/matchmaking/ratings_fetcher.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>

#include "services/common/grpc_status.h"

namespace boneyard::matchmaking {
namespace {

// BatchGetRatings' limit (services/ratings/ratings_logic.h, kMaxBatchGetPlayers).
constexpr size_t kPlayersPerCall = 1000;

}  // namespace

RatingsFetcher::RatingsFetcher(const std::string& target, absl::Duration deadline)
    : deadline_(deadline),
      stub_(v1::RatingsService::NewStub(
          grpc::CreateChannel(target, grpc::InsecureChannelCredentials()))) {}

absl::StatusOr<std::vector<v1::Rating>> RatingsFetcher::Get(const std::string& game,
                                                             const std::vector<std::string>& ids) {
  std::vector<v1::Rating> out;
  out.reserve(ids.size());
  for (size_t first = 0; first < ids.size(); first += kPlayersPerCall) {
    v1::BatchGetRatingsRequest request;
    request.set_game(game);
    const size_t last = std::min(ids.size(), first + kPlayersPerCall);
    for (size_t i = first; i < last; ++i) request.add_player_ids(ids[i]);
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + deadline_));
    v1::BatchGetRatingsResponse response;
    grpc::Status status = stub_->BatchGetRatings(&context, request, &response);
    if (!status.ok()) return FromGrpcStatus(status);
    for (v1::Rating& rating : *response.mutable_ratings()) out.push_back(std::move(rating));
  }
  return out;
}

absl::StatusOr<std::map<std::string, ratings::SkillRating>> RatingsFetcher::Fetch(
    const std::string& game, const std::vector<std::string>& players) {
  absl::StatusOr<std::vector<v1::Rating>> ratings = Get(game, players);
  if (!ratings.ok()) return ratings.status();
  std::map<std::string, ratings::SkillRating> out;
  for (const v1::Rating& rating : *ratings) {
    out[rating.player_id()] = {.mu = rating.mu(), .sigma = rating.sigma()};
  }
  return out;
}

}  // namespace boneyard::matchmaking
