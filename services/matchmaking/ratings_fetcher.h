// The matchmaker's RatingFetcher and the ladders' LadderRatings over gRPC:
// RatingsService.BatchGetRatings, 1,000 players a call (no token: ratings are public).
#ifndef BONEYARD_SERVICES_MATCHMAKING_RATINGS_FETCHER_H_
#define BONEYARD_SERVICES_MATCHMAKING_RATINGS_FETCHER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "services/matchmaking/ladder_logic.h"
#include "services/matchmaking/rating_cache.h"

namespace boneyard::matchmaking {

class RatingsFetcher : public RatingFetcher, public LadderRatings {
 public:
  // `target` is the ratings service's host:port; each call waits at most `deadline`.
  explicit RatingsFetcher(const std::string& target, absl::Duration deadline = absl::Seconds(2));

  absl::StatusOr<std::map<std::string, ratings::SkillRating>> Fetch(
      const std::string& game, const std::vector<std::string>& players) override;
  absl::StatusOr<std::vector<v1::Rating>> Get(const std::string& game,
                                              const std::vector<std::string>& ids) override;

 private:
  const absl::Duration deadline_;
  std::unique_ptr<v1::RatingsService::Stub> stub_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_RATINGS_FETCHER_H_
