// Castle Rock's rules, one test per rule sentence of the sheets (shared/rules 000, 001, 003 and
// 004, "CASTLE ROCK") and per ruling (shared/rules/README.md, "Castle Rock"); the rules as
// implemented are written up in docs/rules/castle_rock.md.
//
// Every scenario deals an explicit pile (first drawn first; the first three form the row) and
// its comments give the row after each step. Piles are written as a prefix of chosen tiles
// followed by the rest of the set in id order (0-0 1-0 1-1 2-0 2-1 2-2 3-0 ...), unless the
// whole pile is spelled out.
#include "engine/games/castle_rock/castle_rock.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::castle_rock {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Row = std::vector<std::string>;

std::shared_ptr<const Game> MakeGame(const RuleText& rules = {{"set", "6"}}) {
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame("castle_rock", rules);
  EXPECT_TRUE(game.ok()) << game.status();
  return game.ok() ? *game : nullptr;
}

std::vector<Tile> ParseTiles(const std::vector<std::string>& texts) {
  std::vector<Tile> tiles;
  for (const std::string& text : texts) {
    absl::StatusOr<Tile> t = Tile::Parse(text);
    EXPECT_TRUE(t.ok()) << t.status();
    if (t.ok()) tiles.push_back(*t);
  }
  return tiles;
}

// The whole set of `game`: `first` in that order, then every other tile in id order.
std::vector<Tile> PileStartingWith(const Game& game, const std::vector<std::string>& first) {
  std::vector<Tile> pile = ParseTiles(first);
  for (const Tile& t : game.tile_set().AllTiles()) {
    if (std::find(pile.begin(), pile.end(), t) == pile.end()) pile.push_back(t);
  }
  return pile;
}

// A double-6 match dealt from `first` followed by the rest of the set in id order.
std::unique_ptr<State> Start(const std::vector<std::string>& first) {
  std::shared_ptr<const Game> game = MakeGame();
  absl::StatusOr<std::unique_ptr<State>> state =
      game->NewMatch(0, {Deal{{{}}, PileStartingWith(*game, first)}});
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? *std::move(state) : nullptr;
}

const CastleRockState& Cr(const State& state) {
  return dynamic_cast<const CastleRockState&>(state);
}

// The row as the player sees it (the view's layout), left to right.
Row RowOf(const State& state) {
  return state.ViewFor(0)->ToJson()["layout"]["row"].get<Row>();
}

// Resolves `text` as seat 0's action, applies it and checks the invariants.
::testing::AssertionResult Do(State& state, const std::string& text) {
  absl::StatusOr<Action> action = state.ResolveAction(0, text);
  if (!action.ok()) {
    return ::testing::AssertionFailure()
           << "'" << text << "' refused: " << action.status() << "\nstate: " << state.ToString();
  }
  state.Apply(*action);
  if (absl::Status s = state.CheckInvariants(); !s.ok()) {
    return ::testing::AssertionFailure() << "after '" << text << "': " << s;
  }
  return ::testing::AssertionSuccess();
}

// The status of trying `text` as seat 0's action now.
absl::Status Try(const State& state, const std::string& text) {
  return state.ResolveAction(0, text).status();
}

// Two double-6 piles made of triples that each share one number, so that every triple can be
// removed as soon as it is dealt ("take 1-3") and the row refills with the next one.
//
// kWinPile: eight triples, then 5-2 5-5 6-6 | 6-5.
const std::vector<std::string> kWinPile = {
    "0-0", "1-0", "2-0",  // 0
    "3-0", "4-0", "5-0",  // 0
    "1-1", "2-1", "3-1",  // 1
    "4-1", "5-1", "6-1",  // 1
    "2-2", "3-2", "4-2",  // 2
    "3-3", "4-3", "5-3",  // 3
    "4-4", "5-4", "6-4",  // 4
    "6-0", "6-2", "6-3",  // 6
    "5-2", "5-5", "6-6", "6-5"};
// kLostPile: eight other triples, then 6-6 4-1 5-5 | 4-2.
const std::vector<std::string> kLostPile = {
    "0-0", "1-0", "2-0",  // 0
    "1-1", "2-1", "3-1",  // 1
    "2-2", "3-2", "5-2",  // 2
    "3-3", "4-3", "5-3",  // 3
    "4-4", "5-4", "6-4",  // 4
    "3-0", "4-0", "6-0",  // 0
    "6-1", "6-2", "6-3",  // 6
    "5-0", "5-1", "6-5",  // 5
    "6-6", "4-1", "5-5", "4-2"};
// kOneLeftPile: kWinPile's eight triples, a ninth (5-2 5-5 6-5, sharing 5), then 6-6 alone.
const std::vector<std::string> kOneLeftPile = {
    "0-0", "1-0", "2-0", "3-0", "4-0", "5-0", "1-1", "2-1", "3-1", "4-1",
    "5-1", "6-1", "2-2", "3-2", "4-2", "3-3", "4-3", "5-3", "4-4", "5-4",
    "6-4", "6-0", "6-2", "6-3", "5-2", "5-5", "6-5", "6-6"};

