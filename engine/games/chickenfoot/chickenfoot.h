// Chickenfoot — a centre double that must grow a six-toed foot, lines that branch into
// three-toed feet at every double; one round per double, lowest total wins.
//
// Rules as implemented (sheets 000 and 003 and the rulings in shared/rules/README.md; every
// choice in docs/rules/chickenfoot.md):
//   * Double-9 (default) or double-12 (`set`). Round r's centre double is (set - r), taken
//     out of the set before the deal; `rounds` rounds (default one per double: 10 or 13).
//     Hands: sheet 000's table (double-9: 2..6 players 20 14 11 9 7; double-12: 4..8 players
//     18 14 12 10 9) and sheet 003's 5 each for double-9 with 7 or 8 players; `hand_size`
//     overrides it. The rest is the boneyard, drawn first to last.
//   * Seat 0 starts round 1, the next seat the next round; play goes to the next seat.
//   * The first six tiles must be played on the centre double (the double chickenfoot).
//     Afterwards a tile goes on any open end (a toe: the free end of a tile nothing has been
//     played on). A double played on a toe is placed sideways and starts a chickenfoot: the
//     next three tiles must go on it before play continues anywhere else.
//   * One tile a turn; a double grants no extra play. A seat that can play must. A seat that
//     cannot draws one tile ("draw") and plays it if it fits; otherwise it passes ("pass").
//     With the boneyard empty it passes at once.
//   * A round ends when a seat plays its last tile, or when the boneyard is empty and no seat
//     can play. Each seat adds the pips left in hand to its total, plus
//     `double_blank_penalty` (50) for holding the double-blank.
//
// Every placed tile has a stable id, in the order placed: @0 is the centre double, @1 the
// first tile played, and so on; the view lists them. A play names the tile it goes on:
// "5-3 @7" (tile*128 + id), then "draw" and "pass". Legal actions in that order.
//
// Rule options: players (2..8, 4), set (9..12: 9 or 12, 9), hand_size (0 = the table),
// rounds (0 = one per double), double_blank_penalty (0..100, 50). Presets: double_9,
// double_12.
#ifndef BONEYARD_ENGINE_GAMES_CHICKENFOOT_CHICKENFOOT_H_
#define BONEYARD_ENGINE_GAMES_CHICKENFOOT_CHICKENFOOT_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/games/trains/trains.h"

namespace boneyard::chickenfoot {

using trains::kMaxSeats;
using trains::kMaxTiles;

inline constexpr int kCentre = 0;     // node id of the centre double
inline constexpr int kCentreToes = 6;
inline constexpr int kFootToes = 3;
inline constexpr Action kDraw = 20000;
inline constexpr Action kPass = 20001;

constexpr Action PlayAction(int tile, int node) { return static_cast<Action>(tile * 128 + node); }
constexpr bool IsPlay(Action a) { return a < kMaxTiles * 128; }
constexpr int ActionTile(Action a) { return static_cast<int>(a >> 7); }
constexpr int ActionNode(Action a) { return static_cast<int>(a & 127); }

GameSpec Spec();

class ChickenfootGame : public trains::RoundsGame {
 public:
  ChickenfootGame(Rules rules, int players, int max_pip, int hand_size, int rounds);
  int double_blank_penalty() const { return double_blank_penalty_; }

 protected:
  std::unique_ptr<State> MakeState(uint64_t seed,
                                   std::shared_ptr<const std::vector<Deal>> deals) const override;

 private:
  int double_blank_penalty_;
};

// One placed tile as the view shows it.
struct NodeView {
  int id = 0;
  std::string tile;  // "9-4": the pip it was played on first ("9-9" for the centre)
  int on = -1;       // the id it was played on; -1 for the centre
  int pip = 0;       // the pip it offers
  int free = 0;      // how many more tiles it takes now (0: closed)
};

class ChickenfootView : public View {
 public:
  int centre = 0;                  // the round's centre pip
  int rounds = 0;
  std::vector<NodeView> nodes;     // by id
  int foot = -1;                   // the double whose toes must be played first, or -1
  int toes_needed = 0;             // how many it still needs
  std::optional<trains::RoundResult> last_round;
  int double_blank_penalty = 0;
  // Ids of the ends a tile may go on now (the foot's, or every free end).
  std::vector<int> OpenEnds() const;

 protected:
  nlohmann::json LayoutJson() const override;
  std::string LayoutText() const override;
};

class ChickenfootState : public trains::RoundsState {
 public:
  ChickenfootState(std::shared_ptr<const Game> game, uint64_t seed,
                   std::shared_ptr<const std::vector<Deal>> deals);

  void LegalActions(ActionList& out) const override;
  void Apply(Action action) override;
  std::unique_ptr<State> Clone() const override;
  std::unique_ptr<View> ViewFor(int seat) const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  absl::Status ExplainIllegal(Action action) const override;
  absl::Status CheckInvariants() const override;
  std::string ToString() const override;

  int foot() const { return foot_; }
  int NodePip(int node) const { return pip_[node]; }

 private:
  // Free places of `node` now (the foot's toes first).
  int Free(int node) const { return capacity_[node] - children_[node]; }
  bool CanPlay(const TileMask& hand) const;
  template <typename F>
  void ForEachOpenEnd(F&& f) const;

  void StartRound(int round);
  void EndTurn();

  const ChickenfootGame* cg_;
  std::array<uint8_t, kMaxTiles> tile_{};      // by node id
  std::array<int8_t, kMaxTiles> parent_{};
  std::array<int8_t, kMaxTiles> pip_{};
  std::array<uint8_t, kMaxTiles> capacity_{};
  std::array<uint8_t, kMaxTiles> children_{};
  TileMask placed_;
  int16_t num_nodes_ = 0;
  int16_t foot_ = kCentre;  // the double whose toes come first, -1 when none
  bool drew_ = false;
};

}  // namespace boneyard::chickenfoot

#endif  // BONEYARD_ENGINE_GAMES_CHICKENFOOT_CHICKENFOOT_H_
