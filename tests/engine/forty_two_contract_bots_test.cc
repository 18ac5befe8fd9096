// Forty-Two's heuristic bot with the optional contracts (engine/games/forty_two/forty_two_bots.h):
// when it bids plunge, splash, sevens and nello and when it does not, what its partner names
// after a plunge, how it plays a nello hand and against one, and bot-vs-bot matches with every
// contract allowed.
#include <bit>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/core/registry.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/games/forty_two/forty_two_bots.h"
#include "engine/games/tricks/trick_bots.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::forty_two {
namespace {

using engine_test::Do;

tricks::Hand HandOf(const std::string& text) {
  tricks::Hand h = 0;
  for (absl::string_view t : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    h |= tricks::Bit(tricks::IdOf(*Tile::Parse(t)));
  }
  return h;
}

// The listed seats get these hands; the others the remaining tiles in id order.
Deal DealWith(const std::map<int, std::string>& fixed) {
  tricks::Hand used = 0;
  for (const auto& [seat, text] : fixed) used |= HandOf(text);
  std::vector<int> rest;
  for (int id = 0; id < kTiles; ++id) {
    if (!(used & tricks::Bit(id))) rest.push_back(id);
  }
  Deal deal;
  size_t next = 0;
  for (int seat = 0; seat < kSeats; ++seat) {
    deal.hands.emplace_back();
    if (auto it = fixed.find(seat); it != fixed.end()) {
      for (tricks::Hand h = HandOf(it->second); h; h &= h - 1) {
        deal.hands.back().push_back(tricks::TileOf(std::countr_zero(h)));
      }
    } else {
      for (int k = 0; k < kHandSize; ++k) deal.hands.back().push_back(tricks::TileOf(rest[next++]));
    }
  }
  return deal;
}

std::unique_ptr<State> NewState(const std::map<int, std::string>& fixed,
                                 const RuleText& rules = {}) {
  auto game = DefaultRegistry().CreateGame("forty_two", rules);
  EXPECT_TRUE(game.ok()) << game.status();
  auto state = (*game)->NewMatch(1, {DealWith(fixed)});
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

Action HeuristicAction(const State& state) {
  ActionList legal;
  state.LegalActions(legal);
  HeuristicBot bot(7);
  const Action a = bot.ChooseAction(*state.ViewFor(state.CurrentSeat()), legal.span());
  EXPECT_TRUE(legal.Contains(a));
  return a;
}

std::string HeuristicChoice(const State& state) {
  return engine_test::ChoiceOf<HeuristicBot>(state);
}

const FortyTwoView& AsView(const View& view) { return static_cast<const FortyTwoView&>(view); }

// Heuristic bots play the first hand to its end; its result as the table sees it.
std::optional<HandResult> PlayOutFirstHand(State& state) {
  while (state.Round() == 0) state.Apply(HeuristicAction(state));
  return AsView(*state.ViewFor(0)).last_hand;
}

// Seat 1 bids first in round 0 (seat 0 shakes).
constexpr const char* kAllDoubles = "0-0 1-1 2-2 3-3 4-4 5-5 6-6";
constexpr const char* kSixDoubles = "6-6 5-5 4-4 3-3 2-2 0-0 6-5";
// Enough for the rules' plunge (4) and splash (3), not for the bot's.
constexpr const char* kFiveDoubles = "6-6 5-5 4-4 3-3 2-2 6-5 6-4";
constexpr const char* kFourDoubles = "6-6 5-5 4-4 3-3 6-5 6-4 5-4";
// Every tile at distance 0 from 7 pips (6-1 5-2 4-3) and four at distance 1.
constexpr const char* kSureSevens = "6-1 5-2 4-3 6-0 5-1 4-2 3-3";
// Short of 4-3: an opponent's 4-3 beats the bidder's tiles at distance 1.
constexpr const char* kAlmostSevens = "6-1 5-2 6-0 5-1 4-2 3-3 6-2";
// Low tiles: every lead the others can make in a suit finds a lower tile here; 1-0 is the
// lowest one, which an opponent holding a one must overtake. Too weak to bid points.
constexpr const char* kLowNello = "1-0 2-0 2-1 3-0 3-1 4-0 5-0";
// No suit of three, no double.
constexpr const char* kWeakHand = "1-0 3-2 5-4 6-1 6-3 5-0 4-2";
constexpr const char* kSixes = "6-6 6-5 6-4 6-3 6-2 6-1 6-0";

const RuleText kAllContracts = {{"nello", "true"},
                                {"sevens", "true"},
                                {"plunge", "true"},
                                {"splash", "true"},
                                {"doubles_trump", "true"}};

// ---- Hand tests ----

TEST(FortyTwoContractHands, SureSevensNeedsEveryNearerTile) {
  EXPECT_TRUE(IsSureSevensHand(HandOf(kSureSevens)));
  EXPECT_FALSE(IsSureSevensHand(HandOf(kAlmostSevens)));
  EXPECT_FALSE(IsSureSevensHand(HandOf(kWeakHand)));
  // One tile at distance 0 is a sure sevens hand only alone: add any other tile and the other
  // two distance-0 tiles beat it.
  EXPECT_FALSE(IsSureSevensHand(HandOf("6-1 6-6")));
}

TEST(FortyTwoContractHands, NelloHandDependsOnHowDoublesRank) {
  using tricks::DoublesRank;
  EXPECT_TRUE(IsNelloHand(HandOf(kLowNello), DoublesRank::kHigh));
  EXPECT_TRUE(IsNelloHand(HandOf("6-0 5-0 4-0 3-0 2-0 1-0 0-0"), DoublesRank::kHigh));
  // Doubles low: a led 1-1 is under every one, so holding 1-0 and 2-1 is a risk.
  EXPECT_FALSE(IsNelloHand(HandOf(kLowNello), DoublesRank::kLow));
  // All the doubles: the lowest of every suit when low; the top of every suit when high; and
  // a suit of their own that nobody else can follow.
  EXPECT_TRUE(IsNelloHand(HandOf(kAllDoubles), DoublesRank::kLow));
  EXPECT_FALSE(IsNelloHand(HandOf(kAllDoubles), DoublesRank::kHigh));
  EXPECT_FALSE(IsNelloHand(HandOf(kAllDoubles), DoublesRank::kOwnSuit));
  for (DoublesRank d : {DoublesRank::kHigh, DoublesRank::kLow, DoublesRank::kOwnSuit}) {
    EXPECT_FALSE(IsNelloHand(HandOf(kWeakHand), d));
    EXPECT_FALSE(IsNelloHand(HandOf(kSixes), d));
    EXPECT_FALSE(IsNelloHand(HandOf(kFiveDoubles), d));
  }
}

// ---- Plunge and splash ----

TEST(FortyTwoContractBots, PlungesWithAllTheDoubles) {
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kAllDoubles}}, kAllContracts)), "plunge");
  // Only splash allowed: splash.
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kAllDoubles}}, {{"splash", "true"}})), "splash");
  // Neither allowed: no contract bid.
  const std::string plain = HeuristicChoice(*NewState({{1, kAllDoubles}}));
  EXPECT_NE(plain, "plunge");
  EXPECT_NE(plain, "splash");
}

