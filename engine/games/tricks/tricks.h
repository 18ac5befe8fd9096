// The trick-taking core shared by Forty-Two, Moon and Eighty-Four: suits, trumps and ranks as
// the rule sheets (001, 003, 004) define them, follow-suit, the trick winner, a bidding round
// in which each seat bids or passes once, the count dominoes, and a constrained redeal for
// determinization.
//
// Tiles are TileSet ids: a double-6 id (hi*(hi+1)/2 + lo, 0..27) plus 28 for Eighty-Four's
// second set, so a hand is a uint64_t bitset over at most 56 ids and two identical tiles
// (6-4 and 6-4') are told apart by id. Everything here is table-driven and allocation-free.
//
// Suits, as the sheets define them:
//   * Trumps are a pip (0..6), the doubles (the variant "doubles as trump": the seven doubles
//     form the trump suit, ranked by pip), or none (follow-me). A trump tile belongs only to
//     the trump suit; its other end only ranks it among the trumps.
//   * A led tile that is not a trump leads the suit of its higher end (6-4 calls sixes); a
//     double leads its own pip (or the doubles suit where doubles form a suit of their own).
//   * A tile follows a suit when it belongs to it. A player must follow suit when able, else
//     may play any tile, a trump included.
//   * Within a suit the double ranks highest, then the other end 6, 5, … 0 (the option
//     DoublesRank::kLow puts the double lowest instead, for nello).
//   * The highest trump played wins the trick, else the highest tile of the led suit; of two
//     identical tiles (Eighty-Four) the one played first ranks higher.
//   * Sevens: every tile ranks by how close its pips are to seven; the closest wins, the first
//     played on a tie; each player must play one of their tiles closest to seven.
#ifndef BONEYARD_ENGINE_GAMES_TRICKS_TRICKS_H_
#define BONEYARD_ENGINE_GAMES_TRICKS_TRICKS_H_

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string>

#include "engine/core/rng.h"
#include "engine/core/tile.h"

namespace boneyard::tricks {

inline constexpr int kSetTiles = 28;              // one double-6 set
inline constexpr int kMaxTiles = 2 * kSetTiles;   // Eighty-Four's two sets
inline constexpr int kMaxSeats = 8;
inline constexpr int kPipSuits = 7;               // suits 0..6
inline constexpr int kDoublesSuit = 7;            // the doubles, where they form a suit
inline constexpr int kNumSuits = 8;

using Hand = uint64_t;  // bit i = tile id i

constexpr Hand Bit(int id) { return Hand{1} << id; }
constexpr Hand AllTiles(int num_tiles) {
  return num_tiles >= 64 ? ~Hand{0} : (Hand{1} << num_tiles) - 1;
}

// ----- Tiles by id -----

struct TileTable {
  std::array<uint8_t, kMaxTiles> hi{};
  std::array<uint8_t, kMaxTiles> lo{};
};

inline constexpr TileTable kTileTable = [] {
  TileTable t;
  int id = 0;
  for (int copy = 0; copy < 2; ++copy) {
    for (int hi = 0; hi < kPipSuits; ++hi) {
      for (int lo = 0; lo <= hi; ++lo, ++id) {
        t.hi[id] = static_cast<uint8_t>(hi);
        t.lo[id] = static_cast<uint8_t>(lo);
      }
    }
  }
  return t;
}();

constexpr int TileHi(int id) { return kTileTable.hi[id]; }
constexpr int TileLo(int id) { return kTileTable.lo[id]; }
constexpr int TileCopy(int id) { return id >= kSetTiles ? 1 : 0; }
constexpr int TilePips(int id) { return TileHi(id) + TileLo(id); }
constexpr bool TileIsDouble(int id) { return TileHi(id) == TileLo(id); }
constexpr bool TileHas(int id, int pip) { return TileHi(id) == pip || TileLo(id) == pip; }
// Every double of both sets, as a hand: a hand's doubles are one AND away.
inline constexpr Hand kDoubleTiles = [] {
  Hand m = 0;
  for (int id = 0; id < kMaxTiles; ++id) {
    if (TileIsDouble(id)) m |= Bit(id);
  }
  return m;
}();
inline Tile TileOf(int id) { return Tile(TileHi(id), TileLo(id), TileCopy(id)); }
// The id of `t`, which must be from a double-6 set (copy 0 or 1).
inline int IdOf(const Tile& t) { return t.BaseId() + t.copy * kSetTiles; }
std::string TileName(int id);
// The tiles of `tiles` by id, separated by spaces ("6-4 5-5 3-2'").
std::string HandText(Hand tiles);

// Count dominoes: 5-5 and 6-4 are worth 10, 5-0, 4-1 and 3-2 worth 5 (35 in a set).
constexpr int CountValue(int id) {
  const int pips = TilePips(id);
  if (pips == 10) return TileIsDouble(id) || TileHi(id) == 6 ? 10 : 0;  // 5-5, 6-4
  if (pips == 5) return 5;                                              // 5-0, 4-1, 3-2
  return 0;
}
int CountPoints(Hand tiles);

// ----- Trumps and suits -----

// What a hand's trumps are.
enum TrumpKind : int8_t {
  // 0..6: that pip is trump.
  kTrumpDoubles = 7,  // the doubles are the trump suit
  kNoTrump = 8,       // follow-me: no trumps
};

enum class DoublesRank : uint8_t {
  kHigh,     // the double is the highest of its suit (the sheets)
  kLow,      // the double is the lowest of its suit (a nello option)
  kOwnSuit,  // the doubles form a suit of their own, ranked by pip (a nello option)
};

// How tiles behave for one hand: built once when trumps are named, then read by every play.
class TrickRules {
 public:
  TrickRules() = default;
  // `trump`: a pip 0..6, kTrumpDoubles or kNoTrump. `num_tiles`: 28 or 56.
  TrickRules(int trump, DoublesRank doubles, bool sevens, int num_tiles);

