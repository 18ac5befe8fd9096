// Moon rules (docs/rules/moon.md), one scenario per rule sentence and ruling, each from an
// explicit deal. Seats act by action text, as a player or a record would.
#include "engine/games/moon/moon.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::moon {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using engine_test::Tiles;

// Seat 0 holds six sixes and 5-5, seat 1 four fours and four fives, seat 2 the small tiles;
// the widow is the double-blank. `rotation` moves every hand `rotation` seats on.
Deal MakeDeal(int rotation = 0, const std::string& widow = "0-0") {
  const std::vector<std::string> hands = {"6-6 6-5 6-4 6-3 6-2 6-1 5-5",
                                          "5-4 5-3 5-2 5-1 4-4 4-3 4-2",
                                          "4-1 3-3 3-2 3-1 2-2 2-1 1-1"};
  Deal deal;
  deal.hands.resize(3);
  for (int s = 0; s < 3; ++s) deal.hands[(s + rotation) % 3] = Tiles(hands[s]);
  deal.boneyard = Tiles(widow);
  return deal;
}

// Seat 1's hand (bidding 4 or 5, fours trump, discarding the widow) takes 4 tricks, the strong
// hand 3, the small hand none. The bidder leads; seats follow clockwise.
const char* kFoursPlay =
    "trump 4, discard 0-0, 4-4, 4-1, 6-4, 5-4, 1-1, 6-1, 4-3, 2-1, 6-2, 4-2, 3-1, 6-3, "
    "5-3, 3-2, 5-5, 6-6, 5-2, 2-2, 6-5, 5-1, 3-3";
// Seat 0 shoots the moon with sixes trump and takes all 7.
const char* kMoonPlay =
    "trump 6, discard 0-0, 6-6, 5-4, 4-1, 6-5, 5-3, 3-3, 6-4, 5-2, 3-2, 6-3, 5-1, 3-1, "
    "6-2, 4-4, 2-2, 6-1, 4-3, 2-1, 5-5, 4-2, 1-1";

class Match : public engine_test::TypedMatch<MoonState, MoonView> {
 public:
  Match(const RuleText& rules, std::vector<Deal> deals, uint64_t seed = 1)
      : TypedMatch("moon", rules, std::move(deals), seed) {}

  MoonHandResult LastHand() { return *View(kSpectator)->last_hand; }
};

// ---- Tiles, seats, the deal ----

// Ruling: 22 tiles — the blanks removed but the double-blank; 3 players draw 7, the 22nd is
// the widow; each plays for themselves.
TEST(MoonRules, TwentyTwoTilesThreePlayersSevenEachAndAWidow) {
  EXPECT_EQ(std::popcount(kMoonTiles), 22);
  EXPECT_TRUE(kMoonTiles & tricks::Bit(tricks::IdOf(Tile(0, 0))));
  for (int pip = 1; pip <= 6; ++pip) EXPECT_FALSE(kMoonTiles & tricks::Bit(tricks::IdOf(Tile(pip, 0))));
  Match m({}, {MakeDeal()});
  auto view = m.View(0);
  EXPECT_THAT(view->hand_counts, ElementsAre(7, 7, 7));
  EXPECT_EQ(view->boneyard_count, 1);
  EXPECT_TRUE(m.base().game().teams().empty());
  // A deal with a blank, or without a widow, is refused.
  auto game = *DefaultRegistry().CreateGame("moon", RuleText{});
  EXPECT_THAT(game->NewMatch(1, {MakeDeal(0, "6-0")}).status().message(), HasSubstr("6-0"));
  Deal no_widow = MakeDeal();
  no_widow.boneyard.clear();
  EXPECT_FALSE(game->NewMatch(1, {no_widow}).ok());
  EXPECT_EQ(m.base().ParseAction("6-0").status().code(), absl::StatusCode::kInvalidArgument);
}

// ---- Bidding ----

