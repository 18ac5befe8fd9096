// The execution service's messages as the CLI prints them: JSON (snake_case field names,
// integers as numbers, enums by name, times in RFC 3339; keys come out sorted like every
// --json output) and short readable text.
#ifndef BONEYARD_SERVICES_CLIENT_PROTO_JSON_H_
#define BONEYARD_SERVICES_CLIENT_PROTO_JSON_H_

#include <string>

#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "nlohmann/json.hpp"
#include "services/common/engine_proto.h"  // StructToJson

namespace boneyard::client {

using RuleMap = google::protobuf::Map<std::string, v1::RuleValue>;


// true, 3 or "partners"; null when unset.
nlohmann::json RuleValueToJson(const v1::RuleValue& value);
nlohmann::json RulesToJson(const RuleMap& rules);
// "players=2,preset=,target=250", in name order (like the engine's Rules::ToString).
std::string RulesToText(const RuleMap& rules);

// RFC 3339 ("2024-05-01T10:00:00Z"); empty for an unset (zero) timestamp.
std::string TimestampText(const google::protobuf::Timestamp& time);

// "player:alice", "bot:greedy", "bot:random:2" — the syntax of `create --seats`.
std::string SeatLabel(const v1::Seat& seat);
// "active", "finished", "aborted".
std::string StateName(v1::Match::State state);

nlohmann::json MatchToJson(const v1::Match& match);
nlohmann::json ResultToJson(const v1::MatchResult& result);
nlohmann::json EventToJson(const v1::MatchEvent& event);
nlohmann::json SeatViewToJson(const v1::SeatView& view);
nlohmann::json PublicViewToJson(const v1::PublicView& view);

// "matches/8f3c  castle_rock  active  seq 12  player:alice  2024-05-01T10:00:00Z"
std::string MatchLine(const v1::Match& match);
// Several lines: every field of the match that is set.
std::string MatchText(const v1::Match& match);
// "#12 seat 1 plays 6-4 right {"points":10}", "#40 the operator aborted the match: <reason>".
std::string EventText(const v1::MatchEvent& event);
// "scores 250 / 135, ranks 1 / 2, winner seat 0, details {...}".
std::string ResultText(const v1::MatchResult& result);
// A seat's view over a few lines, like the engine's View::ToText with the layout as compact
// JSON: whose turn, scores, hand counts and boneyard, layout, the seat's hand, the deadline.
std::string SeatViewText(const v1::SeatView& view);
// One line per view for `watch`.
std::string PublicViewLine(const v1::PublicView& view);

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_PROTO_JSON_H_
