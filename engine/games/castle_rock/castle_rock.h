// Castle Rock — domino solitaire.
//
// Rules as implemented (sheets 000, 001, 003, 004 and shared/rules/README.md; the full text
// with every ruling is docs/rules/castle_rock.md):
//   * One player, one double-N set (N = `set`, 6..18, default 6; the sheets name 6, 9, 12, 15
//     and 18). Every tile is shuffled face down into the bone pile; three are drawn face up
//     into a row, left to right.
//   * Two tiles "match" when they share a number.
//   * Option 1: when the tiles on either side of a tile match, that middle tile may be
//     removed ("take i", i the 1-based position of the middle tile).
//   * Option 2: three adjacent tiles that all share one number may be removed together
//     ("take i-j", j = i+2).
//   * When any removal exists the player must make one (choosing which); otherwise the next
//     tile of the pile is drawn to the right end of the row ("draw").
//   * An empty row with tiles left in the pile draws three (or what is left) automatically.
//   * The game ends when the pile is empty and no removal exists. It is won when two or fewer
//     tiles remain. The result is the tiles and pips remaining (lower is better).
//
// Rule options: players (1), set (6..18, default 6). Presets: double-6, double-9, double-12,
// double-15, double-18.
//
// Action codes: take i → i-1 (0-based middle position); take i-(i+2) → kTripleBase + i-1;
// draw → kDraw. That order is the order of legal actions.
#ifndef BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_H_
#define BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/registry.h"

namespace boneyard::castle_rock {

inline constexpr Action kTripleBase = 256;
inline constexpr Action kDraw = 512;

GameSpec Spec();

class CastleRockGame : public Game {
 public:
  CastleRockGame(Rules rules, TileSet set);
  absl::Status ValidateDeal(int round, const Deal& deal) const override;

  // Bit p set when tile `id` has pip p: two tiles match when their masks intersect.
  uint32_t PipMask(int id) const { return pip_mask_[id]; }

 protected:
  std::unique_ptr<State> MakeState(uint64_t seed,
                                   std::shared_ptr<const std::vector<Deal>> deals) const override;

 private:
  std::array<uint32_t, kMaxTileIds> pip_mask_{};
};

class CastleRockView : public View {
 public:
  std::vector<Tile> row;  // left to right

 protected:
  nlohmann::json LayoutJson() const override;
  std::string LayoutText() const override;
};

class CastleRockState : public State {
 public:
  CastleRockState(std::shared_ptr<const Game> game, uint64_t seed,
                  std::shared_ptr<const std::vector<Deal>> deals);

  int CurrentSeat() const override { return terminal_ ? kNobody : 0; }
  bool IsTerminal() const override { return terminal_; }
  void LegalActions(ActionList& out) const override;
  void Apply(Action action) override;
  int Round() const override { return 0; }
  std::vector<int> Scores() const override;
  Deal CurrentDeal() const override;
  std::unique_ptr<State> Clone() const override;
  std::unique_ptr<View> ViewFor(int seat) const override;
  std::unique_ptr<State> Determinize(int seat, Rng& rng) const override;
  TileMask HiddenFrom(int seat) const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  absl::Status ExplainIllegal(Action action) const override;
  absl::Status CheckInvariants() const override;
  std::string ToString() const override;
  nlohmann::json ResultDetails() const override;

  // For bots and tests.
  int row_size() const { return row_len_; }
  int pile_left() const { return pile_size_ - next_; }
  int PipsLeft() const;

 private:
  bool Matches(int a, int b) const { return (crg_->PipMask(a) & crg_->PipMask(b)) != 0; }
  bool AllShare(int a, int b, int c) const {
    return (crg_->PipMask(a) & crg_->PipMask(b) & crg_->PipMask(c)) != 0;
  }
  bool HasRemoval() const;
  bool HasRemovalAnywhere() const;
  void DrawOne();
  void Settle();  // refill an empty row, then decide whether the game is over

  const CastleRockGame* crg_;  // kept alive by State's shared_ptr
  std::array<uint8_t, kMaxTileIds> pile_;       // shuffled set, first drawn first
  std::array<uint8_t, kMaxTileIds> row_;
  int pile_size_ = 0;
  int next_ = 0;  // index of the next tile to draw
  int row_len_ = 0;
  bool terminal_ = false;
};

}  // namespace boneyard::castle_rock

#endif  // BONEYARD_ENGINE_GAMES_CASTLE_ROCK_CASTLE_ROCK_H_
