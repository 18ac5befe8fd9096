// A finished match stepped through action by action, for the replay page: the engine's referee
// replays the record and every position is written with every hand shown (a record is public
// once its match is over, and the service serves no other).
#ifndef BONEYARD_SERVICES_WEB_REPLAY_H_
#define BONEYARD_SERVICES_WEB_REPLAY_H_

#include <string>

#include "absl/status/statusor.h"
#include "boneyard/v1/game.pb.h"

namespace boneyard::web {

// {"game", "seats", "teams", "result", "steps": [{"index", "round", "seat", "action",
// "current_seat", "terminal", "scores", "hand_counts", "boneyard_count", "layout", "hands"}]}:
// step 0 is the deal, step i the position after the i-th action (its seat and text).
// INTERNAL when the record does not replay (the service stored it, so it should).
absl::StatusOr<std::string> ReplayJson(const v1::Record& record);

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_REPLAY_H_
