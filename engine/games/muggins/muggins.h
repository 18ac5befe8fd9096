// Muggins (All Fives) — block-and-draw dominoes scored in multiples of five.
//
// Rules as implemented (sheets 000 and 001, which carry the same text, and the rulings in
// shared/rules/README.md; the full text with every choice is docs/rules/muggins.md):
//   * A double-6 set (28 tiles). 2 players draw 7 tiles each, 3 or 4 players draw 5; the rest
//     is the boneyard, drawn first to last. With 4 players, `teams` makes partners of the
//     seats opposite each other: {0,2} and {1,3}.
//   * Seat 0 starts round 1; the starter moves to the next seat (clockwise = seat+1) each
//     round. The starter plays any tile ("6-4"); play then goes clockwise.
//   * Later plays put a tile matching an open end: "left" or "right" (the line's ends), "up"
//     or "down" (the spinner's sides). A player who can play must; one who cannot draws
//     ("draw") and keeps drawing until a drawn tile fits (then must play it) or the boneyard
//     is empty; with nothing to play and an empty boneyard the player passes ("pass").
//   * The first double played is the spinner (even when it is the first tile). Its up and
//     down sides open only after its left and right both have a tile. Later doubles are
//     placed sideways and count both halves while they are an open end.
//   * The count after a turn is the sum of the open ends: a lone first tile counts both ends
//     (5-5 alone = 10, 3-2 = 5); a double at the end of the line or of an arm counts both
//     halves (the spinner too while its left or right is empty); up and down count only once
//     played on. A positive multiple of five is scored by the player (team) at once.
//   * A round ends when a player dominoes (plays the last tile) or when the game is blocked
//     (boneyard empty and no seat can play; detected at once, nobody passes pointlessly).
//     Domino: the player adds the opponents' pips (partner's excluded). Blocked: the player
//     or team with the lowest pip sum adds the opponents' sum; a tie for lowest scores
//     nothing. The added sum is rounded once to the nearest five (12 → 10, 13 → 15).
//   * The first player or team to reach `target` wins at once, even mid-round.
//   * With `claim_scoring` a scoring play must be claimed ("5-3 right claim"). An unclaimed
//     score may be stolen by the next seat to act, before anything else in its turn
//     ("muggins"); otherwise it is lost. If the unclaimed play ended the round, nobody can
//     call muggins: the points are lost.
//
// Rule options: players (2..4, default 2), teams (false; players=4 only), target (50..1000,
// default 250), claim_scoring (false). Presets: two-player, three-player, four-player,
// partners (4 players in teams), quick (target 100).
//
// Action codes: a play is tile_id*16 + end*2 + claim, with end 0 = the opening play, 1 left,
// 2 right, 3 up, 4 down; then kDraw, kPass, kMuggins. Legal actions come in that order.
#ifndef BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_H_
#define BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_H_

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/registry.h"

