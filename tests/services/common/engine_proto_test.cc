// The bridge between the engine's types and the schema's messages, checked against real engine
// games from the default registry.
#include "services/common/engine_proto.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/bots/bot.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/records/record.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace boneyard::execution {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

std::shared_ptr<const Game> MakeGame(const std::string& name,
                                     std::map<std::string, OptionValue> overrides = {}) {
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame(name, overrides);
  EXPECT_TRUE(game.ok()) << game.status();
  return game.ok() ? *game : nullptr;
}

const GameSpec& Spec(const std::string& name) {
  const GameSpec* spec = DefaultRegistry().Find(name);
  EXPECT_NE(spec, nullptr) << name;
  return *spec;
}

// The first legal action of the current seat, applied.
void PlayFirstLegal(State& state) {
  ActionList legal;
  state.LegalActions(legal);
  ASSERT_FALSE(legal.empty());
  state.Apply(legal[0]);
}

std::vector<std::string> Strings(const google::protobuf::RepeatedPtrField<std::string>& field) {
  return {field.begin(), field.end()};
}

std::vector<int> Ints(const google::protobuf::RepeatedField<int32_t>& field) {
  return {field.begin(), field.end()};
}

std::vector<std::string> ActionTexts(const google::protobuf::RepeatedPtrField<v1::Action>& field) {
  std::vector<std::string> out;
  for (const v1::Action& action : field) out.push_back(action.text());
  return out;
}

// ----- Views --------------------------------------------------------------------------------

TEST(ConvertView, SeatViewMatchesTheEngineViewFieldByField) {
  std::shared_ptr<const Game> game = MakeGame("muggins", {{"players", int64_t{3}}});
  ASSERT_NE(game, nullptr);
  absl::StatusOr<std::unique_ptr<State>> state = game->NewMatch(20240611);
  ASSERT_TRUE(state.ok()) << state.status();
  for (int i = 0; i < 4; ++i) PlayFirstLegal(**state);
  ASSERT_FALSE((*state)->IsTerminal());

  for (int seat = 0; seat < game->num_seats(); ++seat) {
    SCOPED_TRACE(seat);
    std::unique_ptr<View> view = (*state)->ViewFor(seat);
    const json expected = view->ToJson();
    v1::SeatView out;
    FillSeatView(*view, out);

    EXPECT_EQ(out.round(), expected["round"].get<int>());
    EXPECT_EQ(out.current_seat(), expected["current_seat"].get<int>());
    EXPECT_EQ(out.terminal(), expected["terminal"].get<bool>());
    EXPECT_EQ(Strings(out.hand()), expected["hand"].get<std::vector<std::string>>());
    EXPECT_EQ(Ints(out.hand_counts()), expected["hand_counts"].get<std::vector<int>>());
    EXPECT_EQ(out.boneyard_count(), expected["boneyard_count"].get<int>());
    EXPECT_EQ(Ints(out.scores()), expected["scores"].get<std::vector<int>>());
    EXPECT_EQ(ActionTexts(out.legal_actions()),
              expected["legal_actions"].get<std::vector<std::string>>());
    EXPECT_EQ(StructToJson(out.layout()), expected["layout"]);
    // The caller's fields are left alone.
    EXPECT_EQ(out.match(), "");
    EXPECT_EQ(out.sequence(), 0);
    EXPECT_FALSE(out.has_last_event());

    // Sanity: the fields are not trivially empty.
    EXPECT_GT(out.hand_size(), 0);
    EXPECT_EQ(out.hand_counts_size(), 3);
    if (seat == (*state)->CurrentSeat()) {
      EXPECT_GT(out.legal_actions_size(), 0);
    } else {
      EXPECT_EQ(out.legal_actions_size(), 0);
    }
    EXPECT_THAT(out.layout().fields(), Not(IsEmpty()));
  }
}

