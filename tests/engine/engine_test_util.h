// Helpers shared by the engine's game tests (tests/engine/*_test.cc): tiles and deals written
// as text, a match played by action text as a player or a record would, bots' choices, whole
// matches between bots and random playouts. What only one game needs stays with its tests.
//
// Header-only, so that the tests' CMake glob (tests/CMakeLists.txt) needs no list of helpers.
// The namespace is not `testing`: inside boneyard that would shadow gtest's ::testing.
#ifndef BONEYARD_TESTS_ENGINE_ENGINE_TEST_UTIL_H_
#define BONEYARD_TESTS_ENGINE_ENGINE_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/bots/bot.h"
#include "engine/core/action.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/rules.h"
#include "engine/core/tile.h"
#include "engine/core/view.h"
#include "gtest/gtest.h"

namespace boneyard::engine_test {

// ---- Tiles and deals ----

// "6-4 5-5 3-2'" as tiles, in that order. A typo fails the test rather than dealing less.
inline std::vector<Tile> Tiles(absl::string_view text) {
  std::vector<Tile> out;
  for (absl::string_view t : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    absl::StatusOr<Tile> tile = Tile::Parse(t);
    EXPECT_TRUE(tile.ok()) << "\"" << t << "\": " << tile.status();
    if (tile.ok()) out.push_back(*tile);
  }
  return out;
}

// Exactly these hands and this boneyard (first drawn first).
inline Deal MakeDeal(const std::vector<std::string>& hands, absl::string_view boneyard = "") {
  Deal deal;
  for (const std::string& hand : hands) deal.hands.push_back(Tiles(hand));
  deal.boneyard = Tiles(boneyard);
  return deal;
}

// The hands and the start of the boneyard as given; the boneyard goes on with every other tile
// of a double-`max_pip` set but `left_out`, in id order. So a scenario names only the tiles it
// is about and still deals the whole set the game checks for.
inline Deal MakeFullDeal(int max_pip, const std::vector<std::string>& hands,
                         absl::string_view boneyard = "", const std::vector<Tile>& left_out = {}) {
  Deal deal = MakeDeal(hands, boneyard);
  std::vector<bool> used(DistinctTiles(max_pip), false);
  // A tile outside the set is left for the game's deal check to refuse.
  auto mark = [&used](const Tile& t) {
    if (t.BaseId() < static_cast<int>(used.size())) used[t.BaseId()] = true;
  };
  for (const Tile& t : left_out) mark(t);
  for (const std::vector<Tile>& hand : deal.hands) {
    for (const Tile& t : hand) mark(t);
  }
  for (const Tile& t : deal.boneyard) mark(t);
  for (int hi = 0; hi <= max_pip; ++hi) {
    for (int lo = 0; lo <= hi; ++lo) {
      const Tile t(hi, lo);
      if (!used[t.BaseId()]) deal.boneyard.push_back(t);
    }
  }
  return deal;
}

// ---- Games and states ----

inline std::shared_ptr<const Game> MakeGame(absl::string_view name, const RuleText& rules = {}) {
  absl::StatusOr<std::shared_ptr<const Game>> game = DefaultRegistry().CreateGame(name, rules);
  EXPECT_TRUE(game.ok()) << name << ": " << game.status();
  return game.ok() ? *std::move(game) : nullptr;
}

// The game's own state type; a wrong type throws rather than reading garbage.
template <typename T>
T& As(State& state) {
  return dynamic_cast<T&>(state);
}

// `seat`'s view as the game's own view type (null, and a failure, if it is another type).
template <typename V>
std::unique_ptr<V> ViewAs(const State& state, int seat) {
  std::unique_ptr<View> view = state.ViewFor(seat);
  if (dynamic_cast<V*>(view.get()) == nullptr) {
    ADD_FAILURE() << "the view for seat " << seat << " is not of the expected type";
    return nullptr;
  }
  return std::unique_ptr<V>(static_cast<V*>(view.release()));
}

// Plays `text` as `seat`, which must be legal; checks the invariants afterwards.
inline void Play(State& state, int seat, absl::string_view text) {
  absl::StatusOr<Action> action = state.ResolveAction(seat, text);
  ASSERT_TRUE(action.ok()) << "seat " << seat << " \"" << text << "\": " << action.status() << "\n"
                           << state.ToString();
  state.Apply(*action);
  absl::Status invariants = state.CheckInvariants();
  ASSERT_TRUE(invariants.ok()) << invariants << "\n" << state.ToString();
}

// Plays `text` as the seat to play.
inline void Play(State& state, absl::string_view text) { Play(state, state.CurrentSeat(), text); }

// Actions separated by commas ("pass, bid 30, trump 6"), each played by the seat to play.
inline void Do(State& state, absl::string_view actions) {
  for (absl::string_view a : absl::StrSplit(actions, ',', absl::SkipEmpty())) {
    ASSERT_NO_FATAL_FAILURE(Play(state, absl::StripAsciiWhitespace(a)));
  }
}

// ---- A match played by text ----

// One match of a registered game, from explicit deals (a round without one is shuffled from
// `seed`), played by action text as a player or a record would. Games with their own state
// and view types add typed accessors in a thin subclass.
class Match {
 public:
  Match(absl::string_view game, const RuleText& rules, std::vector<Deal> deals, uint64_t seed = 1)
      : game_(MakeGame(game, rules)) {
    if (game_ == nullptr) return;
    absl::StatusOr<std::unique_ptr<State>> state = game_->NewMatch(seed, std::move(deals));
    EXPECT_TRUE(state.ok()) << state.status();
    if (state.ok()) state_ = *std::move(state);
  }

