// Forty-Two's bots (engine/games/forty_two/forty_two_bots.h): the heuristic bot's bidding and
// play in explicit positions, the sane random bot's bidding, determinism, and strength.
#include "engine/games/forty_two/forty_two_bots.h"

#include <memory>
#include <string>
#include <vector>

#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "engine/games/forty_two/forty_two.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace boneyard::forty_two {
namespace {

using ::testing::Contains;
using engine_test::Choice;
using engine_test::Do;

tricks::Hand HandOf(const std::string& text) {
  tricks::Hand h = 0;
  for (const Tile& t : engine_test::Tiles(text)) h |= tricks::Bit(tricks::IdOf(t));
  return h;
}

const std::vector<std::string> kScoringHands = {
    "6-6 6-5 6-4 4-3 6-2 5-5 1-0", "6-1 4-4 6-3 4-2 3-3 3-1 0-0",
    "5-4 5-3 5-2 5-0 4-1 3-2 6-0", "5-1 4-0 3-0 2-2 2-1 2-0 1-1"};
const std::vector<std::string> kVoidHands = {
    "6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-5 5-4 5-3 5-2 5-1 5-0 2-2",
    "6-2 6-1 6-0 4-4 4-3 4-2 4-1", "4-0 3-3 3-2 3-1 3-0 2-1 2-0"};
// No suit of three: 2 tiles of each pip.
const char* kWeakHand = "1-0 3-2 5-4 6-1 6-3 5-0 4-2";

std::unique_ptr<State> NewState(const std::vector<std::string>& hands, const RuleText& rules = {}) {
  auto game = engine_test::MakeGame("forty_two", rules);
  auto state = game->NewMatch(1, {engine_test::MakeDeal(hands)});
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

std::string HeuristicChoice(const State& state) {
  return engine_test::ChoiceOf<HeuristicBot>(state);
}

// ---- Heuristic: bidding and trumps ----

TEST(FortyTwoHeuristicBot, EstimatesFromTrumpLengthAndDoubles) {
  const tricks::Hand sixes = HandOf("6-6 6-5 6-4 6-3 6-2 6-1 6-0");
  EXPECT_EQ(EstimatePoints(sixes, 6), 42);
  EXPECT_EQ(BestTrump(sixes), 6);
  EXPECT_LT(EstimatePoints(HandOf(kWeakHand), BestTrump(HandOf(kWeakHand))), 30);
  // Four trumps with the double beat four trumps without it.
  EXPECT_GT(EstimatePoints(HandOf("5-5 5-4 5-3 5-1 2-2 1-0 3-0"), 5),
            EstimatePoints(HandOf("5-0 5-4 5-3 5-1 2-2 1-0 3-1"), 5));
}

TEST(FortyTwoHeuristicBot, BidsAStrongHandAndNamesItsSuit) {
  auto legal_state = NewState({"3-0 2-2 2-1 2-0 1-1 1-0 0-0", "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
                               "5-5 5-4 5-3 5-2 5-1 5-0 4-4", "4-3 4-2 4-1 4-0 3-3 3-2 3-1"});
  EXPECT_NE(HeuristicChoice(*legal_state), "pass");
  Do(*legal_state, HeuristicChoice(*legal_state) + ", pass, pass, pass");
  EXPECT_EQ(HeuristicChoice(*legal_state), "trump 6");
}

TEST(FortyTwoHeuristicBot, PassesAWeakHand) {
  auto state = NewState({"6-6 6-5 6-4 4-3 5-5 1-1 0-0", kWeakHand,
                         "5-3 5-2 5-1 4-4 4-1 4-0 3-3", "6-2 6-0 3-1 3-0 2-2 2-1 2-0"});
  EXPECT_EQ(HeuristicChoice(*state), "pass");
}

// ---- Heuristic: play ----

// The declarer leads its sure top trump to draw the others' trumps.
TEST(FortyTwoHeuristicBot, DeclarerLeadsTrumps) {
  auto state = NewState(kScoringHands);
  Do(*state, "pass, pass, pass, bid 30, trump 6");
  EXPECT_EQ(HeuristicChoice(*state), "6-6");
}

// Partner is winning: never trump it, play low.
TEST(FortyTwoHeuristicBot, DoesNotTrumpPartnersWinningTrick) {
  auto state = NewState(kVoidHands);
  Do(*state, "pass, pass, pass, bid 30, trump 6, 0-0, 5-0");
  const std::string choice = HeuristicChoice(*state);  // seat 2: no blank, three trumps
  EXPECT_EQ(choice, "4-2");
}

// Partner's trick is safe: smear a count on it.
TEST(FortyTwoHeuristicBot, SmearsACountOnPartnersSafeTrick) {
  auto state = NewState(kScoringHands);
  Do(*state,
     "pass, pass, pass, bid 30, trump 6, 6-6, 6-1, 6-0, 2-0, 1-0, 3-1, 4-1, 1-1, 2-2, 6-2, 4-2,"
     " 5-2, 6-5, 6-3");
  const std::string choice = HeuristicChoice(*state);  // seat 2, void in trumps
  EXPECT_GT(tricks::CountValue(tricks::IdOf(*Tile::Parse(choice))), 0) << choice;
}

// An opponent is winning: take it as cheaply as possible.
TEST(FortyTwoHeuristicBot, WinsCheaplyOverAnOpponent) {
  auto state = NewState(kVoidHands);
  Do(*state, "pass, pass, pass, bid 30, trump 0, 6-6");
  // Seat 1 holds no six; its one trump, 5-0, is the only tile that wins.
  EXPECT_EQ(HeuristicChoice(*state), "5-0");
}

// ---- Sane random bot ----

TEST(FortyTwoRandomBot, PassesWithoutABiddingHand) {
  auto state = NewState({"6-6 6-5 6-4 4-3 5-5 1-1 0-0", kWeakHand,
                         "5-3 5-2 5-1 4-4 4-1 4-0 3-3", "6-2 6-0 3-1 3-0 2-2 2-1 2-0"});
  for (uint64_t seed = 0; seed < 20; ++seed) {
    SaneRandomBot bot(seed);
    EXPECT_EQ(Choice(bot, *state), "pass");
  }
}

TEST(FortyTwoRandomBot, BidsTheMinimumWithAPotentialHandOrWhenForced) {
  auto state = NewState(kScoringHands, {{"shaker_must_bid", "true"}});
  int bids = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    SaneRandomBot bot(seed);
    const std::string c = Choice(bot, *state);  // seat 1 holds three threes
    EXPECT_TRUE(c == "pass" || c == "bid 30") << c;
    bids += c == "bid 30" ? 1 : 0;
  }
  EXPECT_GT(bids, 5);
  EXPECT_LT(bids, 35);
  Do(*state, "pass, pass, pass");
  SaneRandomBot forced(1);
  EXPECT_EQ(Choice(forced, *state), "bid 30");  // the shaker may not pass
}

// ---- Registration, determinism, strength ----

TEST(FortyTwoBots, AreRegistered) {
  auto game = *DefaultRegistry().CreateGame("forty_two", RuleText{});
  EXPECT_THAT(DefaultBots().BotsFor("forty_two"), Contains("heuristic"));
  EXPECT_TRUE(DefaultBots().Make("heuristic", *game, 3).ok());
  auto random = DefaultBots().Make("random", *game, 3);
  ASSERT_TRUE(random.ok());
  EXPECT_NE(dynamic_cast<SaneRandomBot*>(random->get()), nullptr);
}

// Plays a whole match; returns the actions as text, then the scores and the winning team.
std::vector<std::string> PlayMatch(const RuleText& rules, uint64_t seed,
                                   const std::vector<std::string>& bots) {
  std::vector<std::string> log;
  auto state = engine_test::PlayBots("forty_two", rules, seed, bots, &log);
  log.push_back(std::to_string(engine_test::As<FortyTwoState>(*state).winning_team()));
  return log;
}

TEST(FortyTwoBots, DeterministicBySeed) {
  const std::vector<std::string> bots = {"heuristic", "random", "heuristic", "random"};
  EXPECT_EQ(PlayMatch({}, 4, bots), PlayMatch({}, 4, bots));
  EXPECT_NE(PlayMatch({}, 4, bots), PlayMatch({}, 5, bots));
}

// Random-only matches finish (the random bot bids sanely), in every variant too.
TEST(FortyTwoBots, RandomMatchesFinish) {
  for (uint64_t seed = 0; seed < 10; ++seed) {
    PlayMatch({}, seed, {"random", "random", "random", "random"});
    PlayMatch({{"preset", "texas"}}, seed, {"random", "heuristic", "random", "heuristic"});
  }
}

// Strength: the heuristic team beats the random team in most seeded matches.
TEST(FortyTwoBots, HeuristicBeatsRandom) {
  int wins = 0;
  constexpr int kMatches = 40;
  for (int i = 0; i < kMatches; ++i) {
    const bool heuristic_even = i % 2 == 0;  // alternate which team is the heuristic one
    const std::vector<std::string> bots =
        heuristic_even ? std::vector<std::string>{"heuristic", "random", "heuristic", "random"}
                       : std::vector<std::string>{"random", "heuristic", "random", "heuristic"};
    const auto log = PlayMatch({}, 1000 + i, bots);
    if (std::stoi(log.back()) == (heuristic_even ? 0 : 1)) ++wins;
  }
  EXPECT_GE(wins, kMatches * 8 / 10);
}

}  // namespace
}  // namespace boneyard::forty_two

