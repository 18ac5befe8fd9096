// Moon — three-handed trick-taking with a widow.
//
// Rules as implemented (the MOON sections of sheets 001, 003, 004 and the Moon ruling in
// shared/rules/README.md; every choice is written out in docs/rules/moon.md):
//   * 22 tiles: a double-6 set without the blanks, except the double-blank. 3 players, each
//     for themselves, draw 7; the 22nd tile is the widow, face down.
//   * Seat 0 shakes round 1, the shaker moves clockwise; bidding starts left of the shaker.
//     Each player bids once: "pass", or 4 to 7 tricks, each bid higher than the last; after a
//     7 only "bid 21" (shoot the moon: all 7 tricks) may follow; 21 ends the bidding at once.
//     All pass: the next shaker redeals (a new round).
//   * The bidder takes the widow into hand (8 tiles, seen only by the bidder), names trumps
//     ("trump 4"; "trump none" with the option no_trump), then discards one tile face down
//     ("discard 6-4"; the widow itself may be discarded) and leads the first trick.
//   * Suits, ranks, following and trick winners as in Forty-Two (engine/games/tricks); no
//     counts; 7 tricks of 3 tiles, each worth 1 point.
//   * Made (the bidder took at least the bid; 21 needs all 7): everyone scores a point per
//     trick taken, a made 21 scores 21. Set: the bidder loses the bid (scores may go negative),
//     the others still score their tricks.
//   * Game to `target` (21): when one or more players reach it after a hand, the bidder wins if
//     among them, else the higher score (ranked first by State::Ranks, overridden).
//   * Not in the sheets: option `max_hands` (0, no limit) ends a match that has lasted that
//     many hands; the highest score wins. Off by default, as the ruling is "game to 21" and
//     "all pass: redeal": a match ends only when someone reaches the target. The option stays
//     so that records made with a limit replay as they were played. The game's bots end their
//     matches (its `random` bot bids sanely: about 14 hands a match), but uniformly random
//     moves bid recklessly, sink below zero and mostly never reach 21, so callers that play
//     them bound the match themselves (`boneyard simulate --max-actions`, the tests).
//
// Action codes: a tile id (0..27) plays it; kDiscardBase + id discards it; kPass; kBidBase +
// tricks (104..107, 121); kTrumpBase + pip (300..306), kTrumpNone. Legal actions come in that
// order.
#ifndef BONEYARD_ENGINE_GAMES_MOON_MOON_H_
#define BONEYARD_ENGINE_GAMES_MOON_MOON_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/bots/bot.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/games/tricks/trick_view.h"
#include "engine/games/tricks/tricks.h"

namespace boneyard::moon {

inline constexpr int kSeats = 3;
inline constexpr int kHandSize = 7;
inline constexpr int kTricks = 7;
inline constexpr int kNumTiles = 22;
inline constexpr int kShootTheMoon = 21;

// The 22 tiles: every double-6 tile but the six with a blank other than the double-blank.
inline constexpr tricks::Hand kMoonTiles = [] {
  tricks::Hand m = 0;
  for (int id = 0; id < tricks::kSetTiles; ++id) {
    if (tricks::TileLo(id) != 0 || tricks::TileHi(id) == 0) m |= tricks::Bit(id);
  }
  return m;
}();

inline constexpr Action kDiscardBase = 32;  // + tile id
inline constexpr Action kPass = 100;
inline constexpr Action kBidBase = 100;  // + tricks: 4..7, 21
inline constexpr Action kTrumpBase = 300;  // + pip
inline constexpr Action kTrumpNone = 307;

constexpr bool IsPlay(Action a) { return a < tricks::kSetTiles; }
constexpr bool IsDiscard(Action a) { return a >= kDiscardBase && a < kDiscardBase + tricks::kSetTiles; }
constexpr bool IsBid(Action a) { return a > kBidBase && a < kTrumpBase; }
constexpr bool IsTrump(Action a) { return a >= kTrumpBase && a <= kTrumpNone; }

GameSpec Spec();

struct Options {
  int target = 21;
  bool no_trump = false;
  int max_hands = 0;  // 0: no limit (the sheets); n: the match ends after n hands
};

class MoonGame : public Game {
 public:
  MoonGame(Rules rules, Options options);
  absl::Status ValidateDeal(int round, const Deal& deal) const override;
  const Options& options() const { return options_; }

 protected:
  std::unique_ptr<State> MakeState(uint64_t seed,
                                   std::shared_ptr<const std::vector<Deal>> deals) const override;

 private:
  Options options_;
};

// ----- View -----

struct MoonHandResult {
  int round = 0;
  int bidder = kNobody;  // kNobody when all passed
  int bid = 0;           // tricks bid (21: shoot the moon)
  std::string trump;     // "trump 4", "trump none"
  std::array<int, kSeats> tricks{};  // tricks each seat took
  bool made = false;
  std::array<int, kSeats> scored{};  // points each seat scored (the bidder's may be negative)
};

class MoonView : public View {
 public:
  enum class Phase { kBidding, kDeclaring, kDiscarding, kPlaying, kOver };
  Phase phase = Phase::kBidding;
  int shaker = 0;
  std::vector<std::pair<int, int>> bids;  // (seat, tricks bid or 0 for a pass), in order
  int bidder = kNobody;                   // the high bidder so far
  int bid = 0;                            // its bid (0: none)
  bool widow_taken = false;
  std::optional<Tile> discard;  // only in the bidder's own view
  int trump = tricks::kNoTrump;  // once named (kNoTrump also before)
  bool trump_named = false;
  tricks::TrickRules rules;
  std::vector<tricks::TrickView> tricks;  // no points: Moon counts tricks
  tricks::TrickView trick;
  std::array<int, kSeats> tricks_taken{};
  std::vector<std::vector<int>> void_suits;
  std::optional<MoonHandResult> last_hand;
  int target = 21;

