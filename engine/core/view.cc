#include "engine/core/view.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace boneyard {

nlohmann::json View::ToJson() const {
  nlohmann::json j;
  j["game"] = game;
  j["seat"] = seat;
  j["current_seat"] = current_seat;
  j["round"] = round;
  j["terminal"] = terminal;
  auto& h = j["hand"] = nlohmann::json::array();
  for (const Tile& t : hand) h.push_back(t.ToString());
  j["hand_counts"] = hand_counts;
  j["boneyard_count"] = boneyard_count;
  j["scores"] = scores;
  j["legal_actions"] = legal_actions;
  j["layout"] = LayoutJson();
  return j;
}

std::string View::ToText() const {
  std::string out = absl::StrCat("round ", round + 1);
  if (terminal) {
    absl::StrAppend(&out, " (match over)");
  } else {
    absl::StrAppend(&out, ", seat ", current_seat, " to play");
  }
  absl::StrAppend(&out, "\nscores: ", absl::StrJoin(scores, " / "),
                  "\ntiles in hand: ", absl::StrJoin(hand_counts, " / "),
                  "   boneyard: ", boneyard_count, "\n", LayoutText());
  if (seat != kSpectator) {
    absl::StrAppend(&out, "\nyour hand (seat ", seat, "): ", TilesToString(hand));
  }
  return out;
}

}  // namespace boneyard
