// Test helpers for the train games (Mexican Train, Chickenfoot): explicit deals and a match
// played by action text, as a player or a record would.
#ifndef BONEYARD_TESTS_ENGINE_TRAINS_TEST_UTIL_H_
#define BONEYARD_TESTS_ENGINE_TRAINS_TEST_UTIL_H_

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "engine/games/trains/trains.h"
#include "gtest/gtest.h"

namespace boneyard::trains::testing {

inline std::vector<Tile> Tiles(const std::string& text) {
  std::vector<Tile> out;
  for (absl::string_view t : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    out.push_back(*Tile::Parse(t));
  }
  return out;
}

// Hands as given; the boneyard starts with `boneyard` and goes on with every other tile of
// double-`max_pip` but the centre double `centre`-`centre` (none when `centre` < 0), in id
// order.
inline Deal MakeDeal(int max_pip, int centre, const std::vector<std::string>& hands,
                     const std::string& boneyard = "") {
  Deal deal;
  TileMask used;
  if (centre >= 0) used.Set(DoubleId(centre));
  for (const std::string& h : hands) {
    deal.hands.push_back(Tiles(h));
    for (const Tile& t : deal.hands.back()) used.Set(t.BaseId());
  }
  deal.boneyard = Tiles(boneyard);
  for (const Tile& t : deal.boneyard) used.Set(t.BaseId());
  for (int id = 0; id < DistinctTiles(max_pip); ++id) {
    if (!used.Test(id)) deal.boneyard.push_back(TileOf(id));
  }
  return deal;
}

inline bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

class Match {
 public:
  Match(const std::string& game, const RuleText& rules, std::vector<Deal> deals,
        uint64_t seed = 1) {
    absl::StatusOr<std::shared_ptr<const Game>> g = DefaultRegistry().CreateGame(game, rules);
    EXPECT_TRUE(g.ok()) << g.status();
    game_ = *g;
    absl::StatusOr<std::unique_ptr<State>> state = game_->NewMatch(seed, std::move(deals));
    EXPECT_TRUE(state.ok()) << state.status();
    state_ = *std::move(state);
  }

  State& state() { return *state_; }
  const Game& game() { return *game_; }

  // Plays `text` as `seat`, which must be legal; checks the invariants afterwards.
  void Play(int seat, const std::string& text) {
    absl::StatusOr<Action> a = state_->ResolveAction(seat, text);
    ASSERT_TRUE(a.ok()) << "seat " << seat << " \"" << text << "\": " << a.status() << "\n"
                        << state_->ToString();
    state_->Apply(*a);
    absl::Status inv = state_->CheckInvariants();
    ASSERT_TRUE(inv.ok()) << inv << "\n" << state_->ToString();
  }
  void PlayAll(const std::vector<std::pair<int, std::string>>& moves) {
    for (const auto& [seat, text] : moves) {
      ASSERT_NO_FATAL_FAILURE(Play(seat, text));
    }
  }
  absl::Status Error(const std::string& text) {
    return state_->ResolveAction(state_->CurrentSeat(), text).status();
  }
  std::vector<std::string> Legal() { return state_->LegalActionStrings(); }
  template <typename V>
  std::unique_ptr<V> View(int seat) {
    return std::unique_ptr<V>(static_cast<V*>(state_->ViewFor(seat).release()));
  }

 private:
  std::shared_ptr<const Game> game_;
  std::unique_ptr<State> state_;
};

// What bot `B` plays now, as text.
template <typename B>
std::string BotChoice(State& state) {
  B bot(7);
  ActionList legal;
  state.LegalActions(legal);
  const Action a = bot.ChooseAction(*state.ViewFor(state.CurrentSeat()), legal.span());
  EXPECT_TRUE(legal.Contains(a));
  return state.ActionToString(a);
}

// Plays a match with random legal moves; calls `round_start(state)` as each round starts and
// `round_end(before, after)` after the action that ended a round (`before` is the state just
// before it).
inline void RandomMatch(const std::string& game_name, const RuleText& rules, uint64_t seed,
                        const std::function<void(const State&)>& round_start,
                        const std::function<void(const State&, const State&)>& round_end) {
  auto game = DefaultRegistry().CreateGame(game_name, rules);
  ASSERT_TRUE(game.ok()) << game.status();
  auto state = *(*game)->NewMatch(seed);
  Rng rng(DeriveSeed(seed, 99));
  ActionList legal;
  round_start(*state);
  while (!state->IsTerminal()) {
    legal.clear();
    state->LegalActions(legal);
    auto before = state->Clone();
    state->Apply(legal[rng.Below(legal.size())]);
    if (state->Round() == before->Round() && !state->IsTerminal()) continue;
    round_end(*before, *state);
    if (!state->IsTerminal()) round_start(*state);
  }
}

// A whole match between bots (by name); returns the final totals.
inline std::vector<int> PlayBots(const std::string& game_name, const RuleText& rules,
                                 uint64_t seed, const std::vector<std::string>& bots,
                                 std::vector<std::string>* log = nullptr) {
  auto game = *DefaultRegistry().CreateGame(game_name, rules);
  std::vector<std::unique_ptr<Bot>> seats;
  for (size_t s = 0; s < bots.size(); ++s) {
    seats.push_back(*DefaultBots().Make(bots[s], *game, DeriveSeed(seed, s)));
  }
  auto state = *game->NewMatch(seed);
  ActionList legal;
  while (!state->IsTerminal()) {
    legal.clear();
    state->LegalActions(legal);
    const int seat = state->CurrentSeat();
    const Action a = seats[seat]->ChooseAction(*state->ViewFor(seat), legal.span());
    EXPECT_TRUE(legal.Contains(a));
    if (log != nullptr) log->push_back(state->ActionToString(a));
    state->Apply(a);
  }
  return state->Scores();
}

}  // namespace boneyard::trains::testing

#endif  // BONEYARD_TESTS_ENGINE_TRAINS_TEST_UTIL_H_
