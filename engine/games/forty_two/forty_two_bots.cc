#include "engine/games/forty_two/forty_two_bots.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "engine/bots/search_bot.h"
#include "engine/games/forty_two/forty_two_solver_bot.h"
#include "engine/games/tricks/trick_bots.h"

namespace boneyard::forty_two {

using tricks::Bit;
using tricks::Hand;
using tricks::HandOf;
using tricks::IsSureWinner;
using tricks::Pick;
using tricks::SuitLength;
using tricks::TrickRules;

namespace {

// How much we would rather not give a tile away: counts most, then trumps, doubles, pips.
int KeepValue(int id, const tricks::TrickRules& rules) {
  return tricks::CountValue(id) * 100 + (rules.IsTrump(id) ? 60 : 0) +
         (tricks::TileIsDouble(id) ? 20 : 0) + tricks::TilePips(id);
}

bool Has(std::span<const Action> legal, Action a) {
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// The doubles the bot wants for a plunge and a splash (the rules ask for 4 and 3). Why so
// many: the partner names trumps and leads, knowing only that we hold four (three), and every
// trick must be won. Bot against bot, plunges on five doubles and splashes on four were made
// about one time in ten (one in four had the partner named its own best suit), and a team
// bidding them won under a quarter of its matches against the same bot without them. With six
// doubles and the partner naming doubles about half are made; with seven, all we saw.
constexpr int kPlungeDoubles = 7;
constexpr int kSplashDoubles = 6;
// The others' leads a nello hand may be unable to duck (ForcingLeads). Forced nello on random
// hands, bot against bot: with none allowed 0.07% of hands qualify and all are made; with one,
// 0.65% and 80% are made; with two, 2.8% and 65%. One keeps nello a safe bid; a team using it
// won 53% of its matches against the same bot without contracts (two: 55%, with more sets).
constexpr int kNelloForcingLeads = 1;

int SevensDistance(int id) { return std::abs(tricks::TilePips(id) - 7); }

// The others' tiles ranking under and over `id` when it is led: tiles of its suit, and trumps,
// which rank over it unless it is one.
struct LeadOdds {
  int under = 0;
  int over = 0;
};

LeadOdds OddsWhenLed(int id, Hand others, const TrickRules& rules) {
  const int led = rules.LedSuit(id);
  const int power = rules.Power(id, led);
  LeadOdds odds;
  for (Hand o = others; o; o &= o - 1) {
    const int p = rules.Power(std::countr_zero(o), led);
    if (p == 0) continue;  // cannot follow: neither under nor over
    if (p < power) ++odds.under;
    if (p > power) ++odds.over;
  }
  return odds;
}

// The nello bidder's lead: the tile fewest others rank under in its suit (an opponent holding
// that suit then has to overtake it), then the one most others rank over.
int NelloLead(Hand candidates, Hand others, const TrickRules& rules) {
  int best = std::countr_zero(candidates);
  LeadOdds best_odds = OddsWhenLed(best, others, rules);
  for (Hand c = candidates & (candidates - 1); c; c &= c - 1) {
    const int id = std::countr_zero(c);
    const LeadOdds odds = OddsWhenLed(id, others, rules);
    if (odds.under < best_odds.under ||
        (odds.under == best_odds.under && odds.over > best_odds.over)) {
      best = id;
      best_odds = odds;
    }
  }
  return best;
}

// How many of the others' leads `hand` may be unable to play under. In each suit, the k-th
// lowest of our tiles that follow it must rank no higher than the k-th lowest lead of that suit
// the others could make (an equal tile loses to the lead, played first), for as many leads as
// we can follow; each k where ours ranks higher is a lead that may force us to win. Holding
// none of a suit is safe: we throw off. A tile that ducks in two suits is counted in both, so
// this is a good guess rather than a proof.
int ForcingLeads(Hand hand, Hand others, const TrickRules& rules) {
  int forcing = 0;
  for (int suit = 0; suit < tricks::kNumSuits; ++suit) {
    std::array<int, kMaxHand> ours{};
    int m = 0;
    for (Hand h = hand & rules.SuitTiles(suit); h && m < kMaxHand; h &= h - 1) {
      ours[m++] = rules.Power(std::countr_zero(h), suit);
    }
    if (m == 0) continue;
    std::array<int, kMaxTiles> leads{};
    int n = 0;
    for (Hand o = others & rules.SuitTiles(suit); o; o &= o - 1) {
      const int id = std::countr_zero(o);
      if (rules.LedSuit(id) == suit) leads[n++] = rules.Power(id, suit);
    }
    std::sort(ours.begin(), ours.begin() + m);
    std::sort(leads.begin(), leads.begin() + n);
    for (int i = 0; i < std::min(m, n); ++i) forcing += ours[i] > leads[i] ? 1 : 0;
  }
  return forcing;
}

// Others' tiles that `id` would beat were they led: how often it could be forced to win.
int LeadsItBeats(int id, Hand others, const TrickRules& rules) {
  int n = 0;
  for (Hand o = others; o; o &= o - 1) {
    const int lead = std::countr_zero(o);
    const int suit = rules.LedSuit(lead);
    if (rules.Follows(id, suit) && rules.Power(id, suit) > rules.Power(lead, suit)) ++n;
  }
  return n;
}

// A bid of a whole hand or more (42, marks): what nello and sevens need.
bool IsWholeHandBid(Action a, const Table& table) {
  return (IsPointBid(a) && static_cast<int>(a - kBidBase) >= table.hand_points) || IsMarkBid(a);
}

// The cheapest legal bid worth a whole hand (42, or 1 mark).
std::optional<Action> CheapestWholeHandBid(std::span<const Action> legal, const Table& table) {
  for (Action a : legal) {
    if (IsWholeHandBid(a, table)) return a;
  }
  return std::nullopt;
}

// A contract bid the hand calls for, in preference to points, surest first: sevens when it
// cannot be lost, plunge with all seven doubles, nello with a low hand (IsNelloHand), splash
// with six doubles.
std::optional<Action> ContractBid(const FortyTwoView& v, Hand hand, std::span<const Action> legal) {
  const Options& o = v.options;
  const std::optional<Action> whole =
      o.sevens || o.nello ? CheapestWholeHandBid(legal, v.table) : std::nullopt;
  if (whole && o.sevens && IsSureSevensHand(hand, v.table)) return whole;
  const int doubles = std::popcount(hand & tricks::kDoubleTiles);
  if (doubles >= kPlungeDoubles && Has(legal, kPlunge)) return kPlunge;
  if (whole && o.nello && IsNelloHand(hand, o.nello_doubles, v.table)) return whole;
  if (doubles >= kSplashDoubles && Has(legal, kSplash)) return kSplash;
  return std::nullopt;
}

Action ChooseBid(const FortyTwoView& v, Hand hand, std::span<const Action> legal) {
  // Before deferring to a bidding partner: a contract hand is worth more than its bid.
  if (std::optional<Action> contract = ContractBid(v, hand, legal)) return *contract;
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
      continue;  // multi-mark bids only for the contracts above
    }
    if (value <= estimate) return a;
  }
  return kPass;
}

Action ChooseContract(const FortyTwoView& v, Hand hand, std::span<const Action> legal) {
  if (v.high_bidder != v.seat) {
    // Partner bid plunge or splash on its doubles: make them the trumps.
    if (Has(legal, kTrumpDoublesAction)) return kTrumpDoublesAction;
  } else {
    if (Has(legal, kSevens) && IsSureSevensHand(hand, v.table)) return kSevens;
    if (Has(legal, kNello) && IsNelloHand(hand, v.options.nello_doubles, v.table)) return kNello;
  }
  const Action want = kTrumpBase + BestTrump(hand, v.table);
  for (Action a : legal) {
    if (a == want) return a;
  }
  return legal[0];
}

// The nello bidder: lose every trick. Lead what an opponent must overtake; follow with the
// highest tile that does not win, so the low ones stay to duck later leads; throw off the
// tile most leads could force to win; when every tile wins, the lowest, which a later
// player may still overtake.
Action PlayNello(const FortyTwoView& v, Hand unknown, const tricks::Trick& trick,
                 std::span<const Action> legal) {
  const TrickRules& rules = v.rules;
  if (trick.empty()) {
    Hand candidates = 0;
    for (Action a : legal) candidates |= Bit(static_cast<int>(a));
    return static_cast<Action>(NelloLead(candidates, unknown, rules));
  }
  const int led = rules.LedSuit(trick.tiles[0]);
  const int top = rules.Power(trick.tiles[tricks::WinningIndex(trick, rules)], led);
  std::array<Action, kMaxHand> ducks{};
  int n = 0;
  for (Action a : legal) {
    if (rules.Power(static_cast<int>(a), led) <= top) ducks[n++] = a;
  }
  if (n == 0) {
    return Pick(legal, [&](Action a, Action b) {
      return rules.Power(static_cast<int>(a), led) < rules.Power(static_cast<int>(b), led);
    });
  }
  return Pick(std::span(ducks).first(n), [&](Action a, Action b) {
    const int pa = rules.Power(static_cast<int>(a), led);
    const int pb = rules.Power(static_cast<int>(b), led);
    if (pa != pb) return pa > pb;
    return LeadsItBeats(static_cast<int>(a), unknown, rules) >
           LeadsItBeats(static_cast<int>(b), unknown, rules);
  });
}

// An opponent of the nello bidder: make the bidder take a trick. Lead low in a suit it has
// not shown void in; before it plays keep the winning tile low; once it has played and is
// winning, stay under it; otherwise shed high tiles, which could only block it later.
Action PlayAgainstNello(const FortyTwoView& v, Hand unknown, const tricks::Trick& trick,
                        std::span<const Action> legal) {
  const TrickRules& rules = v.rules;
  const int bidder = v.high_bidder;
  auto own_rank = [&](Action a) {
    return rules.Power(static_cast<int>(a), rules.LedSuit(static_cast<int>(a)));
  };
  auto shed_first = [&](Action a, Action b) { return own_rank(a) > own_rank(b); };
  if (trick.empty()) {
    const std::vector<int>& voids = v.void_suits[bidder];
    auto bidder_void = [&](Action a) {
      return std::find(voids.begin(), voids.end(), rules.LedSuit(static_cast<int>(a))) !=
             voids.end();
    };
    return Pick(legal, [&](Action a, Action b) {
      const bool va = bidder_void(a);
      const bool vb = bidder_void(b);
      if (va != vb) return vb;
      const int ua = OddsWhenLed(static_cast<int>(a), unknown, rules).under;
      const int ub = OddsWhenLed(static_cast<int>(b), unknown, rules).under;
      if (ua != ub) return ua < ub;
      return own_rank(a) < own_rank(b);
    });
  }
  const int led = rules.LedSuit(trick.tiles[0]);
  const int win_index = tricks::WinningIndex(trick, rules);
  const int top = rules.Power(trick.tiles[win_index], led);
  auto power = [&](Action a) { return rules.Power(static_cast<int>(a), led); };
  bool bidder_played = false;
  for (int i = 0; i < trick.size; ++i) bidder_played |= trick.seats[i] == bidder;
  if (!bidder_played) {
    return Pick(legal, [&](Action a, Action b) {
      if (power(a) != power(b)) return power(a) < power(b);
      return shed_first(a, b);
    });
  }
  if (trick.seats[win_index] != bidder) return Pick(legal, shed_first);
  std::array<Action, kMaxHand> under{};
  int n = 0;
  for (Action a : legal) {
    if (power(a) <= top) under[n++] = a;
  }
  if (n == 0) return Pick(legal, [&](Action a, Action b) { return power(a) < power(b); });
  return Pick(std::span(under).first(n), [&](Action a, Action b) {
    if (power(a) != power(b)) return power(a) > power(b);
    return shed_first(a, b);
  });
}

Action ChoosePlay(const FortyTwoView& v, Hand hand, std::span<const Action> legal) {
  const tricks::TrickRules& rules = v.rules;
  const Hand unknown =
      tricks::AllTiles(v.table.num_tiles) & ~hand & ~tricks::PlayedTiles(v.tricks, v.trick);
  const tricks::Trick trick = tricks::ToTrick(v.trick);
  if (v.contract == kNello) {
    return v.high_bidder == v.seat ? PlayNello(v, unknown, trick, legal)
                                   : PlayAgainstNello(v, unknown, trick, legal);
  }
  auto keep_less = [&](Action a, Action b) {
    return KeepValue(static_cast<int>(a), rules) < KeepValue(static_cast<int>(b), rules);
  };
  const bool we_declared = v.high_bidder != kNobody && v.high_bidder % 2 == v.seat % 2;
  // Plunge, splash and bids of a whole hand are lost with any trick.
  const bool need_all = we_declared && (v.high_bid == kPlunge || v.high_bid == kSplash ||
                                        IsWholeHandBid(v.high_bid, v.table));

  if (trick.empty()) {
    const Hand my_trumps = hand & rules.trumps();
    // Bidders pull trumps while others may hold some: the top trump if no one can beat it,
    // else the lowest trump when long in trumps.
    if (we_declared && my_trumps != 0 && (unknown & rules.trumps()) != 0) {
      const Action top = Pick(legal, [&](Action a, Action b) {
        return rules.Power(static_cast<int>(a), rules.trump_suit()) >
               rules.Power(static_cast<int>(b), rules.trump_suit());
      });
      if (rules.IsTrump(static_cast<int>(top)) &&
          IsSureWinner(static_cast<int>(top), unknown, rules)) {
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
    if (need_all) {
      // No sure winner: the lead fewest others can beat.
      return Pick(legal, [&](Action a, Action b) {
        return OddsWhenLed(static_cast<int>(a), unknown, rules).over <
               OddsWhenLed(static_cast<int>(b), unknown, rules).over;
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
  auto power_of = [&](Action a) { return rules.Power(static_cast<int>(a), led); };
  if (winner % 2 == v.seat % 2) {
    // Partner is winning: never take it over, unless the hand needs every trick and an
    // opponent may still beat it. Smear a count if the trick is safe.
    const int power = rules.Power(trick.tiles[win_index], led);
    bool safe = last_to_play;
    if (!safe) {
      safe = true;
      for (Hand u = unknown; u; u &= u - 1) {
        if (rules.Power(std::countr_zero(u), led) > power) safe = false;
      }
    }
    if (need_all && !safe) {
      const Action top = Pick(legal, [&](Action a, Action b) { return power_of(a) > power_of(b); });
      if (power_of(top) > power) return top;
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
      // Needing every trick, the strongest winner: an opponent may still overtake.
      if (need_all && !last_to_play) return pa > pb;
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
  const int off_doubles = std::popcount(hand & tricks::kDoubleTiles & ~trumps);
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

bool IsSureSevensHand(Hand hand, const Table& table) {
  if (hand == 0) return false;
  int farthest = 0;
  for (Hand h = hand; h; h &= h - 1) {
    farthest = std::max(farthest, SevensDistance(std::countr_zero(h)));
  }
  for (Hand o = tricks::AllTiles(table.num_tiles) & ~hand; o; o &= o - 1) {
    if (SevensDistance(std::countr_zero(o)) < farthest) return false;
  }
  return true;
}

// Why not simply "low tiles": in nello a non-double leads its higher end, so what can force a
// tile to win is a lower lead of a suit it follows (holding 6-1 is a risk when 1-0 is out,
// holding all the blanks is none), and the one trick the bidder surely leads is the first.
bool IsNelloHand(Hand hand, tricks::DoublesRank doubles, const Table& table) {
  if (hand == 0) return false;
  const TrickRules rules(tricks::kNoTrump, doubles, false, table.num_tiles);
  const Hand others = tricks::AllTiles(table.num_tiles) & ~hand;
  const int lead = NelloLead(hand, others, rules);
  const LeadOdds odds = OddsWhenLed(lead, others, rules);
  return odds.under == 0 && odds.over >= 3 &&
         ForcingLeads(hand & ~Bit(lead), others, rules) <= kNelloForcingLeads;
}

Action HeuristicBot::ChooseAction(const View& view, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const auto& v = static_cast<const FortyTwoView&>(view);
  const Hand hand = HandOf(view);
  switch (v.phase) {
    case FortyTwoView::Phase::kBidding:
      return ChooseBid(v, hand, legal);
    case FortyTwoView::Phase::kDeclaring:
      return ChooseContract(v, hand, legal);
    default:
      return ChoosePlay(v, hand, legal);
  }
}

Action SaneRandomBot::ChooseAction(const View& view, std::span<const Action> legal) {
  const auto& v = static_cast<const FortyTwoView&>(view);
  const Hand hand = HandOf(view);
  if (v.phase == FortyTwoView::Phase::kBidding) {
    if (legal[0] != kPass) return legal[0];  // forced: the minimum bid
    int longest = 0;
    for (int pip = 0; pip < tricks::kPipSuits; ++pip)
      longest = std::max(longest, SuitLength(hand, pip));
    const bool potential = longest >= 3;
    if (potential && legal.size() > 1 && IsPointBid(legal[1]) && rng_.Below(2) == 0)
      return legal[1];
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
  registry.Register(game, "heuristic", [](const Game&, uint64_t seed, int) {
    return std::make_unique<HeuristicBot>(seed);
  });
  registry.Register(game, "random", [](const Game&, uint64_t seed, int) {
    return std::make_unique<SaneRandomBot>(seed);
  });
  // The shared search bot, bidding by this table's rule; at Forty-Two's own table, levels 4
  // and 5 play ordinary hands with the open-hand solver (forty_two_solver_bot.h), at
  // Eighty-Four's the levels are its own (kEightyFourSearchIterations).
  const bool forty_two = game == "forty_two";
  registry.Register(
      game, "search",
      [forty_two](const Game&, uint64_t seed, int level) -> std::unique_ptr<Bot> {
        if (forty_two && SolverWorldsFor(level) > 0) {
          return std::make_unique<SolverSearchBot>(seed, SearchLevelFor(level),
                                                   SolverWorldsFor(level), level == 5);
        }
        return std::make_unique<SearchBot>(
            seed,
            forty_two ? SearchLevelFor(level)
                      : SearchLevelWithIterations(level, kEightyFourSearchIterations),
            SearchBiddingRule);
      },
      kSearchLevels);
}

bool SearchBiddingRule(const View& view, Action action) {
  const auto* v = dynamic_cast<const FortyTwoView*>(&view);
  if (v == nullptr || v->phase != FortyTwoView::Phase::kBidding || action == kPass) return true;
  // Partners alternate round the table (teams are the even and the odd seats) at both tables.
  if (v->high_bidder != kNobody && (v->high_bidder - view.seat) % 2 == 0) return false;
  int value = 0;
  if (IsPointBid(action)) {
    value = static_cast<int>(action - kBidBase);
  } else if (action == kMarkBidBase + 1) {
    value = v->table.hand_points;
  } else {
    return true;  // plunge, splash, more marks: the contracts, judged by the search
  }
  const Hand hand = HandOf(*v);
  return value <=
         EstimatePoints(hand, BestTrump(hand, v->table), v->table) + v->table.hand_points / 10;
}

}  // namespace boneyard::forty_two
