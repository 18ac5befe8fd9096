// The search bot (engine/bots/search_bot.h): registered for every game with levels 1..5, legal
// and deterministic through whole matches, blind to the hidden tiles (its worlds come from
// Determinize alone), within its deadline, and stronger than random play.
#include "engine/bots/search_bot.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/bots/bot.h"
#include "engine/bots/worlds.h"
#include "engine/core/rng.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard {
namespace {

using engine_test::MakeGame;
using engine_test::PlayBots;

struct GameCase {
  std::string game;
  RuleText rules;
  int seats;
};

// Short matches of every game, so whole matches with a searching bot stay quick.
std::vector<GameCase> Cases() {
  return {
      {"muggins", {{"target", "61"}}, 2},
      {"muggins", {{"players", "4"}, {"teams", "true"}, {"target", "61"}}, 4},
      {"chickenfoot", {{"players", "3"}, {"rounds", "2"}}, 3},
      {"mexican_train", {{"preset", "classic_double_9"}, {"players", "4"}, {"rounds", "2"}}, 4},
      {"castle_rock", {}, 1},
      {"forty_two", {{"scoring", "marks"}, {"marks_target", "2"}}, 4},
      {"moon", {{"target", "7"}}, 3},
      {"eighty_four", {{"players", "6"}, {"scoring", "marks"}, {"marks_target", "2"}}, 6},
  };
}

TEST(SearchBot, IsRegisteredForEveryGameWithFiveLevels) {
  for (const char* game : {"castle_rock", "chickenfoot", "eighty_four", "forty_two",
                           "mexican_train", "moon", "muggins"}) {
    EXPECT_TRUE(engine_test::Contains(DefaultBots().BotsFor(game), "search")) << game;
    EXPECT_EQ(DefaultBots().LevelsOf(game, "search"), kSearchLevels) << game;
    EXPECT_EQ(DefaultBots().LevelsOf(game, "random"), 0) << game;
  }
}

TEST(SearchBot, LevelsOutsideTheRangeAreRefusedByName) {
  std::shared_ptr<const Game> game = MakeGame("muggins");
  ASSERT_NE(game, nullptr);
  for (int level = 0; level <= kSearchLevels; ++level) {
    EXPECT_TRUE(DefaultBots().Make("search", *game, 1, level).ok()) << level;
  }
  EXPECT_TRUE(DefaultBots().Make("search:5", *game, 1).ok());
  for (auto [name, level] : std::vector<std::pair<std::string, int>>{
           {"search", 6}, {"search", -1}, {"greedy", 1}, {"random", 2}}) {
    absl::StatusOr<std::unique_ptr<Bot>> bot = DefaultBots().Make(name, *game, 1, level);
    EXPECT_EQ(bot.status().code(), absl::StatusCode::kInvalidArgument) << name << " " << level;
    EXPECT_NE(bot.status().message().find(name), std::string::npos) << bot.status();
  }
  for (const char* name : {"search:0", "search:x", "search:", "search:9", "greedy:1"}) {
    EXPECT_EQ(DefaultBots().Make(name, *game, 1).status().code(),
              absl::StatusCode::kInvalidArgument)
        << name;
  }
  EXPECT_EQ(DefaultBots().Make("deep:1", *game, 1).status().code(), absl::StatusCode::kNotFound);
}

// Whole matches of every game with a level-1 search bot in every seat: every move legal (the
// helper checks), the match ends, and the same seed plays it the same way.
TEST(SearchBot, PlaysWholeMatchesOfEveryGameDeterministically) {
  for (const GameCase& c : Cases()) {
    SCOPED_TRACE(c.game);
    const std::vector<std::string> bots(c.seats, "search:1");
    std::vector<std::string> first, second;
    std::unique_ptr<State> end = PlayBots(c.game, c.rules, 3, bots, &first);
    ASSERT_NE(end, nullptr);
    EXPECT_TRUE(end->IsTerminal());
    PlayBots(c.game, c.rules, 3, bots, &second);
    EXPECT_EQ(first, second);
  }
}

// The bot's move depends on what its seat knows, not on where the hidden tiles really are: a
// state and a determinization of it (the same view, the hidden tiles dealt otherwise) give the
// same move at every decision of a match, for every game and level 2's search.
TEST(SearchBot, ChoosesTheSameWhateverTheHiddenTilesAre) {
  for (const GameCase& c : Cases()) {
    SCOPED_TRACE(c.game);
    std::shared_ptr<const Game> game = MakeGame(c.game, c.rules);
    ASSERT_NE(game, nullptr);
    std::unique_ptr<State> state = *game->NewMatch(11);
    Rng rng(5);
    ActionList legal;
    int compared = 0;
    for (int step = 0; step < 400 && !state->IsTerminal(); ++step) {
      const int seat = state->CurrentSeat();
      legal.clear();
      state->LegalActions(legal);
      std::unique_ptr<State> other = state->Determinize(seat, rng);
      ASSERT_EQ(state->ViewFor(seat)->ToJson(), other->ViewFor(seat)->ToJson());
      // Level 2's budget without its time cap: a slow (sanitizer) build must not cut one
      // search shorter than the other.
      const SearchLevel level{SearchLevelFor(2).iterations, std::chrono::hours(1), false};
      SearchBot a(77, level), b(77, level);
      const Action on_real = AskBot(a, *state, seat, legal.span(), step);
      const Action on_other = AskBot(b, *other, seat, legal.span(), step);
      ASSERT_EQ(on_real, on_other) << "step " << step << ": " << state->ActionToString(on_real)
                                   << " vs " << state->ActionToString(on_other);
      compared += legal.size() > 1;
      state->Apply(on_real);
    }
    EXPECT_GT(compared, c.seats == 1 ? 2 : 5);  // the solitaire has few real choices
  }
}

TEST(SearchBot, StopsAtItsDeadline) {
  std::shared_ptr<const Game> game = MakeGame("mexican_train", {{"players", "4"}});
  std::unique_ptr<State> state = *game->NewMatch(2);
  ActionList legal;
  // Play until a seat has a real choice.
  while (true) {
    legal.clear();
    state->LegalActions(legal);
    if (legal.size() > 1) break;
    state->Apply(legal[0]);
  }
  const int seat = state->CurrentSeat();
  SearchBot bot(1, SearchLevelFor(5));
  const SeatWorlds worlds(*state, seat, 9);
  const Action a = bot.ChooseWithWorlds(*state->ViewFor(seat), legal.span(), worlds,
                                        std::chrono::steady_clock::now());
  EXPECT_TRUE(legal.Contains(a));
  EXPECT_TRUE(bot.last_search().stopped_by_deadline);
  EXPECT_EQ(bot.last_search().iterations, 0);

  // Without a deadline and with no time cap of its own it runs its whole budget, however slow
  // the machine (a sanitizer build under load is slower than any level's cap).
  SearchBot unhurried(1, SearchLevel{300, std::chrono::hours(1), false});
  unhurried.ChooseWithWorlds(*state->ViewFor(seat), legal.span(), worlds,
                             std::chrono::steady_clock::time_point::max());
  EXPECT_FALSE(unhurried.last_search().stopped_by_deadline);
  EXPECT_EQ(unhurried.last_search().iterations, 300);
}

// A floor on strength, seeded so it cannot flake: level 2 against random play in two-player
// Muggins, 20 matches with the seats swapped half the time.
TEST(SearchBot, BeatsRandomPlayAtMuggins) {
  int wins = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const bool first = seed % 2 == 0;
    const std::vector<std::string> bots = first ? std::vector<std::string>{"search:2", "random"}
                                                : std::vector<std::string>{"random", "search:2"};
    std::unique_ptr<State> end = PlayBots("muggins", {{"target", "61"}}, seed, bots);
    ASSERT_NE(end, nullptr);
    wins += end->Ranks()[first ? 0 : 1] == 1;
  }
  EXPECT_GE(wins, 16);
}

}  // namespace
}  // namespace boneyard