// Ruling: bidding starts left of the shaker (seat 0 in round 1); pass or bid 4 to 7 tricks,
// each bid higher than the last, or 21.
TEST(MoonRules, BidsFourToSevenEachHigherOr21) {
  Match m({}, {MakeDeal()});
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_THAT(m.Legal(), ElementsAre("pass", "bid 4", "bid 5", "bid 6", "bid 7", "bid 21"));
  EXPECT_THAT(m.Error("bid 3").message(), HasSubstr("4 to 7"));
  EXPECT_THAT(m.Error("bid 8").message(), HasSubstr("4 to 7"));
  m.Do("bid 5");
  EXPECT_THAT(m.Legal(), ElementsAre("pass", "bid 6", "bid 7", "bid 21"));
  EXPECT_THAT(m.Error("bid 5").message(), HasSubstr("higher than the highest so far (bid 5)"));
  m.Do("pass");
  EXPECT_EQ(m.base().CurrentSeat(), 0);  // the shaker bids last
  m.Do("bid 6");
  EXPECT_EQ(m.View(0)->phase, MoonView::Phase::kDeclaring);
  EXPECT_EQ(m.View(0)->bidder, 0);
}

// Ruling: after a 7 only 21 may follow.
TEST(MoonRules, AfterSevenOnly21MayFollow) {
  Match m({}, {MakeDeal()});
  m.Do("bid 7");
  EXPECT_THAT(m.Legal(), ElementsAre("pass", "bid 21"));
  EXPECT_THAT(m.Error("bid 8").message(), HasSubstr("4 to 7"));
}

// Ruling: 21 ends the bidding at once.
TEST(MoonRules, TwentyOneEndsTheBidding) {
  Match m({}, {MakeDeal()});
  m.Do("pass, bid 21");  // seat 2 shoots the moon; seat 0 never speaks
  auto view = m.View(kSpectator);
  EXPECT_EQ(view->phase, MoonView::Phase::kDeclaring);
  EXPECT_EQ(view->bidder, 2);
  EXPECT_EQ(view->bids.size(), 2u);
  EXPECT_EQ(m.base().CurrentSeat(), 2);
}

// Ruling: all pass → redeal by the next shaker, no score.
TEST(MoonRules, AllPassRedeal) {
  Match m({}, {MakeDeal()});
  m.Do("pass, pass, pass");
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_EQ(m.View(0)->shaker, 1);
  EXPECT_EQ(m.base().CurrentSeat(), 2);
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 0, 0));
  EXPECT_EQ(m.LastHand().bidder, kNobody);
}

// ---- The widow, trumps and the discard ----

// Ruling: the bidder takes the widow into hand, names trumps, then discards one tile face
// down — the widow itself allowed — and leads.
TEST(MoonRules, BidderTakesWidowNamesTrumpsAndDiscards) {
  Match m({}, {MakeDeal()});
  m.Do("pass, pass, bid 4");
  auto bidder = m.View(0);
  EXPECT_EQ(bidder->hand.size(), 8u);
  EXPECT_EQ(bidder->hand.front(), Tile(0, 0));  // the widow
  EXPECT_EQ(bidder->boneyard_count, 0);
  EXPECT_EQ(m.Legal(), std::vector<std::string>({"trump 0", "trump 1", "trump 2", "trump 3",
                                                 "trump 4", "trump 5", "trump 6"}));
  EXPECT_THAT(m.Error("discard 0-0").message(), HasSubstr("after taking the widow and naming trumps"));
  EXPECT_THAT(m.Error("trump none").message(), HasSubstr("no_trump"));
  m.Do("trump 6");
  EXPECT_EQ(m.Legal().size(), 8u);  // any of the 8 tiles
  EXPECT_EQ(m.Legal().front(), "discard 0-0");
  EXPECT_THAT(m.Error("6-6").message(), HasSubstr("discard first"));
  m.Do("discard 0-0");  // the widow itself
  EXPECT_EQ(m.View(0)->hand.size(), 7u);
  EXPECT_EQ(m.View(0)->phase, MoonView::Phase::kPlaying);
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  EXPECT_THAT(m.Error("discard 6-6").message(), HasSubstr("already discarded"));
}

