// Forty-Two rules, one scenario per rule sentence and ruling (docs/rules/forty_two.md), each
// from an explicit deal. Seats act by action text, as a player or a record would.
#include "engine/games/forty_two/forty_two.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::forty_two {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Not;
using engine_test::MakeDeal;
using engine_test::Tiles;

// Seat 0 holds five sixes and both tens; seat 2 (its partner) holds the three fives.
const std::vector<std::string> kScoringHands = {
    "6-6 6-5 6-4 4-3 6-2 5-5 1-0", "6-1 4-4 6-3 4-2 3-3 3-1 0-0",
    "5-4 5-3 5-2 5-0 4-1 3-2 6-0", "5-1 4-0 3-0 2-2 2-1 2-0 1-1"};
// Seat 0 bids, names sixes and plays this hand: its team takes 35 (five tricks, 30 in counts),
// the opponents 7 (the 1-1 trick with the 4-1, and the last trick).
const char* kScoringPlay =
    "6-6 6-1 6-0 2-0  1-0 3-1 4-1 1-1  2-2 6-2 4-2 5-2  6-5 6-3 3-2 2-1 "
    " 6-4 3-3 5-0 4-0  5-5 0-0 5-3 5-1  4-3 4-4 5-4 3-0";
// Seat 0 holds four sixes; seat 1 no six at all; seat 2 three sixes; seat 3 none.
const std::vector<std::string> kVoidHands = {
    "6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-5 5-4 5-3 5-2 5-1 5-0 2-2",
    "6-2 6-1 6-0 4-4 4-3 4-2 4-1", "4-0 3-3 3-2 3-1 3-0 2-1 2-0"};
// Seat 1 holds four doubles, seat 2 three, seat 0 none.
const std::vector<std::string> kDoublesHands = {
    "6-5 6-4 6-3 6-2 6-1 6-0 5-4", "6-6 5-5 4-4 3-3 5-3 5-2 5-1",
    "2-2 1-1 0-0 5-0 4-3 4-2 4-1", "4-0 3-2 3-1 3-0 2-1 2-0 1-0"};

// The same hands one seat further round: seat s holds what seat s-1 held.
std::vector<std::string> Rotated(const std::vector<std::string>& hands) {
  return {hands[3], hands[0], hands[1], hands[2]};
}

class Match : public engine_test::TypedMatch<FortyTwoState, FortyTwoView> {
 public:
  Match(const RuleText& rules, std::vector<Deal> deals, uint64_t seed = 1)
      : TypedMatch("forty_two", rules, std::move(deals), seed) {}

  // Tiles separated by spaces, each played by the seat to play.
  void PlayTiles(absl::string_view tiles) {
    for (absl::string_view t : absl::StrSplit(tiles, ' ', absl::SkipEmpty())) {
      ASSERT_NO_FATAL_FAILURE(Play(t));
    }
  }
  // The result lives in the view this keeps, until the next call.
  const HandResult& LastHand() {
    last_view_ = View(kSpectator);
    return *last_view_->last_hand;
  }

 private:
  std::unique_ptr<FortyTwoView> last_view_;
};

std::vector<std::string> Range(const std::string& prefix, int from, int to) {
  std::vector<std::string> out;
  for (int i = from; i <= to; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

// ---- Seats and the deal ----

// Rule: 4 players, 7 tiles each, partners opposite (teams {0,2} and {1,3}).
TEST(FortyTwoRules, FourPlayersSevenTilesPartnersOpposite) {
  Match m({}, {MakeDeal(kScoringHands)});
  auto view = m.View(0);
  EXPECT_THAT(view->hand_counts, ElementsAre(7, 7, 7, 7));
  EXPECT_EQ(view->boneyard_count, 0);
  EXPECT_THAT(view->hand, ElementsAreArray(Tiles("1-0 4-3 5-5 6-2 6-4 6-5 6-6")));
  EXPECT_EQ(m.base().game().teams(), (Teams{{0, 2}, {1, 3}}));
  EXPECT_EQ(m.base().game().num_seats(), 4);
}

// Rule: an explicit deal must be the 28 tiles, 7 to each seat.
TEST(FortyTwoRules, InvalidDealRejected) {
  auto game = *DefaultRegistry().CreateGame("forty_two", RuleText{});
  Deal short_hand = MakeDeal(kScoringHands);
  short_hand.hands[3].pop_back();
  absl::Status s = game->NewMatch(1, {short_hand}).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("deals 7 each"));
}

// ---- Bidding ----

// Ruling: seat 0 shakes round 1; bidding starts left of the shaker (seat 1).
TEST(FortyTwoRules, BiddingStartsLeftOfTheShaker) {
  Match m({}, {MakeDeal(kScoringHands)});
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_EQ(m.View(0)->shaker, 0);
  EXPECT_EQ(m.View(0)->phase, FortyTwoView::Phase::kBidding);
}

// Rule: all four pass → the next shaker (clockwise) reshuffles: a new round, no score.
TEST(FortyTwoRules, AllPassReshuffledByTheNextShaker) {
  Match m({}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, pass");
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_EQ(m.View(0)->shaker, 1);
  EXPECT_EQ(m.base().CurrentSeat(), 2);
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 0, 0, 0));
  EXPECT_NE(m.base().CurrentDeal(), MakeDeal(kScoringHands));
  EXPECT_EQ(m.LastHand().bidder, kNobody);
  m.Do("pass, pass, pass, pass");
  EXPECT_EQ(m.View(0)->shaker, 2);
  EXPECT_EQ(m.base().CurrentSeat(), 3);
}