namespace boneyard::muggins {

inline constexpr int kTiles = 28;  // double-6
inline constexpr int kPips = 7;    // 0..6
inline constexpr int kMaxPlayers = 4;
inline constexpr uint32_t kAllTiles = (uint32_t{1} << kTiles) - 1;

// ----- Tiles by id (double-6 ids: hi*(hi+1)/2 + lo) -----

struct TileTables {
  std::array<uint8_t, kTiles> hi{};
  std::array<uint8_t, kTiles> lo{};
  std::array<uint32_t, kPips> with_pip{};  // tiles holding pip p
};

inline constexpr TileTables kTileTables = [] {
  TileTables t;
  int id = 0;
  for (int hi = 0; hi < kPips; ++hi) {
    for (int lo = 0; lo <= hi; ++lo, ++id) {
      t.hi[id] = static_cast<uint8_t>(hi);
      t.lo[id] = static_cast<uint8_t>(lo);
      t.with_pip[hi] |= uint32_t{1} << id;
      t.with_pip[lo] |= uint32_t{1} << id;
    }
  }
  return t;
}();

constexpr int TileHi(int id) { return kTileTables.hi[id]; }
constexpr int TileLo(int id) { return kTileTables.lo[id]; }
constexpr int TilePips(int id) { return TileHi(id) + TileLo(id); }
constexpr bool TileIsDouble(int id) { return TileHi(id) == TileLo(id); }
constexpr bool TileHas(int id, int pip) { return TileHi(id) == pip || TileLo(id) == pip; }
constexpr uint32_t TilesWithPip(int pip) { return kTileTables.with_pip[pip]; }
// Tiles holding any pip of the 7-bit `pips` mask.
constexpr uint32_t TilesWithAnyPip(uint32_t pips) {
  uint32_t tiles = 0;
  for (; pips; pips &= pips - 1) tiles |= TilesWithPip(std::countr_zero(pips));
  return tiles;
}
inline Tile TileOf(int id) { return Tile(TileHi(id), TileLo(id)); }
inline int IdOf(const Tile& t) { return t.BaseId(); }
constexpr int HandPips(uint32_t hand) {
  int pips = 0;
  for (; hand; hand &= hand - 1) pips += TilePips(std::countr_zero(hand));
  return pips;
}

// ----- Actions -----

enum End : uint8_t { kOpening = 0, kLeft = 1, kRight = 2, kUp = 3, kDown = 4 };
inline constexpr int kNumEnds = 5;

inline constexpr Action kDraw = 1000;
inline constexpr Action kPass = 1001;
inline constexpr Action kMuggins = 1002;

constexpr Action PlayAction(int tile, End end, bool claim) {
  return static_cast<Action>(tile * 16 + end * 2 + (claim ? 1 : 0));
}
constexpr bool IsPlay(Action a) { return a < kTiles * 16; }
constexpr int ActionTile(Action a) { return static_cast<int>(a >> 4); }
constexpr End ActionEnd(Action a) { return static_cast<End>((a >> 1) & 7); }
constexpr bool ActionClaims(Action a) { return (a & 1) != 0; }

const char* EndName(End end);  // "left", ...; "" for the opening

// Points a count scores: itself when a positive multiple of five, else nothing.
constexpr int CountScore(int count) { return count > 0 && count % 5 == 0 ? count : 0; }
// Rounded once to the nearest five: remainders 0-2 down, 3-4 up (12 → 10, 13 → 15).
constexpr int RoundToFive(int pips) { return (pips + 2) / 5 * 5; }

// ----- The layout -----

// The public table as far as play and counting need it: the four ends, the spinner and how
// many tiles are down. Small and trivially copyable, so "what would the count be if" is a
// copy and a Place (CountAfter). The tiles themselves, for display, are kept by the state.
class Layout {
 public:
  int tiles() const { return tiles_; }
  bool empty() const { return tiles_ == 0; }
  bool has_spinner() const { return spinner_pip_ >= 0; }
  int spinner_pip() const { return spinner_pip_; }
  // Up and down open once the spinner has a tile on its left and on its right.
  bool arms_open() const { return spinner_pip_ >= 0 && spinner_at_ == 0; }
  // Whether `end` may be played on now (kOpening: only on the empty table).
  bool IsOpen(End end) const {
    switch (end) {
      case kOpening: return tiles_ == 0;
      case kLeft:
      case kRight: return tiles_ > 0;
      default: return arms_open();
    }
  }
  // The pip an open end shows (for up/down before they are played on: the spinner's pip).
  int Pip(End end) const { return pip_[end]; }
  // The tile at this end is a double (counts both halves).
  bool EndIsDouble(End end) const { return (doubles_ >> end) & 1; }
  // Up or down has been played on (only then does it count).
  bool ArmPlayed(End end) const { return (played_ >> end) & 1; }
  // The spinner is the tile at this line end (its outer side still empty).
  bool SpinnerAt(End end) const { return (spinner_at_ >> end) & 1; }
  // Pips (7-bit mask) of the ends that may be played on.
  uint32_t OpenPips() const { return open_pips_; }
  // Tiles that would fit some open end (every tile before the opening play).
  uint32_t PlayableTiles() const { return playable_; }
  bool Fits(int tile, End end) const {
    return IsOpen(end) && (end == kOpening || TileHas(tile, pip_[end]));
  }

