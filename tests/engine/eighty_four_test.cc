// Eighty-Four rules (docs/rules/eighty_four.md), one scenario per rule sentence and ruling,
// each from an explicit deal. Eighty-Four is Forty-Two's state at a bigger table, so these
// tests check what the table changes; Forty-Two's own rules are tests/engine/forty_two_test.cc.
#include "engine/games/eighty_four/eighty_four.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/core/registry.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::eighty_four {
namespace {

using forty_two::FortyTwoState;
using forty_two::FortyTwoView;
using forty_two::HandResult;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using engine_test::MakeDeal;
using engine_test::Tiles;

// The first set's tiles in `hand`, with primes: the same tiles of the second set.
std::string Primed(const std::string& hand) {
  std::vector<std::string> out;
  for (absl::string_view t : absl::StrSplit(hand, ' ', absl::SkipEmpty())) {
    out.push_back(absl::StrCat(t, "'"));
  }
  return absl::StrJoin(out, " ");
}

// Eight players: the even seats hold the first set, each odd seat the same tiles of the
// second set as the seat before it.
const std::vector<std::string> kEightHands = {
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",        Primed("6-6 6-5 6-4 6-3 6-2 6-1 6-0"),
    "5-5 5-4 5-3 5-2 5-1 5-0 4-4",        Primed("5-5 5-4 5-3 5-2 5-1 5-0 4-4"),
    "4-3 4-2 4-1 4-0 3-3 3-2 3-1",        Primed("4-3 4-2 4-1 4-0 3-3 3-2 3-1"),
    "3-0 2-2 2-1 2-0 1-1 1-0 0-0",        Primed("3-0 2-2 2-1 2-0 1-1 1-0 0-0")};
// Six players: 9 tiles each, the two double-blanks left out.
const std::vector<std::string> kSixHands = {
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4", Primed("6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4"),
    "5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-1 4-0", Primed("5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-1 4-0"),
    "3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 1-0", Primed("3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 1-0")};
const char* kSixLeftOut = "0-0 0-0'";

// Eighty-Four plays with Forty-Two's state and view.
class Match : public engine_test::TypedMatch<FortyTwoState, FortyTwoView> {
 public:
  Match(const RuleText& rules, std::vector<Deal> deals, uint64_t seed = 1)
      : TypedMatch("eighty_four", rules, std::move(deals), seed) {}