TEST(FortyTwoContractBots, SplashesWithSixDoubles) {
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kSixDoubles}}, kAllContracts)), "splash");
  // Plunge is legal with six doubles, but the bot wants all seven for it.
  EXPECT_NE(HeuristicChoice(*NewState({{1, kSixDoubles}}, {{"plunge", "true"}})), "plunge");
}

// The rules allow plunge with four doubles and splash with three; the bot, whose partner
// must then win every trick blind, does not bid them on so few.
TEST(FortyTwoContractBots, NoPlungeOrSplashWithFewerDoubles) {
  for (const char* hand : {kFiveDoubles, kFourDoubles}) {
    auto state = NewState({{1, hand}}, kAllContracts);
    ActionList legal;
    state->LegalActions(legal);
    ASSERT_TRUE(legal.Contains(kPlunge) && legal.Contains(kSplash)) << hand;
    const std::string choice = HeuristicChoice(*state);
    EXPECT_NE(choice, "plunge") << hand;
    EXPECT_NE(choice, "splash") << hand;
  }
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kWeakHand}}, kAllContracts)), "pass");
}

TEST(FortyTwoContractBots, PartnerNamesDoublesAfterPlunge) {
  auto state = NewState({{1, kAllDoubles}}, kAllContracts);
  Do(*state, "plunge, pass, pass, pass");
  ASSERT_EQ(state->CurrentSeat(), 3);  // the plunger's partner names trumps
  EXPECT_EQ(HeuristicChoice(*state), "trump doubles");

  // Without doubles_trump: its own best suit.
  auto plain = NewState({{1, kSixDoubles}, {3, "1-1 1-0 2-1 3-1 4-1 5-1 6-1"}},
                        {{"plunge", "true"}});
  Do(*plain, "plunge, pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*plain), "trump 1");
}

TEST(FortyTwoContractBots, SplashPartnerNamesDoubles) {
  auto state = NewState({{1, kSixDoubles}}, kAllContracts);
  Do(*state, "splash, pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*state), "trump doubles");
}

// Played out against heuristic opponents, the plunge on all the doubles takes every trick.
TEST(FortyTwoContractBots, PlungeOnAllTheDoublesIsMade) {
  auto state = NewState({{1, kAllDoubles}}, kAllContracts);
  const std::optional<HandResult> last = PlayOutFirstHand(*state);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->bid, "plunge");
  EXPECT_EQ(last->contract, "trump doubles");
  EXPECT_TRUE(last->made);
}

// ---- Sevens ----

TEST(FortyTwoContractBots, BidsAndNamesSevensWithASureHand) {
  auto state = NewState({{1, kSureSevens}}, kAllContracts);
  EXPECT_EQ(HeuristicChoice(*state), "bid 42");
  Do(*state, "bid 42, pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*state), "sevens");
  // With mark bidding the cheapest bid allowing sevens is one mark.
  RuleText marks = kAllContracts;
  marks.emplace_back("mark_bidding", "true");
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kSureSevens}}, marks)), "bid 1 mark");
}