 protected:
  nlohmann::json LayoutJson() const override;
  std::string LayoutText() const override;
};

// ----- State -----

class MoonState : public State {
 public:
  MoonState(std::shared_ptr<const Game> game, uint64_t seed,
            std::shared_ptr<const std::vector<Deal>> deals);

  int CurrentSeat() const override { return terminal_ ? kNobody : current_; }
  bool IsTerminal() const override { return terminal_; }
  void LegalActions(ActionList& out) const override;
  void Apply(Action action) override;
  int Round() const override { return round_; }
  std::vector<int> Scores() const override { return {scores_[0], scores_[1], scores_[2]}; }
  std::vector<int> Ranks() const override;
  Deal CurrentDeal() const override;
  std::unique_ptr<State> Clone() const override { return std::make_unique<MoonState>(*this); }
  std::unique_ptr<View> ViewFor(int seat) const override;
  std::unique_ptr<State> Determinize(int seat, Rng& rng) const override;
  TileMask HiddenFrom(int seat) const override;
  std::string ActionToString(Action action) const override;
  // A discard is face down: "discard", without the tile.
  std::string PublicActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  absl::Status ExplainIllegal(Action action) const override;
  absl::Status CheckInvariants() const override;
  std::string ToString() const override;
  nlohmann::json ResultDetails() const override;

  // For tests and bots.
  tricks::Hand hand(int seat) const { return hands_[seat]; }
  int widow() const { return deck_[kSeats * kHandSize]; }
  int discard() const { return discard_; }
  int winner() const { return winner_; }

 private:
  enum class Phase : uint8_t { kBidding, kDeclaring, kDiscarding, kPlaying };

  void StartRound(int round);
  void ApplyBid(Action action);
  void EndBidding();
  void ApplyPlay(int tile);
  void EndHand();
  MoonHandResult MakeResult() const;
  // The seat with the highest score, or kNobody when several share it (they share rank 1).
  int8_t SoleHighest() const;
  // Tiles the seats and the widow slot still hide (not played, not discarded).
  tricks::Hand Unplayed() const;

  const MoonGame* game_;
  std::shared_ptr<const std::vector<Deal>> deals_;
  uint64_t seed_;
  tricks::TrickRules rules_;
  std::array<tricks::Hand, kSeats> hands_{};
  std::array<tricks::Hand, kSeats> excluded_{};  // tiles each seat has shown it cannot hold
  std::array<uint8_t, kSeats> voids_{};
  std::array<uint8_t, kNumTiles> deck_{};  // hands in blocks of 7, then the widow
  std::array<tricks::Trick, kTricks> tricks_{};
  std::array<int8_t, kTricks> trick_winner_{};
  std::array<int8_t, kSeats> tricks_taken_{};
  std::array<int32_t, kSeats> scores_{};
  std::array<int8_t, kSeats> said_{};  // tricks bid this hand, 0 for a pass, -1 not yet
  std::array<int8_t, kSeats> order_{};  // who spoke, in order
  MoonHandResult last_;
  bool has_last_ = false;
  int32_t round_ = 0;  // hands may repeat without end (all-pass redeals, sinking scores)
  int8_t spoken_ = 0;
  int8_t bid_ = 0;
  int8_t bidder_ = kNobody;
  int8_t trump_ = tricks::kNoTrump;
  bool trump_named_ = false;
  bool widow_taken_ = false;
  int8_t discard_ = -1;
  int8_t shaker_ = 0;
  int8_t current_ = 0;
  int8_t num_tricks_ = 0;
  int8_t winner_ = kNobody;
  Phase phase_ = Phase::kBidding;
  bool terminal_ = false;
};

// ----- Bots -----

// The tricks `hand` (7 or 8 tiles) may expect to take with `trump` as trumps (0..7).
int EstimateTricks(tricks::Hand hand, int trump);
// The trump pip with the highest estimate (ties: the longer suit, then the lower pip).
int BestTrump(tricks::Hand hand);

// Bids the estimate of its best suit (21 with a sure 7), names that suit, discards its least
// useful tile, pulls trumps as the bidder, cashes sure winners, wins tricks as cheaply as it
// can and otherwise throws its least valuable tile.
class HeuristicBot : public Bot {
 public:
  explicit HeuristicBot(uint64_t) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
};

// Bids 4 half the time with 3+ tiles of one suit (never 21), names its longest suit, discards
// and plays uniformly at random.
class SaneRandomBot : public Bot {
 public:
  explicit SaneRandomBot(uint64_t seed) : rng_(seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;

 private:
  Rng rng_;
};

void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::moon

#endif  // BONEYARD_ENGINE_GAMES_MOON_MOON_H_
