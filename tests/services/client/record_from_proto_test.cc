// The proto Record → engine Record conversion (services/common/engine_proto.h) and the JSON
// of Struct values (services/client/proto_json.h). No service needed: a match is played with
// the engine, its record written as the service would send it, and converted back.
#include <memory>
#include <string>

#include "boneyard/v1/execution.pb.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "gtest/gtest.h"
#include "services/client/proto_json.h"
#include "services/common/engine_proto.h"

namespace boneyard::client {
namespace {

// A finished match of `game` between random bots, as the engine records it.
Record PlayRandomMatch(const std::string& game, const RuleText& rules, uint64_t seed) {
  std::shared_ptr<const Game> made = *DefaultRegistry().CreateGame(game, rules);
  std::unique_ptr<State> state = *made->NewMatch(seed);
  std::vector<std::string> labels(made->num_seats(), "random");
  RecordBuilder builder(*state, seed, labels);
  RandomBot bot(seed);
  while (!state->IsTerminal()) {
    ActionList legal;
    state->LegalActions(legal);
    const Action action = bot.ChooseAction(*state->ViewFor(state->CurrentSeat()), legal.span());
    builder.Add(*state, action);
    state->Apply(action);
  }
  return builder.Build(*state);
}

google::protobuf::Value JsonToValue(const nlohmann::json& j);

google::protobuf::Struct JsonToStruct(const nlohmann::json& j) {
  google::protobuf::Struct out;
  for (const auto& [key, value] : j.items()) (*out.mutable_fields())[key] = JsonToValue(value);
  return out;
}

google::protobuf::Value JsonToValue(const nlohmann::json& j) {
  google::protobuf::Value out;
  if (j.is_boolean()) {
    out.set_bool_value(j.get<bool>());
  } else if (j.is_number()) {
    out.set_number_value(j.get<double>());
  } else if (j.is_string()) {
    out.set_string_value(j.get<std::string>());
  } else if (j.is_object()) {
    *out.mutable_struct_value() = JsonToStruct(j);
  } else if (j.is_array()) {
    for (const nlohmann::json& item : j) *out.mutable_list_value()->add_values() = JsonToValue(item);
  } else {
    out.set_null_value(google::protobuf::NULL_VALUE);
  }
  return out;
}

// The engine record as the service sends it (proto/boneyard/v1/game.proto `Record`).
v1::Record ToProto(const Record& record) {
  v1::Record out;
  out.set_name("matches/test/record");
  out.set_game(record.game);
  for (const auto& [name, value] : record.rules) (*out.mutable_rules())[name] = OptionValueToProto(value);
  if (record.seed.has_value()) out.set_seed(*record.seed);
  for (const auto& team : record.teams) {
    v1::Team* t = out.add_teams();
    for (int seat : team) t->add_seats(seat);
  }
  for (const std::string& label : record.seats) out.add_seats(label);
  for (const RecordedRound& round : record.rounds) {
    v1::Record::Round* r = out.add_rounds();
    if (round.deal.has_value()) {
      for (const auto& hand : round.deal->hands) {
        v1::Hand* h = r->mutable_deal()->add_hands();
        for (const Tile& tile : hand) h->add_tiles(tile.ToString());
      }
      for (const Tile& tile : round.deal->boneyard) r->mutable_deal()->add_boneyard(tile.ToString());
    }
    for (const RecordedAction& action : round.actions) {
      v1::Record::RecordedAction* a = r->add_actions();
      a->set_seat(action.seat);
      a->set_action(action.action);
    }
  }
  if (record.result.has_value()) {
    v1::MatchResult* result = out.mutable_result();
    for (int v : record.result->scores) result->add_scores(v);
    for (int v : record.result->ranks) result->add_ranks(v);
    for (int v : record.result->winners) result->add_winners(v);
    *result->mutable_details() = JsonToStruct(record.result->details);
  }
  return out;
}

TEST(RecordConvertTest, CastleRockRoundTripsAndReplays) {
  const Record original = PlayRandomMatch("castle_rock", {}, 9);
  absl::StatusOr<Record> converted = RecordFromProto(ToProto(original));
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_EQ(*converted, original) << RecordToJson(*converted).dump(2) << "\nvs\n"
                                  << RecordToJson(original).dump(2);
  EXPECT_TRUE(Replay(*converted).ok());
}

TEST(RecordConvertTest, MugginsPartnersRoundTripsWithTeams) {
  const Record original = PlayRandomMatch("muggins", {{"preset", "partners"}, {"target", "100"}}, 4);
  ASSERT_FALSE(original.teams.empty());
  absl::StatusOr<Record> converted = RecordFromProto(ToProto(original));
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_EQ(*converted, original);
  EXPECT_TRUE(Replay(*converted).ok());
}

TEST(RecordConvertTest, AForfeitedMatchHasNoResult) {
  v1::Record proto = ToProto(PlayRandomMatch("castle_rock", {}, 2));
  proto.mutable_result()->add_forfeited_seats(0);
  EXPECT_TRUE(ResultLeftOut(proto));
  absl::StatusOr<Record> converted = RecordFromProto(proto);
  ASSERT_TRUE(converted.ok()) << converted.status();
  EXPECT_FALSE(converted->result.has_value());
}

TEST(RecordConvertTest, MalformedRecordsNameTheField) {
  v1::Record proto = ToProto(PlayRandomMatch("castle_rock", {}, 3));
  (*proto.mutable_rules())["set"].Clear();
  EXPECT_EQ(RecordFromProto(proto).status().message(),
            "record: rules.set: a rule value has none of its fields set");

  proto = ToProto(PlayRandomMatch("castle_rock", {}, 3));
  proto.mutable_rounds(0)->mutable_deal()->set_boneyard(2, "7-x");
  const absl::Status bad_tile = RecordFromProto(proto).status();
  EXPECT_EQ(bad_tile.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad_tile.message().find("rounds[0].deal.boneyard[2]"), std::string::npos) << bad_tile;
}

TEST(ProtoJsonTest, WholeNumbersComeBackAsIntegers) {
  const nlohmann::json layout = {{"row", {"6-6", "6-5"}}, {"open", {6, 5}}, {"ratio", 0.5},
                                 {"spinner", nullptr}, {"done", false}};
  const nlohmann::json back = StructToJson(JsonToStruct(layout));
  EXPECT_EQ(back, layout);
  EXPECT_TRUE(back["open"][0].is_number_integer());
  EXPECT_EQ(back.dump(), layout.dump());
}

TEST(ProtoJsonTest, SeatLabelsUseTheCreateSyntax) {
  v1::Seat player;
  player.mutable_player()->set_player_id("alice");
  v1::Seat bot;
  bot.mutable_bot()->set_kind("random");
  v1::Seat leveled;
  leveled.mutable_bot()->set_kind("greedy");
  leveled.mutable_bot()->set_level(2);
  EXPECT_EQ(SeatLabel(player), "player:alice");
  EXPECT_EQ(SeatLabel(bot), "bot:random");
  EXPECT_EQ(SeatLabel(leveled), "bot:greedy:2");
}

}  // namespace
}  // namespace boneyard::client