// Option no_trump: the bidder may name "trump none".
TEST(MoonRules, NoTrumpOption) {
  Match m({{"no_trump", "true"}}, {MakeDeal()});
  m.Do("pass, pass, bid 4");
  EXPECT_EQ(m.Legal().back(), "trump none");
  m.Do("trump none, discard 0-0, 6-4");  // no trumps: 6-4 calls sixes
  EXPECT_EQ(m.Legal().size(), 7u);        // seat 1 holds no six: any tile
  m.Do("4-4, 4-1");                       // a four does not follow sixes
  EXPECT_EQ(m.View(0)->tricks[0].winner, 0);
  EXPECT_EQ(m.View(0)->ToJson()["layout"]["trump"], "trump none");
}

// Hidden information: the widow is hidden from everyone until taken, then seen only by the
// bidder; the discard is seen only by the bidder — never by the others or a spectator.
TEST(MoonRules, WidowAndDiscardHiddenFromTheOthers) {
  Match m({}, {MakeDeal(0, "0-0")});
  auto shows = [&](int seat, const std::string& tile) {
    return m.base().ViewFor(seat)->ToJson().dump().find(absl::StrCat("\"", tile, "\"")) !=
           std::string::npos;
  };
  const int widow = tricks::IdOf(Tile(0, 0));
  for (int seat = kSpectator; seat < 3; ++seat) {
    EXPECT_FALSE(shows(seat, "0-0")) << seat;
    EXPECT_TRUE(m.base().HiddenFrom(seat).Test(widow)) << seat;
  }
  m.Do("pass, pass, bid 4, trump 6");
  EXPECT_TRUE(shows(0, "0-0"));
  EXPECT_FALSE(shows(1, "0-0"));
  // Everyone sees that a discard was made, not which tile (the service's match events).
  absl::StatusOr<Action> discarding = m.base().ResolveAction(0, "discard 5-5");
  ASSERT_TRUE(discarding.ok()) << discarding.status();
  EXPECT_EQ(m.base().PublicActionToString(*discarding), "discard");
  EXPECT_EQ(m.base().ActionToString(*discarding), "discard 5-5");
  m.Do("discard 5-5");
  const int discard = tricks::IdOf(Tile(5, 5));
  EXPECT_EQ(m.View(0)->ToJson()["layout"]["discard"], "5-5");
  for (int seat : {kSpectator, 1, 2}) {
    EXPECT_FALSE(shows(seat, "5-5")) << seat;
    EXPECT_TRUE(m.View(seat)->ToJson()["layout"]["discard"].is_null()) << seat;
    EXPECT_TRUE(m.base().HiddenFrom(seat).Test(discard)) << seat;
  }
  EXPECT_FALSE(m.base().HiddenFrom(0).Test(discard));
  // Determinizing for seat 1 may move the discard but never shows seat 1 anything new.
  const nlohmann::json before = m.base().ViewFor(1)->ToJson();
  Rng rng(2);
  bool moved = false;
  for (int i = 0; i < 100; ++i) {
    auto sampled = m.base().Determinize(1, rng);
    ASSERT_TRUE(sampled->CheckInvariants().ok()) << sampled->CheckInvariants();
    EXPECT_EQ(sampled->ViewFor(1)->ToJson(), before);
    moved |= static_cast<MoonState&>(*sampled).discard() != discard;
  }
  EXPECT_TRUE(moved);
}

// ---- Play ----