// Removes the eight leading triples of kWinPile / kLostPile / kOneLeftPile.
::testing::AssertionResult TakeEightTriples(State& state) {
  for (int k = 0; k < 8; ++k) {
    if (auto r = Do(state, "take 1-3"); !r) return r << " (triple " << k + 1 << ")";
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// Sets and rule options.

// 001: "Castle Rock can be played with various size domino sets (double-6, double-9, double-12,
// double-15 and double-18)." Ruling: "Sets double-6 to double-18 (default double-6)."
TEST(CastleRockRules, EverySetOfTheSheetsPlaysToTheEnd) {
  struct Case {
    int set;
    int tiles;
  };
  for (const Case& c : {Case{6, 28}, Case{9, 55}, Case{12, 91}, Case{15, 136}, Case{18, 190}}) {
    SCOPED_TRACE(absl::StrCat("double-", c.set));
    std::shared_ptr<const Game> game = MakeGame({{"set", absl::StrCat(c.set)}});
    ASSERT_NE(game, nullptr);
    EXPECT_EQ(game->tile_set().max_pip(), c.set);
    EXPECT_EQ(game->tile_set().size(), c.tiles);
    for (uint64_t seed : {1u, 2u, 3u}) {
      absl::StatusOr<std::unique_ptr<State>> made = game->NewMatch(seed);
      ASSERT_TRUE(made.ok()) << made.status();
      State& state = **made;
      const Deal deal = state.CurrentDeal();
      ASSERT_EQ(static_cast<int>(deal.boneyard.size()), c.tiles);
      EXPECT_NE(std::find(deal.boneyard.begin(), deal.boneyard.end(), Tile(c.set, c.set)),
                deal.boneyard.end());
      EXPECT_EQ(Cr(state).row_size() + Cr(state).pile_left(), c.tiles);
      // Play the first legal action until the end.
      int steps = 0;
      while (!state.IsTerminal()) {
        ASSERT_LT(++steps, 4 * c.tiles) << "the game does not end";
        const std::vector<std::string> legal = state.LegalActionStrings();
        ASSERT_FALSE(legal.empty()) << state.ToString();
        ASSERT_TRUE(Do(state, legal[0]));
      }
      EXPECT_EQ(Cr(state).pile_left(), 0);
      const nlohmann::json details = state.ResultDetails();
      EXPECT_EQ(details["tiles_left"], Cr(state).row_size());
      EXPECT_EQ(details["won"], Cr(state).row_size() <= 2);
    }
  }
}

// Ruling: the default set is double-6.
TEST(CastleRockRules, DefaultSetIsDoubleSix) {
  std::shared_ptr<const Game> game = MakeGame({});
  ASSERT_NE(game, nullptr);
  EXPECT_EQ(game->rules().GetInt("set"), 6);
  EXPECT_EQ(game->tile_set().size(), 28);
}

// Ruling: "Sets double-6 to double-18": anything else is refused, naming the option.
TEST(CastleRockRules, SetOutsideSixToEighteenIsRejected) {
  for (const char* bad : {"5", "19", "0", "-1", "six"}) {
    absl::StatusOr<std::shared_ptr<const Game>> game =
        DefaultRegistry().CreateGame("castle_rock", RuleText{{"set", bad}});
    EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(game.status().message(), HasSubstr("'set'")) << bad;
  }
}

// The sheets' five sets are presets: "double-N" sets `set` to N; an explicit `set` wins.
TEST(CastleRockRules, PresetsChooseTheSet) {
  for (int n : {6, 9, 12, 15, 18}) {
    std::shared_ptr<const Game> game = MakeGame({{"preset", absl::StrCat("double-", n)}});
    ASSERT_NE(game, nullptr);
    EXPECT_EQ(game->rules().GetInt("set"), n);
    EXPECT_EQ(game->rules().GetString("preset"), absl::StrCat("double-", n));
    EXPECT_EQ(game->tile_set().size(), DistinctTiles(n));
  }
  std::shared_ptr<const Game> game = MakeGame({{"preset", "double-9"}, {"set", "12"}});
  ASSERT_NE(game, nullptr);
  EXPECT_EQ(game->rules().GetInt("set"), 12);

  absl::StatusOr<std::shared_ptr<const Game>> bad =
      DefaultRegistry().CreateGame("castle_rock", RuleText{{"preset", "double-7"}});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("double-7"));
}

TEST(CastleRockRules, UnknownOptionIsRejected) {
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame("castle_rock", RuleText{{"timer", "60"}});
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(game.status().message(), HasSubstr("'timer'"));
}

// "Number of players: 1".
TEST(CastleRockRules, OnePlayer) {
  std::shared_ptr<const Game> game = MakeGame({{"players", "1"}});
  ASSERT_NE(game, nullptr);
  EXPECT_EQ(game->num_seats(), 1);
  for (const char* bad : {"0", "2", "4"}) {
    absl::StatusOr<std::shared_ptr<const Game>> g =
        DefaultRegistry().CreateGame("castle_rock", RuleText{{"players", bad}});
    EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(g.status().message(), HasSubstr("'players'")) << bad;
  }
}

// A deal is the whole set in the pile, each tile once, and one empty hand.
TEST(CastleRockRules, DealMustBeTheWholeSetInThePile) {
  std::shared_ptr<const Game> game = MakeGame();
  std::vector<Tile> pile = game->tile_set().AllTiles();

  std::vector<Tile> short_pile(pile.begin(), pile.end() - 1);  // 6-6 missing
  absl::StatusOr<std::unique_ptr<State>> s = game->NewMatch(0, {Deal{{{}}, short_pile}});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.status().message(), HasSubstr("6-6"));

  std::vector<Tile> twice = pile;
  twice.back() = Tile(0, 0);
  s = game->NewMatch(0, {Deal{{{}}, twice}});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.status().message(), HasSubstr("twice"));

  s = game->NewMatch(0, {Deal{{{Tile(6, 6)}}, short_pile}});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);

  s = game->NewMatch(0, {Deal{{{}}, pile}, Deal{{{}}, pile}});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.status().message(), HasSubstr("one round"));
}

// ---------------------------------------------------------------------------------------------
// Preparation.