TEST(FortyTwoContractBots, OutbidsAnOpponentForSevens) {
  auto state = NewState({{2, kSureSevens}}, {{"sevens", "true"}});
  Do(*state, "bid 35");
  EXPECT_EQ(HeuristicChoice(*state), "bid 42");
}

TEST(FortyTwoContractBots, NoSevensWhenNotSureOrNotAllowed) {
  EXPECT_NE(HeuristicChoice(*NewState({{1, kAlmostSevens}}, kAllContracts)), "bid 42");
  EXPECT_NE(HeuristicChoice(*NewState({{1, kSureSevens}})), "bid 42");
  // An ordinary 42 bidder names trumps, not sevens.
  auto state = NewState({{1, kSixes}}, kAllContracts);
  Do(*state, "bid 42, pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*state), "trump 6");
}

// The sure sevens hand takes every trick against the heuristic opponents.
TEST(FortyTwoContractBots, SureSevensIsMade) {
  auto state = NewState({{1, kSureSevens}}, kAllContracts);
  const std::optional<HandResult> last = PlayOutFirstHand(*state);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->contract, "sevens");
  EXPECT_TRUE(last->made);
}

// ---- Nello ----

TEST(FortyTwoContractBots, BidsAndNamesNelloWithALowHand) {
  auto state = NewState({{1, kLowNello}}, kAllContracts);
  EXPECT_EQ(HeuristicChoice(*state), "bid 42");
  Do(*state, "bid 42, pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*state), "nello");
  // Over an opponent's bid, in marks.
  RuleText marks = {{"nello", "true"}, {"mark_bidding", "true"}};
  auto over = NewState({{2, kLowNello}}, marks);
  Do(*over, "bid 30");
  EXPECT_EQ(HeuristicChoice(*over), "bid 1 mark");
}

TEST(FortyTwoContractBots, NelloFollowsTheDoublesOption) {
  // Doubles low: the doubles are the nello hand, and the low hand is not.
  const RuleText low = {{"nello", "true"}, {"nello_doubles", "low"}};
  auto doubles = NewState({{1, kAllDoubles}}, low);
  EXPECT_EQ(HeuristicChoice(*doubles), "bid 42");
  Do(*doubles, "bid 42, pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*doubles), "nello");
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kLowNello}}, low)), "pass");
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kAllDoubles}}, {{"nello", "true"}})), "pass");
}

TEST(FortyTwoContractBots, NoNelloWhenNotAllowedOrNotLow) {
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kLowNello}})), "pass");
  EXPECT_EQ(HeuristicChoice(*NewState({{1, kWeakHand}}, kAllContracts)), "pass");
  // A strong hand bids points and names trumps.
  auto state = NewState({{1, kSixes}}, kAllContracts);
  EXPECT_NE(HeuristicChoice(*state), "pass");
  Do(*state, HeuristicChoice(*state) + ", pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*state), "trump 6");
}

