// The shared random-playout conformance suite: every registered game (and a few rule
// configurations of each) is played out thousands of times with random legal moves, checking
// at each step that legal actions are unique and sorted and round-trip through the notation,
// that invariants hold (tiles conserved), that a clone equals the original, that no view shows
// a tile hidden from its seat, and that determinization keeps the seat's view. At the end the
// match's record goes through JSON and the referee and must give the same state.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

struct Config {
  std::string game;
  std::string rules;  // "k=v,..."
  // The suite's own bound on one playout; the rules have none. A playout stopped there is
  // checked as far as it went (its partial record replays to the same state).
  int max_moves = 10'000;  // the longest random matches (8-seat train games) take about 2,000
  // Whether random play must end (almost) every playout by itself; checked.
  bool ends_by_itself = true;
};

void PrintTo(const Config& c, std::ostream* os) { *os << c.game << " " << c.rules; }

// Each registered game with its defaults, plus configurations that exercise other branches.
std::vector<Config> Configs() {
  std::vector<Config> configs;
  for (const std::string& name : DefaultRegistry().Names()) configs.push_back({name, ""});
  const std::vector<Config> extra = {
      {"muggins", "players=3"},
      {"muggins", "players=4"},
      {"muggins", "players=4,teams=true"},
      {"muggins", "claim_scoring=true"},
      {"muggins", "players=4,teams=true,claim_scoring=true,target=100"},
      {"castle_rock", "set=12"},
      {"castle_rock", "set=18"},
      {"forty_two", "scoring=marks,marks_target=3,shaker_must_bid=true"},
      {"forty_two", "mark_bidding=true,doubles_trump=true,follow_me=true,target=100"},
      {"forty_two", "nello=true,nello_doubles=low,sevens=true,target=100"},
      {"forty_two", "nello=true,nello_doubles=own,plunge=true,splash=true,mark_bidding=true"},
      {"forty_two", "preset=texas,marks_target=3,shaker_must_bid=true"},
      {"eighty_four", "players=6"},
      {"eighty_four", "players=6,left_out_to_last_trick=false,doubles_trump=true,follow_me=true"},
      {"eighty_four", "scoring=marks,marks_target=3,shaker_must_bid=true,doubles_trump=true"},
      {"eighty_four", "players=6,scoring=marks,marks_target=2,follow_me=true,shaker_must_bid=true"},
      {"moon", "no_trump=true,target=7"},
      {"moon", "max_hands=4"},
      {"mexican_train", "preset=classic_double_9,players=6,rounds=2"},
      {"mexican_train", "preset=classic,players=8,rounds=1"},
      {"mexican_train", "preset=first_turn_strings,players=3,rounds=2"},
      {"mexican_train", "preset=house,players=5,rounds=2"},
      {"mexican_train", "preset=house,deal_table=sheet002_removal,set=7,players=2"},
      {"mexican_train", "players=2,set=9,marker_off=any_play,dead_doubles_free=true,rounds=3"},
      {"chickenfoot", "set=12,players=6,rounds=2"},
      {"chickenfoot", "players=8,rounds=3"},
      {"chickenfoot", "players=3,rounds=4"},
  };
  for (const Config& c : extra) {
    if (DefaultRegistry().Find(c.game) != nullptr) configs.push_back(c);
  }
  // Uniformly random Moon bids lose more than they win, so most random matches sink below zero
  // and never reach the target, which is the only end the rules give ("game to 21"). Such
  // playouts stop after about 50 hands (a real match takes about 10); the max_hands
  // configuration checks Moon's ends.
  for (Config& c : configs) {
    if (c.game == "moon" && c.rules.find("max_hands") == std::string::npos) {
      c.max_moves = 1'500;
      c.ends_by_itself = false;
    }
  }
  return configs;
}

int Playouts() {
  if (const char* env = std::getenv("BONEYARD_CONFORMANCE_PLAYOUTS")) return std::atoi(env);
  return 2000;
}

// Moves per configuration, as many playouts: a configuration stops at Playouts() matches or
// once it has played this many moves per playout asked for, whichever comes first. A two-player
// Muggins match is about 230 moves, so it plays all its matches; a 13-round, eight-player
// Mexican Train is thousands, and stops after a few hundred instead of costing ten times the
// whole suite.
constexpr int64_t kMovesPerPlayout = 250;
// Even the longest games play at least this many matches.
constexpr int kMinPlayouts = 50;

// Every whitespace-separated token of every string in `j` that reads as a tile, skipping the
// legal actions (Castle Rock's "take 1-3" names positions, not a tile).
void CollectTiles(const nlohmann::json& j, std::vector<Tile>& out) {
  if (j.is_string()) {
    for (absl::string_view token : absl::StrSplit(j.get<std::string>(), ' ', absl::SkipEmpty())) {
      token = absl::StripSuffix(token, ",");
      if (auto t = Tile::Parse(token); t.ok()) out.push_back(*t);
    }
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (key != "legal_actions") CollectTiles(value, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) CollectTiles(v, out);
  }
}