// "Turn the dominoes face down and shuffle them. Gather all the dominoes into a bone pile ...
// Draw 3 tiles from this bone pile and place them face up and side by side ... to form a row."
TEST(CastleRockRules, RowStartsWithTheFirstThreeTilesFaceUp) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4"});
  ASSERT_NE(state, nullptr);
  // Row: 6-6 5-5 4-4 | pile: 0-0 1-0 1-1 ... (25 tiles)
  EXPECT_EQ(RowOf(*state), (Row{"6-6", "5-5", "4-4"}));
  EXPECT_EQ(Cr(*state).row_size(), 3);
  EXPECT_EQ(Cr(*state).pile_left(), 25);
  EXPECT_FALSE(state->IsTerminal());
  EXPECT_EQ(state->CurrentSeat(), 0);

  const nlohmann::json view = state->ViewFor(0)->ToJson();
  EXPECT_EQ(view["boneyard_count"], 25);
  EXPECT_THAT(view["hand"], IsEmpty());
  EXPECT_EQ(view["hand_counts"], nlohmann::json::array({0}));
  EXPECT_EQ(view["legal_actions"], nlohmann::json::array({"draw"}));
  EXPECT_EQ(view["layout"],
            nlohmann::json::object({{"row", nlohmann::json::array({"6-6", "5-5", "4-4"})}}));

  // The rest of the pile stays face down: hidden from the player and from a spectator, and
  // shown nowhere in either view.
  const std::shared_ptr<const Game> game = state->game_ptr();
  TileMask rest;
  for (const Tile& t : game->tile_set().AllTiles()) {
    if (t != Tile(6, 6) && t != Tile(5, 5) && t != Tile(4, 4)) rest.Set(game->tile_set().IdOf(t));
  }
  EXPECT_TRUE(state->HiddenFrom(0) == rest);
  EXPECT_TRUE(state->HiddenFrom(kSpectator) == rest);
  for (int seat : {0, kSpectator}) {
    nlohmann::json v = state->ViewFor(seat)->ToJson();
    v.erase("legal_actions");  // "take 1-3" names positions, not a tile
    const std::string text = v.dump() + state->ViewFor(seat)->ToText();
    rest.ForEach([&](int id) {
      const std::string quoted = absl::StrCat("\"", game->tile_set().TileAt(id).ToString(), "\"");
      EXPECT_THAT(text, ::testing::Not(HasSubstr(quoted)))
          << "seat " << seat;
    });
  }
  EXPECT_THAT(state->ViewFor(kSpectator)->ToJson()["legal_actions"], IsEmpty());
}

// The same from a shuffle: the row is the first three tiles of the dealt pile.
TEST(CastleRockRules, ShuffledRowIsTheFirstThreeOfThePile) {
  std::shared_ptr<const Game> game = MakeGame();
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::unique_ptr<State> state = *game->NewMatch(seed);
    const Deal deal = state->CurrentDeal();
    // Nothing has been removed yet, so the row still holds the first three (or a removal
    // is pending).
    EXPECT_EQ(RowOf(*state), (Row{deal.boneyard[0].ToString(), deal.boneyard[1].ToString(),
                                  deal.boneyard[2].ToString()}));
  }
}

// ---------------------------------------------------------------------------------------------
// Matching and option 1.

// "If the number on one end of Domino 1 matches the number on one end of Domino 3": a match is
// any shared number, on either end of either tile (ruling: "two tiles share a number").
TEST(CastleRockRules, MatchMeansSharingANumberOnEitherEnd) {
  struct Case {
    const char* d1;
    const char* d3;
    bool match;
  };
  for (const Case& c : {
           Case{"3-1", "3-2", true},   // high end and high end (the sheet's example, the 3)
           Case{"3-1", "5-3", true},   // high end and low end
           Case{"4-1", "1-0", true},   // low end and high end
           Case{"4-1", "2-1", true},   // low end and low end
           Case{"2-2", "2-0", true},   // a double matches its number
           Case{"0-0", "5-0", true},   // blanks are a number like any other
           Case{"4-1", "3-2", false},  // nothing shared
           Case{"5-5", "4-4", false},  // two different doubles
       }) {
    SCOPED_TRACE(absl::StrCat(c.d1, " _ ", c.d3));
    // Row: d1 6-6 d3 (6-6 shares nothing with any of them).
    std::unique_ptr<State> state = Start({c.d1, "6-6", c.d3});
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->LegalActionStrings(),
              c.match ? std::vector<std::string>{"take 2"} : std::vector<std::string>{"draw"});
  }
}

// Option 1: "If the number on one end of Domino 1 matches the number on one end of Domino 3,
// then Domino 2 is removed from the row."
TEST(CastleRockRules, OptionOneRemovesTheMiddleTile) {
  std::unique_ptr<State> state = Start({"3-1", "6-6", "3-2"});
  // Row: 3-1 6-6 3-2 — 3-1 and 3-2 share the 3.
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 2"});
  ASSERT_TRUE(Do(*state, "take 2"));
  // Row: 3-1 3-2
  EXPECT_EQ(RowOf(*state), (Row{"3-1", "3-2"}));
  EXPECT_EQ(Cr(*state).pile_left(), 25);
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"draw"});
}

