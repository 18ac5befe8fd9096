// `boneyard rate-bots`: bots rated on one Weng-Lin scale from a round robin on duplicate deals.
#include <map>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

json RateBotsJson(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"rate-bots"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  const CliResult r = RunCli(all);
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

// Three bots, every pair on every deal in both seats: 3 pairs x 2 arrangements a deal; the
// table is ordered by ordinal and the same for any number of jobs.
TEST(RateBots, RatesARoundRobinOnOneScaleReproducibly) {
  const std::vector<std::string> args = {
      "--game",  "muggins", "--rules", "target=61", "--bots", "random,greedy,search:2",
      "--deals", "8",       "--seed",  "3"};
  const json one = RateBotsJson(args);
  ASSERT_TRUE(one.is_object());
  EXPECT_EQ(one["matches"], 8 * 3 * 2);
  ASSERT_EQ(one["bots"].size(), 3u);
  double previous = 1e9;
  double scores = 0;
  for (const json& bot : one["bots"]) {
    EXPECT_LE(bot["ordinal"].get<double>(), previous);
    previous = bot["ordinal"];
    EXPECT_LT(bot["sigma"].get<double>(), 25.0 / 3);  // every bot played: less uncertain
    scores += bot["score"].get<double>();
  }
  EXPECT_NEAR(scores, 1.5, 1e-9);  // three bots each met two: their scores sum to 3 x 1/2
  // random cannot top a table with a searching bot in it over 48 matches.
  EXPECT_NE(one["bots"][0]["bot"], "random");
  std::vector<std::string> jobs = args;
  jobs.insert(jobs.end(), {"--jobs", "2"});
  json two = RateBotsJson(jobs);
  ASSERT_EQ(two["bots"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {  // all but the think times, which are measured
    json a = one["bots"][i], b = two["bots"][i];
    a.erase("ms_per_move");
    b.erase("ms_per_move");
    EXPECT_EQ(a, b);
  }
}

TEST(RateBots, BadFlagsAreUsageErrors) {
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--game", "muggins", "--bots", "greedy", "--deals", "2"},
           {"--game", "muggins", "--bots", "greedy,oracle", "--deals", "2"},
           {"--game", "muggins", "--bots", "greedy,search:9", "--deals", "2"},
           {"--game", "moon", "--bots", "greedy,random", "--deals", "2"},
           {"--game", "muggins", "--bots", "greedy,random"},
           {"--game", "muggins", "--bots", "greedy,random", "--deals", "0"}}) {
    std::vector<std::string> all = {"rate-bots"};
    all.insert(all.end(), bad.begin(), bad.end());
    const CliResult r = RunCli(all);
    EXPECT_EQ(r.exit_code, 2) << Describe(r);
    EXPECT_THAT(r.err, HasSubstr("usage: boneyard rate-bots"));
  }
}

}  // namespace
}  // namespace boneyard::testing
