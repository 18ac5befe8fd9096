// The search levels of the games whose uniform playouts saturate early (docs/bots.md): the
// registered "search" bot of Mexican Train, Chickenfoot, Castle Rock and Eighty-Four runs its
// game's iterations per level, and the train games' level 5 plays its playouts by HeavyPlayout.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/bots/search_bot.h"
#include "engine/games/castle_rock/castle_rock_bots.h"
#include "engine/games/chickenfoot/chickenfoot.h"
#include "engine/games/chickenfoot/chickenfoot_bots.h"
#include "engine/games/forty_two/forty_two_bots.h"
#include "engine/games/mexican_train/mexican_train.h"
#include "engine/games/mexican_train/mexican_train_bots.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/trains_test_util.h"

namespace boneyard {
namespace {

using engine_test::MakeGame;
using engine_test::Match;
using trains::train_test::MakeDeal;

// Asks the registered search:level at the decisions of a match of `game` until one is
// searched (a root rule may leave a bid no choice); the iterations that search ran (or, when
// its time cap stopped it first, at most).
void ExpectIterations(const std::string& game_name, const RuleText& rules, int level,
                      int iterations) {
  SCOPED_TRACE(absl::StrCat(game_name, " search:", level));
  std::shared_ptr<const Game> game = MakeGame(game_name, rules);
  ASSERT_NE(game, nullptr);
  std::unique_ptr<State> state = *game->NewMatch(5);
  absl::StatusOr<std::unique_ptr<Bot>> bot =
      DefaultBots().Make(absl::StrCat("search:", level), *game, 7);
  ASSERT_TRUE(bot.ok()) << bot.status();
  const SearchStats& stats = static_cast<const SearchBot&>(**bot).last_search();
  ActionList legal;
  for (int step = 0; step < 200 && !state->IsTerminal(); ++step) {
    legal.clear();
    state->LegalActions(legal);
    const Action chosen = AskBot(**bot, *state, state->CurrentSeat(), legal.span(), step);
    if (legal.size() > 1 && stats.iterations > 0) {
      if (stats.stopped_by_deadline) {
        EXPECT_LE(stats.iterations, iterations);
      } else {
        EXPECT_EQ(stats.iterations, iterations);
      }
      return;
    }
    state->Apply(chosen);
  }
  ADD_FAILURE() << "no decision was searched";
}

// Level 5's 6,000 are left out: under the sanitizers its time cap may end it first, which the
// check above allows anyway.
TEST(SearchLevels, TrainGamesCastleRockAndEightyFourSearchTheirOwnIterations) {
  EXPECT_EQ(
      std::vector<int>(std::begin(trains::kSearchIterations), std::end(trains::kSearchIterations)),
      (std::vector<int>{50, 150, 400, 1'000, 6'000}));
  EXPECT_EQ(std::vector<int>(std::begin(castle_rock::kSearchIterations),
                             std::end(castle_rock::kSearchIterations)),
            (std::vector<int>{10, 40, 150, 400, 6'000}));
  for (int level = 1; level <= 4; ++level) {
    ExpectIterations("mexican_train", {{"preset", "classic_double_9"}, {"players", "3"}}, level,
                     trains::kSearchIterations[level - 1]);
    ExpectIterations("chickenfoot", {{"players", "3"}}, level,
                     trains::kSearchIterations[level - 1]);
    ExpectIterations("castle_rock", {}, level, castle_rock::kSearchIterations[level - 1]);
    ExpectIterations("eighty_four", {{"players", "6"}}, level,
                     forty_two::kEightyFourSearchIterations[level - 1]);
  }
  EXPECT_TRUE(SearchLevelWithIterations(1, castle_rock::kSearchIterations).proportional);
  EXPECT_EQ(SearchLevelWithIterations(0, trains::kSearchIterations).iterations, 400);
}

// How often each action of `legal` is the playout's choice in `n` tries.
template <typename Playout>
std::vector<int> Picks(const State& state, std::span<const Action> legal, Playout playout, int n) {
  std::vector<int> counts(legal.size());
  Rng rng(3);
  for (int i = 0; i < n; ++i) {
    const Action a = playout(state, legal, rng);
    for (size_t k = 0; k < legal.size(); ++k) counts[k] += legal[k] == a;
  }
  return counts;
}

// Three playout moves in four shed the heaviest tile; the fourth is any legal action. With
// 12-10 on two trains among six plays, 12-10 comes 3/4 + 1/4 * 2/6 = 5/6 of the time.
TEST(SearchLevels, MexicanTrainHeavyPlayoutShedsTheHeaviestTile) {
  Match m("mexican_train", {{"players", "2"}, {"hand_size", "4"}},
          {MakeDeal(12, 12, {"12-5 5-3 12-10 12-1", "12-7 7-1 2-1 3-2"})});
  ActionList legal;
  m.base().LegalActions(legal);
  constexpr int kTries = 6000;
  const std::vector<int> counts =
      Picks(m.base(), legal.span(), mexican_train::HeavyPlayout, kTries);
  int heaviest = 0, others = 0;
  for (size_t k = 0; k < legal.size(); ++k) {
    const bool heavy = m.base().ActionToString(legal[k]).starts_with("12-10");
    (heavy ? heaviest : others) += counts[k];
    EXPECT_GT(counts[k], 0) << m.base().ActionToString(legal[k]);  // the random quarter
  }
  ASSERT_EQ(legal.size(), 6u);
  EXPECT_NEAR(heaviest, kTries * 5 / 6, kTries / 50);
  EXPECT_EQ(heaviest + others, kTries);
}

// At Chickenfoot the double-blank weighs its penalty (50), so it goes before 5-0 (3/4 + 1/4 *
// 1/3 of the time: three plays); with the penalty at 0 it weighs nothing and 5-0 goes first
// (0-0 only in the random quarter, 1/12).
TEST(SearchLevels, ChickenfootHeavyPlayoutWeighsTheDoubleBlankByItsPenalty) {
  for (const int penalty : {50, 0}) {
    SCOPED_TRACE(penalty);
    Match m(
        "chickenfoot",
        {{"players", "2"}, {"hand_size", "6"}, {"double_blank_penalty", std::to_string(penalty)}},
        {MakeDeal(9, 9, {"9-1 9-2 9-3 0-0 8-7 5-0", "9-4 9-5 9-0 4-0 5-1 6-1"})});
    m.PlayAll(
        {{0, "9-1 @0"}, {1, "9-4 @0"}, {0, "9-2 @0"}, {1, "9-5 @0"}, {0, "9-3 @0"}, {1, "9-0 @0"}});
    ActionList legal;
    m.base().LegalActions(legal);
    constexpr int kTries = 4000;
    const std::vector<int> counts =
        Picks(m.base(), legal.span(), chickenfoot::HeavyPlayout, kTries);
    int blank = 0;
    for (size_t k = 0; k < legal.size(); ++k) {
      if (m.base().ActionToString(legal[k]).starts_with("0-0")) blank += counts[k];
    }
    if (penalty > 0) {
      EXPECT_GT(blank, kTries * 3 / 4);
    } else {
      EXPECT_LT(blank, kTries / 4);
    }
  }
}

}  // namespace
}  // namespace boneyard