// Option 1: "When a match occurs between the ends of any 2 dominoes being separated by 1
// domino, the domino in the middle of the matching dominoes is removed" — anywhere in the row,
// written "take i" with i the 1-based position of the middle tile.
TEST(CastleRockRules, OptionOneAppliesDeeperInTheRow) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4", "3-3", "4-1"});
  // Row: 6-6 5-5 4-4 — no two tiles one apart match.
  ASSERT_TRUE(Do(*state, "draw"));
  // Row: 6-6 5-5 4-4 3-3 — (6-6, 4-4) and (5-5, 3-3) do not match.
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"draw"});
  ASSERT_TRUE(Do(*state, "draw"));
  // Row: 6-6 5-5 4-4 3-3 4-1 — 4-4 (3rd) and 4-1 (5th) share the 4 around 3-3 (4th).
  EXPECT_EQ(RowOf(*state), (Row{"6-6", "5-5", "4-4", "3-3", "4-1"}));
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 4"});
  EXPECT_EQ(state->ActionToString(3), "take 4");
  ASSERT_TRUE(Do(*state, "take 4"));
  // Row: 6-6 5-5 4-4 4-1 — nothing more to remove.
  EXPECT_EQ(RowOf(*state), (Row{"6-6", "5-5", "4-4", "4-1"}));
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"draw"});
}

// ---------------------------------------------------------------------------------------------
// Option 2.

// Option 2: "When a match occurs between the ends of 3 dominoes in a row, all 3 dominoes can be
// removed from the row" (ruling: "three adjacent tiles that all share one number"), written
// "take i-j" with j = i+2.
TEST(CastleRockRules, OptionTwoRemovesThreeAdjacentTilesSharingOneNumber) {
  std::unique_ptr<State> state = Start({"5-1", "5-3", "6-5"});
  // Row: 5-1 5-3 6-5 — all three share the 5.
  EXPECT_EQ(state->LegalActionStrings(), (std::vector<std::string>{"take 2", "take 1-3"}));
  EXPECT_EQ(state->ActionToString(kTripleBase), "take 1-3");
  ASSERT_TRUE(Do(*state, "take 1-3"));
  // The row emptied with tiles left, so three are drawn: row 0-0 1-0 1-1.
  EXPECT_EQ(RowOf(*state), (Row{"0-0", "1-0", "1-1"}));
  EXPECT_EQ(Cr(*state).pile_left(), 22);
}

// Option 2 deeper in the row: "take 2-4".
TEST(CastleRockRules, OptionTwoAppliesDeeperInTheRow) {
  std::unique_ptr<State> state = Start({"6-6", "4-1", "4-2", "4-3"});
  // Row: 6-6 4-1 4-2 — 6-6 and 4-2 do not match.
  ASSERT_TRUE(Do(*state, "draw"));
  // Row: 6-6 4-1 4-2 4-3 — 4-1 4-2 4-3 share the 4.
  EXPECT_EQ(state->LegalActionStrings(), (std::vector<std::string>{"take 3", "take 2-4"}));
  ASSERT_TRUE(Do(*state, "take 2-4"));
  // Row: 6-6 — not empty, so nothing is drawn automatically.
  EXPECT_EQ(RowOf(*state), (Row{"6-6"}));
  EXPECT_EQ(Cr(*state).pile_left(), 24);
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"draw"});
}

// Option 2 needs one number on all three tiles: when only the outer two share a number, only
// option 1 is allowed.
TEST(CastleRockRules, OptionTwoNeedsTheMiddleTileToShareTheNumber) {
  std::unique_ptr<State> state = Start({"3-1", "6-6", "3-2"});
  // Row: 3-1 6-6 3-2 — the outer two share the 3, 6-6 does not.
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 2"});
  absl::Status s = Try(*state, "take 1-3");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("share one number"));
  EXPECT_THAT(s.message(), HasSubstr("3-1 6-6 3-2"));
}

// Option 2 needs *one* number common to all three: neighbours that match pairwise on
// different numbers are not enough.
TEST(CastleRockRules, OptionTwoNeedsOneCommonNumberNotPairwiseMatches) {
  std::unique_ptr<State> state = Start({"2-1", "3-2", "3-1"});
  // Row: 2-1 3-2 3-1 — 2-1/3-2 share 2, 3-2/3-1 share 3, 2-1/3-1 share 1; no number is on all.
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 2"});
  EXPECT_EQ(Try(*state, "take 1-3").code(), absl::StatusCode::kFailedPrecondition);
}

// "take i-j" names three adjacent positions: anything else is malformed.
TEST(CastleRockRules, MalformedActionsAreInvalidArguments) {
  std::unique_ptr<State> state = Start({"5-1", "5-3", "6-5"});
  for (const char* bad : {"take 1-2", "take 1-4", "take 3-1", "take 1-1", "take", "take x",
                          "take 0", "take -1", "take 1-", "take 1-3-5", "take 2 3", "remove 2",
                          "draw 2", "", "6-5", "pass"}) {
    absl::StatusOr<Action> a = state->ParseAction(bad);
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << "'" << bad << "'";
    EXPECT_EQ(Try(*state, bad).code(), absl::StatusCode::kInvalidArgument) << "'" << bad << "'";
  }
  EXPECT_THAT(state->ParseAction("take 1-4").status().message(), HasSubstr("take 1-3"));
}

// Notation (docs/notation.md): case-insensitive and whitespace-tolerant (any run of spaces or
// tabs between words, any around them); the text of every action parses back to it.
TEST(CastleRockRules, NotationRoundTripsAndIsCaseInsensitive) {
  std::unique_ptr<State> state = Start({"5-1", "5-3", "6-5"});
  EXPECT_EQ(*state->ParseAction("take 2"), Action{1});
  EXPECT_EQ(*state->ParseAction("  TAKE   2 "), Action{1});
  EXPECT_EQ(*state->ParseAction("take\t2"), Action{1});
  EXPECT_EQ(*state->ParseAction("\ttake 1-3\r\n"), kTripleBase);
  EXPECT_EQ(*state->ParseAction("Take 1-3"), kTripleBase);
  EXPECT_EQ(*state->ParseAction("take 4-6"), kTripleBase + 3);
  EXPECT_EQ(*state->ParseAction("DRAW"), kDraw);
  EXPECT_EQ(*state->ParseAction(" draw "), kDraw);
  for (Action a : {Action{1}, Action{7}, kTripleBase, kTripleBase + 5, kDraw}) {
    EXPECT_EQ(*state->ParseAction(state->ActionToString(a)), a) << state->ActionToString(a);
  }
}

