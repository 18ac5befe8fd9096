#include "services/matchmaking/rating_cache.h"

#include <set>

#include "spdlog/spdlog.h"

namespace boneyard::matchmaking {

RatingCache::RatingCache(RatingFetcher& fetcher, absl::Duration fresh_for)
    : fetcher_(fetcher), fresh_for_(fresh_for) {}

std::map<std::string, ratings::SkillRating> RatingCache::Ratings(
    const std::string& game, const std::vector<std::string>& players) {
  const absl::Time now = absl::Now();
  std::set<std::string> stale;
  {
    absl::MutexLock lock(&mu_);
    for (const std::string& player : players) {
      auto it = entries_.find({game, player});
      if (it == entries_.end() || now - it->second.read >= fresh_for_) stale.insert(player);
    }
  }
  if (!stale.empty()) {
    // Fetched outside the lock: a slow ratings service holds up this pass, not the others.
    absl::StatusOr<std::map<std::string, ratings::SkillRating>> fetched =
        fetcher_.Fetch(game, std::vector<std::string>(stale.begin(), stale.end()));
    absl::MutexLock lock(&mu_);
    if (fetched.ok()) {
      for (const auto& [player, rating] : *fetched) entries_[{game, player}] = {rating, now};
    } else {
      ++failed_fetches_;
      spdlog::warn("matchmaking: cannot read {} ratings of {} ({}); matching with the ratings "
                   "read before, or initial ones",
                   stale.size(), game, fetched.status().ToString());
    }
  }
  std::map<std::string, ratings::SkillRating> known;
  absl::MutexLock lock(&mu_);
  for (const std::string& player : players) {
    auto it = entries_.find({game, player});
    if (it != entries_.end()) known[player] = it->second.rating;
  }
  return known;
}

int64_t RatingCache::failed_fetches() const {
  absl::MutexLock lock(&mu_);
  return failed_fetches_;
}

}  // namespace boneyard::matchmaking