TEST(ConvertView, TheLayoutAsWireBytesOrNotAtAll) {
  std::shared_ptr<const Game> game = MakeGame("muggins");
  ASSERT_NE(game, nullptr);
  absl::StatusOr<std::unique_ptr<State>> state = game->NewMatch(7);
  ASSERT_TRUE(state.ok()) << state.status();
  PlayFirstLegal(**state);
  std::unique_ptr<View> view = (*state)->ViewFor(0);

  v1::SeatView typed;
  FillSeatView(*view, typed, LayoutForm::kTyped);
  v1::SeatView wire;
  FillSeatView(*view, wire, LayoutForm::kWire);
  // Refilled: the bytes are replaced, not added.
  FillSeatView(*view, wire, LayoutForm::kWire);
  v1::SeatView received;
  ASSERT_TRUE(received.ParseFromString(wire.SerializeAsString()));
  EXPECT_EQ(StructToJson(received.layout()), view->LayoutToJson());
  EXPECT_EQ(StructToJson(received.layout()), StructToJson(typed.layout()));
  EXPECT_EQ(Strings(received.hand()), Strings(typed.hand()));

  v1::SeatView none = typed;
  FillSeatView(*view, none, LayoutForm::kNone);
  EXPECT_FALSE(none.has_layout());
  EXPECT_EQ(Strings(none.hand()), Strings(typed.hand()));

  v1::PublicView public_wire;
  FillPublicView(*(*state)->ViewFor(kSpectator), public_wire, LayoutForm::kWire);
  v1::PublicView public_received;
  ASSERT_TRUE(public_received.ParseFromString(public_wire.SerializeAsString()));
  EXPECT_EQ(StructToJson(public_received.layout()), view->LayoutToJson());
}

TEST(ConvertView, RefillingAViewReplacesTheRepeatedFields) {
  std::shared_ptr<const Game> game = MakeGame("muggins");
  ASSERT_NE(game, nullptr);
  absl::StatusOr<std::unique_ptr<State>> state = game->NewMatch(7);
  ASSERT_TRUE(state.ok()) << state.status();
  v1::SeatView out;
  FillSeatView(*(*state)->ViewFor(0), out);
  PlayFirstLegal(**state);
  std::unique_ptr<View> view = (*state)->ViewFor(0);
  FillSeatView(*view, out);
  const json expected = view->ToJson();
  EXPECT_EQ(Strings(out.hand()), expected["hand"].get<std::vector<std::string>>());
  EXPECT_EQ(Ints(out.hand_counts()), expected["hand_counts"].get<std::vector<int>>());
  EXPECT_EQ(Ints(out.scores()), expected["scores"].get<std::vector<int>>());
  EXPECT_EQ(ActionTexts(out.legal_actions()),
            expected["legal_actions"].get<std::vector<std::string>>());
}

TEST(ConvertView, PublicViewMatchesTheSpectatorView) {
  std::shared_ptr<const Game> game = MakeGame("muggins");
  ASSERT_NE(game, nullptr);
  absl::StatusOr<std::unique_ptr<State>> state = game->NewMatch(99);
  ASSERT_TRUE(state.ok()) << state.status();
  for (int i = 0; i < 3; ++i) PlayFirstLegal(**state);

  std::unique_ptr<View> view = (*state)->ViewFor(kSpectator);
  const json expected = view->ToJson();
  v1::PublicView out;
  FillPublicView(*view, out);
  EXPECT_EQ(out.round(), expected["round"].get<int>());
  EXPECT_EQ(out.current_seat(), expected["current_seat"].get<int>());
  EXPECT_EQ(out.terminal(), expected["terminal"].get<bool>());
  EXPECT_EQ(Ints(out.hand_counts()), expected["hand_counts"].get<std::vector<int>>());
  EXPECT_EQ(out.boneyard_count(), expected["boneyard_count"].get<int>());
  EXPECT_EQ(Ints(out.scores()), expected["scores"].get<std::vector<int>>());
  EXPECT_EQ(StructToJson(out.layout()), expected["layout"]);
  EXPECT_THAT(expected["hand"], IsEmpty());
}

TEST(ConvertView, CastleRockRowAndTerminalView) {
  std::shared_ptr<const Game> game = MakeGame("castle_rock");
  ASSERT_NE(game, nullptr);
  absl::StatusOr<std::unique_ptr<State>> state = game->NewMatch(3);
  ASSERT_TRUE(state.ok()) << state.status();
  while (!(*state)->IsTerminal()) PlayFirstLegal(**state);

  std::unique_ptr<View> view = (*state)->ViewFor(0);
  v1::SeatView out;
  FillSeatView(*view, out);
  EXPECT_TRUE(out.terminal());
  EXPECT_EQ(out.current_seat(), kNobody);
  EXPECT_EQ(out.legal_actions_size(), 0);
  EXPECT_EQ(StructToJson(out.layout()), view->ToJson()["layout"]);
}

// ----- JSON and Struct ----------------------------------------------------------------------

