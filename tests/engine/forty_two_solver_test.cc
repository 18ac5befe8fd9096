// Forty-Two's open-hand solver (engine/games/forty_two/forty_two_solver.h): its value is the
// engine's own result under best play, checked against an exhaustive minimax over the engine's
// State in endgames of real hands; an explicit deal it must read at once; where it declines.
#include "engine/games/forty_two/forty_two_solver.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/bots/bot.h"
#include "engine/bots/search_bot.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/games/forty_two/forty_two_solver_bot.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::forty_two {
namespace {

using engine_test::MakeGame;

// The bidders' points from the rest of the hand under best play, by trying every line on the
// engine's State: the truth the solver must match. The hand's taken points are read from the
// view's last hand once the hand ends.
int Exhaustive(const State& state, int bidding_team, int taken_before) {
  const int round = state.Round();
  ActionList legal;
  state.LegalActions(legal);
  const bool maximizing = state.CurrentSeat() % 2 == bidding_team;
  int best = maximizing ? -1 : 99;
  for (Action a : legal) {
    std::unique_ptr<State> next = state.Clone();
    next->Apply(a);
    int value;
    if (next->IsTerminal() || next->Round() != round) {
      const auto view = next->ViewFor(0);
      const auto& last = static_cast<const FortyTwoView&>(*view).last_hand;
      value = last->taken[bidding_team] - taken_before;
    } else {
      value = Exhaustive(*next, bidding_team, taken_before);
    }
    best = maximizing ? std::max(best, value) : std::min(best, value);
  }
  return best;
}

// Random hands played at random to their last `tricks_left` tricks, stopped `into_trick`
// plays into a trick.
std::unique_ptr<State> Endgame(uint64_t seed, int tricks_left, int into_trick) {
  auto game = MakeGame("forty_two", {{"scoring", "marks"}});
  std::unique_ptr<State> state = *game->NewMatch(seed);
  Rng rng(seed * 7 + 1);
  ActionList legal;
  while (!state->IsTerminal()) {
    const auto& s = static_cast<const FortyTwoState&>(*state);
    if (s.playing()) {
      int tiles = 0;
      for (int seat = 0; seat < kSeats; ++seat) tiles += std::popcount(s.hand(seat));
      if (tiles == tricks_left * kSeats - into_trick) {
        if (s.contract() == Contract::kTrumps) return state;
      }
    }
    legal.clear();
    state->LegalActions(legal);
    state->Apply(legal[rng.Below(static_cast<uint32_t>(legal.size()))]);
  }
  return nullptr;
}

TEST(FortyTwoSolver, MatchesAnExhaustiveSearchOfTheEngineInEndgames) {
  PlaySolver solver;
  int checked = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const int into = static_cast<int>(seed % 4);
    std::unique_ptr<State> state = Endgame(seed, 3, into);
    if (state == nullptr) continue;
    SCOPED_TRACE(seed);
    const auto& s = static_cast<const FortyTwoState&>(*state);
    const std::optional<OpenHand> hand = OpenHandOf(s);
    ASSERT_TRUE(hand.has_value());
    const int team = hand->bidding_team;
    EXPECT_EQ(solver.Solve(*hand), Exhaustive(*state, team, s.taken()[team]));
    // And after each legal play, as the bot asks it.
    ActionList legal;
    state->LegalActions(legal);
    for (Action a : legal) {
      std::unique_ptr<State> next = state->Clone();
      next->Apply(a);
      const int value =
          next->Round() != state->Round()
              ? static_cast<const FortyTwoView&>(*next->ViewFor(0)).last_hand->taken[team] -
                    s.taken()[team]
              : Exhaustive(*next, team, s.taken()[team]);
      EXPECT_EQ(solver.SolveAfter(*hand, static_cast<int>(a)), value) << state->ActionToString(a);
    }
    ++checked;
  }
  EXPECT_GT(checked, 25);
}

// The bidder holds every six with sixes trump and leads: every trick and every count are the
// bidders', 42 points, whatever the others hold. Its partner's hand changes nothing.
TEST(FortyTwoSolver, ReadsAHandThatTakesEverything) {
  engine_test::Match m(
      "forty_two", {{"scoring", "marks"}},
      {engine_test::MakeDeal({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
                              "4-3 4-2 4-1 4-0 3-3 3-2 3-1", "3-0 2-2 2-1 2-0 1-1 1-0 0-0"})});
  // Seat 1 bids first (seat 0 shakes): three passes, then seat 0 bids 30 and names sixes.
  m.Do("pass, pass, pass, bid 30, trump 6");
  const auto& s = m.As<FortyTwoState>();
  const std::optional<OpenHand> hand = OpenHandOf(s);
  ASSERT_TRUE(hand.has_value());
  PlaySolver solver;
  EXPECT_EQ(solver.Solve(*hand), 42);
  // Whichever six it leads.
  EXPECT_EQ(solver.SolveAfter(*hand, tricks::IdOf(Tile(6, 0))), 42);
  EXPECT_GT(solver.nodes(), 0);
}

