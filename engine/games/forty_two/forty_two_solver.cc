#include "engine/games/forty_two/forty_two_solver.h"

#include <algorithm>
#include <bit>

namespace boneyard::forty_two {
namespace {

using tricks::Hand;

constexpr int Team(int seat) { return seat % 2; }

// Forty-Two's trick value: one for the trick and the counts in it.
int TrickValue(const tricks::Trick& trick) { return 1 + tricks::CountPoints(trick.TileMask()); }

Hand Remaining(const std::array<Hand, kSeats>& hands) {
  return hands[0] | hands[1] | hands[2] | hands[3];
}

// MTD(f) (Plaat et al. 1996): the value `search(alpha, beta)` has, by null-window searches
// closing in on it from `guess`, each reusing the bounds the table kept from the last; cheaper
// here than one wide window.
template <typename SearchFn>
int Mtdf(SearchFn search, int guess) {
  int lower = 0, upper = kHandPoints;
  int g = std::clamp(guess, lower, upper);
  while (lower < upper) {
    const int beta = g == lower ? g + 1 : g;
    g = search(beta - 1, beta);
    if (g < beta) {
      upper = g;
    } else {
      lower = g;
    }
  }
  return g;
}

}  // namespace

std::optional<OpenHand> OpenHandOf(const FortyTwoState& state) {
  if (!state.playing() || state.contract() != Contract::kTrumps ||
      !(state.game_table() == kFortyTwoTable)) {
    return std::nullopt;
  }
  OpenHand h;
  h.rules = state.trick_rules();
  for (int s = 0; s < kSeats; ++s) h.hands[s] = state.hand(s);
  h.trick = state.open_trick();
  h.to_move = state.CurrentSeat();
  h.bidding_team = Team(state.bidder());
  h.bid = std::min(state.bid_points(), kHandPoints);
  h.taken = state.taken();
  return h;
}

OpenHand FirstLead(const FortyTwoState& state, int declarer, int trump, int bid) {
  OpenHand h;
  // As the state names an ordinary contract (forty_two.cc, ApplyContract).
  h.rules = tricks::TrickRules(trump, tricks::DoublesRank::kHigh, false, kTiles);
  for (int s = 0; s < kSeats; ++s) h.hands[s] = state.hand(s);
  h.to_move = declarer;
  h.bidding_team = Team(declarer);
  h.bid = bid;
  return h;
}

PlaySolver::PlaySolver() : table_(size_t{1} << kTableBits) {}

void PlaySolver::NewDeal(const OpenHand& hand) {
  // A new generation marks every entry stale without touching the table.
  if (++generation_ == 0) {
    std::fill(table_.begin(), table_.end(), Entry{});
    generation_ = 1;
  }
  rules_ = hand.rules;
  hands_ = hand.hands;
  bidding_team_ = hand.bidding_team;
}

int PlaySolver::Solve(const OpenHand& hand) {
  NewDeal(hand);
  tricks::Trick trick = hand.trick;
  return Mtdf([&](int alpha, int beta) { return Search(trick, hand.to_move, alpha, beta); },
              hand.bid - hand.taken[hand.bidding_team]);
}

bool PlaySolver::BiddersMake(const OpenHand& hand) {
  NewDeal(hand);
  const int need = hand.bid - hand.taken[hand.bidding_team];
  if (need <= 0) return true;
  tricks::Trick trick = hand.trick;
  return Search(trick, hand.to_move, need - 1, need) >= need;
}

int PlaySolver::SolveAfter(const OpenHand& hand, int tile) {
  NewDeal(hand);
  return ValueAfter(hand, tile);
}

void PlaySolver::SolveEach(const OpenHand& hand, std::span<const int> tiles,
                           std::span<int> values) {
  NewDeal(hand);
  for (size_t i = 0; i < tiles.size(); ++i) values[i] = ValueAfter(hand, tiles[i]);
}

int PlaySolver::ValueAfter(const OpenHand& hand, int tile) {
  tricks::Trick trick = hand.trick;
  return Mtdf(
      [&](int alpha, int beta) { return SearchAfter(trick, hand.to_move, tile, alpha, beta); },
      hand.bid - hand.taken[bidding_team_]);
}

int PlaySolver::SearchAfter(tricks::Trick& trick, int seat, int tile, int alpha, int beta) {
  hands_[seat] &= ~tricks::Bit(tile);
  trick.Add(seat, tile);
  int value;
  if (trick.size == kSeats) {
    const auto [points, winner] = Close(trick);
    tricks::Trick next;
    value = points + Search(next, winner, alpha - points, beta - points);
  } else {
    value = Search(trick, (seat + 1) % kSeats, alpha, beta);
  }
  --trick.size;
  hands_[seat] |= tricks::Bit(tile);
  return value;
}

std::pair<int, int> PlaySolver::Close(const tricks::Trick& trick) const {
  const int winner = trick.seats[tricks::WinningIndex(trick, rules_)];
  return {Team(winner) == bidding_team_ ? TrickValue(trick) : 0, winner};
}

int PlaySolver::Search(tricks::Trick& trick, int seat, int alpha, int beta) {
  ++nodes_;
  const Hand remaining = Remaining(hands_);
  if (remaining == 0 && trick.empty()) return 0;
  // The value lies between 0 and every point still out (a trick each, the counts in hand or
  // in the open trick): a window outside that range is decided without a search.
  if (beta <= 0) return 0;
  const int most = (std::popcount(remaining) + trick.size) / kSeats +
                   tricks::CountPoints(remaining | trick.TileMask());
  if (alpha >= most) return most;
  Entry* entry = nullptr;
  uint32_t key = 0;
  int first = -1;
  if (trick.empty()) {
    key = (static_cast<uint32_t>(remaining) << 2 | static_cast<uint32_t>(seat)) + 1;
    entry = &Slot(key);
    if (entry->key == key && entry->generation == generation_) {
      first = entry->best;
      if (entry->lower >= beta) return entry->lower;
      if (entry->upper <= alpha) return entry->upper;
      if (entry->lower == entry->upper) return entry->lower;
      alpha = std::max<int>(alpha, entry->lower);
      beta = std::min<int>(beta, entry->upper);
    }
  }
  const int led = trick.empty() ? -1 : rules_.LedSuit(trick.tiles[0]);
  std::array<uint8_t, kHandSize> plays{};
  const int n = OrderPlays(rules_.LegalPlays(hands_[seat], led), trick, seat, first, plays);
  const bool maximizing = Team(seat) == bidding_team_;
  const int alpha0 = alpha, beta0 = beta;
  int best = maximizing ? -1 : kHandPoints + 1;
  int best_play = -1;
  for (int i = 0; i < n; ++i) {
    const int tile = plays[i];
    const int value = SearchAfter(trick, seat, tile, alpha, beta);
    if (maximizing ? value > best : value < best) {
      best = value;
      best_play = tile;
    }
    if (maximizing) {
      alpha = std::max(alpha, best);
    } else {
      beta = std::min(beta, best);
    }
    if (alpha >= beta) break;
  }
  if (entry != nullptr) {
    // Fail-soft bounds: a value at or below the window's floor is an upper bound, at or above
    // its ceiling a lower bound, between them exact.
    Entry e{key, generation_, 0, kHandPoints, -1};
    if (entry->key == key && entry->generation == generation_) e = *entry;
    if (best <= alpha0) {
      e.upper = static_cast<int8_t>(std::min<int>(e.upper, best));
    } else if (best >= beta0) {
      e.lower = static_cast<int8_t>(std::max<int>(e.lower, best));
    } else {
      e.lower = e.upper = static_cast<int8_t>(best);
    }
    e.best = static_cast<int8_t>(best_play);
    *entry = e;
  }
  return best;
}

int PlaySolver::OrderPlays(Hand plays, const tricks::Trick& trick, int seat, int first,
                           std::array<uint8_t, kHandSize>& out) const {
  int n = 0;
  std::array<int, kHandSize> score{};
  int winning_power = 0;
  bool partner_winning = false;
  int led = -1;
  if (!trick.empty()) {
    led = rules_.LedSuit(trick.tiles[0]);
    const int w = tricks::WinningIndex(trick, rules_);
    winning_power = rules_.Power(trick.tiles[w], led);
    partner_winning = Team(trick.seats[w]) == Team(seat);
  }
  for (Hand h = plays; h; h &= h - 1) {
    const int id = std::countr_zero(h);
    const int counts = tricks::CountValue(id);
    int s;
    if (trick.empty()) {
      // Leading: strong tiles first (they draw trumps and cash winners).
      s = rules_.Power(id, rules_.LedSuit(id)) + (rules_.IsTrump(id) ? 100 : 0);
    } else {
      const int power = rules_.Power(id, led);
      if (partner_winning) {
        s = counts * 10 - power;  // smear counts on a partner's trick, keep high tiles
      } else if (power > winning_power) {
        s = 1000 - power + counts;  // win as cheaply as possible
      } else {
        s = -counts * 10 - power;  // losing: throw the cheapest
      }
    }
    out[n] = static_cast<uint8_t>(id);
    score[n] = id == first ? 1 << 20 : s;
    ++n;
  }
  // Insertion sort: at most seven plays.
  for (int i = 1; i < n; ++i) {
    for (int j = i; j > 0 && score[j] > score[j - 1]; --j) {
      std::swap(score[j], score[j - 1]);
      std::swap(out[j], out[j - 1]);
    }
  }
  return n;
}

}  // namespace boneyard::forty_two