TEST(ConvertJson, RoundTripsEngineJson) {
  const json original = {
      {"line", json::array({"6-4", "4-4", "4-1"})},
      {"spinner", {{"tile", "4-4"}, {"up", nullptr}, {"open", true}}},
      {"ends", json::array({6, 1, -3, 0})},
      {"count", 15},
      {"ratio", 0.25},
      {"empty_list", json::array()},
      {"empty_object", json::object()},
      {"nested", json::array({json::array({1, 2}), {{"a", false}}})},
      {"big", int64_t{1} << 53},
  };
  const google::protobuf::Struct value = JsonToStruct(original);
  EXPECT_EQ(StructToJson(value), original);

  // Numbers are doubles inside the Struct, as the schema says.
  EXPECT_EQ(value.fields().at("count").kind_case(), google::protobuf::Value::kNumberValue);
  EXPECT_EQ(value.fields().at("count").number_value(), 15.0);
  EXPECT_EQ(value.fields().at("ratio").number_value(), 0.25);
  EXPECT_EQ(value.fields().at("spinner").struct_value().fields().at("up").kind_case(),
            google::protobuf::Value::kNullValue);
  EXPECT_EQ(value.fields().at("line").list_value().values(1).string_value(), "4-4");
}

TEST(ConvertJson, StructRoundTripsThroughJson) {
  google::protobuf::Struct value;
  auto& fields = *value.mutable_fields();
  fields["name"].set_string_value("6-4'");
  fields["half"].set_number_value(-2.5);
  fields["whole"].set_number_value(40);
  fields["flag"].set_bool_value(true);
  fields["nothing"].set_null_value(google::protobuf::NULL_VALUE);
  google::protobuf::ListValue* list = fields["list"].mutable_list_value();
  list->add_values()->set_string_value("x");
  list->add_values()->mutable_struct_value();
  (*fields["inner"].mutable_struct_value()->mutable_fields())["k"].set_number_value(1);

  const json as_json = StructToJson(value);
  EXPECT_EQ(as_json["whole"], 40);
  EXPECT_TRUE(as_json["whole"].is_number_integer());
  EXPECT_EQ(as_json["half"], -2.5);
  EXPECT_TRUE(as_json["nothing"].is_null());
  EXPECT_EQ(as_json["list"], json::array({"x", json::object()}));

  const google::protobuf::Struct back = JsonToStruct(as_json);
  EXPECT_EQ(back.SerializeAsString().size(), value.SerializeAsString().size());
  EXPECT_EQ(StructToJson(back), as_json);
}

TEST(ConvertJson, IntegersBeyondDoublePrecisionStayDoubles) {
  const json original = {{"huge", uint64_t{1} << 60}};
  const json back = StructToJson(JsonToStruct(original));
  EXPECT_TRUE(back["huge"].is_number_float());
  EXPECT_EQ(back["huge"].get<double>(), static_cast<double>(uint64_t{1} << 60));
}

TEST(ConvertJson, NonObjectsGiveAnEmptyStruct) {
  EXPECT_THAT(JsonToStruct(json::array({1, 2})).fields(), IsEmpty());
  EXPECT_THAT(JsonToStruct(nullptr).fields(), IsEmpty());
  EXPECT_THAT(JsonToStruct(json::object()).fields(), IsEmpty());
  EXPECT_EQ(StructToJson(google::protobuf::Struct()), json::object());
}

// ----- Time ---------------------------------------------------------------------------------

TEST(ConvertTime, TimestampsRoundTrip) {
  for (absl::Time time : {absl::UnixEpoch(), absl::FromUnixNanos(1700000000123456789),
                          absl::FromUnixNanos(-1500000001), absl::FromUnixSeconds(-86400)}) {
    const google::protobuf::Timestamp ts = ToTimestamp(time);
    EXPECT_GE(ts.nanos(), 0);
    EXPECT_LT(ts.nanos(), 1000000000);
    EXPECT_EQ(FromTimestamp(ts), time) << time;
  }
  const google::protobuf::Timestamp ts = ToTimestamp(absl::FromUnixNanos(-1500000001));
  EXPECT_EQ(ts.seconds(), -2);
  EXPECT_EQ(ts.nanos(), 499999999);
}

TEST(ConvertTime, InfiniteTimesAreClampedToTheTimestampRange) {
  const google::protobuf::Timestamp future = ToTimestamp(absl::InfiniteFuture());
  EXPECT_EQ(future.seconds(), 253402300799);
  const google::protobuf::Timestamp past = ToTimestamp(absl::InfinitePast());
  EXPECT_EQ(past.seconds(), -62135596800);
  EXPECT_EQ(past.nanos(), 0);
}

