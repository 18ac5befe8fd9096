// `boneyard match-bots`: two bots on duplicate deals, the sides swapped over the seats.
#include <cmath>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

json MatchBotsJson(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"match-bots"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  const CliResult r = RunCli(all);
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

// Every deal is played once per arrangement (two for two players), and the same seed reports
// the same result for any number of jobs.
TEST(MatchBots, PlaysEachDealWithTheSidesSwappedAndIsReproducible) {
  const json one = MatchBotsJson({"--game", "muggins", "--rules", "target=61", "--bots",
                                  "search:1,random", "--deals", "6", "--seed", "4"});
  ASSERT_TRUE(one.is_object());
  EXPECT_EQ(one["deals"], 6);
  EXPECT_EQ(one["matches"], 12);
  const double score = one["score"];
  EXPECT_GE(score, 0.0);
  EXPECT_LE(score, 1.0);
  EXPECT_EQ(one["deals_won"].get<int>() + one["deals_drawn"].get<int>() +
                one["deals_lost"].get<int>(),
            6);
  EXPECT_LE(one["ci95"][0].get<double>(), score);
  EXPECT_GE(one["ci95"][1].get<double>(), score);
  const json two = MatchBotsJson({"--game", "muggins", "--rules", "target=61", "--bots",
                                  "search:1,random", "--deals", "6", "--seed", "4", "--jobs", "2"});
  EXPECT_EQ(two["score"], one["score"]);
  EXPECT_EQ(two["deals_won"], one["deals_won"]);
}

// A bot against itself on duplicate deals with the same seeds per seat: in a team game each
// arrangement is the mirror of the other, so the score is exactly even.
TEST(MatchBots, ABotAgainstItselfIsEven) {
  const json r = MatchBotsJson({"--game", "forty_two", "--rules", "scoring=marks,marks_target=1",
                                "--players", "4", "--bots", "heuristic,heuristic", "--deals", "5"});
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r["matches"], 10);
  EXPECT_DOUBLE_EQ(r["score"].get<double>(), 0.5);
}

TEST(MatchBots, SolitaireComparesTheTwoPlaysOfEachDeal) {
  const json r = MatchBotsJson({"--game", "castle_rock", "--bots", "greedy,random", "--deals", "8"});
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r["matches"], 16);
  // The same deterministic bot plays each deal the same way twice: every deal is even.
  const json same =
      MatchBotsJson({"--game", "castle_rock", "--bots", "greedy,greedy", "--deals", "8"});
  ASSERT_TRUE(same.is_object());
  EXPECT_EQ(same["deals_drawn"], 8);
  EXPECT_DOUBLE_EQ(same["score"].get<double>(), 0.5);
}

TEST(MatchBots, BadCommandLinesExitTwoNamingTheFlag) {
  struct Bad {
    std::vector<std::string> args;
    std::string named;
  };
  const Bad bad[] = {
      {{"--game", "muggins", "--bots", "greedy", "--deals", "2"}, "--bots"},
      {{"--game", "muggins", "--bots", "greedy,random,random", "--deals", "2"}, "--bots"},
      {{"--game", "muggins", "--bots", "search:9,random", "--deals", "2"}, "level"},
      {{"--game", "muggins", "--bots", "greedy:2,random", "--deals", "2"}, "greedy"},
      {{"--game", "muggins", "--bots", "minimax,random", "--deals", "2"}, "minimax"},
      {{"--game", "muggins", "--bots", "greedy,random", "--deals", "0"}, "--deals"},
      {{"--game", "muggins", "--bots", "greedy,random"}, "--deals"},
      {{"--game", "muggins", "--bots", "greedy,random", "--deals", "2", "--players", "9"},
       "--players"},
      {{"--game", "chess", "--bots", "greedy,random", "--deals", "2"}, "chess"},
  };
  for (const Bad& b : bad) {
    std::vector<std::string> args = {"match-bots"};
    args.insert(args.end(), b.args.begin(), b.args.end());
    const CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << Describe(r);
    EXPECT_THAT(r.err, HasSubstr(b.named)) << Describe(r);
    EXPECT_TRUE(r.out.empty()) << Describe(r);
  }
}

}  // namespace
}  // namespace boneyard::testing

namespace boneyard::testing {
namespace {

// --forced-bid: in each arrangement the first bidder (seat 1) must bid and the rest pass, one
// hand a match; each side's make rate is reported. The same bot on both sides makes alike.
TEST(MatchBots, ForcedBidsReportEachSidesMakeRate) {
  const CliResult r = RunCli({"match-bots", "--game", "forty_two", "--players", "4", "--bots",
                              "heuristic,random", "--deals", "30", "--forced-bid", "30", "--json"});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  const nlohmann::json out = nlohmann::json::parse(r.out);
  EXPECT_EQ(out["forced_bid"], 30);
  EXPECT_THAT(out["rules"].get<std::string>(), ::testing::HasSubstr("marks_target=1"));
  const double heuristic = out["made"][0];
  const double random = out["made"][1];
  // Each bid is made or not: a rate is a count of 30 deals.
  EXPECT_DOUBLE_EQ(heuristic * 30, std::round(heuristic * 30));
  // Bidding 30 on any hand and then playing at random against the heuristic is mostly set.
  EXPECT_GT(heuristic, random);
  const CliResult same = RunCli({"match-bots", "--game", "forty_two", "--players", "4", "--bots",
                                 "heuristic,heuristic", "--deals", "10", "--forced-bid", "30",
                                 "--json"});
  ASSERT_EQ(same.exit_code, 0) << Describe(same);
  const nlohmann::json mirror = nlohmann::json::parse(same.out);
  EXPECT_EQ(mirror["made"][0], mirror["made"][1]);
  // Forty-Two's only.
  const CliResult muggins = RunCli({"match-bots", "--game", "muggins", "--bots", "greedy,random",
                                    "--deals", "2", "--forced-bid", "30"});
  EXPECT_EQ(muggins.exit_code, 2) << Describe(muggins);
  EXPECT_THAT(muggins.err, ::testing::HasSubstr("--forced-bid is Forty-Two's"));
  const CliResult high = RunCli({"match-bots", "--game", "forty_two", "--players", "4", "--bots",
                                 "greedy,random", "--deals", "2", "--forced-bid", "43"});
  EXPECT_EQ(high.exit_code, 2) << Describe(high);
}

}  // namespace
}  // namespace boneyard::testing