// Rule: suits and ranks as in Forty-Two: a led trump calls trumps; a player unable to follow
// may play anything; the double is highest; the highest trump wins.
TEST(MoonRules, SuitsAndRanksAsFortyTwo) {
  Match m({}, {MakeDeal()});
  m.Do("bid 4, pass, pass, trump 4, discard 0-0");
  m.Do("4-4");
  EXPECT_THAT(m.Legal(), ElementsAre("4-1"));  // seat 2's only four
  m.Do("4-1");
  EXPECT_THAT(m.Legal(), ElementsAre("6-4"));
  m.Do("6-4, 5-3");  // seat 1 wins with the double and leads 5-3: fives
  EXPECT_EQ(m.View(0)->tricks[0].winner, 1);
  EXPECT_EQ(m.Legal().size(), 6u);  // seat 2 holds no five: any of its 6 tiles
  m.Do("1-1");
  EXPECT_THAT(m.Legal(), ElementsAre("5-5", "6-5"));
  m.Do("5-5");
  EXPECT_EQ(m.View(0)->tricks[1].winner, 0);
}

// Ruling: a made bid — every player scores a point per trick taken.
TEST(MoonRules, MadeBidEveryoneScoresTheirTricks) {
  Match m({}, {MakeDeal()});
  m.Do("bid 4, pass, pass");
  m.Do(kFoursPlay);
  const MoonHandResult r = m.LastHand();
  EXPECT_THAT(r.tricks, ElementsAre(3, 4, 0));
  EXPECT_TRUE(r.made);
  EXPECT_THAT(m.base().Scores(), ElementsAre(3, 4, 0));
}

// Ruling: a failed bid costs the bidder the bid (negative allowed); the others still score.
TEST(MoonRules, FailedBidCostsTheBid) {
  Match m({}, {MakeDeal()});
  m.Do("bid 5, pass, pass");
  m.Do(kFoursPlay);
  EXPECT_FALSE(m.LastHand().made);
  EXPECT_THAT(m.base().Scores(), ElementsAre(3, -5, 0));
}

// Ruling: a made 21 (all 7 tricks) scores 21 — the game.
TEST(MoonRules, ShootingTheMoonMadeScores21AndWins) {
  Match m({}, {MakeDeal()});
  m.Do("pass, pass, bid 21");
  m.Do(kMoonPlay);
  ASSERT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(21, 0, 0));
  EXPECT_THAT(m.base().Ranks(), ElementsAre(1, 2, 2));
  EXPECT_EQ(m.state().winner(), 0);
}

// Ruling: a failed 21 costs 21.
TEST(MoonRules, ShootingTheMoonFailedCosts21) {
  Match m({}, {MakeDeal()});
  m.Do("bid 21");
  m.Do(kFoursPlay);
  EXPECT_THAT(m.base().Scores(), ElementsAre(3, -21, 0));
  EXPECT_FALSE(m.base().IsTerminal());
}

// Ruling: game to 21 (option target); the first to reach it after a hand wins.
TEST(MoonRules, FirstToTargetWins) {
  Match m({{"target", "7"}}, {MakeDeal(), MakeDeal(1)});
  m.Do("bid 4, pass, pass");
  m.Do(kFoursPlay);  // 3 / 4 / 0
  m.Do("bid 4, pass, pass");  // round 2: seat 2 holds the fours hand and bids first
  m.Do(kFoursPlay);  // seat 1 (the strong hand) takes 3 more: 7
  ASSERT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(3, 7, 4));
  EXPECT_THAT(m.base().Ranks(), ElementsAre(3, 1, 2));
  EXPECT_EQ(m.state().winner(), 1);
}

