// Forty-Two's play with every hand open: how many points the bidding team takes from here on
// when both sides play perfectly. It is the inner loop of a "perfect-information Monte Carlo"
// player (Ginsberg's GIB for bridge; for Forty-Two, the sampled player the search-bot issue
// cites): deal the hidden tiles at random consistently with what a seat has seen
// (State::Determinize), solve each deal with every hand open, and play the move that does best
// on average. Its known flaw is strategy fusion — in each deal the solver knows where every
// tile is — which is why the average is over many deals and why it plays ordinary hands only.
//
// An alpha-beta search over the remaining plays, the value being the bidders' points, with a
// transposition table at trick boundaries: within one deal the tiles still out and the seat to
// lead decide the rest of the hand. Moves are ordered so that cutoffs come early: a leader
// tries its strongest tiles first, a follower its cheapest winner, else its cheapest tile.
// Forty-Two's table only (4 seats, one set) and an ordinary hand (trumps, doubles or none):
// nello and sevens have other aims, and Eighty-Four's two sets are out of this search's reach.
#ifndef BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_SOLVER_H_
#define BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_SOLVER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "engine/games/forty_two/forty_two.h"
#include "engine/games/tricks/tricks.h"

namespace boneyard::forty_two {

// A hand in play with every hand open.
struct OpenHand {
  tricks::TrickRules rules;
  std::array<tricks::Hand, kSeats> hands{};
  tricks::Trick trick;  // the trick being played (empty: `to_move` leads)
  int to_move = 0;
  int bidding_team = 0;        // 0: seats 0 and 2; 1: seats 1 and 3
  int bid = 0;                 // points the bidders need (a mark is 42)
  std::array<int, 2> taken{};  // points each team has taken this hand
};

// The open hand of `state`, or nothing when it is not in the play of an ordinary Forty-Two
// hand (bidding, declaring, nello, sevens, another table).
std::optional<OpenHand> OpenHandOf(const FortyTwoState& state);

// The hand `state` (dealt, not yet played) would be if `declarer` named `trump` (a pip,
// tricks::kTrumpDoubles or kNoTrump) and led, its team needing `bid`: what the solving bot
// judges a bid or a trump by before either is made.
OpenHand FirstLead(const FortyTwoState& state, int declarer, int trump, int bid);

class PlaySolver {
 public:
  PlaySolver();

  // The points the bidders take from the remaining tricks (the open one included) when both
  // sides play perfectly.
  int Solve(const OpenHand& hand);
  // Whether the bidders take at least the bid when both sides play perfectly: a search with a
  // null window, far cheaper than Solve.
  bool BiddersMake(const OpenHand& hand);
  // The same after `tile` (legal for hand.to_move) is played.
  int SolveAfter(const OpenHand& hand, int tile);
  // SolveAfter for each of `tiles` into `values`, sharing what it learns between them (one
  // deal: the same positions recur under different first plays).
  void SolveEach(const OpenHand& hand, std::span<const int> tiles, std::span<int> values);

  // Positions searched since construction, for benchmarks.
  int64_t nodes() const { return nodes_; }

 private:
  struct Entry {
    uint32_t key = 0;  // remaining tiles (28 bits) and leader (2), plus 1 so 0 is empty
    uint32_t generation = 0;
    int8_t lower = 0;  // bounds on the bidders' points from the remaining tricks
    int8_t upper = 0;
    int8_t best = -1;  // the lead that decided the last search here, tried first next time
  };

  // Starts a new deal: the table's entries of the last one no longer apply.
  void NewDeal(const OpenHand& hand);
  // The bidders' points after `tile` is played in the deal set by NewDeal.
  int ValueAfter(const OpenHand& hand, int tile);
  // The bidders' points from here: the open trick `trick` (its next player `seat`) and the
  // tricks after it, searched within (alpha, beta).
  int Search(tricks::Trick& trick, int seat, int alpha, int beta);
  // A complete trick's points for the bidders, and its winner, who leads next.
  std::pair<int, int> Close(const tricks::Trick& trick) const;
  // Search after `seat` plays `tile` into `trick` (both put back before it returns).
  int SearchAfter(tricks::Trick& trick, int seat, int tile, int alpha, int beta);
  // Orders `plays` (legal for `seat` in `trick`) best first for the side to move, `first`
  // (when one of them) before all.
  int OrderPlays(tricks::Hand plays, const tricks::Trick& trick, int seat, int first,
                 std::array<uint8_t, kHandSize>& out) const;
  Entry& Slot(uint32_t key) { return table_[(key * 2654435761u) >> (32 - kTableBits)]; }

  static constexpr int kTableBits = 16;
  std::vector<Entry> table_;
  uint32_t generation_ = 0;
  tricks::TrickRules rules_;
  std::array<tricks::Hand, kSeats> hands_{};
  int bidding_team_ = 0;
  int64_t nodes_ = 0;
};

}  // namespace boneyard::forty_two

#endif  // BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_SOLVER_H_
