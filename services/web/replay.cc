#include "services/web/replay.h"

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "engine/records/referee.h"
#include "nlohmann/json.hpp"
#include "services/common/engine_proto.h"
#include "services/web/json_wire.h"

namespace boneyard::web {

absl::StatusOr<std::string> ReplayJson(const v1::Record& proto) {
  absl::StatusOr<Record> record = RecordFromProto(proto);
  if (!record.ok()) return record.status();
  nlohmann::json steps = nlohmann::json::array();
  absl::StatusOr<std::unique_ptr<State>> replayed =
      Replay(*record, DefaultRegistry(), [&](const State& state, const RecordedAction* action) {
        nlohmann::json view = state.ViewFor(0)->ToJson();
        // The other seats' hands from their views' tiles: their full JSON would build the
        // layout again for every seat at every step.
        nlohmann::json hands = nlohmann::json::array();
        hands.push_back(view["hand"]);
        const int seats = static_cast<int>(view["hand_counts"].size());
        for (int s = 1; s < seats; ++s) {
          nlohmann::json& hand = hands.emplace_back(nlohmann::json::array());
          // Hold the view: a range-for over `ViewFor(s)->hand` would read a destroyed view.
          const std::unique_ptr<View> seat_view = state.ViewFor(s);
          for (const Tile& tile : seat_view->hand) hand.push_back(tile.ToString());
        }
        steps.push_back({{"index", steps.size()},
                         {"round", state.Round()},
                         {"seat", action == nullptr ? -1 : action->seat},
                         {"action", action == nullptr ? "" : action->action},
                         {"current_seat", view["current_seat"]},
                         {"terminal", state.IsTerminal()},
                         {"scores", state.Scores()},
                         {"hand_counts", view["hand_counts"]},
                         {"boneyard_count", view["boneyard_count"]},
                         {"layout", view["layout"]},
                         {"hands", std::move(hands)}});
      });
  if (!replayed.ok()) {
    return absl::InternalError(
        absl::StrCat("the record does not replay: ", replayed.status().message()));
  }
  nlohmann::json out = nlohmann::json::parse(ProtoJson(proto), nullptr, false);
  out.erase("rounds");  // the steps say it all, with the positions
  out["steps"] = std::move(steps);
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace boneyard::web
