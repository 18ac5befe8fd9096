// What one seat (or a spectator) may know of a match. Every game fills the common fields and
// adds its own layout (the line and spinner, the row, trains, tricks) in a subclass; bots of
// that game read the subclass, everything else reads the JSON or the text.
#ifndef BONEYARD_ENGINE_CORE_VIEW_H_
#define BONEYARD_ENGINE_CORE_VIEW_H_

#include <string>
#include <vector>

#include "engine/core/tile.h"
#include "nlohmann/json.hpp"

namespace boneyard {

// The seat number of a spectator's view, and of "nobody" when the match is over.
inline constexpr int kSpectator = -1;
inline constexpr int kNobody = -1;

class View {
 public:
  virtual ~View() = default;

  std::string game;
  int seat = kSpectator;         // whose view this is
  int current_seat = kNobody;    // whose turn it is
  int round = 0;                 // 0-based
  bool terminal = false;
  std::vector<Tile> hand;        // the seat's own tiles (empty for a spectator)
  std::vector<int> hand_counts;  // tiles in each seat's hand
  int boneyard_count = 0;
  std::vector<int> scores;       // per seat (a team's score is shown on each member)
  std::vector<std::string> legal_actions;  // only in the view of the seat to play

  // {"game","seat","current_seat","round","terminal","hand","hand_counts","boneyard_count",
  //  "scores","legal_actions","layout"}
  nlohmann::json ToJson() const;
  // Only the game-specific table: ToJson()["layout"], without building the rest.
  nlohmann::json LayoutToJson() const { return LayoutJson(); }
  // A few lines for a terminal.
  std::string ToText() const;

 protected:
  virtual nlohmann::json LayoutJson() const = 0;
  virtual std::string LayoutText() const = 0;
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_VIEW_H_