// ---------------------------------------------------------------------------------------------
// Choosing and having to remove.

// "You may decide it is not the best strategy to remove all 3 dominoes": option 1 may be
// chosen instead of option 2.
TEST(CastleRockRules, PlayerMayChooseOptionOneInsteadOfOptionTwo) {
  std::unique_ptr<State> state = Start({"5-1", "5-3", "6-5"});
  // Row: 5-1 5-3 6-5 — both "take 2" and "take 1-3" are offered.
  ASSERT_TRUE(Do(*state, "take 2"));
  // Row: 5-1 6-5
  EXPECT_EQ(RowOf(*state), (Row{"5-1", "6-5"}));
  EXPECT_EQ(Cr(*state).pile_left(), 25);
}

// Ruling: "When a removal exists the player must remove (choosing which)": every offered
// removal may be made, each with its own outcome.
TEST(CastleRockRules, AnyOfferedRemovalMayBeChosen) {
  struct Case {
    const char* action;
    Row row;
  };
  // Row: 6-6 4-1 4-2 4-3 (after one draw) offers "take 3" and "take 2-4".
  for (const Case& c : {Case{"take 3", {"6-6", "4-1", "4-3"}}, Case{"take 2-4", {"6-6"}}}) {
    std::unique_ptr<State> state = Start({"6-6", "4-1", "4-2", "4-3"});
    ASSERT_TRUE(Do(*state, "draw"));
    ASSERT_TRUE(Do(*state, c.action));
    EXPECT_EQ(RowOf(*state), c.row) << c.action;
  }
}

// "However, you must always remove at least 1 domino when the opportunity arises": drawing is
// refused while a removal exists, and the message says why.
TEST(CastleRockRules, MustRemoveWhenARemovalExists) {
  std::unique_ptr<State> state = Start({"3-1", "6-6", "3-2"});
  // Row: 3-1 6-6 3-2 — "take 2" is available.
  absl::Status s = Try(*state, "draw");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("must"));
  EXPECT_THAT(s.message(), HasSubstr("take 2"));
  EXPECT_FALSE(state->IsLegal(kDraw));
}

// "Continue to draw dominoes from the bone pile, one at a time, always adding them to the right
// side, or end, of the row."
TEST(CastleRockRules, DrawAddsTheNextPileTileToTheRightEnd) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4", "3-3"});
  // Row: 6-6 5-5 4-4 | pile: 3-3 0-0 1-0 ...
  ASSERT_TRUE(Do(*state, "draw"));
  // Row: 6-6 5-5 4-4 3-3 | pile: 0-0 1-0 ...
  EXPECT_EQ(RowOf(*state), (Row{"6-6", "5-5", "4-4", "3-3"}));
  EXPECT_EQ(Cr(*state).pile_left(), 24);
  ASSERT_TRUE(Do(*state, "draw"));
  // Row: 6-6 5-5 4-4 3-3 0-0 — (4-4, 0-0) do not match | pile: 1-0 1-1 ...
  EXPECT_EQ(RowOf(*state), (Row{"6-6", "5-5", "4-4", "3-3", "0-0"}));
  EXPECT_EQ(Cr(*state).pile_left(), 23);
  EXPECT_EQ(state->ViewFor(0)->ToJson()["boneyard_count"], 23);
}

// A draw is an explicit action, offered only when no removal exists and the pile is not empty.
TEST(CastleRockRules, DrawIsOfferedOnlyWithoutARemoval) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4"});
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"draw"});
  state = Start({"6-6", "5-5", "6-4"});
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 2"});
}

// ---------------------------------------------------------------------------------------------
// An empty row.

// "Should you discard all the dominoes from the array during play, while the bone pile is not
// depleted yet, simply draw 3 tiles and start a new array" — done automatically.
TEST(CastleRockRules, EmptyRowWithTilesLeftDrawsThree) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kWinPile)}});
  // Row: 0-0 1-0 2-0 | 25 in the pile.
  EXPECT_EQ(RowOf(*state), (Row{"0-0", "1-0", "2-0"}));
  ASSERT_TRUE(Do(*state, "take 1-3"));
  // Empty, so three are drawn: row 3-0 4-0 5-0 | 22 in the pile.
  EXPECT_EQ(RowOf(*state), (Row{"3-0", "4-0", "5-0"}));
  EXPECT_EQ(Cr(*state).pile_left(), 22);
  EXPECT_EQ(state->CurrentSeat(), 0);
}

// The sheets are silent when fewer than three tiles are left for a new row: what is left is
// drawn (here one tile), and the game goes on or ends from there.
TEST(CastleRockRules, EmptyRowWithFewerThanThreeLeftDrawsWhatIsLeft) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kOneLeftPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  // Row: 5-2 5-5 6-5 | pile: 6-6
  EXPECT_EQ(RowOf(*state), (Row{"5-2", "5-5", "6-5"}));
  EXPECT_EQ(Cr(*state).pile_left(), 1);
  ASSERT_TRUE(Do(*state, "take 1-3"));
  // Empty with one tile left: row 6-6 | pile empty. Nothing can be removed: over, and won.
  EXPECT_EQ(RowOf(*state), (Row{"6-6"}));
  EXPECT_EQ(Cr(*state).pile_left(), 0);
  EXPECT_TRUE(state->IsTerminal());
  EXPECT_EQ(state->ResultDetails(),
            nlohmann::json({{"tiles_left", 1}, {"pips_left", 12}, {"won", true}}));
}

