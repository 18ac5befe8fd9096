// Moon's bots (declared in moon.h): both read only their MoonView and the legal actions.
#include <algorithm>
#include <memory>

#include "engine/games/moon/moon.h"
#include "engine/games/tricks/trick_bots.h"

namespace boneyard::moon {

using tricks::Bit;
using tricks::Hand;
using tricks::HandOf;
using tricks::IsSureWinner;
using tricks::Pick;
using tricks::SuitLength;

namespace {

int LongestSuit(Hand hand) {
  int best = 0;
  for (int pip = 1; pip < tricks::kPipSuits; ++pip) {
    if (SuitLength(hand, pip) > SuitLength(hand, best)) best = pip;
  }
  return best;
}

// Tiles this seat has not seen: not in hand, not played, not its own discard.
Hand Unknown(const MoonView& v, Hand hand) {
  Hand seen = hand | tricks::PlayedTiles(v.tricks, v.trick);
  if (v.discard.has_value()) seen |= Bit(tricks::IdOf(*v.discard));
  return kMoonTiles & ~seen;
}

// How much we would rather keep a tile: trumps, then doubles, then high tiles.
int KeepValue(int id, const tricks::TrickRules& rules) {
  return (rules.IsTrump(id) ? 100 : 0) + (tricks::TileIsDouble(id) ? 40 : 0) + tricks::TilePips(id);
}

Action ChoosePlay(const MoonView& v, Hand hand, std::span<const Action> legal) {
  const tricks::TrickRules& rules = v.rules;
  const Hand unknown = Unknown(v, hand);
  auto keep_less = [&](Action a, Action b) {
    return KeepValue(static_cast<int>(a), rules) < KeepValue(static_cast<int>(b), rules);
  };
  auto power = [&](Action a, int led) { return rules.Power(static_cast<int>(a), led); };
  if (v.trick.tiles.empty()) {
    // The bidder pulls trumps while others may hold some.
    if (v.bidder == v.seat && (hand & rules.trumps()) != 0 && (unknown & rules.trumps()) != 0) {
      const Action top = Pick(legal, [&](Action a, Action b) {
        return power(a, rules.trump_suit()) > power(b, rules.trump_suit());
      });
      if (rules.IsTrump(static_cast<int>(top))) return top;
    }
    for (Action a : legal) {
      if (IsSureWinner(static_cast<int>(a), unknown, rules)) return a;
    }
    return Pick(legal, keep_less);
  }
  const tricks::Trick trick = tricks::ToTrick(v.trick);
  const int led = rules.LedSuit(trick.tiles[0]);
  std::array<Action, kHandSize + 1> winning{};
  int n = 0;
  for (Action a : legal) {
    tricks::Trick after = trick;
    after.Add(v.seat, static_cast<int>(a));
    if (tricks::WinningIndex(after, rules) == after.size - 1) winning[n++] = a;
  }
  // Against the bidder the other two play together: leave a trick the other defender wins.
  const int winner = trick.seats[tricks::WinningIndex(trick, rules)];
  const bool partner_winning = v.bidder != v.seat && winner != v.bidder;
  if (n > 0 && !partner_winning) {
    return Pick(std::span(winning).first(n), [&](Action a, Action b) { return power(a, led) < power(b, led); });
  }
  return Pick(legal, keep_less);
}

}  // namespace

int EstimateTricks(Hand hand, int trump) {
  const tricks::TrickRules rules(trump, tricks::DoublesRank::kHigh, false, tricks::kSetTiles);
  const Hand suit = rules.trumps() & kMoonTiles;
  const int n = std::popcount(hand & suit);
  // The unbroken run of top trumps held.
  int top = 0;
  Hand left = suit;
  while (left) {
    int best = std::countr_zero(left);
    for (Hand h = left; h; h &= h - 1) {
      if (rules.Power(std::countr_zero(h), trump) > rules.Power(best, trump)) best = std::countr_zero(h);
    }
    if (!(hand & Bit(best))) break;
    ++top;
    left &= ~Bit(best);
  }
  const int off_doubles = std::popcount(hand & ~suit & tricks::kDoubleTiles);
  const int tenths = 10 * top + 5 * (n - top) + 7 * off_doubles;
  return std::min(kTricks, (tenths + 5) / 10);
}

int BestTrump(Hand hand) {
  int best = 0;
  int best_score = -1;
  for (int pip = 0; pip < tricks::kPipSuits; ++pip) {
    const int score = EstimateTricks(hand, pip) * 8 + SuitLength(hand, pip);
    if (score > best_score) {
      best = pip;
      best_score = score;
    }
  }
  return best;
}

Action HeuristicBot::ChooseAction(const View& view, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const auto& v = static_cast<const MoonView&>(view);
  const Hand hand = HandOf(view);
  switch (v.phase) {
    case MoonView::Phase::kBidding: {
      const int trump = BestTrump(hand);
      const int estimate = EstimateTricks(hand, trump);
      if (estimate >= kTricks && SuitLength(hand, trump) >= 5) return legal.back();  // 21
      Action choice = kPass;
      for (Action a : legal) {
        const int n = a == kPass ? 0 : static_cast<int>(a - kBidBase);
        if (n >= 4 && n <= estimate && n != kShootTheMoon) choice = a;
      }
      return choice;
    }
    case MoonView::Phase::kDeclaring:
      return kTrumpBase + BestTrump(hand);
    case MoonView::Phase::kDiscarding:
      return Pick(legal, [&](Action a, Action b) {
        return KeepValue(static_cast<int>(a - kDiscardBase), v.rules) <
               KeepValue(static_cast<int>(b - kDiscardBase), v.rules);
      });
    default:
      return ChoosePlay(v, hand, legal);
  }
}

Action SaneRandomBot::ChooseAction(const View& view, std::span<const Action> legal) {
  const auto& v = static_cast<const MoonView&>(view);
  const Hand hand = HandOf(view);
  switch (v.phase) {
    case MoonView::Phase::kBidding: {
      const bool potential = SuitLength(hand, LongestSuit(hand)) >= 3;
      const Action lowest = legal.size() > 1 ? legal[1] : kPass;
      if (potential && lowest != kBidBase + kShootTheMoon && rng_.Below(2) == 0) return lowest;
      return kPass;
    }
    case MoonView::Phase::kDeclaring:
      return kTrumpBase + LongestSuit(hand);
    default:
      return legal[rng_.Below(static_cast<uint32_t>(legal.size()))];
  }
}

void RegisterBots(BotRegistry& registry) {
  registry.Register("moon", "heuristic", [](const Game&, uint64_t seed, int) {
    return std::make_unique<HeuristicBot>(seed);
  });
  registry.Register("moon", "random", [](const Game&, uint64_t seed, int) {
    return std::make_unique<SaneRandomBot>(seed);
  });
}

}  // namespace boneyard::moon