// The low hand, played by the heuristic bot against heuristic opponents, takes no trick.
TEST(FortyTwoContractBots, LowNelloHandIsMade) {
  auto state = NewState({{1, kLowNello}}, {{"nello", "true"}});
  const std::optional<HandResult> last = PlayOutFirstHand(*state);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->contract, "nello");
  EXPECT_TRUE(last->made);
  EXPECT_EQ(last->taken[1], 0);
}

// An opponent after the nello bidder stays under the bidder's tile; the ordinary play would
// win the trick cheaply.
TEST(FortyTwoContractBots, OpponentStaysUnderTheNelloBidder) {
  auto state = NewState({{1, "5-3 1-0 2-0 2-1 3-0 3-1 4-0"}, {2, "6-5 5-1 6-6 6-4 6-3 6-2 6-1"}},
                        {{"nello", "true"}});
  Do(*state, "bid 42, pass, pass, pass, nello, 5-3");
  ASSERT_EQ(state->CurrentSeat(), 2);
  EXPECT_EQ(HeuristicChoice(*state), "5-1");
}

// Whatever its hand, the nello bidder never takes a trick it can avoid: when it follows and a
// legal tile would not win, it plays one.
TEST(FortyTwoContractBots, NelloBidderNeverWinsAnAvoidableTrick) {
  int checked = 0;
  int ducked = 0;
  for (const char* doubles : {"high", "low", "own"}) {
    auto game = *DefaultRegistry().CreateGame(
        "forty_two", RuleText{{"nello", "true"}, {"nello_doubles", doubles}});
    for (uint64_t seed = 0; seed < 60; ++seed) {
      auto state = *game->NewMatch(seed);
      Do(*state, "bid 42, pass, pass, pass, nello");  // seat 1, any hand
      auto& fs = static_cast<FortyTwoState&>(*state);
      while (state->Round() == 0) {
        const Action a = HeuristicAction(*state);
        const int seat = state->CurrentSeat();
        const auto view = state->ViewFor(seat);
        const tricks::Trick trick = tricks::ToTrick(AsView(*view).trick);
        if (seat == 1 && !trick.empty()) {
          ActionList legal;
          state->LegalActions(legal);
          auto wins = [&](Action x) {
            tricks::Trick after = trick;
            after.Add(seat, static_cast<int>(x));
            return tricks::WinningIndex(after, fs.trick_rules()) == after.size - 1;
          };
          bool can_duck = false;
          for (Action x : legal.span()) can_duck |= !wins(x);
          if (can_duck) {
            ++checked;
            EXPECT_FALSE(wins(a)) << "seed " << seed << " doubles " << doubles << " plays "
                                  << state->ActionToString(a);
            ducked += wins(a) ? 0 : 1;
          }
        }
        state->Apply(a);
      }
    }
  }
  EXPECT_GT(checked, 300);
  EXPECT_EQ(ducked, checked);
}

// Against forced nello bids on random hands, heuristic opponents set the bidder more often
// than random opponents do.
TEST(FortyTwoContractBots, OpponentsSetNelloMoreOftenThanRandom) {
  auto game = *DefaultRegistry().CreateGame("forty_two", RuleText{{"nello", "true"}});
  auto sets_with = [&](const std::string& opponents) {
    int sets = 0;
    for (uint64_t seed = 0; seed < 200; ++seed) {
      std::vector<std::unique_ptr<Bot>> bots;
      for (int s = 0; s < kSeats; ++s) {
        bots.push_back(
            *DefaultBots().Make(s % 2 == 1 ? "heuristic" : opponents, *game, DeriveSeed(seed, s)));
      }
      auto state = *game->NewMatch(seed);
      Do(*state, "bid 42, pass, pass, pass, nello");
      ActionList legal;
      while (state->Round() == 0) {
        legal.clear();
        state->LegalActions(legal);
        const int seat = state->CurrentSeat();
        state->Apply(bots[seat]->ChooseAction(*state->ViewFor(seat), legal.span()));
      }
      sets += AsView(*state->ViewFor(0)).last_hand->made ? 0 : 1;
    }
    return sets;
  };
  const int heuristic = sets_with("heuristic");
  const int random = sets_with("random");
  RecordProperty("sets_by_heuristic", heuristic);
  RecordProperty("sets_by_random", random);
  std::printf("forced nello on 200 deals: set by heuristic opponents %d, by random %d\n",
              heuristic, random);
  EXPECT_GT(heuristic, random + 10) << "heuristic " << heuristic << " random " << random;
}