namespace boneyard::forty_two {
namespace {

// ---- The search bot's bidding rule (SearchBiddingRule, the search bot's RootRule here) ----

// Seat 1 bids first (seat 0 shakes). kScoringHands: seat 1 holds "6-1 4-4 6-3 4-2 3-3 3-1 0-0".
TEST(FortyTwoSearchBiddingRule, NeverOutbidsAPartnerAndBidsNoMoreThanTheHandMayTake) {
  std::unique_ptr<State> state = NewState(kScoringHands);
  auto action = [&](const std::string& text) {
    absl::StatusOr<Action> a = state->ParseAction(text);
    EXPECT_TRUE(a.ok()) << a.status();
    return a.ok() ? *a : kPass;
  };
  // Seat 1, first to bid: passing is free; a bid within its estimate (plus a tenth) is allowed,
  // a bid of the whole hand is not.
  const int estimate1 = EstimatePoints(HandOf(kScoringHands[1]), BestTrump(HandOf(kScoringHands[1])));
  std::unique_ptr<View> view = state->ViewFor(1);
  EXPECT_TRUE(SearchBiddingRule(*view, kPass));
  EXPECT_EQ(SearchBiddingRule(*view, action("bid 30")), 30 <= estimate1 + 4);
  EXPECT_EQ(SearchBiddingRule(*view, action("bid 42")), 42 <= estimate1 + 4);
  EXPECT_LT(estimate1 + 4, 42);  // this hand cannot take everything
  // Seat 1 bids 30; seat 2 (an opponent) may outbid within its hand; seat 3 (seat 1's partner)
  // may only pass while seat 1 holds the bid.
  state->Apply(action("bid 30"));
  view = state->ViewFor(2);
  const int estimate2 = EstimatePoints(HandOf(kScoringHands[2]), BestTrump(HandOf(kScoringHands[2])));
  EXPECT_EQ(SearchBiddingRule(*view, action("bid 31")), 31 <= estimate2 + 4);
  state->Apply(kPass);
  view = state->ViewFor(3);
  EXPECT_TRUE(SearchBiddingRule(*view, kPass));
  EXPECT_FALSE(SearchBiddingRule(*view, action("bid 31")));
  EXPECT_FALSE(SearchBiddingRule(*view, action("bid 35")));
  // Out of the bidding, every action is the search's to judge.
  state->Apply(kPass);
  state->Apply(kPass);  // seat 0, the shaker: seat 1 won the bid at 30
  view = state->ViewFor(1);
  ActionList legal;
  state->LegalActions(legal);
  for (Action a : legal) EXPECT_TRUE(SearchBiddingRule(*view, a));
}

// The rule is the search bot's at Forty-Two and Eighty-Four, nowhere else: a searching seat
// whose partner holds the bid passes.
TEST(FortyTwoSearchBiddingRule, TheRegisteredSearchBotPassesOverItsPartner) {
  std::unique_ptr<State> state = NewState(kScoringHands);
  state->Apply(*state->ParseAction("bid 30"));  // seat 1
  state->Apply(kPass);                          // seat 2
  // Seat 3, seat 1's partner, with whatever hand: the search may only pass.
  auto game = engine_test::MakeGame("forty_two", {});
  absl::StatusOr<std::unique_ptr<Bot>> bot = DefaultBots().Make("search", *game, 7, 2);
  ASSERT_TRUE(bot.ok()) << bot.status();
  ActionList legal;
  state->LegalActions(legal);
  ASSERT_GT(legal.size(), 1u);
  EXPECT_EQ(AskBot(**bot, *state, 3, legal.span(), 11), kPass);
}

}  // namespace
}  // namespace boneyard::forty_two
