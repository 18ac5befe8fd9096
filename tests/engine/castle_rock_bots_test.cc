// Castle Rock's bots: the greedy bot (engine/games/castle_rock/castle_rock_bots.h) and the
// random bot every game has.
//
// A property of the rules that shapes these tests: removals only ever appear at the right end
// of the row (a draw can only make the last three tiles removable, and a removal only brings
// the tiles on either side of it together), so at any moment the choice is at most between
// option 1 on the last three tiles ("take n-1") and option 2 on them ("take (n-2)-n").
#include "engine/games/castle_rock/castle_rock_bots.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/games/castle_rock/castle_rock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::castle_rock {
namespace {

using ::testing::Contains;
using engine_test::Choice;
using engine_test::Play;

std::shared_ptr<const Game> DoubleSix() {
  return engine_test::MakeGame("castle_rock", {{"set", "6"}});
}

// A double-6 match dealt from `first`, then the rest of the set in id order.
std::unique_ptr<State> Start(const std::vector<Tile>& first) {
  std::shared_ptr<const Game> game = DoubleSix();
  std::vector<Tile> pile = first;
  for (const Tile& t : game->tile_set().AllTiles()) {
    if (std::find(pile.begin(), pile.end(), t) == pile.end()) pile.push_back(t);
  }
  absl::StatusOr<std::unique_ptr<State>> state = game->NewMatch(0, {Deal{{{}}, pile}});
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

std::unique_ptr<Bot> MakeBot(const std::string& name, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<Bot>> bot = DefaultBots().Make(name, *DoubleSix(), seed);
  EXPECT_TRUE(bot.ok()) << bot.status();
  return *std::move(bot);
}

struct Outcome {
  bool won = false;
  int tiles_left = 0;
  std::vector<std::string> actions;
};

// Plays a seeded match of `game` to the end with `bot`, checking every choice is legal.
Outcome PlayOut(const Game& game, Bot& bot, uint64_t match_seed) {
  std::unique_ptr<State> state = *game.NewMatch(match_seed);
  Outcome out;
  ActionList legal;
  while (!state->IsTerminal()) {
    legal.clear();
    state->LegalActions(legal);
    const Action a = bot.ChooseAction(*state->ViewFor(0), legal.span());
    EXPECT_TRUE(legal.Contains(a)) << "illegal choice " << a << " in " << state->ToString();
    if (!legal.Contains(a)) break;
    out.actions.push_back(state->ActionToString(a));
    state->Apply(a);
  }
  const nlohmann::json details = state->ResultDetails();
  out.won = details["won"].get<bool>();
  out.tiles_left = details["tiles_left"].get<int>();
  return out;
}

TEST(CastleRockBots, GreedyAndRandomAreRegistered) {
  EXPECT_THAT(DefaultBots().BotsFor("castle_rock"), Contains("greedy"));
  EXPECT_THAT(DefaultBots().BotsFor("castle_rock"), Contains("random"));
  absl::StatusOr<std::unique_ptr<Bot>> bad = DefaultBots().Make("clever", *DoubleSix(), 1);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kNotFound);
}

// The greedy bot prefers the removal after which another removal is available.
TEST(CastleRockBots, GreedyPrefersTheRemovalThatLeavesAnotherRemoval) {
  std::unique_ptr<State> state = Start({Tile(6, 0), Tile(4, 1), Tile(4, 2), Tile(6, 4)});
  // Row: 6-0 4-1 4-2 — (6-0, 4-2) do not match.
  Play(*state, "draw");
  // Row: 6-0 4-1 4-2 6-4. Offered: "take 3" (4-1/6-4 share 4) and "take 2-4" (all share 4).
  //   take 3   → 6-0 4-1 6-4: 6-0 and 6-4 share the 6, so "take 2" follows (1 removal);
  //   take 2-4 → 6-0: nothing follows (0 removals).
  ASSERT_EQ(state->LegalActionStrings(), (std::vector<std::string>{"take 3", "take 2-4"}));
  GreedyBot greedy(1);
  EXPECT_EQ(Choice(greedy, *state), "take 3");
  Play(*state, "take 3");
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 2"});
  Play(*state, "take 2");  // row 6-0 6-4: two tiles removed in all, one more than "take 2-4"
  EXPECT_EQ(state->ViewFor(0)->ToJson()["layout"]["row"],
            nlohmann::json({"6-0", "6-4"}));
}

// With no follow-up either way, the greedy bot removes more tiles: option 2.
TEST(CastleRockBots, GreedyRemovesThreeWhenNothingFollowsEitherWay) {
  std::unique_ptr<State> state = Start({Tile(6, 6), Tile(4, 1), Tile(4, 2), Tile(4, 3)});
  // Row: 6-6 4-1 4-2 — (6-6, 4-2) do not match.
  Play(*state, "draw");
  // Row: 6-6 4-1 4-2 4-3. Offered: "take 3" and "take 2-4".
  //   take 3   → 6-6 4-1 4-3: (6-6, 4-3) do not match — 0 removals;
  //   take 2-4 → 6-6 — 0 removals, and three tiles gone instead of one.
  ASSERT_EQ(state->LegalActionStrings(), (std::vector<std::string>{"take 3", "take 2-4"}));
  GreedyBot greedy(1);
  EXPECT_EQ(Choice(greedy, *state), "take 2-4");
}

// At the start: row 5-1 5-3 6-5 offers "take 2" (leaving 5-1 6-5, nothing to remove) and
// "take 1-3" (empty row): the bot takes all three.
TEST(CastleRockBots, GreedyTakesAllThreeOfTheOpeningRowWhenNothingFollows) {
  std::unique_ptr<State> state = Start({Tile(5, 1), Tile(5, 3), Tile(6, 5)});
  ASSERT_EQ(state->LegalActionStrings(), (std::vector<std::string>{"take 2", "take 1-3"}));
  GreedyBot greedy(1);
  EXPECT_EQ(Choice(greedy, *state), "take 1-3");
}

TEST(CastleRockBots, BothBotsDrawWhenOnlyDrawIsLegal) {
  std::unique_ptr<State> state = Start({Tile(6, 6), Tile(5, 5), Tile(4, 4)});
  // Row: 6-6 5-5 4-4 — nothing to remove.
  ASSERT_EQ(state->LegalActionStrings(), std::vector<std::string>{"draw"});
  GreedyBot greedy(1);
  EXPECT_EQ(Choice(greedy, *state), "draw");
  RandomBot random(1);
  EXPECT_EQ(Choice(random, *state), "draw");
}

// Over many seeded games, every action either bot picks is legal (PlayOut checks each one) and
// every game ends.
TEST(CastleRockBots, BotsOnlyChooseLegalActions) {
  for (const char* set : {"6", "12", "18"}) {
    std::shared_ptr<const Game> game =
        *DefaultRegistry().CreateGame("castle_rock", RuleText{{"set", set}});
    for (const std::string name : {"random", "greedy"}) {
      for (uint64_t seed = 0; seed < 50; ++seed) {
        std::unique_ptr<Bot> bot = *DefaultBots().Make(name, *game, seed);
        const Outcome out = PlayOut(*game, *bot, seed);
        EXPECT_FALSE(out.actions.empty());
      }
    }
  }
}

// "Bots are seeded and deterministic: the same seed, view and legal actions give the same
// move" (engine/bots/bot.h).
TEST(CastleRockBots, BotsAreDeterministic) {
  std::shared_ptr<const Game> game = DoubleSix();
  for (const std::string name : {"random", "greedy"}) {
    for (uint64_t seed = 0; seed < 30; ++seed) {
      std::unique_ptr<Bot> a = MakeBot(name, seed);
      std::unique_ptr<Bot> b = MakeBot(name, seed);
      const Outcome first = PlayOut(*game, *a, seed);
      const Outcome second = PlayOut(*game, *b, seed);
      EXPECT_EQ(first.actions, second.actions) << name << " seed " << seed;
      EXPECT_EQ(first.tiles_left, second.tiles_left);
    }
  }
  // The greedy bot keeps no state: asked twice about one position, it answers the same.
  std::unique_ptr<State> state = Start({Tile(6, 0), Tile(4, 1), Tile(4, 2), Tile(6, 4)});
  Play(*state, "draw");
  GreedyBot greedy(5);
  EXPECT_EQ(Choice(greedy, *state), Choice(greedy, *state));
}

// The greedy bot should do at least as well as chance. Both bots play the same 500 seeded
// double-6 deals; the counts are a deterministic function of the seeds (no timing involved).
TEST(CastleRockBots, GreedyWinsAtLeastAsOftenAsRandom) {
  std::shared_ptr<const Game> game = DoubleSix();
  constexpr int kGames = 500;
  int greedy_wins = 0;
  int random_wins = 0;
  long greedy_tiles = 0;
  long random_tiles = 0;
  for (uint64_t i = 0; i < kGames; ++i) {
    const uint64_t seed = DeriveSeed(0xCA57, i);
    std::unique_ptr<Bot> greedy = MakeBot("greedy", seed);
    std::unique_ptr<Bot> random = MakeBot("random", seed);
    const Outcome g = PlayOut(*game, *greedy, seed);
    const Outcome r = PlayOut(*game, *random, seed);
    greedy_wins += g.won;
    random_wins += r.won;
    greedy_tiles += g.tiles_left;
    random_tiles += r.tiles_left;
  }
  std::printf("castle_rock double-6, %d deals: greedy won %d (%.1f%%, %.2f tiles left on "
              "average), random won %d (%.1f%%, %.2f tiles left)\n",
              kGames, greedy_wins, 100.0 * greedy_wins / kGames,
              static_cast<double>(greedy_tiles) / kGames, random_wins,
              100.0 * random_wins / kGames, static_cast<double>(random_tiles) / kGames);
  EXPECT_GE(greedy_wins, random_wins);
}

}  // namespace
}  // namespace boneyard::castle_rock
