// RatingCache (services/matchmaking/rating_cache.h) over a scripted fetcher: fresh ratings are
// reused, only stale and unknown players are asked for, and a failing source leaves the
// ratings read before (or none). The real fetcher against a real ratings process is tested in
// matchmaker_test.cc.
#include "services/matchmaking/rating_cache.h"

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

// Answers mu = 10 + the number of the call, for every player asked, or fails while `down`.
class ScriptedFetcher : public RatingFetcher {
 public:
  absl::StatusOr<std::map<std::string, ratings::SkillRating>> Fetch(
      const std::string& game, const std::vector<std::string>& players) override {
    asked.push_back(players);
    if (down) return absl::UnavailableError("ratings is down");
    std::map<std::string, ratings::SkillRating> out;
    for (const std::string& player : players) {
      out[player] = {.mu = 10.0 + static_cast<double>(asked.size()), .sigma = 1};
    }
    return out;
  }
  std::vector<std::vector<std::string>> asked;
  bool down = false;
};

std::map<std::string, double> Mus(const std::map<std::string, ratings::SkillRating>& ratings) {
  std::map<std::string, double> out;
  for (const auto& [player, rating] : ratings) out[player] = rating.mu;
  return out;
}

TEST(RatingCacheTest, FreshRatingsAreReusedAndOnlyTheRestAskedFor) {
  ScriptedFetcher fetcher;
  RatingCache cache(fetcher, absl::Hours(1));
  EXPECT_THAT(Mus(cache.Ratings("muggins", {"ann", "bob"})),
              ElementsAre(Pair("ann", 11), Pair("bob", 11)));
  EXPECT_THAT(Mus(cache.Ratings("muggins", {"bob", "cat"})),
              ElementsAre(Pair("bob", 11), Pair("cat", 12)));
  ASSERT_EQ(fetcher.asked.size(), 2u);
  EXPECT_THAT(fetcher.asked[1], ElementsAre("cat"));
  // Ratings are per game.
  EXPECT_THAT(Mus(cache.Ratings("forty_two", {"ann"})), ElementsAre(Pair("ann", 13)));
  cache.Ratings("muggins", {"ann", "bob", "cat"});
  EXPECT_EQ(fetcher.asked.size(), 3u);  // all fresh: nothing asked
}

TEST(RatingCacheTest, StaleRatingsAreAskedForAgain) {
  ScriptedFetcher fetcher;
  RatingCache cache(fetcher, absl::ZeroDuration());
  cache.Ratings("muggins", {"ann"});
  EXPECT_THAT(Mus(cache.Ratings("muggins", {"ann"})), ElementsAre(Pair("ann", 12)));
}

TEST(RatingCacheTest, WhileTheSourceIsDownTheRatingsReadBeforeAreUsedAndNewPlayersHaveNone) {
  ScriptedFetcher fetcher;
  RatingCache cache(fetcher, absl::ZeroDuration());
  cache.Ratings("muggins", {"ann"});
  fetcher.down = true;
  EXPECT_THAT(Mus(cache.Ratings("muggins", {"ann", "new"})), ElementsAre(Pair("ann", 11)));
  EXPECT_EQ(cache.failed_fetches(), 1);
  EXPECT_THAT(cache.Ratings("muggins", {"other"}), IsEmpty());
  EXPECT_EQ(cache.failed_fetches(), 2);
  fetcher.down = false;
  EXPECT_THAT(Mus(cache.Ratings("muggins", {"ann"})), ElementsAre(Pair("ann", 14)));
}

}  // namespace
}  // namespace boneyard::matchmaking