class ConformanceTest : public ::testing::TestWithParam<Config> {
 protected:
  void SetUp() override {
    auto rules = ParseRuleText(GetParam().rules);
    ASSERT_TRUE(rules.ok()) << rules.status();
    auto game = DefaultRegistry().CreateGame(GetParam().game, *rules);
    ASSERT_TRUE(game.ok()) << game.status();
    game_ = *game;
  }

  // Views hide what they must, and determinization leaves each seat's view unchanged.
  void CheckViews(const State& state, Rng& rng) {
    const Game& g = *game_;
    for (int seat = kSpectator; seat < g.num_seats(); ++seat) {
      const nlohmann::json view = state.ViewFor(seat)->ToJson();
      const TileMask hidden = state.HiddenFrom(seat);
      std::vector<Tile> shown;
      CollectTiles(view, shown);
      for (const Tile& t : shown) {
        ASSERT_TRUE(g.tile_set().Contains(t)) << "view of seat " << seat << " shows " << t.ToString();
        ASSERT_FALSE(hidden.Test(g.tile_set().IdOf(t)))
            << "view of seat " << seat << " leaks hidden tile " << t.ToString() << "\n"
            << view.dump() << "\nstate: " << state.ToString();
      }
      if (seat == state.CurrentSeat()) {
        ASSERT_EQ(view["legal_actions"].get<std::vector<std::string>>(),
                  state.LegalActionStrings());
      } else {
        ASSERT_TRUE(view["legal_actions"].empty()) << "seat " << seat << " sees others' moves";
      }
      if (seat == kSpectator) {
        ASSERT_TRUE(view["hand"].empty());
      }
      if (seat != kSpectator && !state.IsTerminal()) {
        std::unique_ptr<State> sampled = state.Determinize(seat, rng);
        ASSERT_TRUE(sampled->CheckInvariants().ok()) << sampled->CheckInvariants();
        ASSERT_EQ(sampled->ViewFor(seat)->ToJson(), view)
            << "determinizing for seat " << seat << " changed its view";
        ASSERT_EQ(sampled->CurrentSeat(), state.CurrentSeat());
        // The world is a match of the game in its own right: its deal is one, and the seat to
        // play may play in it (the world is thrown away after). One world in eight: the check
        // costs about as much as the rest of the suite, and the bugs it is for show at once.
        if (++worlds_ % 8 != 0) continue;
        ASSERT_TRUE(state.game().ValidateDeal(sampled->Round(), sampled->CurrentDeal()).ok())
            << "determinizing for seat " << seat << " gave a world whose deal is not one: "
            << sampled->ToString();
        ActionList world_legal;
        sampled->LegalActions(world_legal);
        ASSERT_FALSE(world_legal.empty()) << sampled->ToString();
        sampled->Apply(world_legal[0]);
        ASSERT_TRUE(sampled->CheckInvariants().ok())
            << "a move in the world for seat " << seat << ": " << sampled->CheckInvariants();
      }
    }
  }

  int64_t worlds_ = 0;  // determinizations checked so far

  void CheckLegalActions(const State& state, const ActionList& legal) {
    ASSERT_FALSE(legal.empty()) << "no legal action in a live state: " << state.ToString();
    for (int i = 1; i < legal.size(); ++i) {
      ASSERT_LT(legal[i - 1], legal[i]) << "legal actions not unique and sorted";
    }
    for (Action a : legal) {
      const std::string text = state.ActionToString(a);
      absl::StatusOr<Action> parsed = state.ParseAction(text);
      ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
      ASSERT_EQ(*parsed, a) << "'" << text << "' does not parse back to itself";
      ASSERT_TRUE(state.ResolveAction(state.CurrentSeat(), text).ok());
    }
    // The seat after the current one may not act (unless it is the same seat).
    const int other = (state.CurrentSeat() + 1) % game_->num_seats();
    if (other != state.CurrentSeat()) {
      absl::StatusOr<Action> wrong_turn =
          state.ResolveAction(other, state.ActionToString(legal[0]));
      ASSERT_EQ(wrong_turn.status().code(), absl::StatusCode::kFailedPrecondition);
    }
  }

