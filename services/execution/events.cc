#include "services/execution/events.h"

#include <vector>

#include "nlohmann/json.hpp"
#include "services/common/engine_proto.h"

namespace boneyard::execution {

google::protobuf::Struct EffectOf(const State& before, const State& after) {
  // Built as a Struct directly, not through JSON: this runs for every event.
  google::protobuf::Struct effect;
  auto& fields = *effect.mutable_fields();
  const std::vector<int> old_scores = before.Scores();
  const std::vector<int> new_scores = after.Scores();
  std::vector<int> points(new_scores.size(), 0);
  bool scored = false;
  for (size_t i = 0; i < new_scores.size() && i < old_scores.size(); ++i) {
    points[i] = new_scores[i] - old_scores[i];
    scored = scored || points[i] != 0;
  }
  if (scored) {
    google::protobuf::ListValue& list = *fields["points"].mutable_list_value();
    for (int p : points) list.add_values()->set_number_value(p);
  }
  if (after.IsTerminal()) {
    fields["match_over"].set_bool_value(true);
    fields["round_over"].set_bool_value(true);
  } else if (after.Round() != before.Round()) {
    fields["round_over"].set_bool_value(true);
  }
  return effect;
}

v1::MatchEvent EventProto(const EventRow& row, std::string public_action,
                          google::protobuf::Struct effect) {
  v1::MatchEvent event;
  event.set_sequence(row.sequence);
  event.set_seat(row.seat);
  event.mutable_action()->set_text(std::move(public_action));
  event.set_reason(row.reason);
  event.set_round(row.round);
  *event.mutable_effect() = std::move(effect);
  event.set_message(row.message);
  *event.mutable_turn_start_time() = ToTimestamp(row.turn_start_time);
  *event.mutable_create_time() = ToTimestamp(row.create_time);
  return event;
}

absl::Time StorableNow() { return absl::FromUnixMicros(absl::ToUnixMicros(absl::Now())); }

google::protobuf::Struct EndingEffect() { return JsonToStruct({{"match_over", true}}); }

}  // namespace boneyard::execution