// ---------------------------------------------------------------------------------------------
// End of play and the result.

// "Play ends when the bone pile is depleted and you cannot discard any more dominoes from the
// array." 003/004: "The game is won if only two dominoes remain" — three left is a loss.
TEST(CastleRockRules, EndsWhenPileIsEmptyAndNothingCanBeRemoved) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kLostPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  // Row: 6-6 4-1 5-5 | pile: 4-2 — (6-6, 5-5) do not match.
  EXPECT_EQ(RowOf(*state), (Row{"6-6", "4-1", "5-5"}));
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"draw"});
  ASSERT_TRUE(Do(*state, "draw"));
  // Row: 6-6 4-1 5-5 4-2 | pile empty — 4-1 and 4-2 share the 4 around 5-5: play goes on.
  EXPECT_FALSE(state->IsTerminal());
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 3"});
  ASSERT_TRUE(Do(*state, "take 3"));
  // Row: 6-6 4-1 4-2 — (6-6, 4-2) do not match and the pile is empty: over.
  EXPECT_EQ(RowOf(*state), (Row{"6-6", "4-1", "4-2"}));
  EXPECT_TRUE(state->IsTerminal());
  EXPECT_EQ(state->CurrentSeat(), kNobody);
  EXPECT_THAT(state->LegalActionStrings(), IsEmpty());
  EXPECT_TRUE(state->ViewFor(0)->ToJson()["terminal"].get<bool>());
}

// The end needs both: the pile empty *and* no removal. With the pile empty and a removal
// left, the game goes on.
TEST(CastleRockRules, PileEmptyButARemovalLeftGoesOn) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kWinPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  // Row: 5-2 5-5 6-6 | pile: 6-5 — (5-2, 6-6) do not match.
  EXPECT_EQ(RowOf(*state), (Row{"5-2", "5-5", "6-6"}));
  ASSERT_TRUE(Do(*state, "draw"));
  // Row: 5-2 5-5 6-6 6-5 | pile empty — 5-5 and 6-5 share the 5 around 6-6.
  EXPECT_EQ(Cr(*state).pile_left(), 0);
  EXPECT_FALSE(state->IsTerminal());
  EXPECT_EQ(state->CurrentSeat(), 0);
  EXPECT_EQ(state->LegalActionStrings(), std::vector<std::string>{"take 3"});
  ASSERT_TRUE(Do(*state, "take 3"));
  // Row: 5-2 5-5 6-5 — all share the 5: still going, both options open.
  EXPECT_FALSE(state->IsTerminal());
  EXPECT_EQ(state->LegalActionStrings(), (std::vector<std::string>{"take 2", "take 1-3"}));
}

// Ruling: "it is won when two or fewer tiles remain" (003/004: "if only two dominoes remain").
// Result: tiles and pips remaining; the score is the tiles left, lower is better.
TEST(CastleRockRules, TwoTilesLeftIsAWin) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kWinPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  ASSERT_TRUE(Do(*state, "draw"));    // row 5-2 5-5 6-6 6-5
  ASSERT_TRUE(Do(*state, "take 3"));  // row 5-2 5-5 6-5
  ASSERT_TRUE(Do(*state, "take 2"));  // row 5-2 6-5
  EXPECT_EQ(RowOf(*state), (Row{"5-2", "6-5"}));
  EXPECT_TRUE(state->IsTerminal());
  EXPECT_EQ(state->ResultDetails(),
            nlohmann::json({{"tiles_left", 2}, {"pips_left", 7 + 11}, {"won", true}}));
  EXPECT_EQ(state->Scores(), std::vector<int>{2});
  EXPECT_EQ(state->Ranks(), std::vector<int>{1});
  EXPECT_EQ(game->score_order(), ScoreOrder::kLowerWins);
  EXPECT_EQ(Cr(*state).PipsLeft(), 18);
}

// Removing every tile is a win too (zero tiles, zero pips).
TEST(CastleRockRules, NoTilesLeftIsAWin) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kWinPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  ASSERT_TRUE(Do(*state, "draw"));      // row 5-2 5-5 6-6 6-5
  ASSERT_TRUE(Do(*state, "take 3"));    // row 5-2 5-5 6-5
  ASSERT_TRUE(Do(*state, "take 1-3"));  // row empty, pile empty
  EXPECT_THAT(RowOf(*state), IsEmpty());
  EXPECT_TRUE(state->IsTerminal());
  EXPECT_EQ(state->ResultDetails(),
            nlohmann::json({{"tiles_left", 0}, {"pips_left", 0}, {"won", true}}));
  EXPECT_EQ(state->Scores(), std::vector<int>{0});
}

// Three tiles left is not a win; the result counts them and their pips.
TEST(CastleRockRules, ThreeTilesLeftIsNotAWin) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kLostPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  ASSERT_TRUE(Do(*state, "draw"));    // row 6-6 4-1 5-5 4-2
  ASSERT_TRUE(Do(*state, "take 3"));  // row 6-6 4-1 4-2: over
  ASSERT_TRUE(state->IsTerminal());
  EXPECT_EQ(state->ResultDetails(),
            nlohmann::json({{"tiles_left", 3}, {"pips_left", 12 + 5 + 6}, {"won", false}}));
  EXPECT_EQ(state->Scores(), std::vector<int>{3});
  EXPECT_EQ(ResultOf(*state).details["won"], false);
}

