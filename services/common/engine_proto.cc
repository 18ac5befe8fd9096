#include "services/common/engine_proto.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "engine/core/tile.h"
#include "services/common/struct_wire.h"

namespace boneyard {
namespace {

using nlohmann::json;

// Integers that a double holds exactly (2^53); StructToJson writes integral doubles within it
// back as JSON integers, so engine JSON (all integers) survives a round trip unchanged.
constexpr double kMaxExactInteger = 9007199254740992.0;

// google.protobuf.Timestamp's range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
constexpr int64_t kMinTimestampSeconds = -62135596800;
constexpr int64_t kMaxTimestampSeconds = 253402300799;

// Fills messages in place: on an arena, assigning a temporary built elsewhere would deep-copy
// every level of the tree.
void FillStruct(const json& object, google::protobuf::Struct& out);

void FillValue(const json& value, google::protobuf::Value& out) {
  switch (value.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
      out.set_null_value(google::protobuf::NULL_VALUE);
      break;
    case json::value_t::boolean:
      out.set_bool_value(value.get<bool>());
      break;
    case json::value_t::number_integer:
      out.set_number_value(static_cast<double>(value.get<int64_t>()));
      break;
    case json::value_t::number_unsigned:
      out.set_number_value(static_cast<double>(value.get<uint64_t>()));
      break;
    case json::value_t::number_float:
      out.set_number_value(value.get<double>());
      break;
    case json::value_t::string:
      out.set_string_value(value.get_ref<const std::string&>());
      break;
    case json::value_t::array: {
      google::protobuf::ListValue* list = out.mutable_list_value();
      for (const json& element : value) FillValue(element, *list->add_values());
      break;
    }
    case json::value_t::object:
      FillStruct(value, *out.mutable_struct_value());
      break;
    case json::value_t::binary: {
      // The engine never writes binary values; keep the bytes as a list of numbers.
      google::protobuf::ListValue* list = out.mutable_list_value();
      for (uint8_t byte : value.get_binary()) list->add_values()->set_number_value(byte);
      break;
    }
  }
}

void FillStruct(const json& object, google::protobuf::Struct& out) {
  if (!object.is_object()) return;
  auto& fields = *out.mutable_fields();
  for (const auto& [key, value] : object.items()) FillValue(value, fields[key]);
}

json ValueToJson(const google::protobuf::Value& value) {
  switch (value.kind_case()) {
    case google::protobuf::Value::kNullValue:
    case google::protobuf::Value::KIND_NOT_SET:
      return nullptr;
    case google::protobuf::Value::kBoolValue:
      return value.bool_value();
    case google::protobuf::Value::kNumberValue: {
      const double number = value.number_value();
      if (std::isfinite(number) && std::trunc(number) == number &&
          std::fabs(number) <= kMaxExactInteger) {
        return static_cast<int64_t>(number);
      }
      return number;
    }
    case google::protobuf::Value::kStringValue:
      return value.string_value();
    case google::protobuf::Value::kListValue: {
      json out = json::array();
      for (const google::protobuf::Value& element : value.list_value().values()) {
        out.push_back(ValueToJson(element));
      }
      return out;
    }
    case google::protobuf::Value::kStructValue:
      return StructToJson(value.struct_value());
  }
  return nullptr;
}

const OptionSpec* FindOption(const GameSpec& spec, const std::string& name) {
  for (const OptionSpec& option : spec.options) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

// The RuleValue field an option type takes, for error messages.
const char* FieldFor(OptionType type) {
  switch (type) {
    case OptionType::kBool:
      return "bool_value";
    case OptionType::kInt:
      return "int_value";
    case OptionType::kChoice:
      return "string_value";
  }
  return "a value";
}

const char* FieldSet(const v1::RuleValue& value) {
  switch (value.kind_case()) {
    case v1::RuleValue::kBoolValue:
      return "bool_value";
    case v1::RuleValue::kIntValue:
      return "int_value";
    case v1::RuleValue::kStringValue:
      return "string_value";
    case v1::RuleValue::KIND_NOT_SET:
      break;
  }
  return "nothing";
}

template <class Field>
void AddTiles(const std::vector<Tile>& tiles, Field& out) {
  out.Reserve(static_cast<int>(tiles.size()));
  for (const Tile& tile : tiles) out.Add(tile.ToString());
}

// The layout part of a view, always a JSON object.
template <class ViewMessage>
void FillLayout(const View& view, LayoutForm form, ViewMessage& out) {
  switch (form) {
    case LayoutForm::kTyped:
      FillStruct(view.LayoutToJson(), *out.mutable_layout());
      break;
    case LayoutForm::kWire:
      SetFieldWire(out, ViewMessage::kLayoutFieldNumber, JsonToStructWire(view.LayoutToJson()));
      break;
    case LayoutForm::kNone:
      out.clear_layout();
      break;
  }
}

absl::StatusOr<std::vector<Tile>> TilesFromProto(
    const google::protobuf::RepeatedPtrField<std::string>& tiles, const std::string& field) {
  std::vector<Tile> out;
  out.reserve(tiles.size());
  for (int i = 0; i < tiles.size(); ++i) {
    absl::StatusOr<Tile> tile = Tile::Parse(tiles[i]);
    if (!tile.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("record: ", field, "[", i, "]: ", tile.status().message()));
    }
    out.push_back(*tile);
  }
  return out;
}

std::vector<int> Ints(const google::protobuf::RepeatedField<int32_t>& values) {
  return std::vector<int>(values.begin(), values.end());
}

}  // namespace

google::protobuf::Struct JsonToStruct(const json& object) {
  google::protobuf::Struct out;
  FillStruct(object, out);
  return out;
}

json StructToJson(const google::protobuf::Struct& value) {
  json out = json::object();
  for (const auto& [key, field] : value.fields()) out[key] = ValueToJson(field);
  return out;
}

google::protobuf::Timestamp ToTimestamp(absl::Time time) {
  google::protobuf::Timestamp out;
  if (time <= absl::FromUnixSeconds(kMinTimestampSeconds)) {
    out.set_seconds(kMinTimestampSeconds);
    return out;
  }
  if (time >= absl::FromUnixSeconds(kMaxTimestampSeconds + 1)) {
    out.set_seconds(kMaxTimestampSeconds);
    out.set_nanos(999999999);
    return out;
  }
  const int64_t seconds = absl::ToUnixSeconds(time);  // rounds down
  const int64_t nanos = absl::ToInt64Nanoseconds(time - absl::FromUnixSeconds(seconds));
  out.set_seconds(seconds);
  out.set_nanos(static_cast<int32_t>(nanos));
  return out;
}

absl::Time FromTimestamp(const google::protobuf::Timestamp& timestamp) {
  return absl::FromUnixSeconds(timestamp.seconds()) + absl::Nanoseconds(timestamp.nanos());
}

absl::Duration FromDuration(const google::protobuf::Duration& duration) {
  return absl::Seconds(duration.seconds()) + absl::Nanoseconds(duration.nanos());
}

google::protobuf::Duration ToDuration(absl::Duration duration) {
  google::protobuf::Duration out;
  const int64_t nanos = absl::ToInt64Nanoseconds(duration);
  out.set_seconds(nanos / 1000000000);
  out.set_nanos(static_cast<int32_t>(nanos % 1000000000));
  return out;
}

absl::StatusOr<std::map<std::string, OptionValue>> RuleValuesFromProto(
    const google::protobuf::Map<std::string, v1::RuleValue>& values, const GameSpec& spec) {
  std::map<std::string, OptionValue> out;
  // A protobuf map's order is unspecified; sort by name so the first error is the same on
  // every call.
  std::vector<const std::string*> names;
  names.reserve(values.size());
  for (const auto& [name, unused] : values) names.push_back(&name);
  std::sort(names.begin(), names.end(),
            [](const std::string* a, const std::string* b) { return *a < *b; });

  for (const std::string* name_ptr : names) {
    const std::string& name = *name_ptr;
    const v1::RuleValue& value = values.at(name);
    if (value.kind_case() == v1::RuleValue::KIND_NOT_SET) {
      return absl::InvalidArgumentError(
          absl::StrCat("rule option '", name, "' has no value (set one field of RuleValue)"));
    }
    if (name == "preset") {
      if (value.kind_case() != v1::RuleValue::kStringValue) {
        return absl::InvalidArgumentError(absl::StrCat(
            "rule option 'preset' takes a preset name (string_value), got ", FieldSet(value)));
      }
      out[name] = value.string_value();
      continue;
    }
    const OptionSpec* option = FindOption(spec, name);
    if (option == nullptr) {
      // Unknown to this game: passed on as it is for the registry to reject by name.
      out[name] = *OptionValueFromProto(value);  // set: checked above
      continue;
    }
    bool matches = false;
    switch (option->type) {
      case OptionType::kBool:
        matches = value.kind_case() == v1::RuleValue::kBoolValue;
        break;
      case OptionType::kInt:
        matches = value.kind_case() == v1::RuleValue::kIntValue;
        break;
      case OptionType::kChoice:
        matches = value.kind_case() == v1::RuleValue::kStringValue;
        break;
    }
    if (!matches) {
      return absl::InvalidArgumentError(absl::StrCat("rule option '", name, "' of ", spec.name,
                                                     " is ", option->TypeName(), " (",
                                                     FieldFor(option->type), "), got ",
                                                     FieldSet(value)));
    }
    out[name] = *OptionValueFromProto(value);  // set: checked above
  }
  return out;
}

absl::StatusOr<OptionValue> OptionValueFromProto(const v1::RuleValue& value) {
  switch (value.kind_case()) {
    case v1::RuleValue::kBoolValue:
      return OptionValue(value.bool_value());
    case v1::RuleValue::kIntValue:
      return OptionValue(static_cast<int64_t>(value.int_value()));
    case v1::RuleValue::kStringValue:
      return OptionValue(value.string_value());
    case v1::RuleValue::KIND_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError("a rule value has none of its fields set");
}

google::protobuf::Map<std::string, v1::RuleValue> RulesToProto(const Rules& rules) {
  google::protobuf::Map<std::string, v1::RuleValue> out;
  for (const auto& [name, value] : rules.values()) {
    // Rules hold "preset" as "" when none was chosen; the schema leaves it out then.
    if (name == "preset") {
      const auto* preset = std::get_if<std::string>(&value);
      if (preset == nullptr || preset->empty()) continue;
    }
    out[name] = OptionValueToProto(value);
  }
  return out;
}

v1::RuleValue OptionValueToProto(const OptionValue& value) {
  v1::RuleValue out;
  if (const auto* b = std::get_if<bool>(&value)) {
    out.set_bool_value(*b);
  } else if (const auto* i = std::get_if<int64_t>(&value)) {
    out.set_int_value(*i);
  } else {
    out.set_string_value(std::get<std::string>(value));
  }
  return out;
}

void FillSeatView(const View& view, v1::SeatView& out, LayoutForm layout) {
  out.set_round(view.round);
  out.set_current_seat(view.current_seat);
  out.set_terminal(view.terminal);
  out.clear_hand();
  AddTiles(view.hand, *out.mutable_hand());
  out.mutable_hand_counts()->Assign(view.hand_counts.begin(), view.hand_counts.end());
  out.set_boneyard_count(view.boneyard_count);
  out.mutable_scores()->Assign(view.scores.begin(), view.scores.end());
  out.clear_legal_actions();
  out.mutable_legal_actions()->Reserve(static_cast<int>(view.legal_actions.size()));
  for (const std::string& action : view.legal_actions) out.add_legal_actions()->set_text(action);
  FillLayout(view, layout, out);
}

void FillPublicView(const View& view, v1::PublicView& out, LayoutForm layout) {
  out.set_round(view.round);
  out.set_current_seat(view.current_seat);
  out.set_terminal(view.terminal);
  out.mutable_hand_counts()->Assign(view.hand_counts.begin(), view.hand_counts.end());
  out.set_boneyard_count(view.boneyard_count);
  out.mutable_scores()->Assign(view.scores.begin(), view.scores.end());
  FillLayout(view, layout, out);
}

v1::Team TeamToProto(const std::vector<int>& seats) {
  std::vector<int> sorted = seats;
  std::sort(sorted.begin(), sorted.end());
  v1::Team out;
  out.mutable_seats()->Assign(sorted.begin(), sorted.end());
  return out;
}

v1::MatchResult ResultToProto(const RecordedResult& result,
                              const std::vector<std::string>& player_ids, const Teams& teams) {
  v1::MatchResult out;
  out.mutable_scores()->Assign(result.scores.begin(), result.scores.end());
  out.mutable_ranks()->Assign(result.ranks.begin(), result.ranks.end());
  out.mutable_winners()->Assign(result.winners.begin(), result.winners.end());
  for (const std::string& id : player_ids) out.add_player_ids(id);
  for (const std::vector<int>& team : teams) *out.add_teams() = TeamToProto(team);
  FillStruct(result.details, *out.mutable_details());
  return out;
}

v1::Record RecordToProto(const Record& record) {
  v1::Record out;
  out.set_game(record.game);
  // Every value as recorded, "preset" included (even ""), field for field the JSON record.
  for (const auto& [name, value] : record.rules) {
    (*out.mutable_rules())[name] = OptionValueToProto(value);
  }
  if (record.seed.has_value()) out.set_seed(*record.seed);
  for (const std::vector<int>& team : record.teams) *out.add_teams() = TeamToProto(team);
  for (const std::string& label : record.seats) out.add_seats(label);
  for (const RecordedRound& round : record.rounds) {
    v1::Record::Round* round_out = out.add_rounds();
    if (round.deal.has_value()) {
      v1::Deal* deal = round_out->mutable_deal();
      for (const std::vector<Tile>& hand : round.deal->hands) {
        AddTiles(hand, *deal->add_hands()->mutable_tiles());
      }
      AddTiles(round.deal->boneyard, *deal->mutable_boneyard());
    }
    for (const RecordedAction& action : round.actions) {
      v1::Record::RecordedAction* action_out = round_out->add_actions();
      action_out->set_seat(action.seat);
      action_out->set_action(action.action);
    }
  }
  if (record.result.has_value()) {
    // A record's seat labels do not say which seats are bots, so the result's player ids are
    // left for the caller (the host knows the seats).
    *out.mutable_result() = ResultToProto(*record.result, {}, record.teams);
  }
  return out;
}

bool ResultLeftOut(const v1::Record& record) {
  return record.has_result() && record.result().forfeited_seats_size() > 0;
}

absl::StatusOr<Record> RecordFromProto(const v1::Record& proto) {
  Record record;
  record.game = proto.game();
  for (const auto& [name, value] : proto.rules()) {
    absl::StatusOr<OptionValue> option = OptionValueFromProto(value);
    if (!option.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("record: rules.", name, ": ", option.status().message()));
    }
    record.rules[name] = *std::move(option);
  }
  if (proto.has_seed()) record.seed = proto.seed();
  for (const v1::Team& team : proto.teams()) {
    record.teams.emplace_back(team.seats().begin(), team.seats().end());
  }
  record.seats.assign(proto.seats().begin(), proto.seats().end());

  for (int r = 0; r < proto.rounds_size(); ++r) {
    const v1::Record::Round& round = proto.rounds(r);
    const std::string field = absl::StrCat("rounds[", r, "]");
    RecordedRound out;
    if (round.has_deal()) {
      Deal deal;
      for (int h = 0; h < round.deal().hands_size(); ++h) {
        absl::StatusOr<std::vector<Tile>> hand = TilesFromProto(
            round.deal().hands(h).tiles(), absl::StrCat(field, ".deal.hands[", h, "]"));
        if (!hand.ok()) return hand.status();
        deal.hands.push_back(*std::move(hand));
      }
      absl::StatusOr<std::vector<Tile>> boneyard =
          TilesFromProto(round.deal().boneyard(), field + ".deal.boneyard");
      if (!boneyard.ok()) return boneyard.status();
      deal.boneyard = *std::move(boneyard);
      out.deal = std::move(deal);
    }
    for (const v1::Record::RecordedAction& action : round.actions()) {
      out.actions.push_back({action.seat(), action.action()});
    }
    record.rounds.push_back(std::move(out));
  }

  if (proto.has_result() && !ResultLeftOut(proto)) {
    const v1::MatchResult& result = proto.result();
    RecordedResult out;
    out.scores = Ints(result.scores());
    out.ranks = Ints(result.ranks());
    out.winners = Ints(result.winners());
    out.details = StructToJson(result.details());
    record.result = std::move(out);
  }
  return record;
}

}  // namespace boneyard
