// The shared core of the "train" family (Mexican Train, Chickenfoot): big sets up to
// double-12, up to eight players, one round per double counting down, a centre double out of
// the deal, hands as tile masks, a boneyard drawn first to last, pip scoring with the lowest
// total winning. The games differ in where tiles go (trains and markers; feet and toes); what
// they share lives here so neither copies it:
//   * tile tables up to double-12 (ids hi*(hi+1)/2 + lo, the engine's nested ids);
//   * the deal tables of the rule sheets (000, 002, 003, 004) by set and player count;
//   * RoundDeck: one round's deal, hands, draws, what a seat may not see, and the
//     determinization redeal (hidden hands and boneyard dealt anew, counts kept);
//   * RoundsGame: the Game base that knows the set, players, hand size, rounds and each
//     round's centre double, and validates deals against them;
//   * RoundResult: how a finished round was scored, for views and records.
#ifndef BONEYARD_ENGINE_GAMES_TRAINS_TRAINS_H_
#define BONEYARD_ENGINE_GAMES_TRAINS_TRAINS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/rules.h"
#include "engine/core/rng.h"
#include "engine/core/tile_mask.h"

namespace boneyard::trains {

inline constexpr int kMaxSeats = 8;
inline constexpr int kMaxSetPip = 12;
inline constexpr int kMaxTiles = DistinctTiles(kMaxSetPip);  // 91

// ----- Tiles by id -----

struct TileTables {
  std::array<uint8_t, kMaxTiles> hi{};
  std::array<uint8_t, kMaxTiles> lo{};
  std::array<TileMask, kMaxSetPip + 1> with_pip{};
};

// Built at compile time, so the hot paths (legal moves) read plain constants rather than
// pass a function-local static's guard on every lookup.
constexpr TileTables MakeTileTables() {
  TileTables t;
  int id = 0;
  for (int hi = 0; hi <= kMaxSetPip; ++hi) {
    for (int lo = 0; lo <= hi; ++lo, ++id) {
      t.hi[id] = static_cast<uint8_t>(hi);
      t.lo[id] = static_cast<uint8_t>(lo);
      t.with_pip[hi].Set(id);
      t.with_pip[lo].Set(id);
    }
  }
  return t;
}
inline constexpr TileTables kTileTables = MakeTileTables();
constexpr const TileTables& Tables() { return kTileTables; }
inline int TileHi(int id) { return Tables().hi[id]; }
inline int TileLo(int id) { return Tables().lo[id]; }
inline int TilePips(int id) { return TileHi(id) + TileLo(id); }
inline bool TileIsDouble(int id) { return TileHi(id) == TileLo(id); }
inline bool TileHas(int id, int pip) { return TileHi(id) == pip || TileLo(id) == pip; }
inline int TileOther(int id, int pip) { return TileHi(id) == pip ? TileLo(id) : TileHi(id); }
inline const TileMask& TilesWithPip(int pip) { return Tables().with_pip[pip]; }
inline constexpr int DoubleId(int pip) { return pip * (pip + 1) / 2 + pip; }
inline Tile TileOf(int id) { return Tile(TileHi(id), TileLo(id)); }
std::string TileName(int id);
// "5-3" with `first` written first (the pip nearer the train's start).
std::string PlacedName(int id, int first);
int MaskPips(const TileMask& mask);

// ----- Deal tables -----

enum class DealTable {
  kSheet000,  // Chickenfoot and Mexican Train: double-9 2..6 players, double-12 4..8
  kSheet003,  // Chickenfoot double-9 2..8 (sheet 000's figures, and 5 each for 7 or 8)
  kSheet004,  // Mexican Train, double-12, 2..8: 16 15 14 12 11 10 9
  kSheet002,  // house rules, double-12 (engine in the hands), 2..8: 15 15 15 14 12 10 9
  kSheet002Removal,  // house rules' alternative: sets double-7..11 for 2..6 players, 10 each
};

// Tiles each player draws, or 0 where the sheet has no entry ("X").
int HandSize(DealTable table, int max_pip, int players);
// The set the removal table uses for `players` (2 → double-7 ... 6 → double-11), else -1.
int RemovalSet(int players);

// ----- One round's tiles -----

// The deal in the order dealt (hands in blocks, then the boneyard, drawn first to last), the
// hands as masks and how far the boneyard has been drawn. Small and copyable.
class RoundDeck {
 public:
  // Deals `tiles` (the round's tiles, the centre double already out) to `players` hands of
  // `hand_size`: from `deal` when given (already validated), else shuffled with `seed` from id
  // order.
  void Start(const TileMask& tiles, int players, int hand_size, const Deal* deal, uint64_t seed);

