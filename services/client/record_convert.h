// The execution service's messages to the engine's types: rule values and match records, so a
// record fetched with GetRecord is written in the engine's JSON record format
// (docs/records.md) and `boneyard replay` checks it with the referee.
#ifndef BONEYARD_SERVICES_CLIENT_RECORD_CONVERT_H_
#define BONEYARD_SERVICES_CLIENT_RECORD_CONVERT_H_

#include "absl/status/statusor.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "engine/core/rules.h"
#include "engine/records/record.h"

namespace boneyard::client {

// INVALID_ARGUMENT when no field is set.
absl::StatusOr<OptionValue> OptionValueFromProto(const v1::RuleValue& value);
v1::RuleValue OptionValueToProto(const OptionValue& value);

// Field for field (docs/records.md): game, rules, seed, teams, seat labels, every round's deal
// and actions, and the result. A match that ended by a forfeit was not played to its end, so
// its record gets no result (the referee would find the replayed match unfinished): it
// replays as the position where the forfeit happened. INVALID_ARGUMENT naming the field for a
// malformed record (an unset rule value, a tile that is not a tile).
absl::StatusOr<Record> RecordFromProto(const v1::Record& record);

// Whether RecordFromProto leaves the result out: the record has one, with forfeited seats.
bool ResultLeftOut(const v1::Record& record);

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_RECORD_CONVERT_H_