// Ruling: nothing but the target ends a match, so four players who always pass redeal for as
// long as they like: past 32,767 hands the hand count does not wrap (it did, into a crash).
TEST(FortyTwoRules, AllPassRedealsGoOnWithoutEnd) {
  constexpr int kHands = 33'000;
  Match m({}, {MakeDeal(kScoringHands)});
  for (int hand = 0; hand < kHands; ++hand) {
    m.Do("pass, pass, pass, pass");
    ASSERT_FALSE(m.base().IsTerminal());
  }
  EXPECT_EQ(m.base().Round(), kHands);
  EXPECT_EQ(m.View(0)->shaker, kHands % 4);
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 0, 0, 0));
}

// Rule: bids run from 30 to 42.
TEST(FortyTwoRules, BidsRunFromThirtyToFortyTwo) {
  Match m({}, {MakeDeal(kScoringHands)});
  std::vector<std::string> want = {"pass"};
  for (const std::string& b : Range("bid ", 30, 42)) want.push_back(b);
  EXPECT_EQ(m.Legal(), want);
  for (const char* bad : {"bid 29", "bid 43"}) {
    absl::Status s = m.Error(bad);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << bad;
    EXPECT_THAT(s.message(), HasSubstr("from 30 to 42")) << bad;
  }
}

// Rule: each bid must be higher than the last.
TEST(FortyTwoRules, EachBidMustExceedTheLast) {
  Match m({}, {MakeDeal(kScoringHands)});
  m.Do("bid 35");
  std::vector<std::string> want = {"pass"};
  for (const std::string& b : Range("bid ", 36, 42)) want.push_back(b);
  EXPECT_EQ(m.Legal(), want);
  EXPECT_THAT(m.Error("bid 35").message(), HasSubstr("higher than the highest so far (bid 35)"));
}

// Rule: each player bids once, the shaker last; the highest bidder names trumps.
TEST(FortyTwoRules, EachPlayerBidsOnceShakerLast) {
  Match m({}, {MakeDeal(kScoringHands)});
  m.Do("bid 30, pass, pass");
  EXPECT_EQ(m.base().CurrentSeat(), 0);  // the shaker
  m.Do("bid 31");
  auto view = m.View(kSpectator);
  EXPECT_EQ(view->phase, FortyTwoView::Phase::kDeclaring);
  EXPECT_EQ(view->high_bidder, 0);
  EXPECT_EQ(view->declarer, 0);
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  EXPECT_EQ(view->bids.size(), 4u);
  EXPECT_THAT(m.Error("bid 32").message(), HasSubstr("the bidding is over"));
}

// Option shaker_must_bid: when the first three pass, the shaker may not pass.
TEST(FortyTwoRules, ShakerMustBidOption) {
  Match forced({{"shaker_must_bid", "true"}}, {MakeDeal(kScoringHands)});
  forced.Do("pass, pass, pass");
  EXPECT_THAT(forced.Legal(), Not(Contains("pass")));
  EXPECT_THAT(forced.Legal(), Contains("bid 30"));
  EXPECT_THAT(forced.Error("pass").message(), HasSubstr("shaker_must_bid"));
  forced.Do("bid 30");
  EXPECT_EQ(forced.View(0)->declarer, 0);

  Match free({}, {MakeDeal(kScoringHands)});
  free.Do("pass, pass, pass");
  EXPECT_THAT(free.Legal(), Contains("pass"));
}

// ---- Trumps and play ----

