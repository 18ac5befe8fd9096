// Mexican Train — personal trains from a central engine, one public Mexican train, markers
// and open doubles; one round per double, lowest total wins.
//
// Rules as implemented (sheet 000 "classic", sheet 004 "first-turn strings", sheet 002
// "house"; the rulings in shared/rules/README.md; every choice in
// docs/rules/mexican_train.md):
//   * Double-9 or double-12 (`set`). Round r's engine is the double (set - r), set in the
//     centre before the deal (it is not dealt); `rounds` rounds (default one per double: 13
//     for double-12, 10 for double-9). With `engine_from_hands` (house) the whole set is
//     dealt and the holder of the highest double not yet used as an engine places it and
//     plays again; skipped doubles are looked for first in later rounds; when nobody holds
//     one, everyone draws one tile a pass until one turns up. Hands come from the deal table of the preset's sheet
//     (`deal_table`; `hand_size` overrides it); the rest is the boneyard, drawn first to last.
//   * Seat 0 starts round 1, the next seat the next round; play goes to the next seat.
//   * Every train starts from the engine's pip: each seat's personal train and the single
//     Mexican train, which anyone may start. A seat may play on its own train, the Mexican
//     train and any train carrying a marker.
//   * One tile a turn. A seat that can play must. A seat that cannot draws one tile ("draw")
//     and plays it if it fits (only the drawn tile: drawing never makes another tile of the
//     hand playable); otherwise it passes ("pass"), which puts its marker on its train. With
//     the boneyard empty a seat that cannot play passes at once (marker too).
//   * A double is placed sideways and obliges another play in the same turn, on the double
//     or on any train the seat may use (a draw if needed; a marker if still unable). A second
//     double may follow only when a third tile already in hand (not drawn) can then go on one
//     of the two doubles, and the third play must do so (`double_chain=two`); with
//     `double_chain=unlimited` (house) doubles chain freely and the doubler may close only
//     the first double of the turn.
//   * A double left open at the end of a turn makes every other train ineligible: the
//     following seats must play on it (draw, then marker, if they cannot). Several open
//     doubles (house) are closed in the order played. With `dead_doubles_free` a double
//     whose suit is all on the table no longer restricts anything.
//   * Markers come off when the owner plays on its own train (`marker_off=own_train`) or
//     plays anywhere (`marker_off=any_play`, house).
//   * `first_turn_strings` (sheet 004): on its first turn of a round a seat plays only on its
//     own train, and may go on laying matching tiles there ("stop" ends the string); no
//     Mexican train or other trains that turn; a seat that cannot start draws one and plays
//     it if it fits, else puts its marker up. If a seat goes out during the first turns,
//     the remaining seats still play their first turn before the round ends.
//   * A round ends when a seat plays its last tile (even a double) or when the boneyard is
//     empty and no seat can play. Each seat adds the pips left in its hand to its total.
//
// Rule options: players (2..8, 4), set (6..12, 12), deal_table (sheet000|sheet004|sheet002|
// sheet002_removal), hand_size (0 = the table), rounds (0 = one per double), double_chain
// (two|unlimited), marker_off (own_train|any_play), dead_doubles_free (false),
// first_turn_strings (false), engine_from_hands (false). Presets: classic, classic_double_9,
// first_turn_strings, house.
//
// Actions: "<tile> train <seat>" (tile*16 + seat), "<tile> mexican" (tile*16 + 8), then
// "draw", "pass" (marker up), "stop" (end a first-turn string). Legal actions in that order.
#ifndef BONEYARD_ENGINE_GAMES_MEXICAN_TRAIN_MEXICAN_TRAIN_H_
#define BONEYARD_ENGINE_GAMES_MEXICAN_TRAIN_MEXICAN_TRAIN_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/games/trains/trains.h"

namespace boneyard::mexican_train {

using trains::kMaxSeats;
using trains::kMaxTiles;

inline constexpr int kMexican = 8;  // train index of the Mexican train
inline constexpr int kNumTrains = 9;
inline constexpr Action kDraw = 4000;
inline constexpr Action kPass = 4001;
inline constexpr Action kStop = 4002;

constexpr Action PlayAction(int tile, int train) { return static_cast<Action>(tile * 16 + train); }
constexpr bool IsPlay(Action a) { return a < kMaxTiles * 16 && (a & 15) < kNumTrains; }
constexpr int ActionTile(Action a) { return static_cast<int>(a >> 4); }
constexpr int ActionTrain(Action a) { return static_cast<int>(a & 15); }

enum class DoubleChain : uint8_t { kTwo, kUnlimited };
enum class MarkerOff : uint8_t { kOwnTrain, kAnyPlay };

GameSpec Spec();

class MexicanTrainGame : public trains::RoundsGame {
 public:
  MexicanTrainGame(Rules rules, int players, int max_pip, int hand_size, int rounds,
                   bool engine_from_hands);
  DoubleChain double_chain() const { return double_chain_; }
  MarkerOff marker_off() const { return marker_off_; }
  bool dead_doubles_free() const { return dead_doubles_free_; }
  bool first_turn_strings() const { return first_turn_strings_; }
  bool engine_from_hands() const { return engine_from_hands_; }

 protected:
  std::unique_ptr<State> MakeState(uint64_t seed,
                                   std::shared_ptr<const std::vector<Deal>> deals) const override;

