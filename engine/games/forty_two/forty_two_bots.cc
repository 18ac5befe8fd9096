#include "engine/games/forty_two/forty_two_bots.h"

#include <algorithm>
#include <memory>

namespace boneyard::forty_two {

using tricks::Bit;
using tricks::Hand;

namespace {

Hand HandOf(const View& view) {
  Hand h = 0;
  for (const Tile& t : view.hand) h |= Bit(tricks::IdOf(t));
  return h;
}

Hand Doubles(Hand h) {
  Hand d = 0;
  for (Hand x = h; x; x &= x - 1) {
    if (tricks::TileIsDouble(std::countr_zero(x))) d |= Bit(std::countr_zero(x));
  }
  return d;
}

int SuitLength(Hand hand, int pip) {
  int n = 0;
  for (Hand h = hand; h; h &= h - 1) n += tricks::TileHas(std::countr_zero(h), pip) ? 1 : 0;
  return n;
}

// Tiles played so far this hand (finished tricks and the open one).
Hand PlayedTiles(const FortyTwoView& v) {
  Hand played = 0;
  for (const TrickView& t : v.tricks) {
    for (const Tile& tile : t.tiles) played |= Bit(tricks::IdOf(tile));
  }
  for (const Tile& tile : v.trick.tiles) played |= Bit(tricks::IdOf(tile));
  return played;
}

tricks::Trick OpenTrick(const FortyTwoView& v) {
  tricks::Trick trick;
  for (size_t i = 0; i < v.trick.tiles.size(); ++i) {
    trick.Add(v.trick.seats[i], tricks::IdOf(v.trick.tiles[i]));
  }
  return trick;
}

// How much we would rather not give a tile away: counts most, then trumps, doubles, pips.
int KeepValue(int id, const tricks::TrickRules& rules) {
  return tricks::CountValue(id) * 100 + (rules.IsTrump(id) ? 60 : 0) +
         (tricks::TileIsDouble(id) ? 20 : 0) + tricks::TilePips(id);
}

// No tile that others may hold beats `id` when it is led.
bool IsSureWinner(int id, Hand unknown, const tricks::TrickRules& rules) {
  const int led = rules.LedSuit(id);
  const int power = rules.Power(id, led);
  if (!rules.IsTrump(id) && (unknown & rules.trumps()) != 0) return false;
  for (Hand u = unknown; u; u &= u - 1) {
    if (rules.Power(std::countr_zero(u), led) > power) return false;
  }
  return true;
}

template <typename Better>
Action Pick(std::span<const Action> candidates, Better better) {
  Action best = candidates[0];
  for (Action a : candidates) {
    if (better(a, best)) best = a;
  }
  return best;
}

Action ChooseBid(const FortyTwoView& v, Hand hand, std::span<const Action> legal) {
  const bool can_pass = legal[0] == kPass;
  if (!can_pass) return legal[0];  // forced to bid: the cheapest bid
  if (v.high_bidder != kNobody && v.high_bidder % 2 == v.seat % 2) return kPass;  // partner leads
  const int estimate = EstimatePoints(hand, BestTrump(hand, v.table), v.table);
  for (Action a : legal) {
    if (a == kPass) continue;
    int value = 0;
    if (IsPointBid(a)) {
      value = static_cast<int>(a - kBidBase);
    } else if (a == kMarkBidBase + 1) {
      value = v.table.hand_points;
    } else {
      continue;  // no plunges, splashes or multi-mark bids
    }
    if (value <= estimate) return a;
  }
  return kPass;
}

Action ChooseContract(const FortyTwoView& v, Hand hand, std::span<const Action> legal) {
  const Action want = kTrumpBase + BestTrump(hand, v.table);
  for (Action a : legal) {
    if (a == want) return a;
  }
  return legal[0];
}

Action ChoosePlay(const FortyTwoView& v, Hand hand, std::span<const Action> legal) {
  const tricks::TrickRules& rules = v.rules;
  const Hand unknown = tricks::AllTiles(v.table.num_tiles) & ~hand & ~PlayedTiles(v);
  const tricks::Trick trick = OpenTrick(v);
  auto keep_less = [&](Action a, Action b) {
    return KeepValue(static_cast<int>(a), rules) < KeepValue(static_cast<int>(b), rules);
  };

  if (trick.empty()) {
    const bool we_declared = v.high_bidder != kNobody && v.high_bidder % 2 == v.seat % 2;
    const Hand my_trumps = hand & rules.trumps();
    // Bidders pull trumps while others may hold some: the top trump if no one can beat it,
    // else the lowest trump when long in trumps.
    if (we_declared && my_trumps != 0 && (unknown & rules.trumps()) != 0) {
      const Action top = Pick(legal, [&](Action a, Action b) {
        return rules.Power(static_cast<int>(a), rules.trump_suit()) >
               rules.Power(static_cast<int>(b), rules.trump_suit());
      });
      if (rules.IsTrump(static_cast<int>(top)) && IsSureWinner(static_cast<int>(top), unknown, rules)) {
        return top;
      }
      if (std::popcount(my_trumps) >= 3) {
        return Pick(legal, [&](Action a, Action b) {
          const bool ta = rules.IsTrump(static_cast<int>(a));
          const bool tb = rules.IsTrump(static_cast<int>(b));
          if (ta != tb) return ta;
          return keep_less(a, b);
        });
      }
    }
    // Cash a sure winner, counts first.
    std::array<Action, kMaxHand> sure{};
    int num_sure = 0;
    for (Action a : legal) {
      if (IsSureWinner(static_cast<int>(a), unknown, rules)) sure[num_sure++] = a;
    }
    if (num_sure > 0) {
      return Pick(std::span(sure).first(num_sure), [&](Action a, Action b) {
        return tricks::CountValue(static_cast<int>(a)) > tricks::CountValue(static_cast<int>(b));
      });
    }
    return Pick(legal, keep_less);
  }

  const int win_index = tricks::WinningIndex(trick, rules);
  const int winner = trick.seats[win_index];
  const int led = rules.LedSuit(trick.tiles[0]);
  const int players = v.sitting_out != kNobody ? v.table.seats - 1 : v.table.seats;
  const bool last_to_play = trick.size == players - 1;
  auto wins = [&](Action a) {
    tricks::Trick after = trick;
    after.Add(v.seat, static_cast<int>(a));
    return tricks::WinningIndex(after, rules) == after.size - 1;
  };
  if (winner % 2 == v.seat % 2) {
    // Partner is winning: never take it over. Smear a count if the trick is safe.
    const int power = rules.Power(trick.tiles[win_index], led);
    bool safe = last_to_play;
    if (!safe) {
      safe = true;
      for (Hand u = unknown; u; u &= u - 1) {
        if (rules.Power(std::countr_zero(u), led) > power) safe = false;
      }
    }
    std::array<Action, kMaxHand> under{};
    int n = 0;
    for (Action a : legal) {
      if (!wins(a)) under[n++] = a;
    }
    if (n == 0) return Pick(legal, keep_less);
    if (safe) {
      return Pick(std::span(under).first(n), [&](Action a, Action b) {
        const int ca = tricks::CountValue(static_cast<int>(a));
        const int cb = tricks::CountValue(static_cast<int>(b));
        if (ca != cb) return ca > cb;
        return keep_less(a, b);
      });
    }
    return Pick(std::span(under).first(n), keep_less);
  }
  // An opponent is winning: win as cheaply as we can, else throw the least valuable tile.
  std::array<Action, kMaxHand> winning{};
  int n = 0;
  for (Action a : legal) {
    if (wins(a)) winning[n++] = a;
  }
  if (n > 0) {
    return Pick(std::span(winning).first(n), [&](Action a, Action b) {
      const int pa = rules.Power(static_cast<int>(a), led);
      const int pb = rules.Power(static_cast<int>(b), led);
      if (last_to_play) {
        // Nobody can overtake: take the most counts home.
        const int ca = tricks::CountValue(static_cast<int>(a));
        const int cb = tricks::CountValue(static_cast<int>(b));
        if (ca != cb) return ca > cb;
      }
      return pa < pb;
    });
  }
  return Pick(legal, keep_less);
}

}  // namespace

int EstimatePoints(Hand hand, int trump, const Table& table) {
  const tricks::TrickRules rules(trump, tricks::DoublesRank::kHigh, false, table.num_tiles);
  const Hand trumps = hand & rules.trumps();
  const int n = std::popcount(trumps);
  // The unbroken run of top trumps held: the double, then trump-6, trump-5, ...
  int top = 0;
  for (int rank = 8; rank >= 1; --rank) {
    int id = -1;
    for (Hand t = rules.trumps(); t; t &= t - 1) {
      const int x = std::countr_zero(t);
      if (rules.Power(x, trump) == 64 + rank) id = x;
    }
    if (id < 0) continue;
    if (!(trumps & Bit(id))) break;
    ++top;
  }
  const int off_doubles = std::popcount(Doubles(hand) & ~trumps);
  int score = 10 * top + 5 * (n - top) + 6 * off_doubles;  // tenths of a trick
  if (n < 3) score -= 8 * (3 - n);
  // All the tricks are all the points (Forty-Two: 7 tricks, 42); partners add about a quarter.
  const int all = table.hand_points;
  return std::clamp(score * all / (10 * table.hand_size) + all * 10 / kHandPoints, 0, all);
}

int BestTrump(Hand hand, const Table& table) {
  int best = 0;
  int best_score = -1;
  for (int pip = 0; pip < tricks::kPipSuits; ++pip) {
    const tricks::TrickRules rules(pip, tricks::DoublesRank::kHigh, false, table.num_tiles);
    const int score = EstimatePoints(hand, pip, table) * 8 + std::popcount(hand & rules.trumps());
    if (score > best_score) {
      best = pip;
      best_score = score;
    }
  }
  return best;
}

Action HeuristicBot::ChooseAction(const View& view, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const auto& v = static_cast<const FortyTwoView&>(view);
  const Hand hand = HandOf(view);
  switch (v.phase) {
    case FortyTwoView::Phase::kBidding: return ChooseBid(v, hand, legal);
    case FortyTwoView::Phase::kDeclaring: return ChooseContract(v, hand, legal);
    default: return ChoosePlay(v, hand, legal);
  }
}

Action SaneRandomBot::ChooseAction(const View& view, std::span<const Action> legal) {
  const auto& v = static_cast<const FortyTwoView&>(view);
  const Hand hand = HandOf(view);
  if (v.phase == FortyTwoView::Phase::kBidding) {
    if (legal[0] != kPass) return legal[0];  // forced: the minimum bid
    int longest = 0;
    for (int pip = 0; pip < tricks::kPipSuits; ++pip) longest = std::max(longest, SuitLength(hand, pip));
    const bool potential = longest >= 3;
    if (potential && legal.size() > 1 && IsPointBid(legal[1]) && rng_.Below(2) == 0) return legal[1];
    return kPass;
  }
  if (v.phase == FortyTwoView::Phase::kDeclaring) {
    int best = 0;
    int best_n = -1;
    for (int pip = 0; pip < tricks::kPipSuits; ++pip) {
      const int n = SuitLength(hand, pip);
      if (n > best_n) {
        best = pip;
        best_n = n;
      }
    }
    return kTrumpBase + best;
  }
  return legal[rng_.Below(static_cast<uint32_t>(legal.size()))];
}

void RegisterBots(BotRegistry& registry, const std::string& game) {
  registry.Register(game, "heuristic", [](const Game&, uint64_t seed) {
    return std::make_unique<HeuristicBot>(seed);
  });
  registry.Register(game, "random", [](const Game&, uint64_t seed) {
    return std::make_unique<SaneRandomBot>(seed);
  });
}

}  // namespace boneyard::forty_two