// Rule: the winner names trumps and leads the first trick (any tile).
TEST(FortyTwoRules, WinnerNamesTrumpsAndLeads) {
  Match m({}, {MakeDeal(kScoringHands)});
  m.Do("bid 30, pass, pass, pass");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_EQ(m.Legal(), Range("trump ", 0, 6));
  EXPECT_THAT(m.Error("6-1").message(), HasSubstr("no tile is played"));
  m.Do("trump 4");
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_EQ(m.Legal().size(), 7u);
  EXPECT_EQ(m.View(3)->ToJson()["layout"]["contract"], "trump 4");
}

// Rule: a trump belongs only to the trump suit: with twos trump, 6-2 does not follow sixes.
TEST(FortyTwoRules, TrumpTileBelongsOnlyToTrumpSuit) {
  Match m({}, {MakeDeal(kVoidHands)});
  m.Do("pass, pass, pass, bid 30, trump 2, 6-6");
  EXPECT_EQ(m.Legal().size(), 7u);  // seat 1 holds no six: any tile
  m.Do("5-0");
  EXPECT_THAT(m.Legal(), ElementsAre("6-0", "6-1"));  // not the 6-2, a trump
  EXPECT_THAT(m.Error("6-2").message(), HasSubstr("you must follow suit"));
}

// Sheet example: with no trump in it, 6-4 led calls sixes; with fours trump it calls trumps.
TEST(FortyTwoRules, LedTileCallsItsHigherEndOrTrumps) {
  Match sixes({}, {MakeDeal(kVoidHands)});
  sixes.Do("pass, pass, pass, bid 30, trump 2, 6-4, 5-5");
  EXPECT_THAT(sixes.Legal(), ElementsAre("6-0", "6-1"));

  Match trumps({}, {MakeDeal(kVoidHands)});
  trumps.Do("pass, pass, pass, bid 30, trump 4, 6-4");
  EXPECT_THAT(trumps.Legal(), ElementsAre("5-4"));
  trumps.Do("5-4");
  EXPECT_THAT(trumps.Legal(), ElementsAre("4-1", "4-2", "4-3", "4-4"));
  trumps.Do("4-1");
  EXPECT_THAT(trumps.Legal(), ElementsAre("4-0"));
}

// Rule: a player who cannot follow may play any tile, a trump included; the highest trump
// wins the trick, whose winner leads next; the failure to follow is public.
TEST(FortyTwoRules, HighestTrumpWinsAndWinnerLeads) {
  Match m({}, {MakeDeal(kVoidHands)});
  m.Do("pass, pass, pass, bid 30, trump 0");
  m.PlayTiles("6-6 5-0 6-1 2-0");
  auto view = m.View(2);
  ASSERT_EQ(view->tricks.size(), 1u);
  EXPECT_EQ(view->tricks[0].winner, 1);
  EXPECT_EQ(view->tricks[0].points, 6);  // the trick and the 5-0
  EXPECT_EQ(view->taken[1], 6);
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  EXPECT_EQ(m.View(0)->ToJson()["layout"]["void_suits"],
            nlohmann::json::parse(R"([[], ["6"], [], ["6"]])"));
}

// Rule: a hand's seven tricks and counts add up to 42; a made bid scores what each team took
// (sheet: bid 30 taking 35 → 35 for the bidders, 7 for the opponents).
TEST(FortyTwoRules, MadeBidScoresWhatEachTeamTook) {
  Match m({}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 30, trump 6");
  m.PlayTiles(kScoringPlay);
  EXPECT_EQ(m.base().Round(), 1);
  const HandResult& r = m.LastHand();
  EXPECT_EQ(r.taken[0] + r.taken[1], 42);
  EXPECT_THAT(r.taken, ElementsAre(35, 7));
  EXPECT_TRUE(r.made);
  EXPECT_THAT(m.base().Scores(), ElementsAre(35, 7, 35, 7));
}

// Rule: a set bid scores 0 for the bidders and the bid plus their points for the opponents
// (sheet: bid 37 taking 35 → 0 and 44).
TEST(FortyTwoRules, SetBidScoresTheBidForTheOpponents) {
  Match m({}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 37, trump 6");
  m.PlayTiles(kScoringPlay);
  EXPECT_FALSE(m.LastHand().made);
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 44, 0, 44));
}