  // `n` passes.
  void Passes(int n) {
    for (int i = 0; i < n; ++i) ASSERT_NO_FATAL_FAILURE(Play("pass"));
  }
  HandResult LastHand() { return *View(kSpectator)->last_hand; }
};

// ---- The tables ----

// Rule: 8 players in two teams of 4, partners alternating; 7 tiles each, none left over.
TEST(EightyFourRules, EightPlayersTwoTeamsOfFourSevenTilesEach) {
  Match m({}, {MakeDeal(kEightHands)});
  EXPECT_EQ(m.base().game().num_seats(), 8);
  EXPECT_EQ(m.base().game().teams(), (Teams{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  auto view = m.View(1);
  EXPECT_THAT(view->hand_counts, ElementsAre(7, 7, 7, 7, 7, 7, 7, 7));
  EXPECT_EQ(view->boneyard_count, 0);
  EXPECT_EQ(view->hand, Tiles(Primed("6-0 6-1 6-2 6-3 6-4 6-5 6-6")));
  EXPECT_EQ(m.base().game().tile_set().size(), 56);
}

// Rule: 6 players in two teams of 3, partners alternating; 9 tiles each and 2 left out,
// hidden from every seat.
TEST(EightyFourRules, SixPlayersTwoTeamsOfThreeNineTilesTwoLeftOut) {
  Match m({{"players", "6"}}, {MakeDeal(kSixHands, kSixLeftOut)});
  EXPECT_EQ(m.base().game().teams(), (Teams{{0, 2, 4}, {1, 3, 5}}));
  auto view = m.View(0);
  EXPECT_THAT(view->hand_counts, ElementsAre(9, 9, 9, 9, 9, 9));
  EXPECT_EQ(view->boneyard_count, 2);
  EXPECT_EQ(m.base().CurrentDeal().boneyard, Tiles(kSixLeftOut));
  const TileSet& set = m.base().game().tile_set();
  for (int seat = kSpectator; seat < 6; ++seat) {
    const TileMask hidden = m.base().HiddenFrom(seat);
    EXPECT_TRUE(hidden.Test(set.IdOf(Tile(0, 0, 0))) && hidden.Test(set.IdOf(Tile(0, 0, 1))))
        << "seat " << seat;
    EXPECT_THAT(m.base().ViewFor(seat)->ToJson().dump(), Not(HasSubstr("\"0-0")));
  }
}

// Deals are checked against the table: 9 tiles each and 2 left out with 6 players.
TEST(EightyFourRules, InvalidDealsRejected) {
  auto six = *DefaultRegistry().CreateGame("eighty_four", RuleText{{"players", "6"}});
  EXPECT_THAT(six->NewMatch(1, {MakeDeal(kSixHands)}).status().message(),
              HasSubstr("tiles missing"));
  EXPECT_THAT(six->NewMatch(1, {MakeDeal(kEightHands)}).status().message(),
              HasSubstr("8 hands for 6 seats"));
  auto eight = *DefaultRegistry().CreateGame("eighty_four", RuleText{});
  Deal doubled = MakeDeal(kEightHands);
  doubled.hands[1][0] = Tile(6, 6, 0);  // the first 6-6 twice, no 6-6'
  EXPECT_THAT(eight->NewMatch(1, {doubled}).status().message(), HasSubstr("6-6 appears twice"));
  EXPECT_EQ(DefaultRegistry().CreateGame("eighty_four", RuleText{{"players", "7"}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(DefaultRegistry().CreateGame("eighty_four", RuleText{{"nello", "true"}}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// ---- Bidding ----

// Rule: the minimum bid is 60, the maximum 84; bidding starts left of the shaker (seat 0),
// each of the 8 bids once, the shaker last.
TEST(EightyFourRules, BidsRunFromSixtyToEightyFourShakerLast) {
  Match m({}, {MakeDeal(kEightHands)});
  EXPECT_EQ(m.base().CurrentSeat(), 1);
  std::vector<std::string> want = {"pass"};
  for (int b = 60; b <= 84; ++b) want.push_back(absl::StrCat("bid ", b));
  EXPECT_EQ(m.Legal(), want);
  for (const char* bad : {"bid 59", "bid 85", "bid 42"}) {
    EXPECT_THAT(m.Error(bad).message(), HasSubstr("from 60 to 84")) << bad;
  }
  m.Do("bid 61");
  EXPECT_THAT(m.Error("bid 61").message(), HasSubstr("higher than the highest so far (bid 61)"));
  m.Passes(6);
  EXPECT_EQ(m.base().CurrentSeat(), 0);  // the shaker bids last
  m.Do("bid 62");
  EXPECT_EQ(m.View(0)->phase, FortyTwoView::Phase::kDeclaring);
  EXPECT_EQ(m.View(0)->declarer, 0);
}

// Rule: all pass → the next shaker reshuffles; with 6 players the shaker cycles through 6.
TEST(EightyFourRules, AllPassNextShakerReshuffles) {
  Match m({{"players", "6"}}, {MakeDeal(kSixHands, kSixLeftOut)});
  m.Passes(6);
  EXPECT_EQ(m.base().Round(), 1);
  EXPECT_EQ(m.View(0)->shaker, 1);
  EXPECT_EQ(m.base().CurrentSeat(), 2);
  EXPECT_EQ(m.LastHand().bidder, kNobody);
}

// Option shaker_must_bid: when the seven before the shaker pass, the shaker must bid 60+.
TEST(EightyFourRules, ShakerMustBidOption) {
  Match m({{"shaker_must_bid", "true"}}, {MakeDeal(kEightHands)});
  m.Passes(7);
  EXPECT_EQ(m.Legal().front(), "bid 60");
  EXPECT_THAT(m.Error("pass").message(), HasSubstr("shaker_must_bid"));
}

// ---- Play ----

// Ruling: of two identical tiles in one trick, the one played first ranks higher — whichever
// copy it is.
TEST(EightyFourRules, FirstOfTwoIdenticalTilesWins) {
  // Seat 0 bids and leads the first 6-6; seat 1 follows with 6-6': seat 0 wins.
  Match first({}, {MakeDeal(kEightHands)});
  first.Passes(7);
  first.Do("bid 60, trump 6, 6-6, 6-6', 5-5, 5-5', 4-3, 4-3', 3-0, 3-0'");
  auto view = first.View(kSpectator);
  ASSERT_EQ(view->tricks.size(), 1u);
  EXPECT_EQ(view->tricks[0].winner, 0);

  // Seat 1 bids and leads 6-6'; seat 0 plays the first set's 6-6 last: seat 1 still wins.
  Match second({}, {MakeDeal(kEightHands)});
  second.Do("bid 60");
  second.Passes(7);
  second.Do("trump 6, 6-6', 5-5, 5-5', 4-3, 4-3', 3-0, 3-0', 6-6");
  view = second.View(kSpectator);
  ASSERT_EQ(view->tricks.size(), 1u);
  EXPECT_EQ(view->tricks[0].winner, 1);
  // The two copies are told apart in the view: the second is written with a prime.
  EXPECT_EQ(second.View(3)->ToJson()["layout"]["tricks"][0]["tiles"],
            nlohmann::json::parse(R"(["6-6'","5-5","5-5'","4-3","4-3'","3-0","3-0'","6-6"])"));
}

// Rule: with 8 players each trick is worth 2 points plus the counts in it (both sets).
TEST(EightyFourRules, EightPlayersTrickWorthTwoPlusCounts) {
  Match m({}, {MakeDeal(kEightHands)});
  m.Passes(7);
  m.Do("bid 60, trump 6, 6-6, 6-6', 5-5, 5-5', 4-1, 4-1', 3-0, 3-0'");
  auto view = m.View(kSpectator);
  EXPECT_EQ(view->tricks[0].points, 2 + 10 + 10 + 5 + 5);
  EXPECT_EQ(view->taken[0], 32);
}

// Rule: with 6 players tricks are worth nothing and each double taken is worth 1.
TEST(EightyFourRules, SixPlayersEachDoubleTakenWorthOne) {
  Match m({{"players", "6"}}, {MakeDeal(kSixHands, kSixLeftOut)});
  m.Passes(5);
  m.Do("bid 60, trump 6, 6-6, 6-6', 4-4, 4-4', 3-3, 3-3'");
  auto view = m.View(kSpectator);
  ASSERT_EQ(view->tricks.size(), 1u);
  EXPECT_EQ(view->tricks[0].winner, 0);
  EXPECT_EQ(view->tricks[0].points, 6);  // six doubles, no count, nothing for the trick
  m.Do("6-1, 6-1', 4-1, 4-1', 1-1, 1-1'");
  view = m.View(kSpectator);
  EXPECT_EQ(view->tricks[1].points, 5 + 5 + 1 + 1);  // two 4-1 counts, two doubles
  EXPECT_EQ(view->taken[0], 18);
}

// Rule: counts double (70) and every hand is worth 84, at both tables: a hand taken entirely
// by the bidders makes 84, and the bid scores as in Forty-Two.
TEST(EightyFourRules, WholeHandIsWorthEightyFour) {
  for (const char* players : {"8", "6"}) {
    const bool eight = std::string(players) == "8";
    Match m({{"players", players}},
            {eight ? MakeDeal(kEightHands) : MakeDeal(kSixHands, kSixLeftOut)});
    m.Passes(eight ? 7 : 5);
    m.Do("bid 84, trump 6");
    m.PlayOutRound();
    const HandResult r = m.LastHand();
    EXPECT_EQ(r.taken[0] + r.taken[1], 84) << players;
    EXPECT_EQ(r.made, r.taken[0] == 84) << players;
    if (r.made) {
      EXPECT_EQ(m.base().Scores()[0], 84) << players;
    } else {
      EXPECT_EQ(m.base().Scores()[1], 84 + r.taken[1]) << players;  // the bid plus their take
    }
  }
}

// Forty-Two's scoring at 84 points: made → each team scores what it took; set → the bidders
// score 0 and the opponents the bid plus what they took.
TEST(EightyFourRules, MadeAndSetScoreAsFortyTwo) {
  for (int bid : {60, 70, 84}) {
    Match m({}, {MakeDeal(kEightHands)});
    m.Passes(7);
    m.Do(absl::StrCat("bid ", bid, ", trump 6"));
    m.PlayOutRound();
    const HandResult r = m.LastHand();
    ASSERT_EQ(r.taken[0] + r.taken[1], 84);
    EXPECT_EQ(r.made, r.taken[0] >= bid) << bid;
    const std::vector<int> scores = m.base().Scores();
    if (r.made) {
      EXPECT_THAT(scores, ElementsAre(r.taken[0], r.taken[1], r.taken[0], r.taken[1], r.taken[0],
                                      r.taken[1], r.taken[0], r.taken[1]));
    } else {
      EXPECT_EQ(scores[0], 0);
      EXPECT_EQ(scores[1], bid + r.taken[1]);
    }
  }
}

// Over many random hands at both tables, tricks, doubles and counts total 84 (the
// invariants check every hand too).
TEST(EightyFourRules, PointsPerHandTotalEightyFour) {
  for (const char* players : {"8", "6"}) {
    auto game = *DefaultRegistry().CreateGame(
        "eighty_four", RuleText{{"players", players}, {"doubles_trump", "true"}, {"follow_me", "true"}});
    int hands = 0;
    for (uint64_t seed = 0; seed < 40; ++seed) {
      Rng rng(seed);
      engine_test::RandomMatch(*game, seed, rng, nullptr, [&](const State&, const State& after) {
        auto view = engine_test::ViewAs<FortyTwoView>(after, kSpectator);
        const HandResult& r = *view->last_hand;
        if (r.bidder == kNobody) return;
        ++hands;
        EXPECT_EQ(r.taken[0] + r.taken[1], 84) << players << " " << r.contract;
      });
    }
    EXPECT_GT(hands, 40) << players;
  }
}

// Ruling (the sheet's 84 with 6 players counts every tile): the counts and doubles of the 2
// tiles left out go to the team taking the last trick; option left_out_to_last_trick=false
// gives them to nobody.
TEST(EightyFourRules, LeftOutTilesCountForTheLastTrick) {
  // The left-out tiles are 5-5 and 5-5' (20 in counts, 2 doubles); seat 0 holds 0-0 and 0-0'.
  std::vector<std::string> hands = kSixHands;
  hands[0] = "6-6 6-5 6-4 6-3 6-2 6-1 6-0 0-0 5-4";
  hands[1] = Primed(hands[0]);
  for (bool to_last : {true, false}) {
    Match m({{"players", "6"}, {"left_out_to_last_trick", to_last ? "true" : "false"}},
            {MakeDeal(hands, "5-5 5-5'")});
    m.Passes(5);
    m.Do("bid 60, trump 6");
    m.PlayOutRound();
    const HandResult r = m.LastHand();
    EXPECT_EQ(r.taken[0] + r.taken[1], to_last ? 84 : 84 - 22);
  }
}

// Variants offered: doubles as trump (the 14 doubles; of two identical, the first wins) and
// follow-me.
TEST(EightyFourVariants, DoublesTrumpAndFollowMe) {
  Match m({{"doubles_trump", "true"}, {"follow_me", "true"}}, {MakeDeal(kEightHands)});
  m.Passes(7);
  m.Do("bid 60");
  EXPECT_THAT(m.Legal(), ::testing::Contains("trump doubles"));
  EXPECT_THAT(m.Legal(), ::testing::Contains("trump none"));
  m.Do("trump doubles, 6-6");
  EXPECT_THAT(m.Legal(), ElementsAre("6-6'"));  // the only double seat 1 holds
  m.Do("6-6', 5-5, 5-5', 3-3, 3-3', 0-0, 0-0'");
  EXPECT_EQ(m.View(0)->tricks[0].winner, 0);
}

// ---- Notation, views, records ----

// Notation: the second copy is written with a prime; both copies parse and round-trip.
TEST(EightyFourNotation, SecondCopyWrittenWithAPrime) {
  Match m({}, {MakeDeal(kEightHands)});
  const Action first = *m.base().ParseAction("6-4");
  const Action second = *m.base().ParseAction("6-4'");
  EXPECT_NE(first, second);
  EXPECT_EQ(m.base().ActionToString(first), "6-4");
  EXPECT_EQ(m.base().ActionToString(second), "6-4'");
  EXPECT_EQ(*m.base().ParseAction("4-6'"), second);
  for (const char* text : {"bid 60", "bid 84", "pass", "trump 4", "trump none"}) {
    EXPECT_EQ(m.base().ActionToString(*m.base().ParseAction(text)), text);
  }
  EXPECT_EQ(m.base().ParseAction("7-1").status().code(), absl::StatusCode::kInvalidArgument);
  // Forty-Two has one set: a prime is refused there.
  auto forty_two = *DefaultRegistry().CreateGame("forty_two", RuleText{});
  auto state = *forty_two->NewMatch(1);
  EXPECT_THAT(state->ParseAction("6-4'").status().message(), HasSubstr("one double-6 set"));
}

// Hidden information: no view shows another seat's tile of either copy, nor the left-out
// tiles; a seat sees its own primed tiles.
TEST(EightyFourRules, ViewsHideOtherHandsOfBothCopies) {
  Match m({{"players", "6"}}, {MakeDeal(kSixHands, kSixLeftOut)});
  m.Passes(5);
  m.Do("bid 60, trump 6, 6-6, 6-6'");
  const TileSet& set = m.base().game().tile_set();
  for (int seat = kSpectator; seat < 6; ++seat) {
    const std::string json = m.base().ViewFor(seat)->ToJson().dump();
    const TileMask hidden = m.base().HiddenFrom(seat);
    for (const Tile& t : set.AllTiles()) {
      if (!hidden.Test(set.IdOf(t))) continue;
      EXPECT_THAT(json, Not(HasSubstr(absl::StrCat("\"", t.ToString(), "\""))))
          << "seat " << seat << " sees " << t.ToString();
    }
  }
  EXPECT_EQ(m.View(1)->hand.front(), Tile(5, 4, 1));
  EXPECT_EQ(m.View(1)->ToJson()["hand"][0], "5-4'");
}

// Records name both copies apart and replay through the referee.
TEST(EightyFourRules, RecordReplaysWithBothCopies) {
  for (const char* players : {"8", "6"}) {
    auto game = *DefaultRegistry().CreateGame("eighty_four", RuleText{{"players", players}});
    auto state = *game->NewMatch(11);
    RecordBuilder recorder(*state, 11);
    std::vector<std::unique_ptr<Bot>> bots;
    for (int s = 0; s < game->num_seats(); ++s) {
      bots.push_back(*DefaultBots().Make("heuristic", *game, s));
    }
    engine_test::PlayOut(*state, bots,
                         [&](const State& before, Action a) { recorder.Add(before, a); });
    const Record record = recorder.Build(*state);
    const std::string text = RecordToJson(record).dump();
    EXPECT_THAT(text, HasSubstr("'\""));  // some tile of the second set, e.g. "6-4'"
    auto replayed = Replay(*ParseRecord(text));
    ASSERT_TRUE(replayed.ok()) << replayed.status();
    EXPECT_EQ((*replayed)->ToString(), state->ToString());
    EXPECT_EQ(record.result->winners.size(), static_cast<size_t>(game->num_seats() / 2));
  }
}

// Determinization keeps shown voids and the left-out tiles' count, and leaves the view alone.
TEST(EightyFourRules, DeterminizeRespectsVoidsAndLeftOutTiles) {
  Match m({{"players", "6"}}, {MakeDeal(kSixHands, kSixLeftOut)});
  m.Passes(5);
  m.Do("bid 60, trump 0, 6-6, 6-6', 4-4");  // seat 2 shows it holds no six
  const tricks::Hand sixes = m.state().trick_rules().SuitTiles(6);
  const nlohmann::json before = m.base().ViewFor(0)->ToJson();
  Rng rng(5);
  bool moved = false;
  for (int i = 0; i < 200; ++i) {
    auto sampled = m.base().Determinize(0, rng);
    auto& s = static_cast<FortyTwoState&>(*sampled);
    ASSERT_TRUE(s.CheckInvariants().ok()) << s.CheckInvariants();
    EXPECT_EQ(s.hand(2) & sixes, 0u);
    EXPECT_EQ(sampled->ViewFor(0)->ToJson(), before);
    EXPECT_EQ(sampled->CurrentDeal().boneyard.size(), 2u);
    moved |= sampled->CurrentDeal().boneyard != Tiles(kSixLeftOut);
  }
  EXPECT_TRUE(moved);
}

}  // namespace
}  // namespace boneyard::eighty_four
