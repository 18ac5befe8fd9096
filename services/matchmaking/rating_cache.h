// Players' ratings for matching, read from the ratings service and cached, so a pass costs one
// batch read for the players it has not seen lately — and so matching goes on when ratings is
// down: with the ratings last read (however old), or the model's initial rating for a player
// never read. No gRPC here (the fetcher is an interface; ratings_fetcher.h is the real one).
//
//   RatingsFetcher fetcher(channel);                 // BatchGetRatings on the ratings service
//   RatingCache cache(fetcher, absl::Seconds(30));
//   std::map<std::string, ratings::SkillRating> known = cache.Ratings("forty_two", players);
#ifndef BONEYARD_SERVICES_MATCHMAKING_RATING_CACHE_H_
#define BONEYARD_SERVICES_MATCHMAKING_RATING_CACHE_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::matchmaking {

// Where ratings come from.
class RatingFetcher {
 public:
  virtual ~RatingFetcher() = default;
  // Every one of `players`' rating in `game`, by player id; an error when out of reach.
  virtual absl::StatusOr<std::map<std::string, ratings::SkillRating>> Fetch(
      const std::string& game, const std::vector<std::string>& players) = 0;
};

// Ratings as the matchmaker sees them.
class RatingSource {
 public:
  virtual ~RatingSource() = default;
  // The ratings known for `players` in `game`, by player id; a player left out is matched at
  // the model's initial rating. Never fails: it answers with what it has.
  virtual std::map<std::string, ratings::SkillRating> Ratings(
      const std::string& game, const std::vector<std::string>& players) = 0;
};

class RatingCache : public RatingSource {
 public:
  // `fetcher` must outlive the cache. A rating read less than `fresh_for` ago is used without
  // asking again.
  explicit RatingCache(RatingFetcher& fetcher, absl::Duration fresh_for = absl::Seconds(30));

  std::map<std::string, ratings::SkillRating> Ratings(
      const std::string& game, const std::vector<std::string>& players) override;

  // Fetches that failed (ratings out of reach): the answer was stale or initial ratings.
  int64_t failed_fetches() const;

 private:
  struct Entry {
    ratings::SkillRating rating;
    absl::Time read;
  };

  RatingFetcher& fetcher_;
  const absl::Duration fresh_for_;
  mutable absl::Mutex mu_;
  std::map<std::pair<std::string, std::string>, Entry> entries_ ABSL_GUARDED_BY(mu_);
  int64_t failed_fetches_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_RATING_CACHE_H_