  int trump() const { return trump_; }
  bool sevens() const { return sevens_; }
  DoublesRank doubles() const { return doubles_; }
  // The suit the trumps form (a pip or kDoublesSuit), or -1 when there are none.
  int trump_suit() const { return trump_ == kNoTrump ? -1 : (trump_ == kTrumpDoubles ? kDoublesSuit : trump_); }
  bool IsTrump(int id) const { return (trumps_ >> id) & 1; }
  Hand trumps() const { return trumps_; }
  // The suit `id` calls when it is led.
  int LedSuit(int id) const { return led_suit_[id]; }
  // Tiles that belong to `suit` (and so follow it).
  Hand SuitTiles(int suit) const { return suit_tiles_[suit]; }
  bool Follows(int id, int suit) const { return (suit_tiles_[suit] >> id) & 1; }
  // How strongly `id` plays to a trick whose led suit is `led`: 0 when it cannot win
  // (neither trump nor of the led suit), larger is stronger, equal for identical tiles.
  int Power(int id, int led) const;
  // The tiles of `hand` that may be played to a trick led with `led_suit` (-1: leading).
  Hand LegalPlays(Hand hand, int led_suit) const;

  friend bool operator==(const TrickRules&, const TrickRules&) = default;

 private:
  int RankInSuit(int id, int suit) const;

  Hand trumps_ = 0;
  std::array<Hand, kNumSuits> suit_tiles_{};
  std::array<int8_t, kMaxTiles> led_suit_{};
  int8_t trump_ = kNoTrump;
  DoublesRank doubles_ = DoublesRank::kHigh;
  bool sevens_ = false;
};

// A trump as the notation writes it after "trump ": "4", "doubles", "none".
std::string TrumpName(int trump);
// A suit: its pip ("4") or "doubles".
std::string SuitName(int suit);

// ----- Tricks -----

// The tiles of one trick in the order played, and who played them.
struct Trick {
  std::array<uint8_t, kMaxSeats> tiles{};
  std::array<int8_t, kMaxSeats> seats{};
  int8_t size = 0;

  bool empty() const { return size == 0; }
  int leader() const { return seats[0]; }
  void Add(int seat, int tile) {
    tiles[size] = static_cast<uint8_t>(tile);
    seats[size] = static_cast<int8_t>(seat);
    ++size;
  }
  Hand TileMask() const {
    Hand m = 0;
    for (int i = 0; i < size; ++i) m |= Bit(tiles[i]);
    return m;
  }
  friend bool operator==(const Trick&, const Trick&) = default;
};

// Index (in play order) of the tile winning `trick` so far: the highest trump, else the
// highest of the led suit, the first played among equals. The trick must not be empty.
int WinningIndex(const Trick& trick, const TrickRules& rules);

// ----- Bidding -----

// One bidding round: starting with `first`, each of `seats` seats (clockwise, seat+1) bids
// once or passes; a bid must exceed the highest so far. Bid values are the game's own
// (ordered) numbers; the game decides which bids exist and how they are written.
class BiddingRound {
 public:
  BiddingRound() = default;
  BiddingRound(int first, int seats) : first_(static_cast<int8_t>(first)), seats_(static_cast<int8_t>(seats)) {}

  int turns_taken() const { return taken_; }
  bool done() const { return taken_ == seats_; }
  // The seat to bid next (undefined once done).
  int current() const { return (first_ + taken_) % seats_; }
  bool is_last() const { return taken_ + 1 == seats_; }
  bool has_bid() const { return high_seat_ >= 0; }
  int high_seat() const { return high_seat_; }
  int high_value() const { return high_; }
  // What seat `seat` said: a value, kPassed, or kNotYet.
  static constexpr int kPassed = -1;
  static constexpr int kNotYet = -2;
  int said(int seat) const { return said_[seat]; }
  // The order seats spoke in: seat of the i-th call.
  int speaker(int i) const { return (first_ + i) % seats_; }

  void Pass() { said_[current()] = kPassed; ++taken_; }
  // `value` must exceed high_value() when has_bid().
  void Bid(int value) {
    high_ = value;
    high_seat_ = static_cast<int8_t>(current());
    said_[current()] = value;
    ++taken_;
  }

  friend bool operator==(const BiddingRound&, const BiddingRound&) = default;

 private:
  std::array<int16_t, kMaxSeats> said_ = {kNotYet, kNotYet, kNotYet, kNotYet,
                                           kNotYet, kNotYet, kNotYet, kNotYet};
  int16_t high_ = 0;
  int8_t high_seat_ = -1;
  int8_t first_ = 0;
  int8_t seats_ = 0;
  int8_t taken_ = 0;
};

// ----- Determinization -----

// Deals the tiles of `pool` to groups: group g receives exactly `counts[g]` tiles, all in
// `allowed[g]`, uniformly shuffled where the constraints leave freedom. Returns false when no
// such deal exists. At most kMaxSeats + 1 groups.
bool DealConstrained(Hand pool, std::span<const Hand> allowed, std::span<const int> counts,
                     Rng& rng, std::span<Hand> out);

}  // namespace boneyard::tricks

#endif  // BONEYARD_ENGINE_GAMES_TRICKS_TRICKS_H_