// FirstLead builds the hand the bot judges a bid or a trump by; it must be the hand the engine
// itself makes when that trump is named: for every trump, the same rules, hands, leader, team
// and bid as OpenHandOf after the engine applies "trump N".
TEST(FortyTwoSolver, FirstLeadIsTheHandTheEngineMakesOfTheTrump) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    auto game = MakeGame("forty_two", {{"doubles_trump", "true"}, {"follow_me", "true"}});
    std::unique_ptr<State> state = *game->NewMatch(seed);
    state->Apply(*state->ParseAction("bid 31"));
    for (int i = 0; i < 3; ++i) state->Apply(kPass);
    const auto& s = static_cast<const FortyTwoState&>(*state);
    const int declarer = state->CurrentSeat();
    ActionList legal;
    state->LegalActions(legal);
    ASSERT_EQ(legal.size(), 9u);  // seven pips, doubles, none
    for (Action contract : legal) {
      std::unique_ptr<State> named = state->Clone();
      named->Apply(contract);
      const std::optional<OpenHand> engine = OpenHandOf(static_cast<const FortyTwoState&>(*named));
      ASSERT_TRUE(engine.has_value()) << state->ActionToString(contract);
      const int trump = contract == kTrumpDoublesAction ? tricks::kTrumpDoubles
                        : contract == kTrumpNoneAction  ? tricks::kNoTrump
                                                        : static_cast<int>(contract - kTrumpBase);
      const OpenHand mine = FirstLead(s, declarer, trump, 31);
      EXPECT_TRUE(mine.rules == engine->rules) << state->ActionToString(contract);
      EXPECT_EQ(mine.hands, engine->hands);
      EXPECT_TRUE(mine.trick.empty() && engine->trick.empty());
      EXPECT_EQ(mine.to_move, engine->to_move);
      EXPECT_EQ(mine.bidding_team, engine->bidding_team);
      EXPECT_EQ(mine.bid, engine->bid);
      EXPECT_EQ(mine.taken, engine->taken);
    }
  }
}

TEST(FortyTwoSolver, DeclinesWhatItDoesNotSolve) {
  // Bidding: nothing to solve yet.
  auto game = MakeGame("forty_two");
  std::unique_ptr<State> state = *game->NewMatch(3);
  EXPECT_FALSE(OpenHandOf(static_cast<const FortyTwoState&>(*state)).has_value());
  // Eighty-Four: another table.
  auto eighty_four = MakeGame("eighty_four", {{"players", "6"}});
  std::unique_ptr<State> other = *eighty_four->NewMatch(3);
  ActionList legal;
  Rng rng(1);
  while (!static_cast<const FortyTwoState&>(*other).playing()) {
    legal.clear();
    other->LegalActions(legal);
    other->Apply(legal[rng.Below(static_cast<uint32_t>(legal.size()))]);
  }
  EXPECT_FALSE(OpenHandOf(static_cast<const FortyTwoState&>(*other)).has_value());
}

// The solving levels see what their seat sees: at every decision of a match the bot asked on
// the real state and on a determinization of it (same view, hidden tiles dealt otherwise)
// plays the same tile, and in play it did solve worlds.
TEST(FortyTwoSolverBot, ChoosesTheSameWhateverTheHiddenTilesAre) {
  auto game = MakeGame("forty_two", {{"scoring", "marks"}, {"marks_target", "2"}});
  std::unique_ptr<State> state = *game->NewMatch(11);
  Rng rng(5);
  ActionList legal;
  int solved = 0;
  // Level 2's search (cheap) for the bidding, without a time cap, and 8 worlds in play.
  const SearchLevel level{SearchLevelFor(2).iterations, std::chrono::hours(1), false};
  for (int step = 0; step < 300 && !state->IsTerminal(); ++step) {
    const int seat = state->CurrentSeat();
    legal.clear();
    state->LegalActions(legal);
    std::unique_ptr<State> other = state->Determinize(seat, rng);
    SolverSearchBot a(77, level, 8), b(77, level, 8);
    const Action on_real = AskBot(a, *state, seat, legal.span(), step);
    const Action on_other = AskBot(b, *other, seat, legal.span(), step);
    ASSERT_EQ(on_real, on_other) << "step " << step << ": " << state->ActionToString(on_real)
                                 << " vs " << state->ActionToString(on_other);
    if (a.last_worlds() > 0) {
      EXPECT_EQ(a.last_worlds(), 8);
      ++solved;
    }
    state->Apply(on_real);
  }
  EXPECT_GT(solved, 10);
}

TEST(FortyTwoSolverBot, PlaysFortyTwosLevelsFourAndFive) {
  auto game = MakeGame("forty_two");
  for (int level = 1; level <= kSearchLevels; ++level) {
    auto bot = DefaultBots().Make("search", *game, 1, level);
    ASSERT_TRUE(bot.ok()) << bot.status();
    EXPECT_EQ(dynamic_cast<SolverSearchBot*>(bot->get()) != nullptr, level >= 4) << level;
  }
  // Eighty-Four is beyond the solver: its levels are the shared search bot's.
  auto eighty_four = MakeGame("eighty_four");
  auto bot = DefaultBots().Make("search", *eighty_four, 1, 5);
  ASSERT_TRUE(bot.ok());
  EXPECT_EQ(dynamic_cast<SolverSearchBot*>(bot->get()), nullptr);
}

}  // namespace
}  // namespace boneyard::forty_two