 private:
  DoubleChain double_chain_;
  MarkerOff marker_off_;
  bool dead_doubles_free_;
  bool first_turn_strings_;
  bool engine_from_hands_;
};

// ----- View -----

struct TrainView {
  int owner = kNobody;              // seat, or kNobody for the Mexican train
  std::vector<std::string> tiles;   // from the engine outwards, "12-5" "5-3" ...
  int end_pip = 0;                  // the pip to match
  bool marker = false;
  bool open_double = false;         // ends in a double nobody has played on yet
  std::string Name() const;         // "train 2" or "mexican"
};

class MexicanTrainView : public View {
 public:
  int engine = 0;                         // the round's engine pip
  int rounds = 0;
  std::vector<TrainView> trains;          // seats' trains, then the Mexican train
  std::vector<std::string> open_doubles;  // trains with an open double, in the order played
  std::string blocking;                   // the train every seat must play on now, or ""
  int doubles_this_turn = 0;              // by the seat to play, in this turn
  bool must_follow_double = false;        // the seat to play owes a play after a double
  bool drew_this_turn = false;
  bool first_turn = false;                // the seat to play is on its first-turn string
  std::vector<bool> had_first_turn;       // first_turn_strings: per seat
  std::optional<trains::RoundResult> last_round;
  // Eligible train indices for `seat` at the start of a turn (own, Mexican, marked).
  std::vector<int> EligibleFor(int seat) const;

 protected:
  nlohmann::json LayoutJson() const override;
  std::string LayoutText() const override;
};

// ----- State -----

class MexicanTrainState : public trains::RoundsState {
 public:
  MexicanTrainState(std::shared_ptr<const Game> game, uint64_t seed,
                    std::shared_ptr<const std::vector<Deal>> deals);

  void LegalActions(ActionList& out) const override;
  void Apply(Action action) override;
  std::unique_ptr<State> Clone() const override;
  std::unique_ptr<State> Determinize(int seat, Rng& rng) const override;
  std::unique_ptr<View> ViewFor(int seat) const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  absl::Status ExplainIllegal(Action action) const override;
  absl::Status CheckInvariants() const override;
  std::string ToString() const override;

  // For tests and bots.
  int EndPip(int train) const { return end_pip_[train]; }
  bool HasMarker(int seat) const { return (markers_ >> seat) & 1; }
  int engine() const { return engine_; }

 private:
  enum class Phase : uint8_t { kStart, kFollow, kString };

  bool OnFirstTurn(int seat) const {
    return mg_->first_turn_strings() && !((first_done_ >> seat) & 1);
  }
  // Trains `seat` may use at the start of a turn without an open double: own, Mexican, marked.
  uint16_t Eligible(int seat) const;
  // The first open double that restricts play (kNobody-like -1 when none).
  int BlockingDouble() const;
  bool IsDead(int train) const;
  // Trains the current seat may play on now.
  uint16_t Targets() const;
  // Trains `seat` could play on at the start of its turn; kAllUp counts every train as
  // marked (the block check: every seat unable to play will put its marker up).
  enum class Markers : uint8_t { kAsTheyAre, kAllUp };
  uint16_t StartTargets(int seat, Markers markers = Markers::kAsTheyAre) const;
  bool CanPlayOn(const TileMask& hand, uint16_t targets) const;
  bool PlayAllowed(int tile, int train) const;
  bool OpenContains(int train) const;

  void StartRound(int round);
  // engine_from_hands: picks the round's engine, takes it from its holder's hand (after the
  // all-draw when nobody holds one) and gives the holder the turn.
  void ChooseEngineFromHands();
  void ApplyPlay(int tile, int train);
  void EndTurn();
  void EndRound(trains::RoundEnd why);
  void BuildTrains(MexicanTrainView& view) const;

  const MexicanTrainGame* mg_;
  TileMask placed_;
  std::array<int8_t, kNumTrains> end_pip_{};
  std::array<uint8_t, kNumTrains> length_{};
  std::array<std::array<uint8_t, 2>, kMaxTiles> plays_{};  // {tile, train} in order
  std::array<int8_t, kNumTrains> open_{};                 // trains with an open double, in order
  std::array<int8_t, kNumTrains> turn_doubles_{};         // trains doubled this turn, in order
  int16_t num_plays_ = 0;
  uint16_t markers_ = 0;     // bit per seat
  uint16_t used_engines_ = 0;  // engine_from_hands: bit per pip, doubles that were the engine
  uint16_t first_done_ = 0;  // bit per seat: its first turn of the round is over
  int8_t num_open_ = 0;
  int8_t num_turn_doubles_ = 0;
  int8_t engine_ = 0;
  int8_t out_seat_ = kNobody;  // first_turn_strings: who went out while first turns remain
  Phase phase_ = Phase::kStart;
  // The tile drawn for the current obligation (turn start or a double), or -1. Sheet 000:
  // "draw a tile and play it if you can": once a seat has drawn, only that tile may be played.
  int8_t drawn_ = -1;
  bool drew() const { return drawn_ >= 0; }
};

}  // namespace boneyard::mexican_train

#endif  // BONEYARD_ENGINE_GAMES_MEXICAN_TRAIN_MEXICAN_TRAIN_H_