  // The count: the sum of the open ends as the rules define it.
  int Count() const;
  // Puts `tile` on `end`; it must fit (Fits).
  void Place(int tile, End end);
  // The count after placing `tile` on `end` (it must fit); the layout is unchanged.
  int CountAfter(int tile, End end) const {
    Layout after = *this;
    after.Place(tile, end);
    return after.Count();
  }

  friend bool operator==(const Layout&, const Layout&) = default;

 private:
  int HalfOrBoth(End end) const { return EndIsDouble(end) ? 2 * pip_[end] : pip_[end]; }
  void Refresh();

  std::array<int8_t, kNumEnds> pip_{};  // indexed by End; [kOpening] unused
  uint8_t doubles_ = 0;                 // bit per End: the end's tile is a double
  uint8_t played_ = 0;                  // bit kUp/kDown: that arm has a tile
  uint8_t spinner_at_ = 0;              // bit kLeft/kRight: that line end is the spinner
  int8_t spinner_pip_ = -1;
  uint8_t tiles_ = 0;
  uint8_t open_pips_ = 0;
  uint32_t playable_ = kAllTiles;
};

// ----- Game -----

GameSpec Spec();

class MugginsGame : public Game {
 public:
  MugginsGame(Rules rules, int players, bool teams);
  absl::Status ValidateDeal(int round, const Deal& deal) const override;

  int players() const { return players_; }
  int hand_size() const { return hand_size_; }
  bool team_play() const { return team_play_; }
  int target() const { return target_; }
  bool claim_scoring() const { return claim_scoring_; }
  // Score keeping is per side: a team in team play, else a seat.
  int SideOf(int seat) const { return side_of_[seat]; }
  int num_sides() const { return num_sides_; }

 protected:
  std::unique_ptr<State> MakeState(uint64_t seed,
                                   std::shared_ptr<const std::vector<Deal>> deals) const override;

 private:
  int players_;
  int hand_size_;
  bool team_play_;
  int target_;
  bool claim_scoring_;
  int num_sides_;
  std::array<int, kMaxPlayers> side_of_{};
};

// ----- View -----

// A tile as it lies: `first` is the pip nearer the left end of the line (or, on an arm, the
// spinner), so neighbours in the line touch with equal pips.
struct PlacedTile {
  int first = 0;
  int second = 0;
  std::string ToString() const;  // "4-6"
  friend bool operator==(const PlacedTile&, const PlacedTile&) = default;
};

enum class RoundEnd { kDomino, kBlocked };

// How the last finished round was scored.
struct RoundResult {
  int round = 0;                // 0-based
  RoundEnd ended_by = RoundEnd::kDomino;
  int seat = kNobody;           // who dominoed / had the lowest sum; kNobody on a tie
  std::vector<int> pips;        // per seat, left in hand
  std::vector<int> points;      // per seat, added to its score (a team's on each member)
};

class MugginsView : public View {
 public:
  Layout layout;                   // ends, spinner and count, for bots
  std::vector<PlacedTile> line;    // left to right
  int spinner_index = -1;          // position of the spinner in `line`, -1 when none
  std::vector<PlacedTile> up;      // from the spinner outwards
  std::vector<PlacedTile> down;
  std::vector<std::vector<int>> void_pips;  // per seat: pips it cannot hold (see docs)
  int unclaimed_points = 0;        // claim_scoring: a score the seat to play may steal
  int unclaimed_by = kNobody;      // who left it unclaimed
  std::optional<RoundResult> last_round;
  int target = 0;
  bool claim_scoring = false;

  int count() const { return layout.Count(); }