// ----- Rules --------------------------------------------------------------------------------

v1::RuleValue Int(int64_t v) {
  v1::RuleValue out;
  out.set_int_value(v);
  return out;
}
v1::RuleValue Bool(bool v) {
  v1::RuleValue out;
  out.set_bool_value(v);
  return out;
}
v1::RuleValue String(std::string v) {
  v1::RuleValue out;
  out.set_string_value(std::move(v));
  return out;
}

TEST(ConvertRules, TypedValuesBecomeEngineOverrides) {
  google::protobuf::Map<std::string, v1::RuleValue> values;
  values["preset"] = String("partners");
  values["target"] = Int(150);
  values["claim_scoring"] = Bool(true);
  absl::StatusOr<std::map<std::string, OptionValue>> overrides =
      RuleValuesFromProto(values, Spec("muggins"));
  ASSERT_TRUE(overrides.ok()) << overrides.status();
  EXPECT_EQ(*overrides, (std::map<std::string, OptionValue>{
                            {"preset", std::string("partners")},
                            {"target", int64_t{150}},
                            {"claim_scoring", true},
                        }));

  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame("muggins", *overrides);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ((*game)->num_seats(), 4);
  EXPECT_EQ((*game)->rules().GetInt("target"), 150);
}

TEST(ConvertRules, WrongTypesNameTheOption) {
  struct Case {
    std::string name;
    v1::RuleValue value;
  };
  for (const Case& c : std::vector<Case>{
           {"target", String("150")},
           {"target", Bool(true)},
           {"teams", Int(1)},
           {"claim_scoring", String("yes")},
           {"players", Bool(false)},
       }) {
    SCOPED_TRACE(c.name);
    google::protobuf::Map<std::string, v1::RuleValue> values;
    values["target"] = Int(100);  // a good one alongside
    values[c.name] = c.value;
    absl::StatusOr<std::map<std::string, OptionValue>> overrides =
        RuleValuesFromProto(values, Spec("muggins"));
    EXPECT_EQ(overrides.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(overrides.status().message(), HasSubstr("'" + c.name + "'"));
  }
}

TEST(ConvertRules, UnsetValuesAndNonStringPresetsNameTheOption) {
  google::protobuf::Map<std::string, v1::RuleValue> unset;
  unset["target"] = v1::RuleValue();
  absl::StatusOr<std::map<std::string, OptionValue>> a =
      RuleValuesFromProto(unset, Spec("muggins"));
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(a.status().message(), HasSubstr("'target'"));

  google::protobuf::Map<std::string, v1::RuleValue> preset;
  preset["preset"] = Int(2);
  absl::StatusOr<std::map<std::string, OptionValue>> b =
      RuleValuesFromProto(preset, Spec("muggins"));
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(b.status().message(), HasSubstr("'preset'"));
}

TEST(ConvertRules, UnknownOptionsAreLeftForTheRegistry) {
  google::protobuf::Map<std::string, v1::RuleValue> values;
  values["colour"] = String("blue");
  absl::StatusOr<std::map<std::string, OptionValue>> overrides =
      RuleValuesFromProto(values, Spec("muggins"));
  ASSERT_TRUE(overrides.ok()) << overrides.status();
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame("muggins", *overrides);
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(game.status().message(), HasSubstr("'colour'"));
}

TEST(ConvertRules, OutOfRangeValuesAreLeftForTheRegistry) {
  google::protobuf::Map<std::string, v1::RuleValue> values;
  values["target"] = Int(5);
  absl::StatusOr<std::map<std::string, OptionValue>> overrides =
      RuleValuesFromProto(values, Spec("muggins"));
  ASSERT_TRUE(overrides.ok()) << overrides.status();
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame("muggins", *overrides);
  EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(game.status().message(), HasSubstr("'target'"));
}

TEST(ConvertRules, ResolvedRulesAreWrittenTyped) {
  std::shared_ptr<const Game> game =
      MakeGame("muggins", {{"preset", std::string("partners")}, {"target", int64_t{100}}});
  ASSERT_NE(game, nullptr);
  google::protobuf::Map<std::string, v1::RuleValue> rules = RulesToProto(game->rules());
  EXPECT_EQ(rules.at("preset").string_value(), "partners");
  EXPECT_EQ(rules.at("players").int_value(), 4);
  EXPECT_TRUE(rules.at("teams").bool_value());
  EXPECT_EQ(rules.at("target").int_value(), 100);
  EXPECT_EQ(rules.at("claim_scoring").kind_case(), v1::RuleValue::kBoolValue);
  EXPECT_FALSE(rules.at("claim_scoring").bool_value());

  // And back: the same game.
  absl::StatusOr<std::map<std::string, OptionValue>> overrides =
      RuleValuesFromProto(rules, Spec("muggins"));
  ASSERT_TRUE(overrides.ok()) << overrides.status();
  std::shared_ptr<const Game> again = MakeGame("muggins", *overrides);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->rules(), game->rules());
}

