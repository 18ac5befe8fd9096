// A match event as the schema shows it (v1.MatchEvent): built from its stored row and the
// action's public effect. Shared by live matches and by the views of matches already over.
#ifndef BONEYARD_SERVICES_EXECUTION_EVENTS_H_
#define BONEYARD_SERVICES_EXECUTION_EVENTS_H_

#include "absl/time/time.h"
#include "boneyard/v1/game.pb.h"
#include "engine/core/game.h"
#include "google/protobuf/struct.pb.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

// The public effect of an action: the points each seat gained (when any did) and whether it
// ended the round or the match. Scores and rounds are public, so nothing hidden can leak here.
google::protobuf::Struct EffectOf(const State& before, const State& after);
// The effect of a forfeit or an abort.
google::protobuf::Struct EndingEffect();

// Now, to the microsecond: the database keeps microseconds, so times taken with this read the
// same from memory and from storage.
absl::Time StorableNow();

// `public_action` is the action as everyone may see it (State::PublicActionToString; the row
// keeps the full notation for replay); empty for an event without an action.
v1::MatchEvent EventProto(const EventRow& row, std::string public_action,
                          google::protobuf::Struct effect);

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_EVENTS_H_
