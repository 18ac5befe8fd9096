// The `boneyard tournament` service commands end to end: the real build/bin/boneyard as a child
// process against a real boneyard-matchmaking (directing) and boneyard-execution (playing the
// built-in bots and delivering the results back): an operator runs a Forty-Two knockout of four
// bot teams, each tie best of three, from `create` to the final standings and the TRF export,
// and a command the event's state forbids fails naming why.
#ifndef BONEYARD_TESTDATA
#define BONEYARD_TESTDATA ""
#endif

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/run_cli.h"
#include "tests/services/service_process.h"

namespace boneyard::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

TEST(TournamentCommandsTest, AFortyTwoKnockoutOfBestOfThreeSeriesRunsFromCreateToStandings) {
  absl::StatusOr<int> matchmaking_port = PickFreePort();
  ASSERT_TRUE(matchmaking_port.ok());
  const std::string dir = MakeTempDir();
  const std::string results_token_file = dir + "/results_token";
  std::ofstream(results_token_file) << "results-token-for-the-cli-tournament-test";
  absl::StatusOr<ServiceOnNewDatabase> execution =
      StartOnNewDatabase(BONEYARD_EXECUTION_BINARY,
                         {absl::StrCat("--matchmaking_target=127.0.0.1:", *matchmaking_port),
                          "--results_token_file=" + results_token_file});
  ASSERT_TRUE(execution.ok()) << execution.status();
  absl::StatusOr<std::unique_ptr<TestDatabase>> db = TestDatabase::Create();
  ASSERT_TRUE(db.ok()) << db.status();
  absl::StatusOr<std::unique_ptr<ServiceProcess>> matchmaking = ServiceProcess::Start(
      BONEYARD_MATCHMAKING_BINARY,
      {"--database_url=" + (*db)->url(), "--execution_target=" + execution->service->target(),
       "--execution_token_file=" + execution->service->operator_token_file(),
       "--results_token_file=" + results_token_file, "--pass_interval=100ms"},
      ServiceProcess::kDefaultReadyTimeout, *matchmaking_port);
  ASSERT_TRUE(matchmaking.ok()) << matchmaking.status();
  auto run = [&](std::vector<std::string> args) {
    args.push_back("--matchmaking-target=" + (*matchmaking)->target());
    args.push_back("--operator-token-file=" + (*matchmaking)->operator_token_file());
    return RunCli(args);
  };

  const CliResult made =
      run({"tournament", "create", "--id", "cup", "--name", "Forty-Two Cup", "--game", "forty_two",
           "--format", "knockout", "--team-size", "2", "--best-of", "3"});
  ASSERT_EQ(made.exit_code, 0) << Describe(made);
  EXPECT_THAT(made.out, HasSubstr("tournaments/cup"));
  for (int i = 0; i < 4; ++i) {
    const CliResult team = run({"tournament", "register-team", "cup", "--bot", "random"});
    ASSERT_EQ(team.exit_code, 0) << Describe(team);
  }
  const CliResult bad_team = run({"tournament", "register", "cup", "--bot", "random"});
  EXPECT_NE(bad_team.exit_code, 0) << "a single entrant in a team event";
  EXPECT_THAT(bad_team.err, HasSubstr("RegisterTeam"));
  const CliResult started = run({"tournament", "start", "cup"});
  ASSERT_EQ(started.exit_code, 0) << Describe(started);
  const CliResult again = run({"tournament", "start", "cup"});
  EXPECT_NE(again.exit_code, 0);
  EXPECT_THAT(again.err, HasSubstr("started already"));

  // Two semi-finals and a final, each up to three matches to 7 marks.
  const absl::Time deadline = absl::Now() + absl::Seconds(240);
  std::string state;
  while (absl::Now() < deadline) {
    const CliResult shown = run({"tournament", "show", "cup", "--json"});
    ASSERT_EQ(shown.exit_code, 0) << Describe(shown);
    state = json::parse(shown.out).value("state", "");
    if (state == "FINISHED") break;
    absl::SleepFor(absl::Milliseconds(250));
  }
  ASSERT_EQ(state, "FINISHED") << (*matchmaking)->log();
  const CliResult pairings = run({"tournament", "pairings", "cup", "1"});
  ASSERT_EQ(pairings.exit_code, 0) << Describe(pairings);
  EXPECT_THAT(pairings.out, HasSubstr("W1-1"));
  // Each semi-final went to the side with two wins, whichever it was.
  EXPECT_THAT(pairings.out, ::testing::ContainsRegex("W1-1 .* series (2-[01]|[01]-2)"));
  EXPECT_THAT(pairings.out, ::testing::ContainsRegex("W1-2 .* series (2-[01]|[01]-2)"));
  const CliResult final_round = run({"tournament", "pairings", "cup", "2", "--json"});
  ASSERT_EQ(final_round.exit_code, 0) << Describe(final_round);
  const json final_json = json::parse(final_round.out);
  ASSERT_EQ(final_json["pairings"].size(), 1u);
  const json& final_tie = final_json["pairings"][0];
  EXPECT_EQ(final_tie.value("tie", ""), "W2-1");
  EXPECT_TRUE(final_tie.value("white_wins", 0) == 2 || final_tie.value("black_wins", 0) == 2)
      << final_tie.dump();
  // Every game of the series was created on execution.
  for (const json& game : final_tie["games"]) {
    EXPECT_THAT(game.value("match", ""), HasSubstr("matches/"));
  }
  const CliResult standings = run({"tournament", "standings", "cup"});
  ASSERT_EQ(standings.exit_code, 0) << Describe(standings);
  EXPECT_THAT(standings.out, HasSubstr("random bots #"));
  const CliResult exported = run({"tournament", "export", "cup"});
  ASSERT_EQ(exported.exit_code, 0) << Describe(exported);
  EXPECT_THAT(exported.out, HasSubstr("012 Forty-Two Cup"));
  ASSERT_TRUE((*matchmaking)->Stop().ok()) << (*matchmaking)->log();
}

}  // namespace
}  // namespace boneyard::testing