TEST(ConvertRules, NoPresetChosenLeavesPresetOut) {
  std::shared_ptr<const Game> game = MakeGame("muggins");
  ASSERT_NE(game, nullptr);
  google::protobuf::Map<std::string, v1::RuleValue> rules = RulesToProto(game->rules());
  EXPECT_FALSE(rules.contains("preset"));
  for (const OptionSpec& option : Spec("muggins").options) {
    EXPECT_TRUE(rules.contains(option.name)) << option.name;
  }
}

TEST(ConvertRules, OptionValuesBothWays) {
  for (const OptionValue& value :
       {OptionValue(true), OptionValue(false), OptionValue(int64_t{-7}),
        OptionValue(std::numeric_limits<int64_t>::max()), OptionValue(std::string("classic")),
        OptionValue(std::string())}) {
    EXPECT_EQ(*OptionValueFromProto(OptionValueToProto(value)), value)
        << OptionValueToString(value);
  }
}

// ----- Results and records ------------------------------------------------------------------

TEST(ConvertResult, ResultWithPlayersAndTeams) {
  RecordedResult result;
  result.scores = {120, 255, 120, 255};
  result.ranks = {2, 1, 2, 1};
  result.winners = {1, 3};
  result.details = {{"rounds", 6}, {"note", "domino"}};
  const v1::MatchResult out =
      ResultToProto(result, {"alice", "", "carol", ""}, Teams{{2, 0}, {1, 3}});
  EXPECT_THAT(out.scores(), ElementsAre(120, 255, 120, 255));
  EXPECT_THAT(out.ranks(), ElementsAre(2, 1, 2, 1));
  EXPECT_THAT(out.winners(), ElementsAre(1, 3));
  EXPECT_THAT(out.player_ids(), ElementsAre("alice", "", "carol", ""));
  ASSERT_EQ(out.teams_size(), 2);
  EXPECT_THAT(out.teams(0).seats(), ElementsAre(0, 2));  // ascending
  EXPECT_THAT(out.teams(1).seats(), ElementsAre(1, 3));
  EXPECT_THAT(out.forfeited_seats(), IsEmpty());
  EXPECT_EQ(StructToJson(out.details()), result.details);
}

// Plays a whole match with random bots, recording it as the host does.
Record SimulateMatch(const Game& game, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<State>> state = game.NewMatch(seed);
  EXPECT_TRUE(state.ok()) << state.status();
  std::vector<std::string> labels;
  for (int seat = 0; seat < game.num_seats(); ++seat) labels.push_back("random");
  RecordBuilder builder(**state, seed, labels);
  RandomBot bot(seed + 1);
  ActionList legal;
  for (int step = 0; !(*state)->IsTerminal() && step < 100000; ++step) {
    legal.clear();
    (*state)->LegalActions(legal);
    const int seat = (*state)->CurrentSeat();
    const Action action = bot.ChooseAction(*(*state)->ViewFor(seat), legal.span());
    builder.Add(**state, action);
    (*state)->Apply(action);
  }
  EXPECT_TRUE((*state)->IsTerminal());
  return builder.Build(**state);
}