  const TileMask& hand(int seat) const { return hands_[seat]; }
  int hand_count(int seat) const { return counts_[seat]; }
  int boneyard_count() const { return size_ - next_draw_; }
  bool boneyard_empty() const { return next_draw_ == size_; }
  int players() const { return players_; }
  int size() const { return size_; }
  TileMask Boneyard() const;
  int HandPips(int seat) const { return MaskPips(hands_[seat]); }

  // Moves the next boneyard tile to `seat`'s hand and returns it.
  int Draw(int seat);
  // Takes a tile out of `seat`'s hand (it is played).
  void Take(int seat, int id);
  // The deal as dealt at the start of the round.
  Deal OriginalDeal() const;
  // Other hands and the boneyard; everything for a spectator.
  TileMask HiddenFrom(int seat) const;
  // Deals every tile hidden from `seat` anew (hand counts and boneyard size kept), and
  // rewrites the dealt part of the deck so it tells nothing of the true hidden hands.
  void Redeal(int seat, Rng& rng);
  // Hands, the boneyard in order and the deal, for ToString().
  std::string ToString() const;

 private:
  std::array<uint8_t, kMaxTiles> deck_{};
  std::array<TileMask, kMaxSeats> hands_{};
  std::array<uint8_t, kMaxSeats> counts_{};
  int16_t size_ = 0;
  int16_t next_draw_ = 0;
  int16_t dealt_ = 0;
  int8_t players_ = 0;
  int8_t hand_size_ = 0;
};

// ----- The game base -----

// A round-per-double game: set double-`max_pip`, `players` seats, `hand_size` tiles each,
// `rounds` rounds; round r's centre double is `max_pip - r` (out of the deal when
// `centre_out_of_deal`). Lowest total wins.
class RoundsGame : public Game {
 public:
  RoundsGame(std::string name, Rules rules, int players, int max_pip, int hand_size, int rounds,
             bool centre_out_of_deal);
  absl::Status ValidateDeal(int round, const Deal& deal) const override;

  int players() const { return players_; }
  int max_pip() const { return max_pip_; }
  int hand_size() const { return hand_size_; }
  int rounds() const { return rounds_; }
  int CentrePip(int round) const { return max_pip_ - round; }
  // The tiles dealt in round `round`. A mask, not a list: a new round starts inside Apply,
  // which allocates nothing.
  TileMask RoundTiles(int round) const;

 private:
  int players_;
  int max_pip_;
  int hand_size_;
  int rounds_;
  bool centre_out_;
};

// Checks the shared options: the hand size the table gives (or `hand_size` when positive)
// and rounds (0 = one per double). The error names the options.
absl::StatusOr<int> ResolveHandSize(absl::string_view game, DealTable table, int max_pip,
                                    int players, int hand_size_override);
absl::StatusOr<int> ResolveRounds(int max_pip, int rounds_option);

// The options every train game has: "players" (2..8, default 4), "set" (double-N, N from
// `min_set` to 12), "hand_size" (0 = the table's) and "rounds" (0 = one per double).
std::vector<OptionSpec> SharedOptions(int default_set, int min_set, std::string set_description);

// The shared options resolved: "players", "set", "hand_size" (by `table`) and "rounds".
struct RoundsSetup {
  int players = 0;
  int max_pip = 0;
  int hand_size = 0;
  int rounds = 0;
};
absl::StatusOr<RoundsSetup> ResolveSetup(absl::string_view game, const Rules& rules,
                                         DealTable table);

// An action's text as lower-case words.
std::vector<std::string> Words(absl::string_view text);

// The best of `legal` by `score(action)` (higher is better; ties keep the lowest code).
template <typename Score>
Action BestAction(std::span<const Action> legal, Score&& score) {
  Action best = legal[0];
  int best_score = score(best);
  for (Action a : legal.subspan(1)) {
    const int s = score(a);
    if (s > best_score) {
      best = a;
      best_score = s;
    }
  }
  return best;
}

// The train games' search iterations for levels 1-5 (search_bot.h SearchLevelWithIterations):
// uniform playouts stop gaining near 1,500 (docs/bots.md), so levels 1-4 sit below that and
// level 5 plays its playouts by HeavyPlayout.
inline constexpr int kSearchIterations[5] = {50, 150, 400, 1'000, 6'000};

// A playout move for the train games' search (search_bot.h PlayoutPolicy): three in four the
// play that sheds the most (`weight(action)`: what the tile would count left in hand, negative
// for an action that plays none; ties: the first), else any legal action at random. A round is
// scored by what is left in hand; a uniform playout sheds a light tile as often as a heavy one,
// so it misjudges what each hand is left holding.
template <typename Weight>
Action HeavyPlayout(std::span<const Action> legal, Rng& rng, Weight weight) {
  const Action random = legal[rng.Below(static_cast<uint32_t>(legal.size()))];
  if (legal.size() == 1 || rng.Below(4) == 0) return random;
  Action best = random;
  int best_weight = -1;
  for (Action a : legal) {
    if (const int w = weight(a); w > best_weight) {
      best = a;
      best_weight = w;
    }
  }
  return best;
}

// ----- Round results -----

enum class RoundEnd : uint8_t { kDomino, kBlocked };
const char* RoundEndName(RoundEnd e);

struct RoundResult {
  int round = 0;  // 0-based
  RoundEnd ended_by = RoundEnd::kDomino;
  int seat = kNobody;       // who dominoed (the first, if several); kNobody when blocked
  std::vector<int> pips;    // per seat, left in hand
  std::vector<int> points;  // per seat, added to its total
  nlohmann::json ToJson() const;
  std::string ToText() const;
};

// Compact per-state copy of a RoundResult.
struct LastRound {
  bool valid = false;
  RoundEnd ended_by = RoundEnd::kDomino;
  int8_t seat = kNobody;
  int16_t round = 0;
  std::array<int16_t, kMaxSeats> pips{};
  std::array<int16_t, kMaxSeats> points{};
  std::optional<RoundResult> ToResult(int players) const;
  std::string ToString(int players) const;
};

// ----- The state base -----

// What every train-family state keeps and does the same way: the round's deck, totals, the
// last round's result, whose turn it is, dealing a round, scoring it, the common view
// fields, hidden tiles and tile conservation. Games add their table and their turn.
class RoundsState : public State {
 public:
  RoundsState(std::shared_ptr<const Game> game, uint64_t seed,
              std::shared_ptr<const std::vector<Deal>> deals);