// Rule: the whole hand is played out even when the bid is already made or set.
TEST(FortyTwoRules, WholeHandIsPlayedOut) {
  Match m({}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 30, trump 6");
  m.PlayTiles("6-6 6-1 6-0 2-0  1-0 3-1 4-1 1-1  2-2 6-2 4-2 5-2  6-5 6-3 3-2 2-1  6-4 3-3 5-0 4-0");
  EXPECT_EQ(m.View(0)->taken[0], 24);
  EXPECT_EQ(m.View(0)->taken[1], 6);
  m.PlayTiles("5-5 0-0 5-3 5-1");  // 35: the bid of 30 is made with a trick to go
  EXPECT_EQ(m.View(0)->taken[0], 35);
  EXPECT_EQ(m.base().Round(), 0);  // the hand goes on
  EXPECT_EQ(m.Legal(), std::vector<std::string>{"4-3"});
}

// Rule: the first team to the target wins.
TEST(FortyTwoRules, FirstTeamToTargetWins) {
  Match m({{"target", "60"}}, {MakeDeal(kScoringHands), MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 30, trump 6");
  m.PlayTiles(kScoringPlay);
  EXPECT_FALSE(m.base().IsTerminal());
  m.Do("pass, pass, bid 30, pass, trump 6");  // round 2: seat 2 bids first, seat 0 third
  m.PlayTiles(kScoringPlay);
  EXPECT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(70, 14, 70, 14));
  EXPECT_THAT(m.base().Ranks(), ElementsAre(1, 2, 1, 2));
  EXPECT_EQ(m.state().winning_team(), 0);
  EXPECT_EQ(m.base().ResultDetails()["winning_team"], 0);
}

// Rule: both teams past the target on one hand → the bidding team wins, whatever the score.
TEST(FortyTwoRules, BothPastTargetBiddingTeamWins) {
  Match m({{"target", "42"}},
          {MakeDeal(Rotated(kScoringHands)), MakeDeal(kScoringHands)});
  m.Do("bid 30, pass, pass, pass, trump 6");  // seat 1 holds the strong hand
  m.PlayTiles(kScoringPlay);
  EXPECT_THAT(m.base().Scores(), ElementsAre(7, 35, 7, 35));
  m.Do("pass, pass, bid 30, pass, trump 6");  // seat 0 bids
  m.PlayTiles(kScoringPlay);
  ASSERT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(42, 42, 42, 42));
  EXPECT_EQ(m.state().winning_team(), 0);
  EXPECT_EQ(m.base().ResultDetails()["winning_team"], 0);
}

// Ruling: both past the target on one hand → the bidding team wins even with the lower score;
// the ranks (State::Ranks, overridden) and so the record's winners name the bidding team.
TEST(FortyTwoRules, BothPastTargetBiddersRankFirstWithTheLowerScore) {
  // Team 0 takes 30 of the 42 (bid 30, made), team 1 the other 12.
  const char* low_play =
      "6-4 6-3 6-0 2-1 6-5 6-1 3-2 2-2 6-6 3-3 5-4 5-1 6-2 4-2 5-2 4-0 1-0 3-1 4-1 1-1 2-0 4-3 "
      "4-4 5-0 3-0 5-5 0-0 5-3";
  Match m({{"target", "78"}}, {MakeDeal(kScoringHands), MakeDeal(Rotated(kScoringHands)),
                               MakeDeal(Rotated(kScoringHands)), MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 30, trump 6");  // seat 0: 35/7
  m.PlayTiles(kScoringPlay);
  m.Do("pass, pass, pass, bid 30, trump 6");  // seat 1: 7/35
  m.PlayTiles(kScoringPlay);
  m.Do("pass, pass, bid 30, pass, trump 6");  // seat 1 again: 7/35
  m.PlayTiles(kScoringPlay);
  EXPECT_THAT(m.base().Scores(), ElementsAre(49, 77, 49, 77));
  m.Do("bid 30, pass, pass, pass, trump 6");  // seat 0 bids and makes with 30/12
  m.PlayTiles(low_play);
  ASSERT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(79, 89, 79, 89));  // both past 78, team 1 ahead
  EXPECT_EQ(m.state().winning_team(), 0);
  EXPECT_THAT(m.base().Ranks(), ElementsAre(1, 2, 1, 2));
  const RecordedResult result = ResultOf(m.base());
  EXPECT_THAT(result.ranks, ElementsAre(1, 2, 1, 2));
  EXPECT_THAT(result.winners, ElementsAre(0, 2));
}

// Option scoring=marks: one mark to the team that wins the hand (the bidders when made, the
// opponents when set); first to marks_target wins.
TEST(FortyTwoRules, MarksOneMarkPerHandWon) {
  Match m({{"scoring", "marks"}, {"marks_target", "2"}},
          {MakeDeal(kScoringHands), MakeDeal(kScoringHands), MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 30, trump 6");
  m.PlayTiles(kScoringPlay);
  EXPECT_THAT(m.base().Scores(), ElementsAre(1, 0, 1, 0));
  m.Do("pass, pass, bid 37, pass, trump 6");
  m.PlayTiles(kScoringPlay);
  EXPECT_THAT(m.base().Scores(), ElementsAre(1, 1, 1, 1));
  m.Do("pass, bid 30, pass, pass, trump 6");  // round 3: seat 3 first, seat 0 second
  m.PlayTiles(kScoringPlay);
  EXPECT_TRUE(m.base().IsTerminal());
  EXPECT_THAT(m.base().Scores(), ElementsAre(2, 1, 2, 1));
  EXPECT_EQ(m.state().winning_team(), 0);
}

// ---- Views, records, determinization ----

// Hidden information: a seat sees its own hand, the bids, trumps, played tricks and scores,
// never another seat's hand; a spectator sees no hand.
TEST(FortyTwoRules, ViewsNeverShowAnotherSeatsHand) {
  Match m({}, {MakeDeal(kScoringHands)});
  auto check = [&]() {
    for (int seat = kSpectator; seat < kSeats; ++seat) {
      const std::string json = m.base().ViewFor(seat)->ToJson().dump();
      const TileMask hidden = m.base().HiddenFrom(seat);
      for (int id = 0; id < kTiles; ++id) {
        if (!hidden.Test(id)) continue;
        EXPECT_THAT(json, Not(HasSubstr(absl::StrCat("\"", tricks::TileName(id), "\""))))
            << "seat " << seat << " sees " << tricks::TileName(id);
      }
      if (seat >= 0) {
        // Hidden: exactly the other hands (played tiles are public).
        auto view = m.View(seat);
        EXPECT_EQ(hidden.Count(), 28 - static_cast<int>(view->hand.size()) -
                                      static_cast<int>(view->tricks.size()) * 4 -
                                      static_cast<int>(view->trick.tiles.size()));
      }
    }
    EXPECT_TRUE(m.View(kSpectator)->hand.empty());
  };
  check();
  m.Do("pass, pass, pass, bid 30");
  check();
  m.Do("trump 6");
  m.PlayTiles("6-6 6-1 6-0 2-0 1-0 3-1");
  check();
  auto view = m.View(1);
  EXPECT_EQ(view->ToJson()["layout"]["high_bid"]["bid"], "bid 30");
  EXPECT_EQ(view->ToJson()["layout"]["trick"]["tiles"], nlohmann::json::parse(R"(["1-0","3-1"])"));
  EXPECT_TRUE(m.View(2)->legal_actions.size() > 0);  // seat 2 is to play
  EXPECT_TRUE(m.View(1)->legal_actions.empty());
}

// A played match's record replays through the referee to the same state.
TEST(FortyTwoRules, RecordReplaysThroughTheReferee) {
  auto game = *DefaultRegistry().CreateGame("forty_two", RuleText{{"target", "100"}});
  auto state = *game->NewMatch(9, {MakeDeal(kScoringHands)});
  RecordBuilder recorder(*state, 9);
  std::vector<std::unique_ptr<Bot>> bots;
  for (int s = 0; s < kSeats; ++s) bots.push_back(*DefaultBots().Make("heuristic", *game, s));
  engine_test::PlayOut(*state, bots,
                       [&](const State& before, Action a) { recorder.Add(before, a); });
  const Record record = recorder.Build(*state);
  auto replayed = Replay(*ParseRecord(RecordToJson(record).dump()));
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ((*replayed)->ToString(), state->ToString());
}

// Determinization deals the unseen tiles anew but never gives a seat a suit it has shown
// it lacks, and leaves the seat's own view unchanged.
TEST(FortyTwoRules, DeterminizeRespectsShownVoids) {
  Match m({}, {MakeDeal(kVoidHands)});
  m.Do("pass, pass, pass, bid 30, trump 0");
  m.PlayTiles("6-6 5-0 6-1 2-0");  // seats 1 and 3 show they hold no six
  const tricks::Hand sixes = m.state().trick_rules().SuitTiles(6);
  const nlohmann::json before = m.base().ViewFor(0)->ToJson();
  Rng rng(3);
  bool moved = false;
  for (int i = 0; i < 300; ++i) {
    auto sampled = m.base().Determinize(0, rng);
    auto& s = static_cast<FortyTwoState&>(*sampled);
    ASSERT_TRUE(s.CheckInvariants().ok()) << s.CheckInvariants();
    EXPECT_EQ(s.hand(1) & sixes, 0u);
    EXPECT_EQ(s.hand(3) & sixes, 0u);
    EXPECT_EQ(s.hand(0), m.state().hand(0));
    EXPECT_EQ(sampled->ViewFor(0)->ToJson(), before);
    moved |= s.hand(1) != m.state().hand(1);
  }
  EXPECT_TRUE(moved);
}

// Determinization keeps what a plunge bid showed: four doubles in the plunger's hand.
TEST(FortyTwoRules, DeterminizeKeepsAPlungersDoubles) {
  Match m({{"plunge", "true"}}, {MakeDeal(kDoublesHands)});
  m.Do("plunge, pass, pass, pass, trump 5");
  Rng rng(8);
  for (int i = 0; i < 200; ++i) {
    auto sampled = m.base().Determinize(0, rng);
    auto& s = static_cast<FortyTwoState&>(*sampled);
    ASSERT_TRUE(s.CheckInvariants().ok()) << s.CheckInvariants();
    int doubles = 0;
    for (tricks::Hand h = s.hand(1); h; h &= h - 1) {
      doubles += tricks::TileIsDouble(std::countr_zero(h)) ? 1 : 0;
    }
    EXPECT_GE(doubles, 4);
  }
}

// Over many random hands, tricks and counts add up to 42 (nello: 42 less the counts left in
// the partner's idle hand).
TEST(FortyTwoRules, PointsPerHandTotalFortyTwo) {
  auto game = *DefaultRegistry().CreateGame("forty_two", RuleText{{"preset", "texas"}});
  int hands = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Rng rng(seed);
    engine_test::RandomMatch(*game, seed, rng, nullptr, [&](const State&, const State& after) {
      auto view = engine_test::ViewAs<FortyTwoView>(after, kSpectator);
      const HandResult& r = *view->last_hand;
      if (r.bidder == kNobody) return;
      ++hands;
      if (r.contract == "nello") {
        EXPECT_LE(r.taken[0] + r.taken[1], 42);
        EXPECT_GE(r.taken[0] + r.taken[1], 42 - 35);
      } else {
        EXPECT_EQ(r.taken[0] + r.taken[1], 42) << r.contract;
      }
    });
  }
  EXPECT_GT(hands, 500);
}

// ---- Notation ----

TEST(FortyTwoNotation, RoundTripsAndRejectsMalformedText) {
  Match m({}, {MakeDeal(kScoringHands)});
  for (const char* text : {"pass", "bid 31", "bid 1 mark", "bid 2 marks", "plunge", "splash",
                           "trump 4", "trump 0", "trump doubles", "trump none", "nello", "sevens",
                           "6-4", "0-0"}) {
    absl::StatusOr<Action> a = m.base().ParseAction(text);
    ASSERT_TRUE(a.ok()) << text << ": " << a.status();
    EXPECT_EQ(m.base().ActionToString(*a), text);
  }
  EXPECT_EQ(*m.base().ParseAction("  TRUMP   4 "), *m.base().ParseAction("trump 4"));
  EXPECT_EQ(*m.base().ParseAction("4-6"), *m.base().ParseAction("6-4"));
  for (const char* bad : {"", "bid", "bid x", "trump 7", "trump fours", "bid 2 mark", "6-4'",
                          "7-1", "bid 31 points"}) {
    EXPECT_EQ(m.base().ParseAction(bad).status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

// ---- Variants ----

// Mark bidding: "bid 1 mark" replaces "bid 42"; open at 1 or 2 marks, then one more mark.
TEST(FortyTwoVariants, MarkBidding) {
  Match m({{"mark_bidding", "true"}}, {MakeDeal(kScoringHands)});
  std::vector<std::string> want = {"pass"};
  for (const std::string& b : Range("bid ", 30, 41)) want.push_back(b);
  want.push_back("bid 1 mark");
  want.push_back("bid 2 marks");
  EXPECT_EQ(m.Legal(), want);
  EXPECT_THAT(m.Error("bid 42").message(), HasSubstr("bid 1 mark"));
  EXPECT_THAT(m.Error("bid 3 marks").message(), HasSubstr("at most 2 marks"));
  m.Do("bid 1 mark");
  EXPECT_THAT(m.Legal(), ElementsAre("pass", "bid 2 marks"));
  m.Do("bid 2 marks");
  EXPECT_THAT(m.Legal(), ElementsAre("pass", "bid 3 marks"));
  EXPECT_THAT(m.Error("bid 4 marks").message(), HasSubstr("exactly one mark"));

  Match off({}, {MakeDeal(kScoringHands)});
  EXPECT_THAT(off.Error("bid 1 mark").message(), HasSubstr("mark_bidding"));
}

// Mark bidding: a 2-mark bid needs every point and scores 2 marks.
TEST(FortyTwoVariants, MarkBidScoresItsMarks) {
  const std::vector<std::string> hands = {"6-6 6-5 6-4 6-3 6-2 6-1 6-0",
                                          "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
                                          "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
                                          "3-0 2-2 2-1 2-0 1-1 1-0 0-0"};
  Match m({{"mark_bidding", "true"}, {"scoring", "marks"}}, {MakeDeal(hands)});
  m.Do("pass, pass, pass, bid 2 marks, trump 6");
  m.PlayOutRound();
  EXPECT_TRUE(m.LastHand().made);
  EXPECT_THAT(m.base().Scores(), ElementsAre(2, 0, 2, 0));
}

// Doubles as trump: the doubles are the trump suit and follow nothing else.
TEST(FortyTwoVariants, DoublesAsTrump) {
  Match m({{"doubles_trump", "true"}}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 30");
  EXPECT_THAT(m.Legal(), Contains("trump doubles"));
  m.Do("trump doubles, 6-5");
  EXPECT_THAT(m.Legal(), ElementsAre("6-1", "6-3"));
  m.Do("6-3, 6-0");
  EXPECT_EQ(m.Legal().size(), 7u);  // seat 3 holds no six
  m.Do("1-1");
  EXPECT_EQ(m.View(0)->tricks[0].winner, 3);  // a trump wins
  m.Do("2-2");  // seat 3 leads a trump: doubles must follow
  EXPECT_THAT(m.Legal(), ElementsAre("5-5", "6-6"));

  Match off({}, {MakeDeal(kScoringHands)});
  off.Do("pass, pass, pass, bid 30");
  EXPECT_THAT(off.Error("trump doubles").message(), HasSubstr("doubles_trump"));
}

// Follow-me: "trump none" — nothing trumps; the highest of the led suit wins.
TEST(FortyTwoVariants, FollowMeNoTrumps) {
  Match m({{"follow_me", "true"}}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 30, trump none, 6-5, 6-3, 6-0");
  EXPECT_EQ(m.Legal().size(), 7u);
  m.Do("1-1");
  EXPECT_EQ(m.View(0)->tricks[0].winner, 0);
  EXPECT_EQ(m.View(0)->ToJson()["layout"]["contract"], "trump none");

  Match off({}, {MakeDeal(kScoringHands)});
  off.Do("pass, pass, pass, bid 30");
  EXPECT_THAT(off.Error("trump none").message(), HasSubstr("follow_me"));
}

// Nello: after a bid of 42 the bidder may call nello; the partner sits out, tricks have three
// tiles, and taking any trick sets the bid.
TEST(FortyTwoVariants, NelloPartnerSitsOutBidderMustLoseEveryTrick) {
  Match low({{"nello", "true"}}, {MakeDeal(kScoringHands)});
  low.Do("pass, pass, pass, bid 41");
  EXPECT_THAT(low.Legal(), Not(Contains("nello")));
  EXPECT_THAT(low.Error("nello").message(), HasSubstr("42"));

  Match m({{"nello", "true"}, {"scoring", "marks"}, {"marks_target", "1"}},
          {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 42, nello");
  auto view = m.View(0);
  EXPECT_EQ(view->sitting_out, 2);
  EXPECT_EQ(m.base().CurrentSeat(), 0);
  m.Do("6-6, 6-1");
  EXPECT_EQ(m.base().CurrentSeat(), 3);  // seat 2 sits out
  m.Do("2-0");
  EXPECT_EQ(m.View(0)->tricks.size(), 1u);
  EXPECT_EQ(m.View(0)->tricks[0].winner, 0);  // the bidder took a trick: set
  m.PlayOutRound();
  EXPECT_TRUE(m.base().IsTerminal());
  EXPECT_FALSE(m.LastHand().made);
  EXPECT_EQ(m.View(kSpectator)->hand_counts[2], 7);
  EXPECT_THAT(m.base().Scores(), ElementsAre(0, 1, 0, 1));
}

// Nello option nello_doubles=low: the double is the lowest of its suit.
TEST(FortyTwoVariants, NelloDoublesLow) {
  Match m({{"nello", "true"}, {"nello_doubles", "low"}}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 42, nello, 6-6, 6-1, 2-0");
  EXPECT_EQ(m.View(0)->tricks[0].winner, 1);
}

// Nello option nello_doubles=own: the doubles are a suit of their own.
TEST(FortyTwoVariants, NelloDoublesOwnSuit) {
  Match m({{"nello", "true"}, {"nello_doubles", "own"}}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 42, nello, 6-6");
  EXPECT_THAT(m.Legal(), ElementsAre("0-0", "3-3", "4-4"));
}

// Nello made: the bidder took no trick; it scores the bid's marks (points: the bid).
TEST(FortyTwoVariants, NelloMadeScoresTheBid) {
  // Seat 0 holds the lowest tiles of every suit it could be made to win.
  const std::vector<std::string> hands = {"1-0 2-0 2-1 3-0 3-1 4-0 3-2",
                                          "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
                                          "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
                                          "4-3 4-2 4-1 3-3 2-2 1-1 0-0"};
  Match m({{"nello", "true"}}, {MakeDeal(hands)});
  m.Do("pass, pass, pass, bid 42, nello");
  // Seat 0 leads 1-0 (ones): seat 1 plays 6-1, seat 3 must play 1-1 and wins; and so on.
  m.Do("1-0, 6-1, 1-1");
  EXPECT_EQ(m.View(0)->tricks[0].winner, 3);
  m.Do("0-0, 2-0, 6-0");   // seat 3 leads 0-0 (blanks, double high): wins
  m.Do("2-2, 2-1, 6-2");   // twos: 2-2 wins
  m.Do("3-3, 3-0, 6-3");   // threes: 3-3 wins
  m.Do("4-3, 4-0, 6-4");   // fours: 6-4 (seat 1) wins
  m.Do("6-6, 4-2, 3-1");   // seat 1 leads sixes; seats 3 and 0 hold none; 6-6 wins
  m.Do("6-5, 4-1, 3-2");
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_TRUE(m.LastHand().made);
  EXPECT_THAT(m.base().Scores(), ElementsAre(42, 0, 42, 0));
}

// Sevens: after a bid of 42, "sevens": each must play a tile closest to 7 pips; the closest
// wins, the first played on a tie.
TEST(FortyTwoVariants, SevensClosestToSevenWins) {
  Match m({{"sevens", "true"}}, {MakeDeal(kScoringHands)});
  m.Do("pass, pass, pass, bid 42, sevens");
  EXPECT_THAT(m.Legal(), ElementsAre("4-3"));
  m.Do("4-3");
  EXPECT_THAT(m.Legal(), ElementsAre("6-1"));
  EXPECT_THAT(m.Error("4-4").message(), HasSubstr("closest to 7"));
  m.Do("6-1, 5-2, 5-1");
  EXPECT_EQ(m.View(0)->tricks[0].winner, 0);
  m.PlayOutRound();
  const HandResult& r = m.LastHand();
  EXPECT_EQ(r.contract, "sevens");
}

// Plunge: with 4+ doubles bid "plunge" (4 marks); the partner names trumps and leads; the
// bidders need every trick. Splash: the same with 3+ doubles, 2 marks.
TEST(FortyTwoVariants, PlungeAndSplash) {
  Match m({{"plunge", "true"}, {"splash", "true"}, {"scoring", "marks"}, {"marks_target", "9"}},
          {MakeDeal(kDoublesHands)});
  EXPECT_THAT(m.Legal(), Contains("plunge"));  // seat 1: four doubles
  EXPECT_THAT(m.Legal(), Contains("splash"));
  m.Do("plunge");
  EXPECT_THAT(m.Legal(), Contains("splash"));  // seat 2: three doubles, now 5 marks
  EXPECT_THAT(m.Error("plunge").message(), HasSubstr("at least 4 doubles"));
  m.Do("pass, pass");
  EXPECT_THAT(m.Legal(), Not(Contains("plunge")));  // seat 0: no doubles
  m.Do("pass");
  EXPECT_EQ(m.base().CurrentSeat(), 3);  // the partner names trumps
  EXPECT_EQ(m.Legal(), Range("trump ", 0, 6));
  m.Do("trump 5");
  EXPECT_EQ(m.base().CurrentSeat(), 3);  // and leads
  m.PlayOutRound();
  const HandResult& r = m.LastHand();
  EXPECT_EQ(r.bid, "plunge");
  const int bidder_marks = r.made ? r.scored[1] : r.scored[0];
  EXPECT_EQ(bidder_marks, 4);

  Match splash({{"splash", "true"}, {"scoring", "marks"}, {"marks_target", "9"}},
               {MakeDeal(kDoublesHands)});
  splash.Do("pass, splash, pass, pass");
  EXPECT_EQ(splash.base().CurrentSeat(), 0);  // seat 2's partner
  splash.Do("trump 6");
  splash.PlayOutRound();
  EXPECT_EQ(splash.LastHand().scored[0] + splash.LastHand().scored[1], 2);

  Match off({}, {MakeDeal(kDoublesHands)});
  EXPECT_THAT(off.Error("plunge").message(), HasSubstr("plunge=true"));
}

// The registry refuses unknown options and out-of-range values.
TEST(FortyTwoRules, RejectsBadOptions) {
  EXPECT_EQ(DefaultRegistry().CreateGame("forty_two", RuleText{{"target", "10"}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(DefaultRegistry().CreateGame("forty_two", RuleText{{"nello_doubles", "x"}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(DefaultRegistry().CreateGame("forty_two", RuleText{{"preset", "texas"}}).ok());
}

}  // namespace
}  // namespace boneyard::forty_two
