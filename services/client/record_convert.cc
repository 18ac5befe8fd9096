#include "services/client/record_convert.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/tile.h"
#include "services/client/proto_json.h"

namespace boneyard::client {
namespace {

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

}  // namespace boneyard::client