// Before the end the score counts the tiles still to get rid of (row and pile), and nothing is
// won yet.
TEST(CastleRockRules, ScoreDuringPlayCountsRowAndPile) {
  std::unique_ptr<State> state = Start({"3-1", "6-6", "3-2"});
  EXPECT_EQ(state->Scores(), std::vector<int>{28});
  ASSERT_TRUE(Do(*state, "take 2"));  // row 3-1 3-2, 25 in the pile
  EXPECT_EQ(state->Scores(), std::vector<int>{27});
  EXPECT_EQ(state->ResultDetails()["tiles_left"], 27);
  // The whole double-6 set has 168 pips; 6-6 is gone.
  EXPECT_EQ(state->game().tile_set().TotalPips(), 168);
  EXPECT_EQ(state->ResultDetails()["pips_left"], 168 - 12);
  EXPECT_EQ(state->ResultDetails()["won"], false);
}

// ---------------------------------------------------------------------------------------------
// Illegal actions name the rule (FAILED_PRECONDITION).

TEST(CastleRockRules, PositionOutsideTheRowIsRefused) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4"});
  // Row: 6-6 5-5 4-4
  for (const char* text : {"take 4", "take 9", "take 192"}) {
    absl::Status s = Try(*state, text);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << text;
    EXPECT_THAT(s.message(), HasSubstr("outside the row (3 tiles)")) << text;
  }
  for (const char* text : {"take 2-4", "take 3-5", "take 9-11"}) {
    absl::Status s = Try(*state, text);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << text;
    EXPECT_THAT(s.message(), HasSubstr("outside the row (3 tiles)")) << text;
  }
}

// Option 1 removes a tile *between* two others: the end tiles have one neighbour.
TEST(CastleRockRules, EndTileCannotBeTakenAlone) {
  std::unique_ptr<State> state = Start({"3-1", "6-6", "3-2"});
  // Row: 3-1 6-6 3-2 — "take 2" is legal; the ends are not.
  for (const char* text : {"take 1", "take 3"}) {
    absl::Status s = Try(*state, text);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << text;
    EXPECT_THAT(s.message(), HasSubstr("one side only")) << text;
  }
}

TEST(CastleRockRules, MiddleTileWithoutMatchingNeighboursIsRefused) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4"});
  // Row: 6-6 5-5 4-4
  absl::Status s = Try(*state, "take 2");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("6-6 and 4-4 share no number"));
}

TEST(CastleRockRules, TripleNotSharingANumberIsRefused) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4"});
  // Row: 6-6 5-5 4-4
  absl::Status s = Try(*state, "take 1-3");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("option 2"));
  EXPECT_THAT(s.message(), HasSubstr("6-6 5-5 4-4 do not"));
}

TEST(CastleRockRules, DrawFromAnEmptyPileIsRefused) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kWinPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  ASSERT_TRUE(Do(*state, "draw"));  // row 5-2 5-5 6-6 6-5, pile empty, "take 3" offered
  absl::Status s = Try(*state, "draw");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("bone pile is empty"));
}

TEST(CastleRockRules, NoActionAfterTheEnd) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kLostPile)}});
  ASSERT_TRUE(TakeEightTriples(*state));
  ASSERT_TRUE(Do(*state, "draw"));
  ASSERT_TRUE(Do(*state, "take 3"));
  ASSERT_TRUE(state->IsTerminal());
  for (const char* text : {"draw", "take 2", "take 1-3"}) {
    absl::Status s = Try(*state, text);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << text;
    EXPECT_THAT(s.message(), HasSubstr("over")) << text;
  }
  EXPECT_THAT(state->ExplainIllegal(kDraw).message(), HasSubstr("over"));
}

TEST(CastleRockRules, OnlySeatZeroPlays) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4"});
  absl::Status s = state->ResolveAction(1, "draw").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("seat 0"));
}

// ---------------------------------------------------------------------------------------------
// Legal actions, determinization, deals and records.

// Legal actions come in action-code order: "take i" by position, then "take i-j", then "draw".
TEST(CastleRockRules, LegalActionsAreInCodeOrder) {
  std::unique_ptr<State> state = Start({"6-6", "4-1", "4-2", "4-3"});
  ASSERT_TRUE(Do(*state, "draw"));  // row 6-6 4-1 4-2 4-3
  ActionList legal;
  state->LegalActions(legal);
  ASSERT_EQ(legal.size(), 2);
  EXPECT_EQ(legal[0], Action{2});              // take 3
  EXPECT_EQ(legal[1], kTripleBase + 1);        // take 2-4
  EXPECT_LT(legal[1], kDraw);
}

// A consequence of the rules, relied on by docs/rules/castle_rock.md and the bot tests: a draw
// can only make the last three tiles removable, and a removal only brings together the tiles
// on either side of it, so every offered removal is of the last three tiles — option 1 as
// "take n-1", option 2 as "take (n-2)-n" for a row of n.
TEST(CastleRockRules, RemovalsOnlyEverConcernTheLastThreeTiles) {
  for (const char* set : {"6", "9", "18"}) {
    std::shared_ptr<const Game> game = MakeGame({{"set", set}});
    for (uint64_t seed = 0; seed < 200; ++seed) {
      std::unique_ptr<State> state = *game->NewMatch(seed);
      Rng rng(seed);
      ActionList legal;
      while (!state->IsTerminal()) {
        legal.clear();
        state->LegalActions(legal);
        const int n = Cr(*state).row_size();
        for (Action a : legal) {
          if (a == kDraw) continue;
          const std::string text = state->ActionToString(a);
          const std::string expected = a >= kTripleBase ? absl::StrCat("take ", n - 2, "-", n)
                                                        : absl::StrCat("take ", n - 1);
          ASSERT_EQ(text, expected) << "set " << set << " seed " << seed << ": "
                                    << state->ToString();
        }
        state->Apply(legal[rng.Below(legal.size())]);
      }
    }
  }
}

