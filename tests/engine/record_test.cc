// Records (JSON) and the referee that replays them.
#include "engine/records/record.h"

#include "engine/core/registry.h"
#include "engine/records/referee.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

using ::testing::HasSubstr;

// Castle Rock with the double-6 set in id order: the row starts 0-0 1-0 1-1, nothing can be
// removed, so the first action is a draw (2-0); then 1-0 and 2-0 match around 1-1: "take 3".
Record CastleRockRecord() {
  Record r;
  r.game = "castle_rock";
  Deal deal;
  deal.hands = {{}};
  deal.boneyard = TileSet::DoubleN(6)->AllTiles();
  r.rounds.push_back(RecordedRound{deal, {{0, "draw"}, {0, "take 3"}}});
  return r;
}

TEST(Record, JsonRoundTrip) {
  Record r = CastleRockRecord();
  r.seed = 99;
  r.seats = {"greedy"};
  r.rules["set"] = int64_t{6};
  r.result = RecordedResult{{3}, {1}, {0}, {{"won", false}}};
  absl::StatusOr<Record> back = ParseRecord(RecordToJson(r).dump());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, r);
}

TEST(Record, MalformedRecordsNameTheField) {
  struct Case {
    const char* json;
    const char* field;
  };
  for (const Case& c : std::vector<Case>{
           {"not json", "not valid JSON"},
           {"[]", "must be a JSON object"},
           {R"({"rounds": []})", "'game'"},
           {R"({"game": "castle_rock"})", "'rounds'"},
           {R"({"game": "castle_rock", "rounds": {}})", "'rounds'"},
           {R"({"game": "castle_rock", "rules": [], "rounds": []})", "'rules'"},
           {R"({"game": "castle_rock", "rules": {"set": 1.5}, "rounds": []})", "'rules.set'"},
           {R"({"game": "castle_rock", "seed": -1, "rounds": []})", "'seed'"},
           {R"({"game": "castle_rock", "rounds": [{"deal": {"hands": [["6-x"]]}}]})",
            "'rounds[0].deal.hands[0][0]'"},
           {R"({"game": "castle_rock", "rounds": [{"actions": [{"seat": 0}]}]})",
            "'rounds[0].actions[0]'"},
       }) {
    absl::StatusOr<Record> r = ParseRecord(c.json);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << c.json;
    EXPECT_THAT(r.status().message(), HasSubstr(c.field)) << c.json;
  }
}

TEST(Referee, ReplaysALegalRecord) {
  absl::StatusOr<std::unique_ptr<State>> state = Replay(CastleRockRecord());
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_FALSE((*state)->IsTerminal());
  EXPECT_EQ((*state)->ViewFor(0)->ToJson()["layout"]["row"],
            nlohmann::json({"0-0", "1-0", "2-0"}));
}

// Stepping through a record (the web app's replays): the start, then every action in order.
TEST(Referee, ReplayShowsEveryPositionOnTheWay) {
  const Record r = CastleRockRecord();
  std::vector<std::string> steps;
  std::vector<nlohmann::json> rows;
  absl::StatusOr<std::unique_ptr<State>> state =
      Replay(r, DefaultRegistry(), [&](const State& s, const RecordedAction* action) {
        steps.push_back(action == nullptr ? "start" : action->action);
        rows.push_back(s.ViewFor(0)->ToJson()["layout"]["row"]);
      });
  ASSERT_TRUE(state.ok()) << state.status();
  std::vector<std::string> want = {"start"};
  for (const RecordedAction& a : r.rounds[0].actions) want.push_back(a.action);
  EXPECT_EQ(steps, want);
  EXPECT_EQ(rows.back(), (*state)->ViewFor(0)->ToJson()["layout"]["row"]);
  EXPECT_NE(rows.front(), rows.back());
}

TEST(Referee, PartialRecordReplaysToItsPosition) {
  Record r = CastleRockRecord();
  r.rounds[0].actions.pop_back();
  absl::StatusOr<std::unique_ptr<State>> state = Replay(r);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ((*state)->LegalActionStrings(), std::vector<std::string>{"take 3"});
}

