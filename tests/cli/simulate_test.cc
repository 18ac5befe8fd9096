// `boneyard simulate`: the summary's shape, its independence of --jobs, and --records.
#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

json SimulateJson(std::vector<std::string> args) {
  args.insert(args.begin(), "simulate");
  args.push_back("--json");
  const CliResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  json j = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j;
}

// Everything but the timings (and the job count itself).
json WithoutTimings(json j) {
  j.erase("seconds");
  j.erase("decisions_per_second");
  j.erase("jobs");
  return j;
}

TEST(Simulate, JsonShape) {
  const json j = SimulateJson({"--game", "muggins", "--seats", "greedy,random", "--matches", "20",
                               "--seed", "5"});
  EXPECT_EQ(j.at("game"), "muggins");
  EXPECT_EQ(j.at("rules").at("players"), 2);  // from the number of seats
  EXPECT_EQ(j.at("matches"), 20);
  EXPECT_EQ(j.at("seed"), 5);
  EXPECT_EQ(j.at("jobs"), 1);
  EXPECT_EQ(j.at("seats"), json({"greedy", "random"}));
  ASSERT_EQ(j.at("wins").size(), 2u);
  EXPECT_GE(j.at("wins")[0].get<int>() + j.at("wins")[1].get<int>(), 20);
  EXPECT_EQ(j.at("mean_scores").size(), 2u);
  EXPECT_GT(j.at("decisions").get<int64_t>(), 0);
  EXPECT_DOUBLE_EQ(j.at("mean_decisions").get<double>(), j.at("decisions").get<double>() / 20);
  EXPECT_TRUE(j.at("seconds").is_number());
  EXPECT_TRUE(j.at("decisions_per_second").is_number());
  EXPECT_TRUE(j.at("details").is_object());
  EXPECT_FALSE(j.contains("team_wins"));
}

// "default" in --seats is the game's default bot, named as such in the summary.
TEST(Simulate, DefaultSeatIsTheGamesDefaultBot) {
  const json j = SimulateJson({"--game", "forty_two", "--seats", "default,random,default,random",
                               "--matches", "2", "--seed", "3", "--rules", "scoring=marks,marks_target=1"});
  EXPECT_EQ(j.at("seats"), json({"heuristic", "random", "heuristic", "random"}));
  const json same = SimulateJson({"--game", "forty_two", "--seats",
                                  "heuristic,random,heuristic,random", "--matches", "2", "--seed",
                                  "3", "--rules", "scoring=marks,marks_target=1"});
  EXPECT_EQ(WithoutTimings(j), WithoutTimings(same));
}