// Determinize(0, rng) deals only the face-down pile anew: the player's view, the row and the
// tiles drawn so far are unchanged; the pile holds the same tiles in another order.
TEST(CastleRockRules, DeterminizeReordersOnlyThePile) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(7);
  for (int k = 0; k < 6 && !state->IsTerminal(); ++k) {
    ASSERT_TRUE(Do(*state, state->LegalActionStrings()[0]));
  }
  ASSERT_FALSE(state->IsTerminal());
  const int left = Cr(*state).pile_left();
  ASSERT_GE(left, 10);
  const int drawn = 28 - left;
  const std::vector<Tile> pile = state->CurrentDeal().boneyard;
  std::vector<Tile> rest(pile.begin() + drawn, pile.end());
  std::sort(rest.begin(), rest.end());

  Rng rng(123);
  bool reordered = false;
  for (int k = 0; k < 10; ++k) {
    std::unique_ptr<State> sampled = state->Determinize(0, rng);
    ASSERT_TRUE(sampled->CheckInvariants().ok()) << sampled->CheckInvariants();
    EXPECT_EQ(sampled->ViewFor(0)->ToJson(), state->ViewFor(0)->ToJson());
    EXPECT_EQ(RowOf(*sampled), RowOf(*state));
    EXPECT_EQ(sampled->LegalActionStrings(), state->LegalActionStrings());
    const std::vector<Tile> sampled_pile = sampled->CurrentDeal().boneyard;
    ASSERT_EQ(sampled_pile.size(), pile.size());
    EXPECT_TRUE(std::equal(pile.begin(), pile.begin() + drawn, sampled_pile.begin()));
    std::vector<Tile> sampled_rest(sampled_pile.begin() + drawn, sampled_pile.end());
    if (!std::equal(sampled_rest.begin(), sampled_rest.end(), pile.begin() + drawn)) {
      reordered = true;
    }
    std::sort(sampled_rest.begin(), sampled_rest.end());
    EXPECT_EQ(sampled_rest, rest);
  }
  EXPECT_TRUE(reordered) << "ten determinizations never changed the pile's order";
  // The original is untouched.
  EXPECT_EQ(state->CurrentDeal().boneyard, pile);
}

// CurrentDeal() is the deal the match was given (the whole pile in draw order), before and
// after play; a seeded match's deal replays the same match.
TEST(CastleRockRules, CurrentDealIsTheDealGiven) {
  std::shared_ptr<const Game> game = MakeGame();
  const Deal deal{{{}}, PileStartingWith(*game, {"6-6", "4-1", "4-2", "4-3"})};
  std::unique_ptr<State> state = *game->NewMatch(0, {deal});
  EXPECT_EQ(state->CurrentDeal(), deal);
  ASSERT_TRUE(Do(*state, "draw"));
  ASSERT_TRUE(Do(*state, "take 2-4"));
  EXPECT_EQ(state->CurrentDeal(), deal);

  std::unique_ptr<State> seeded = *game->NewMatch(42);
  std::unique_ptr<State> again = *game->NewMatch(0, {seeded->CurrentDeal()});
  EXPECT_EQ(again->ToString(), seeded->ToString());
  EXPECT_EQ((*game->NewMatch(42))->ToString(), seeded->ToString());
}

// A record built while playing replays through the referee to an equal state.
TEST(CastleRockRules, RecordReplaysToTheSameState) {
  std::shared_ptr<const Game> game = MakeGame();
  std::unique_ptr<State> state = *game->NewMatch(0, {Deal{{{}}, ParseTiles(kWinPile)}});
  RecordBuilder builder(*state, std::nullopt, {"test"});
  std::vector<std::string> script(8, "take 1-3");
  for (const char* a : {"draw", "take 3", "take 2"}) script.push_back(a);
  for (const std::string& text : script) {
    absl::StatusOr<Action> action = state->ResolveAction(0, text);
    ASSERT_TRUE(action.ok()) << text << ": " << action.status();
    builder.Add(*state, *action);
    state->Apply(*action);
  }
  ASSERT_TRUE(state->IsTerminal());
  const Record record = builder.Build(*state);
  ASSERT_TRUE(record.result.has_value());
  EXPECT_EQ(record.result->scores, std::vector<int>{2});
  EXPECT_EQ(record.result->details["won"], true);
  ASSERT_EQ(record.rounds.size(), 1u);
  EXPECT_EQ(record.rounds[0].actions.size(), script.size());
  EXPECT_EQ(record.rounds[0].actions[8].action, "draw");

  absl::StatusOr<Record> parsed = ParseRecord(RecordToJson(record).dump());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<std::unique_ptr<State>> replayed = Replay(*parsed);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ((*replayed)->ToString(), state->ToString());
  EXPECT_EQ((*replayed)->ResultDetails(), state->ResultDetails());

  // A record of the same match stopped half-way replays to that position.
  Record partial = record;
  partial.result.reset();
  partial.rounds[0].actions.resize(8);
  replayed = Replay(partial);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ(RowOf(**replayed), (Row{"5-2", "5-5", "6-6"}));

  // An illegal action in the record is refused with the rule.
  Record bad = partial;
  bad.rounds[0].actions.push_back({0, "take 2"});
  replayed = Replay(bad);
  EXPECT_EQ(replayed.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(replayed.status().message(), HasSubstr("share no number"));
}

// The view's text form shows the row with 1-based positions (the numbers "take" uses).
TEST(CastleRockRules, ViewTextNumbersThePositions) {
  std::unique_ptr<State> state = Start({"6-6", "5-5", "4-4"});
  EXPECT_THAT(state->ViewFor(0)->ToText(), HasSubstr("1:6-6  2:5-5  3:4-4"));
}

}  // namespace
}  // namespace boneyard::castle_rock