  int CurrentSeat() const override { return terminal_ ? kNobody : current_; }
  bool IsTerminal() const override { return terminal_; }
  int Round() const override { return round_; }
  std::vector<int> Scores() const override;
  Deal CurrentDeal() const override { return deck_.OriginalDeal(); }
  TileMask HiddenFrom(int seat) const override;
  nlohmann::json ResultDetails() const override;
  // Every tile hidden from `seat` dealt anew (hand counts and boneyard size kept). What a
  // seat has seen of others' hands is only their counts, so its view is unchanged.
  std::unique_ptr<State> Determinize(int seat, Rng& rng) const override;

  const TileMask& hand(int seat) const { return deck_.hand(seat); }
  int boneyard_count() const { return deck_.boneyard_count(); }

 protected:
  const RoundsGame& rounds_game() const { return *rg_; }
  int NextSeat(int seat) const { return seat + 1 == players_ ? 0 : seat + 1; }
  // Deals round `round` (from the record's deal or the seed) and gives the turn to its
  // starter (seat round % players).
  void DealRound(int round);
  // Adds each seat's pips left in hand (plus `double_blank_penalty` for holding 0-0) to its
  // total and records the result; then deals the next round or ends the match. Returns true
  // when a next round was dealt.
  bool ScoreRound(RoundEnd why, int seat, int double_blank_penalty);
  // The common view fields; legal actions only for the seat to play.
  void FillView(View& view, int seat) const;
  // Hands, boneyard and `placed` are the round's tiles exactly once each.
  absl::Status CheckTiles(const TileMask& placed, int num_placed) const;
  // Round, seat, totals, the deck and the last result, for ToString().
  std::string BaseString() const;
  // Parses a tile of this match's set; the error names the set.
  absl::StatusOr<int> ParseTileId(absl::string_view word) const;
  // Why "draw" (`is_draw`) or "pass" is illegal: `a_play` is a legal play's text, empty when
  // none; `drew` whether the seat has drawn for what it must play now.
  static absl::Status ExplainDrawOrPass(bool is_draw, const std::string& a_play, bool drew);

  std::shared_ptr<const std::vector<Deal>> deals_;
  uint64_t seed_;
  const RoundsGame* rg_;
  RoundDeck deck_;
  std::array<int32_t, kMaxSeats> scores_{};
  LastRound last_;
  int32_t round_ = 0;
  int8_t players_ = 0;
  int8_t current_ = 0;
  bool terminal_ = false;
};

}  // namespace boneyard::trains

#endif  // BONEYARD_ENGINE_GAMES_TRAINS_TRAINS_H_