 protected:
  nlohmann::json LayoutJson() const override;
  std::string LayoutText() const override;
};

// ----- State -----

class MugginsState : public State {
 public:
  MugginsState(std::shared_ptr<const Game> game, uint64_t seed,
               std::shared_ptr<const std::vector<Deal>> deals);

  int CurrentSeat() const override { return terminal_ ? kNobody : current_; }
  bool IsTerminal() const override { return terminal_; }
  void LegalActions(ActionList& out) const override;
  void Apply(Action action) override;
  int Round() const override { return round_; }
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
  const Layout& layout() const { return layout_; }
  uint32_t hand(int seat) const { return hands_[seat]; }
  int boneyard_count() const { return kTiles - next_draw_; }
  int unclaimed_points() const { return pending_points_; }
  // The score the current seat would make by playing `tile` on `end` (it must fit).
  int ScoreOf(int tile, End end) const { return CountScore(layout_.CountAfter(tile, end)); }
  // Pips each seat cannot hold, as a 7-bit mask (public: the ends at its last draw or pass).
  uint32_t VoidPips(int seat) const { return voids_[seat]; }

 private:
  struct LastRound {
    bool valid = false;
    RoundEnd ended_by = RoundEnd::kDomino;
    int8_t seat = kNobody;
    int16_t round = 0;
    std::array<int16_t, kMaxPlayers> pips{};
    std::array<int16_t, kMaxPlayers> points{};  // per side
  };
  enum class MatchEnd : uint8_t { kNone, kCount, kMuggins, kDomino, kBlocked };

  int NextSeat(int seat) const { return seat + 1 == players_ ? 0 : seat + 1; }
  uint32_t AllHands() const { return hands_[0] | hands_[1] | hands_[2] | hands_[3]; }
  bool BoneyardEmpty() const { return next_draw_ == kTiles; }
  bool Blocked() const { return BoneyardEmpty() && (AllHands() & layout_.PlayableTiles()) == 0; }
  uint32_t Boneyard() const;

  void StartRound(int round);
  void ApplyPlay(Action action);
  // Adds points to a side; the match ends when the side reaches the target.
  void Award(int side, int points, MatchEnd why);
  void EndRound(RoundEnd why, int seat);
  void ScoreDomino(int seat, LastRound& result);
  void ScoreBlocked(LastRound& result);

  // Display and explanation helpers.
  void BuildLine(MugginsView& view) const;
  std::optional<Action> SomePlay() const;  // a legal play of the current seat, if any
  absl::Status ExplainPlay(Action action) const;

  const MugginsGame* mg_;  // kept alive by State's shared_ptr
  std::shared_ptr<const std::vector<Deal>> deals_;
  uint64_t seed_;
  Layout layout_;
  std::array<uint32_t, kMaxPlayers> hands_{};
  std::array<int32_t, kMaxPlayers> scores_{};  // per side
  std::array<uint8_t, kTiles> deck_{};   // this round's deal: hands in blocks, then boneyard
  std::array<uint8_t, kTiles> plays_{};  // tile | end << 5, in the order played
  std::array<uint8_t, kMaxPlayers> voids_{};
  LastRound last_;
  int32_t round_ = 0;  // blocked rounds that score nothing may repeat without end
  int16_t pending_points_ = 0;  // unclaimed score the current seat may steal
  int8_t pending_by_ = kNobody;
  int8_t players_ = 2;
  int8_t current_ = 0;
  int8_t next_draw_ = 0;  // index in deck_ of the next boneyard tile
  int8_t num_plays_ = 0;
  // The current seat has drawn this turn: its last drawn tile may fit (it must then play
  // it), so the void recorded at the draw does not cover that one tile yet.
  bool drew_on_turn_ = false;
  bool terminal_ = false;
  MatchEnd match_end_ = MatchEnd::kNone;
};

}  // namespace boneyard::muggins

#endif  // BONEYARD_ENGINE_GAMES_MUGGINS_MUGGINS_H_