  // Plays one match with random moves, checking it at every step; stops at the config's
  // max_moves.
  void PlayOut(uint64_t seed, bool deep) {
    absl::StatusOr<std::unique_ptr<State>> made = game_->NewMatch(seed);
    ASSERT_TRUE(made.ok()) << made.status();
    std::unique_ptr<State> state = *std::move(made);
    RecordBuilder recorder(*state, seed);
    Rng rng(DeriveSeed(seed, 77));
    ActionList legal;
    for (int step = 0; !state->IsTerminal() && step < GetParam().max_moves; ++step, ++moves_) {
      absl::Status inv = state->CheckInvariants();
      ASSERT_TRUE(inv.ok()) << inv << "\n" << state->ToString();
      legal.clear();
      state->LegalActions(legal);
      const bool check_now = deep || rng.Below(16) == 0;
      if (check_now) {
        ASSERT_NO_FATAL_FAILURE(CheckLegalActions(*state, legal));
        ASSERT_NO_FATAL_FAILURE(CheckViews(*state, rng));
        std::unique_ptr<State> clone = state->Clone();
        ASSERT_EQ(clone->ToString(), state->ToString());
      } else {
        ASSERT_FALSE(legal.empty());
      }
      const Action a = legal[rng.Below(legal.size())];
      recorder.Add(*state, a);
      state->Apply(a);
    }
    ASSERT_TRUE(state->CheckInvariants().ok()) << state->CheckInvariants();
    if (!state->IsTerminal()) {
      ++unfinished_;
      const Record partial = recorder.Build(*state);
      ASSERT_FALSE(partial.result.has_value());
      absl::StatusOr<std::unique_ptr<State>> replayed = Replay(partial);
      ASSERT_TRUE(replayed.ok()) << replayed.status();
      ASSERT_EQ((*replayed)->ToString(), state->ToString());
      return;
    }
    ASSERT_EQ(state->CurrentSeat(), kNobody);
    legal.clear();
    state->LegalActions(legal);
    ASSERT_TRUE(legal.empty()) << "legal actions after the end";
    ASSERT_EQ(static_cast<int>(state->Scores().size()), game_->num_seats());
    // Team mates share their team's score and rank.
    const std::vector<int> scores = state->Scores();
    const std::vector<int> ranks = state->Ranks();
    for (const auto& team : game_->teams()) {
      for (int s : team) {
        ASSERT_EQ(scores[s], scores[team[0]]);
        ASSERT_EQ(ranks[s], ranks[team[0]]);
      }
    }
    ASSERT_NE(std::find(ranks.begin(), ranks.end(), 1), ranks.end()) << "nobody ranked first";
    if (deep) {
      ASSERT_NO_FATAL_FAILURE(CheckViews(*state, rng));
    }

    // Record → JSON text → record → referee → the same state.
    const Record record = recorder.Build(*state);
    ASSERT_TRUE(record.result.has_value());
    absl::StatusOr<Record> parsed = ParseRecord(RecordToJson(record).dump());
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    ASSERT_EQ(*parsed, record);
    absl::StatusOr<std::unique_ptr<State>> replayed = Replay(*parsed);
    ASSERT_TRUE(replayed.ok()) << replayed.status();
    ASSERT_EQ((*replayed)->ToString(), state->ToString());
    // The same match from the seed alone (no deals in the record).
    Record seed_only = record;
    for (RecordedRound& round : seed_only.rounds) round.deal.reset();
    absl::StatusOr<std::unique_ptr<State>> from_seed = Replay(seed_only);
    ASSERT_TRUE(from_seed.ok()) << from_seed.status();
    ASSERT_EQ((*from_seed)->ToString(), state->ToString());
  }

  std::shared_ptr<const Game> game_;
  int64_t moves_ = 0;       // played by PlayOut so far
  int64_t unfinished_ = 0;  // playouts stopped at max_moves
};

TEST_P(ConformanceTest, RandomPlayouts) {
  const int n = Playouts();
  const int64_t budget = kMovesPerPlayout * n;
  int played = 0;
  for (int i = 0; i < n && (i < kMinPlayouts || moves_ < budget); ++i, ++played) {
    // The first playouts check everything at every step (within a fifth of the move budget);
    // the rest sample the deep checks.
    const bool deep = i < n / 20 + 1 && moves_ < budget / 5;
    ASSERT_NO_FATAL_FAILURE(PlayOut(DeriveSeed(0xB0E7A4D, i), deep)) << "seed index " << i;
  }
  RecordProperty("playouts", played);
  RecordProperty("moves", static_cast<int>(moves_));
  RecordProperty("unfinished", static_cast<int>(unfinished_));
  if (GetParam().ends_by_itself) {
    EXPECT_EQ(unfinished_, 0) << unfinished_ << " of " << played << " playouts did not end within "
                              << GetParam().max_moves << " moves";
  }
}

INSTANTIATE_TEST_SUITE_P(AllGames, ConformanceTest, ::testing::ValuesIn(Configs()),
                         [](const ::testing::TestParamInfo<Config>& info) {
                           std::string name = info.param.game;
                           if (!info.param.rules.empty()) {
                             name = absl::StrCat(name, "_",
                                                 absl::StrReplaceAll(info.param.rules,
                                                                     {{"=", "_"}, {",", "_"}}));
                           }
                           return name;
                         });

}  // namespace
}  // namespace boneyard