// ---- Matches with every contract allowed ----

struct MatchStats {
  int winning_team = -1;
  int contracts_bid = 0;   // by the heuristic team: plunge, splash, nello, sevens
  int contracts_made = 0;
};

MatchStats PlayMatch(const RuleText& rules, uint64_t seed, const std::vector<std::string>& bots,
                     int heuristic_team) {
  auto game = *DefaultRegistry().CreateGame("forty_two", rules);
  std::vector<std::unique_ptr<Bot>> seats;
  for (size_t s = 0; s < bots.size(); ++s) {
    seats.push_back(*DefaultBots().Make(bots[s], *game, DeriveSeed(seed, s)));
  }
  auto state = *game->NewMatch(seed);
  MatchStats stats;
  auto tally = [&] {
    const auto view = state->ViewFor(kSpectator);
    const auto& last = AsView(*view).last_hand;
    if (!last || last->bidder == kNobody || last->bidder % 2 != heuristic_team) return;
    if (last->bid == "plunge" || last->bid == "splash" || last->contract == "nello" ||
        last->contract == "sevens") {
      ++stats.contracts_bid;
      stats.contracts_made += last->made ? 1 : 0;
    }
  };
  ActionList legal;
  int round = 0;
  for (int step = 0; !state->IsTerminal(); ++step) {
    EXPECT_LT(step, 100000) << "match does not end";
    if (step >= 100000) break;
    legal.clear();
    state->LegalActions(legal);
    const int seat = state->CurrentSeat();
    const Action a = seats[seat]->ChooseAction(*state->ViewFor(seat), legal.span());
    EXPECT_TRUE(legal.Contains(a));
    state->Apply(a);
    if (state->Round() != round || state->IsTerminal()) {
      round = state->Round();
      tally();
    }
  }
  stats.winning_team = static_cast<FortyTwoState&>(*state).winning_team();
  return stats;
}

TEST(FortyTwoContractBots, HeuristicBeatsRandomWithEveryContract) {
  const std::vector<std::pair<std::string, RuleText>> configs = {
      {"contracts", kAllContracts}, {"texas", {{"preset", "texas"}}}};
  for (const auto& [name, base] : configs) {
    int wins = 0;
    int bid = 0;
    int made = 0;
    constexpr int kMatches = 200;
    for (int i = 0; i < kMatches; ++i) {
      const int team = i % 2;  // alternate which team is the heuristic one
      const std::vector<std::string> bots =
          team == 0 ? std::vector<std::string>{"heuristic", "random", "heuristic", "random"}
                    : std::vector<std::string>{"random", "heuristic", "random", "heuristic"};
      const MatchStats stats = PlayMatch(base, 5000 + i, bots, team);
      ASSERT_NE(stats.winning_team, -1);
      wins += stats.winning_team == team ? 1 : 0;
      bid += stats.contracts_bid;
      made += stats.contracts_made;
    }
    RecordProperty(name + "_wins", wins);
    RecordProperty(name + "_contracts_bid", bid);
    RecordProperty(name + "_contracts_made", made);
    std::printf("%s: heuristic won %d/%d; contracts bid %d, made %d\n", name.c_str(), wins,
                kMatches, bid, made);
    EXPECT_GE(wins, kMatches * 8 / 10) << name;
    EXPECT_GT(bid, 0) << name;  // the contracts come up
  }
}

// Heuristic-only matches with every contract allowed finish and are deterministic by seed.
TEST(FortyTwoContractBots, HeuristicMatchesFinishDeterministically) {
  const std::vector<std::string> bots(kSeats, "heuristic");
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const MatchStats a = PlayMatch(kAllContracts, seed, bots, 0);
    const MatchStats b = PlayMatch(kAllContracts, seed, bots, 0);
    EXPECT_NE(a.winning_team, -1);
    EXPECT_EQ(a.winning_team, b.winning_team);
    EXPECT_EQ(a.contracts_bid, b.contracts_bid);
  }
}

}  // namespace
}  // namespace boneyard::forty_two