TEST(Referee, IllegalActionNamesRoundIndexSeatTextAndRule) {
  Record r = CastleRockRecord();
  r.rounds[0].actions.push_back({0, "draw"});  // a removal exists, so drawing is illegal
  r.rounds[0].actions[1] = {0, "take 2"};      // and before that: 0-0 and 1-1 share no number
  absl::StatusOr<std::unique_ptr<State>> state = Replay(r);
  EXPECT_EQ(state.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(state.status().message(), HasSubstr("round 1, action 2, seat 0, \"take 2\": "));
  EXPECT_THAT(state.status().message(), HasSubstr("share no number"));

  r = CastleRockRecord();
  r.rounds[0].actions[1] = {0, "draw"};
  state = Replay(r);
  EXPECT_THAT(state.status().message(), HasSubstr("round 1, action 2, seat 0, \"draw\": "));
  EXPECT_THAT(state.status().message(), HasSubstr("must always remove"));
}

TEST(Referee, MalformedActionIsInvalidArgument) {
  Record r = CastleRockRecord();
  r.rounds[0].actions[0] = {0, "jump"};
  absl::StatusOr<std::unique_ptr<State>> state = Replay(r);
  EXPECT_EQ(state.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(state.status().message(), HasSubstr("round 1, action 1, seat 0, \"jump\""));
}

TEST(Referee, WrongSeatIsRejected) {
  Record r = CastleRockRecord();
  r.rounds[0].actions[0].seat = 1;
  absl::StatusOr<std::unique_ptr<State>> state = Replay(r);
  EXPECT_EQ(state.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(state.status().message(), HasSubstr("not seat 1's turn"));
}

TEST(Referee, BadDealsAreRejected) {
  Record r = CastleRockRecord();
  r.rounds[0].deal->boneyard[5] = r.rounds[0].deal->boneyard[4];
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("appears twice"));
  r = CastleRockRecord();
  r.rounds[0].deal->boneyard.pop_back();
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("tiles missing: 6-6"));
  r = CastleRockRecord();
  r.rounds[0].deal->boneyard[0] = Tile(7, 0);
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("7-0 is not in this round's set"));
}

TEST(Referee, NeedsADealOrASeed) {
  Record r = CastleRockRecord();
  r.rounds[0].deal.reset();
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("no deal and the record has no seed"));
}

TEST(Referee, UnknownGameAndBadRules) {
  Record r = CastleRockRecord();
  r.game = "snap";
  EXPECT_EQ(Replay(r).status().code(), absl::StatusCode::kNotFound);
  r = CastleRockRecord();
  r.rules["set"] = int64_t{99};
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("'set' must be between"));
  r = CastleRockRecord();
  r.rules["speed"] = int64_t{1};
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("unknown rule option 'speed'"));
}

// The record of a whole Castle Rock match from `seed`, always taking the first legal action.
Record FinishedCastleRockRecord(uint64_t seed) {
  auto game = DefaultRegistry().CreateGame("castle_rock", RuleText{});
  std::unique_ptr<State> state = *(*game)->NewMatch(seed);
  RecordBuilder builder(*state, seed);
  ActionList legal;
  while (!state->IsTerminal()) {
    legal.clear();
    state->LegalActions(legal);
    builder.Add(*state, legal[0]);
    state->Apply(legal[0]);
  }
  return builder.Build(*state);
}

TEST(Referee, ResultMustMatchTheReplay) {
  // Play a whole match from a seed, then tamper with the recorded scores.
  Record r = FinishedCastleRockRecord(5);
  ASSERT_TRUE(r.result.has_value());
  ASSERT_TRUE(Replay(r).ok());
  r.result->scores[0] += 1;
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("differ from the replay"));
  r.result->scores[0] -= 1;
  r.rounds[0].actions.pop_back();  // no longer finished, yet it claims a result
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("not over"));
}

TEST(Referee, ActionsAfterTheEndAreRejected) {
  Record r = FinishedCastleRockRecord(8);
  r.result.reset();
  r.rounds[0].actions.push_back({0, "draw"});
  EXPECT_THAT(Replay(r).status().message(), HasSubstr("the match is over"));
}

TEST(Referee, SeatCountFollowsTheDeal) {
  // A Muggins record without `players`: three hands of five make a three-player game.
  Record r;
  r.game = "muggins";
  std::vector<Tile> all = TileSet::DoubleN(6)->AllTiles();
  Deal deal;
  deal.hands.resize(3);
  for (int s = 0; s < 3; ++s) deal.hands[s].assign(all.begin() + s * 5, all.begin() + s * 5 + 5);
  deal.boneyard.assign(all.begin() + 15, all.end());
  r.rounds.push_back(RecordedRound{deal, {}});
  absl::StatusOr<std::unique_ptr<State>> state = Replay(r);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ((*state)->game().num_seats(), 3);
  EXPECT_EQ((*state)->CurrentDeal(), deal);
}

}  // namespace
}  // namespace boneyard