void ExpectRecordConverted(const Record& record, const v1::Record& out) {
  EXPECT_EQ(out.name(), "");
  EXPECT_EQ(out.game(), record.game);
  ASSERT_EQ(out.rules_size(), static_cast<int>(record.rules.size()));
  for (const auto& [name, value] : record.rules) {
    ASSERT_TRUE(out.rules().contains(name)) << name;
    EXPECT_EQ(*OptionValueFromProto(out.rules().at(name)), value) << name;
  }
  ASSERT_EQ(out.has_seed(), record.seed.has_value());
  if (record.seed.has_value()) {
    EXPECT_EQ(out.seed(), *record.seed);
  }
  ASSERT_EQ(out.teams_size(), static_cast<int>(record.teams.size()));
  EXPECT_EQ(Strings(out.seats()), record.seats);

  ASSERT_EQ(out.rounds_size(), static_cast<int>(record.rounds.size()));
  for (size_t r = 0; r < record.rounds.size(); ++r) {
    SCOPED_TRACE(r);
    const RecordedRound& round = record.rounds[r];
    const v1::Record::Round& round_out = out.rounds(static_cast<int>(r));
    ASSERT_EQ(round_out.has_deal(), round.deal.has_value());
    if (round.deal.has_value()) {
      ASSERT_EQ(round_out.deal().hands_size(), static_cast<int>(round.deal->hands.size()));
      for (size_t s = 0; s < round.deal->hands.size(); ++s) {
        std::vector<std::string> tiles;
        for (const Tile& tile : round.deal->hands[s]) tiles.push_back(tile.ToString());
        EXPECT_EQ(Strings(round_out.deal().hands(static_cast<int>(s)).tiles()), tiles);
      }
      std::vector<std::string> boneyard;
      for (const Tile& tile : round.deal->boneyard) boneyard.push_back(tile.ToString());
      EXPECT_EQ(Strings(round_out.deal().boneyard()), boneyard);
    }
    ASSERT_EQ(round_out.actions_size(), static_cast<int>(round.actions.size()));
    for (size_t a = 0; a < round.actions.size(); ++a) {
      EXPECT_EQ(round_out.actions(static_cast<int>(a)).seat(), round.actions[a].seat);
      EXPECT_EQ(round_out.actions(static_cast<int>(a)).action(), round.actions[a].action);
    }
  }

  ASSERT_EQ(out.has_result(), record.result.has_value());
  if (record.result.has_value()) {
    EXPECT_EQ(Ints(out.result().scores()), record.result->scores);
    EXPECT_EQ(Ints(out.result().ranks()), record.result->ranks);
    EXPECT_EQ(Ints(out.result().winners()), record.result->winners);
    EXPECT_EQ(StructToJson(out.result().details()), record.result->details);
    EXPECT_EQ(out.result().teams_size(), static_cast<int>(record.teams.size()));
  }
}

TEST(ConvertRecord, FinishedMugginsMatchWithEveryRoundAndTheResult) {
  std::shared_ptr<const Game> game =
      MakeGame("muggins", {{"preset", std::string("partners")}, {"target", int64_t{100}}});
  ASSERT_NE(game, nullptr);
  const Record record = SimulateMatch(*game, 424242);
  ASSERT_TRUE(record.result.has_value());
  ASSERT_GE(record.rounds.size(), 2u) << "pick a seed whose match lasts more than one round";

  const v1::Record out = RecordToProto(record);
  ExpectRecordConverted(record, out);
  ASSERT_EQ(out.teams_size(), 2);
  EXPECT_THAT(out.teams(0).seats(), ElementsAre(0, 2));
  EXPECT_THAT(out.teams(1).seats(), ElementsAre(1, 3));
  EXPECT_EQ(out.rules().at("preset").string_value(), "partners");
  EXPECT_EQ(out.result().winners_size() % 2, 0) << "team mates win together";
}

TEST(ConvertRecord, FinishedCastleRockMatch) {
  std::shared_ptr<const Game> game = MakeGame("castle_rock");
  ASSERT_NE(game, nullptr);
  const Record record = SimulateMatch(*game, 77);
  ASSERT_TRUE(record.result.has_value());
  const v1::Record out = RecordToProto(record);
  ExpectRecordConverted(record, out);
  EXPECT_EQ(out.rounds_size(), 1);
  EXPECT_EQ(out.rounds(0).deal().hands_size(), 1);
  EXPECT_TRUE(out.result().details().fields().contains("won"));
  EXPECT_THAT(out.result().player_ids(), IsEmpty());
}

TEST(ConvertRecord, UnfinishedRecordWithoutSeedOrDeals) {
  Record record;
  record.game = "castle_rock";
  record.rules = {{"set", int64_t{9}}};
  record.rounds.push_back(RecordedRound{std::nullopt, {{0, "draw"}}});
  const v1::Record out = RecordToProto(record);
  ExpectRecordConverted(record, out);
  EXPECT_FALSE(out.has_seed());
  EXPECT_FALSE(out.rounds(0).has_deal());
  EXPECT_FALSE(out.has_result());
}

}  // namespace
}  // namespace boneyard::execution