  const Game& game() const { return *game_; }
  // The engine's State, as a player, a bot or the service sees it.
  State& base() { return *state_; }
  template <typename T>
  T& As() {
    return engine_test::As<T>(*state_);
  }
  template <typename V>
  std::unique_ptr<V> ViewAs(int seat) const {
    return engine_test::ViewAs<V>(*state_, seat);
  }

  void Play(int seat, absl::string_view text) { engine_test::Play(*state_, seat, text); }
  void Play(absl::string_view text) { engine_test::Play(*state_, text); }
  void PlayAll(const std::vector<std::pair<int, std::string>>& moves) {
    for (const auto& [seat, text] : moves) ASSERT_NO_FATAL_FAILURE(Play(seat, text));
  }
  void Do(absl::string_view actions) { engine_test::Do(*state_, actions); }
  // Every seat plays its first legal action until the current round (or the match) is over.
  void PlayOutRound() {
    const int round = state_->Round();
    ActionList legal;
    while (!state_->IsTerminal() && state_->Round() == round) {
      legal.clear();
      state_->LegalActions(legal);
      state_->Apply(legal[0]);
      absl::Status invariants = state_->CheckInvariants();
      ASSERT_TRUE(invariants.ok()) << invariants << "\n" << state_->ToString();
    }
  }

  // Why `text` may not be played by the seat to play (OK when it may).
  absl::Status Error(absl::string_view text) const {
    return state_->ResolveAction(state_->CurrentSeat(), text).status();
  }
  std::vector<std::string> Legal() const { return state_->LegalActionStrings(); }

 private:
  std::shared_ptr<const Game> game_;
  std::unique_ptr<State> state_;
};

// A Match whose game has its own state and view types, for the tests' typed access.
template <typename GameState, typename GameView>
class TypedMatch : public Match {
 public:
  using Match::Match;

