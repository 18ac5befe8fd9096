// The referee replays a record through the engine and checks every action. An illegal or
// malformed action stops the replay with an error naming the round, the action index, the
// seat, the action text and the rule it breaks. A partial record (a position) replays to its
// current state.
#ifndef BONEYARD_ENGINE_RECORDS_REFEREE_H_
#define BONEYARD_ENGINE_RECORDS_REFEREE_H_

#include <memory>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/records/record.h"

namespace boneyard {

// The game a record is played under: its rules, with `players` taken from the first deal
// when the record does not give it, and its teams checked against the record's.
absl::StatusOr<std::shared_ptr<const Game>> GameForRecord(const Record& record,
                                                          const GameRegistry& registry);

// The match state after every action of `record`. Errors: NOT_FOUND (unknown game),
// INVALID_ARGUMENT (bad rules, deals, malformed action, result that does not match),
// FAILED_PRECONDITION (an illegal action); the message says where.
absl::StatusOr<std::unique_ptr<State>> Replay(const Record& record,
                                              const GameRegistry& registry = DefaultRegistry());

// The same, showing every position on the way (for stepping through a record): `on_step` gets
// the state before the first action (with `action` null), then after each action, with the
// action as recorded.
using ReplayStep = absl::FunctionRef<void(const State& state, const RecordedAction* action)>;
absl::StatusOr<std::unique_ptr<State>> Replay(const Record& record, const GameRegistry& registry,
                                              ReplayStep on_step);

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_RECORDS_REFEREE_H_
