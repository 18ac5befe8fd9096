// Conversions between the engine's types and the schema's messages (proto/boneyard/v1). The
// engine knows nothing of protobuf; the services and their clients speak protobuf; these
// functions are the one bridge, used by the execution service and by the CLI's service
// commands. No gRPC here.
#ifndef BONEYARD_SERVICES_COMMON_ENGINE_PROTO_H_
#define BONEYARD_SERVICES_COMMON_ENGINE_PROTO_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rules.h"
#include "engine/core/view.h"
#include "engine/records/record.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "nlohmann/json.hpp"

namespace boneyard {

// JSON object <-> google.protobuf.Struct (numbers become doubles, as Struct holds them).
google::protobuf::Struct JsonToStruct(const nlohmann::json& object);
nlohmann::json StructToJson(const google::protobuf::Struct& value);

google::protobuf::Timestamp ToTimestamp(absl::Time time);
absl::Time FromTimestamp(const google::protobuf::Timestamp& timestamp);
absl::Duration FromDuration(const google::protobuf::Duration& duration);
// To the nanosecond (a duration past ~292 years saturates, as absl's conversion does).
google::protobuf::Duration ToDuration(absl::Duration duration);

// A request's rule values as the engine's overrides. INVALID_ARGUMENT naming the option when a
// value is unset, or of another type than the game's option (`spec` gives the types; the
// special key "preset" takes a string). Unknown names are left for the registry to reject.
absl::StatusOr<std::map<std::string, OptionValue>> RuleValuesFromProto(
    const google::protobuf::Map<std::string, v1::RuleValue>& values, const GameSpec& spec);
// Every resolved rule of a game (Rules::values(), plus "preset" when one was chosen).
google::protobuf::Map<std::string, v1::RuleValue> RulesToProto(const Rules& rules);
v1::RuleValue OptionValueToProto(const OptionValue& value);
// A set RuleValue as the engine's value (an unset one gives "").
// INVALID_ARGUMENT when no field is set.
absl::StatusOr<OptionValue> OptionValueFromProto(const v1::RuleValue& value);

// How a view's `layout` is filled: as a typed Struct, to be read in this process; as the
// Struct's wire bytes (struct_wire.h), for a message that is only sent — several times cheaper
// to build, and the same on the wire; or not at all (a stream whose view_mask leaves it out).
enum class LayoutForm { kTyped, kWire, kNone };

// The common fields of a seat's view (hand, counts, boneyard, scores, legal actions, layout,
// round, current seat, terminal). The caller adds match, seat, sequence, deadline, last_event and
// result.
void FillSeatView(const View& view, v1::SeatView& out, LayoutForm layout = LayoutForm::kTyped);
// The same for a spectator's view (`view` must be the engine's spectator view).
void FillPublicView(const View& view, v1::PublicView& out,
                    LayoutForm layout = LayoutForm::kTyped);

// The result of a finished state (scores, ranks, winners, details), with the given player ids
// (one per seat; empty for bots) and teams.
v1::MatchResult ResultToProto(const RecordedResult& result, const std::vector<std::string>& player_ids,
                              const Teams& teams);
v1::Team TeamToProto(const std::vector<int>& seats);

// An engine record as the schema's Record (name left empty).
v1::Record RecordToProto(const Record& record);
// Field for field (docs/records.md): game, rules, seed, teams, seat labels, every round's deal
// and actions, and the result. A match that ended by a forfeit was not played to its end, so
// its record gets no result (the referee would find the replayed match unfinished): it
// replays as the position where the forfeit happened. INVALID_ARGUMENT naming the field for a
// malformed record (an unset rule value, a tile that is not a tile).
absl::StatusOr<Record> RecordFromProto(const v1::Record& record);
// Whether RecordFromProto leaves the result out: the record has one, with forfeited seats.
bool ResultLeftOut(const v1::Record& record);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_ENGINE_PROTO_H_