  GameState& state() { return As<GameState>(); }
  std::unique_ptr<GameView> View(int seat) const { return ViewAs<GameView>(seat); }
};

inline bool Contains(const std::vector<std::string>& v, absl::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// ---- Bots ----

// What `bot` plays now, as text; the choice must be legal.
inline std::string Choice(Bot& bot, const State& state) {
  ActionList legal;
  state.LegalActions(legal);
  const Action a = bot.ChooseAction(*state.ViewFor(state.CurrentSeat()), legal.span());
  EXPECT_TRUE(legal.Contains(a)) << "bot chose an illegal action " << a;
  return state.ActionToString(a);
}

// What a fresh bot of type `B` plays now. Position tests of a deterministic bot need no
// particular seed; any fixed one keeps them reproducible.
template <typename B>
std::string ChoiceOf(const State& state, uint64_t seed = 7) {
  B bot(seed);
  return Choice(bot, state);
}

// A bound on a whole match's actions, far above any game's, so that bots that never end a
// match fail the test instead of hanging it.
inline constexpr int kMaxMatchActions = 100000;

// Plays `state` to the end, the seat to play choosing with `seats[seat]` from its own view;
// every choice must be legal. Calls `on_action(state, action)`, when given, just before each
// action is applied (to log or record it).
inline void PlayOut(State& state, const std::vector<std::unique_ptr<Bot>>& seats,
                    const std::function<void(const State& state, Action action)>& on_action = {}) {
  ActionList legal;
  for (int step = 0; !state.IsTerminal(); ++step) {
    ASSERT_LT(step, kMaxMatchActions) << "match does not end";
    legal.clear();
    state.LegalActions(legal);
    const int seat = state.CurrentSeat();
    // A search bot gets worlds seeded by the step; other bots only the view.
    const Action a = AskBot(*seats[seat], state, seat, legal.span(), static_cast<uint64_t>(step));
    ASSERT_TRUE(legal.Contains(a)) << "seat " << seat << " chose an illegal action " << a << "\n"
                                   << state.ToString();
    if (on_action) on_action(state, a);
    state.Apply(a);
  }
}

// A whole match of `game_name` between `bots` (by name, one per seat, seat s seeded with
// DeriveSeed(seed, s)). Returns the final state. With `log`, appends each action as text and
// then the final scores, so that equal logs mean equal matches.
inline std::unique_ptr<State> PlayBots(absl::string_view game_name, const RuleText& rules,
                                       uint64_t seed, const std::vector<std::string>& bots,
                                       std::vector<std::string>* log = nullptr) {
  std::shared_ptr<const Game> game = MakeGame(game_name, rules);
  if (game == nullptr) return nullptr;
  std::vector<std::unique_ptr<Bot>> seats;
  for (size_t s = 0; s < bots.size(); ++s) {
    absl::StatusOr<std::unique_ptr<Bot>> bot =
        DefaultBots().Make(bots[s], *game, DeriveSeed(seed, s));
    EXPECT_TRUE(bot.ok()) << bots[s] << ": " << bot.status();
    if (!bot.ok()) return nullptr;
    seats.push_back(*std::move(bot));
  }
  std::unique_ptr<State> state = *game->NewMatch(seed);
  PlayOut(*state, seats, [log](const State& before, Action a) {
    if (log != nullptr) log->push_back(before.ActionToString(a));
  });
  if (log != nullptr) log->push_back(absl::StrJoin(state->Scores(), ","));
  return state;
}

// ---- Random playouts ----

using RoundStart = std::function<void(const State& state)>;
using RoundEnd = std::function<void(const State& before, const State& after)>;

// Plays a match of `game` from `seed` to the end, each move drawn uniformly from the legal ones
// by `rng`. Calls `round_start(state)` as each round starts and `round_end(before, after)`
// after the action that ended a round or the match (`before` is the state just before it);
// either may be empty.
inline void RandomMatch(const Game& game, uint64_t seed, Rng& rng, const RoundStart& round_start,
                        const RoundEnd& round_end) {
  absl::StatusOr<std::unique_ptr<State>> match = game.NewMatch(seed);
  ASSERT_TRUE(match.ok()) << match.status();
  State& state = **match;
  ActionList legal;
  if (round_start) round_start(state);
  while (!state.IsTerminal()) {
    legal.clear();
    state.LegalActions(legal);
    // The state before the action is kept only for a caller that looks at it.
    std::unique_ptr<State> before = round_end ? state.Clone() : nullptr;
    const int round = state.Round();
    state.Apply(legal[rng.Below(legal.size())]);
    if (state.Round() == round && !state.IsTerminal()) continue;
    if (round_end) round_end(*before, state);
    if (round_start && !state.IsTerminal()) round_start(state);
  }
}

}  // namespace boneyard::engine_test

#endif  // BONEYARD_TESTS_ENGINE_ENGINE_TEST_UTIL_H_