// --max-actions is the caller's bound on a match: no Moon match can end within 20 actions (a
// hand alone is 21 plays), so every one stops unfinished, counts no win and writes a record
// without a result; the text summary says so.
TEST(Simulate, MaxActionsStopsMatchesUnfinished) {
  const std::string dir = MakeTempDir() + "/unfinished";
  const json j = SimulateJson({"--game", "moon", "--seats", "random,random,random", "--matches",
                               "5", "--max-actions", "20", "--records", dir});
  EXPECT_EQ(j.at("matches"), 5);
  EXPECT_EQ(j.at("unfinished"), 5);
  EXPECT_EQ(j.at("max_actions"), 20);
  EXPECT_EQ(j.at("decisions"), 100);
  EXPECT_EQ(j.at("wins"), json({0, 0, 0}));
  const CliResult replayed = RunCli({"replay", dir + "/match-0.json", "--json"});
  EXPECT_EQ(replayed.exit_code, 0) << Describe(replayed);
  const json state = json::parse(replayed.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(state.is_object()) << replayed.out;
  EXPECT_EQ(state.at("terminal"), false);
  EXPECT_FALSE(state.contains("result"));
  const CliResult text = RunCli({"simulate", "--game", "moon", "--seats", "random,random,random",
                                 "--matches", "2", "--max-actions", "20"});
  EXPECT_EQ(text.exit_code, 0) << Describe(text);
  EXPECT_THAT(text.out, HasSubstr("unfinished: 2 stopped at --max-actions 20"));
  // Matches that end are not bounded by the default.
  const json muggins = SimulateJson({"--game", "muggins", "--seats", "greedy,random", "--matches",
                                     "5"});
  EXPECT_EQ(muggins.at("unfinished"), 0);
  EXPECT_EQ(muggins.at("max_actions"), 100000);
  EXPECT_EQ(RunCli({"simulate", "--game", "moon", "--seats", "random,random,random", "--matches",
                    "1", "--max-actions", "0"}).exit_code, 2);
}

TEST(Simulate, TeamsReportTeamWins) {
  const json j = SimulateJson({"--game", "muggins", "--rules", "preset=partners", "--seats",
                               "greedy,random,greedy,random", "--matches", "10"});
  EXPECT_EQ(j.at("teams"), json({{0, 2}, {1, 3}}));
  ASSERT_EQ(j.at("team_wins").size(), 2u);
  EXPECT_EQ(j.at("team_wins")[0].get<int>() + j.at("team_wins")[1].get<int>(), 10);
  EXPECT_EQ(j.at("wins")[0], j.at("team_wins")[0]);
}

TEST(Simulate, CastleRockDetails) {
  const json j = SimulateJson({"--game", "castle_rock", "--seats", "greedy", "--matches", "50"});
  const json& details = j.at("details");
  EXPECT_GE(details.at("mean_tiles_left").get<double>(), 0.0);
  EXPECT_GE(details.at("win_rate").get<double>(), 0.0);
  EXPECT_LE(details.at("win_rate").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(details.at("mean_tiles_left").get<double>(), j.at("mean_scores")[0].get<double>());
}

TEST(Simulate, SameSeedSameSummaryForAnyJobs) {
  const std::vector<std::string> base = {"--game", "muggins", "--seats", "greedy,random,greedy",
                                         "--matches", "40", "--seed", "99"};
  std::vector<std::string> two_jobs = base;
  two_jobs.insert(two_jobs.end(), {"--jobs", "2"});
  std::vector<std::string> seven_jobs = base;
  seven_jobs.insert(seven_jobs.end(), {"--jobs", "7"});
  const json one = WithoutTimings(SimulateJson(base));
  EXPECT_EQ(one, WithoutTimings(SimulateJson(two_jobs)));
  EXPECT_EQ(one, WithoutTimings(SimulateJson(seven_jobs)));

  std::vector<std::string> other_seed = base;
  other_seed[7] = "100";
  EXPECT_NE(one, WithoutTimings(SimulateJson(other_seed)));
}

TEST(Simulate, TextSummary) {
  const CliResult r = RunCli({"simulate", "--game", "castle_rock", "--seats", "greedy",
                              "--matches", "5", "--seed", "3"});
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("game:      castle_rock"));
  EXPECT_THAT(r.out, HasSubstr("rules:     players=1,preset=,set=6"));
  EXPECT_THAT(r.out, HasSubstr("matches:   5 (seed 3, jobs 1)"));
  EXPECT_THAT(r.out, HasSubstr("seat 0:    greedy"));
  EXPECT_THAT(r.out, HasSubstr("decisions/s"));
  EXPECT_THAT(r.out, HasSubstr("details:\n"));
  EXPECT_THAT(r.out, HasSubstr("  win_rate "));
  EXPECT_THAT(r.out, HasSubstr("  mean_tiles_left "));
  EXPECT_EQ(r.err, "");  // no progress bar into a file
}

TEST(Simulate, RecordsReplayToTheirResults) {
  const std::string dir = MakeTempDir() + "/records/nested";
  const CliResult r = RunCli({"simulate", "--game", "muggins", "--seats", "greedy,random",
                              "--matches", "4", "--seed", "11", "--jobs", "2", "--records", dir});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 4);
  for (int i = 0; i < 4; ++i) {
    const std::string path = dir + "/match-" + std::to_string(i) + ".json";
    SCOPED_TRACE(path);
    const json record = json::parse(ReadWholeFile(path));
    EXPECT_EQ(record.at("seats"), json({"greedy", "random"}));
    const CliResult replay = RunCli({"replay", "--json", path});
    ASSERT_EQ(replay.exit_code, 0) << Describe(replay);
    const json state = json::parse(replay.out);
    EXPECT_EQ(state.at("terminal"), true);
    EXPECT_EQ(state.at("scores"), record.at("result").at("scores"));
    EXPECT_EQ(state.at("ranks"), record.at("result").at("ranks"));
  }
}

TEST(Simulate, CastleRockRecordsReplay) {
  const std::string dir = MakeTempDir();
  const CliResult r = RunCli({"simulate", "--game", "castle_rock", "--rules", "preset=double-9",
                              "--seats", "random", "--matches", "2", "--records", dir});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  for (int i = 0; i < 2; ++i) {
    const std::string path = dir + "/match-" + std::to_string(i) + ".json";
    const json record = json::parse(ReadWholeFile(path));
    const CliResult replay = RunCli({"replay", "--json", path});
    ASSERT_EQ(replay.exit_code, 0) << Describe(replay);
    const json state = json::parse(replay.out);
    EXPECT_EQ(state.at("terminal"), true);
    EXPECT_EQ(state.at("scores"), record.at("result").at("scores"));
    EXPECT_EQ(state.at("result").at("details"), record.at("result").at("details"));
  }
}

TEST(Simulate, UnwritableRecordsDirectoryIsBadInput) {
  const std::string file = MakeTempDir() + "/plain-file";
  WriteWholeFile(file, "not a directory");
  const CliResult r = RunCli({"simulate", "--game", "castle_rock", "--seats", "greedy",
                              "--matches", "1", "--records", file});
  EXPECT_EQ(r.exit_code, 3) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr("boneyard: "));
  EXPECT_THAT(r.err, HasSubstr(file));
}

}  // namespace
}  // namespace boneyard::testing