// Ruling: two reach the target on one hand → the bidder wins if among them, even with the
// lower score; the record's winners name the bidder.
TEST(MoonRules, TwoReachTargetBidderWins) {
  Match m({{"target", "12"}}, {MakeDeal(), MakeDeal(), MakeDeal(2), MakeDeal()});
  m.Do("bid 4, pass, pass");  // round 1, seat 1 bids: 3 / 4 / 0
  m.Do(kFoursPlay);
  m.Do("pass, pass, bid 4");  // round 2 (seat 2 first), seat 1 again: 6 / 8 / 0
  m.Do(kFoursPlay);
  m.Do("bid 4, pass, pass");  // round 3 (seat 0 first) holding the fours: 10 / 8 / 3
  m.Do(kFoursPlay);
  EXPECT_THAT(m.base().Scores(), ElementsAre(10, 8, 3));
  m.Do("bid 4, pass, pass");  // round 4, seat 1: 13 / 12 / 3 — both past 12
  m.Do(kFoursPlay);
  ASSERT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(13, 12, 3));
  EXPECT_EQ(m.state().winner(), 1);
  EXPECT_THAT(m.base().Ranks(), ElementsAre(2, 1, 3));
  EXPECT_THAT(ResultOf(m.base()).winners, ElementsAre(1));
}

// Ruling: "All pass: redeal" and "Game to 21": by default nothing else ends a match, however
// many hands it takes (the old default limit ended one after 30).
// Past 32,767 hands too: the hand count never wraps.
TEST(MoonRules, OnlyReachingTheTargetEndsTheMatch) {
  constexpr int kHands = 33'000;
  Match m({}, {MakeDeal()});
  for (int hand = 0; hand < kHands; ++hand) {
    m.Do("pass, pass, pass");
    ASSERT_FALSE(m.base().IsTerminal()) << "after " << hand + 1 << " all-pass hands";
  }
  EXPECT_EQ(m.base().Round(), kHands);
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 0, 0));
  EXPECT_EQ(DefaultRegistry().Find("moon")->options.back().name, "max_hands");
  EXPECT_EQ(std::get<int64_t>(DefaultRegistry().Find("moon")->options.back().default_value), 0);
}

// Option (not in the sheets, off by default): after max_hands hands the highest score wins.
TEST(MoonRules, MaxHandsEndsTheMatch) {
  Match m({{"max_hands", "2"}}, {MakeDeal(), MakeDeal()});
  m.Do("bid 5, pass, pass");
  m.Do(kFoursPlay);  // 3 / -5 / 0
  EXPECT_FALSE(m.base().IsTerminal());
  m.Do("pass, pass, pass");  // an all-pass redeal is a hand too
  ASSERT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(3, -5, 0));
  EXPECT_THAT(m.base().Ranks(), ElementsAre(1, 3, 2));
  EXPECT_EQ(m.state().winner(), 0);
}

// ---- Notation and records ----

TEST(MoonNotation, RoundTripsAndRejectsMalformedText) {
  Match m({}, {MakeDeal()});
  for (const char* text : {"pass", "bid 4", "bid 7", "bid 21", "trump 0", "trump 6",
                           "trump none", "discard 6-4", "discard 0-0", "6-4", "1-1"}) {
    absl::StatusOr<Action> a = m.base().ParseAction(text);
    ASSERT_TRUE(a.ok()) << text << ": " << a.status();
    EXPECT_EQ(m.base().ActionToString(*a), text);
  }
  EXPECT_EQ(*m.base().ParseAction(" Discard  4-6 "), *m.base().ParseAction("discard 6-4"));
  for (const char* bad : {"", "bid", "bid x", "trump 7", "discard", "discard 5-0", "6-4'",
                          "7-1", "discard 6-4 now"}) {
    EXPECT_EQ(m.base().ParseAction(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(MoonRules, RecordReplaysThroughTheReferee) {
  auto game = *DefaultRegistry().CreateGame("moon", RuleText{});
  auto state = *game->NewMatch(5);
  RecordBuilder recorder(*state, 5);
  std::vector<std::unique_ptr<Bot>> bots;
  for (int s = 0; s < 3; ++s) bots.push_back(*DefaultBots().Make("heuristic", *game, s));
  engine_test::PlayOut(*state, bots,
                       [&](const State& before, Action a) { recorder.Add(before, a); });
  const Record record = recorder.Build(*state);
  auto replayed = Replay(*ParseRecord(RecordToJson(record).dump()));
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ((*replayed)->ToString(), state->ToString());
}

}  // namespace
}  // namespace boneyard::moon
