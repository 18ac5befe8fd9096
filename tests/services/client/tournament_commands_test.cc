// The `boneyard tournament` service commands end to end: the real build/bin/boneyard as a child
// process against a real boneyard-matchmaking (directing) and boneyard-execution (playing the
// built-in bots and delivering the results back): an operator runs a Forty-Two knockout of four
// bot teams, each tie best of three, from `create` to the final standings and the TRF export,
// and a command the event's state forbids fails naming why; then a Swiss begun elsewhere is
// imported from its TRF file and finished, its next round paired as the file's pairing says;
// then a Muggins round robin of six bots at tables of three is played to the end, and a Forty-Two
// partner rotation of four bots, its pair counts in the standings, and a duplicate Muggins round
// at two tables of two, every match dealt from the seed the round shows when it is over, and an
// arena of four bots re-paired as they finish, its leaderboard with each one's sheet, and a
// league of four bots in two divisions whose next season promotes and relegates.
#ifndef BONEYARD_TESTDATA
#define BONEYARD_TESTDATA ""
#endif

#include <cstdint>
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
  // The event's state once it finished or `within` passed.
  auto finished = [&](const std::string& id, absl::Duration within) {
    const absl::Time deadline = absl::Now() + within;
    std::string state;
    while (absl::Now() < deadline) {
      const CliResult shown = run({"tournament", "show", id, "--json"});
      if (shown.exit_code != 0) return Describe(shown);
      state = json::parse(shown.out).value("state", "");
      if (state == "FINISHED") break;
      absl::SleepFor(absl::Milliseconds(250));
    }
    return state;
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
  ASSERT_EQ(finished("cup", absl::Seconds(240)), "FINISHED") << (*matchmaking)->log();
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

  // A Swiss of six begun elsewhere: the corpus file's two rounds, entrants 1 and 2 asking for
  // a half-point bye in round 3; its `.pairs` is round 3 as the Dutch system pairs it.
  const std::string corpus = std::string(BONEYARD_TOURNAMENT_TESTDATA) + "/dutch/n06-s1-r3";
  const std::string six_bots = "bot:random,bot:random,bot:random,bot:random,bot:random,bot:random";
  const CliResult short_list = run({"tournament", "import", corpus + ".trf", "--game", "muggins",
                                    "--entrants", "bot:random,bot:random"});
  EXPECT_NE(short_list.exit_code, 0);
  EXPECT_THAT(short_list.err, HasSubstr("entrants: 2 given for the file's 6"));
  const CliResult imported = run({"tournament", "import", corpus + ".trf", "--game", "muggins",
                                  "--id", "resumed", "--entrants", six_bots});
  ASSERT_EQ(imported.exit_code, 0) << Describe(imported);
  EXPECT_THAT(imported.out, HasSubstr("tournaments/resumed"));
  ASSERT_EQ(finished("resumed", absl::Seconds(120)), "FINISHED") << (*matchmaking)->log();
  const CliResult third = run({"tournament", "pairings", "resumed", "3", "--json"});
  ASSERT_EQ(third.exit_code, 0) << Describe(third);
  std::ifstream pairs_file(corpus + ".pairs");
  int boards = 0;
  pairs_file >> boards;
  const json third_json = json::parse(third.out);
  ASSERT_EQ(third_json["pairings"].size(), static_cast<size_t>(boards)) << third.out;
  for (const json& pairing : third_json["pairings"]) {
    int white = 0;
    int black = 0;
    pairs_file >> white >> black;
    EXPECT_EQ(pairing.value("white", 0), white) << third.out;
    EXPECT_EQ(pairing.value("black", 0), black) << third.out;
  }

  // A Muggins round robin of six bots at tables of three: three rounds, two tables each.
  const CliResult tables =
      run({"tournament", "create", "--id", "tables", "--game", "muggins", "--format", "round-robin",
           "--table-size", "3", "--tiebreaks", "WIN"});
  ASSERT_EQ(tables.exit_code, 0) << Describe(tables);
  EXPECT_THAT(tables.out, HasSubstr("round-robin"));
  for (int i = 0; i < 6; ++i) {
    const CliResult bot = run({"tournament", "register", "tables", "--bot", "random"});
    ASSERT_EQ(bot.exit_code, 0) << Describe(bot);
  }
  ASSERT_EQ(run({"tournament", "start", "tables"}).exit_code, 0);
  ASSERT_EQ(finished("tables", absl::Seconds(120)), "FINISHED") << (*matchmaking)->log();
  const CliResult table_round = run({"tournament", "pairings", "tables", "3", "--json"});
  ASSERT_EQ(table_round.exit_code, 0) << Describe(table_round);
  const json table_json = json::parse(table_round.out);
  ASSERT_EQ(table_json["pairings"].size(), 2u) << table_round.out;
  for (const json& table : table_json["pairings"]) {
    EXPECT_EQ(table["table"].size(), 3u) << table.dump();
    EXPECT_EQ(table.value("outcome", ""), "PLACED") << table.dump();
    EXPECT_EQ(table["points"].size(), 3u) << table.dump();
  }
  const CliResult table_text = run({"tournament", "pairings", "tables", "1"});
  EXPECT_THAT(table_text.out, ::testing::ContainsRegex("random bot #[0-9] #1 2"));
  const CliResult table_standings = run({"tournament", "standings", "tables"});
  ASSERT_EQ(table_standings.exit_code, 0) << Describe(table_standings);
  EXPECT_THAT(table_standings.out, HasSubstr("WIN"));
  const CliResult no_trf = run({"tournament", "export", "tables"});
  EXPECT_NE(no_trf.exit_code, 0);
  EXPECT_THAT(no_trf.err, HasSubstr("tables"));

  // A Forty-Two partner rotation of four bots: three rounds, the three ways to pair them up.
  const CliResult bad_rotation =
      run({"tournament", "create", "--id", "rotation-bad", "--game", "forty_two", "--format",
           "partner-rotation", "--table-size", "4"});
  EXPECT_EQ(bad_rotation.exit_code, 2) << Describe(bad_rotation);
  EXPECT_THAT(bad_rotation.err, HasSubstr("--table-size"));
  const CliResult rotation = run({"tournament", "create", "--id", "rotation", "--game", "forty_two",
                                  "--format", "partner-rotation", "--tiebreaks", "WIN"});
  ASSERT_EQ(rotation.exit_code, 0) << Describe(rotation);
  EXPECT_THAT(rotation.out, HasSubstr("partner-rotation"));
  for (int i = 0; i < 4; ++i) {
    const CliResult bot = run({"tournament", "register", "rotation", "--bot", "random"});
    ASSERT_EQ(bot.exit_code, 0) << Describe(bot);
  }
  ASSERT_EQ(run({"tournament", "start", "rotation"}).exit_code, 0);
  ASSERT_EQ(finished("rotation", absl::Seconds(120)), "FINISHED") << (*matchmaking)->log();
  const CliResult rotation_round = run({"tournament", "pairings", "rotation", "2", "--json"});
  ASSERT_EQ(rotation_round.exit_code, 0) << Describe(rotation_round);
  const json rotation_json = json::parse(rotation_round.out);
  ASSERT_EQ(rotation_json["pairings"].size(), 1u) << rotation_round.out;
  const json& table = rotation_json["pairings"][0];
  ASSERT_EQ(table["points"].size(), 4u) << table.dump();
  // Partners (seats 0 and 2, 1 and 3) score alike: their team's result.
  EXPECT_EQ(table["points"][0], table["points"][2]) << table.dump();
  EXPECT_EQ(table["points"][1], table["points"][3]) << table.dump();
  const CliResult rotation_text = run({"tournament", "pairings", "rotation", "1"});
  EXPECT_THAT(rotation_text.out,
              ::testing::ContainsRegex("random bot #[0-9] & random bot #[0-9]  vs  "
                                       "random bot #[0-9] & random bot #[0-9]  (1-0|0-1|0.5-0.5)"));
  const CliResult matrix = run({"tournament", "standings", "rotation"});
  ASSERT_EQ(matrix.exit_code, 0) << Describe(matrix);
  EXPECT_THAT(matrix.out, HasSubstr("partners/opponents"));
  // Wh(4): every pair partnered once and opposed twice, 12 cells off the diagonal.
  size_t cells = 0;
  for (size_t at = matrix.out.find("1/2"); at != std::string::npos;
       at = matrix.out.find("1/2", at + 1)) {
    ++cells;
  }
  EXPECT_EQ(cells, 12u) << matrix.out;

  // A duplicate round of four Muggins bots at two tables of two: both matches were dealt from
  // the seed the round shows once it is over, and each hand's two holders are compared.
  const CliResult two_sided = run({"tournament", "create", "--id", "dup-bad", "--game", "muggins",
                                   "--format", "swiss", "--rounds", "1", "--duplicate"});
  EXPECT_EQ(two_sided.exit_code, 2) << Describe(two_sided);
  EXPECT_THAT(two_sided.err, HasSubstr("--duplicate"));
  const CliResult duplicate =
      run({"tournament", "create", "--id", "dup", "--game", "muggins", "--format", "round-robin",
           "--table-size", "2", "--rounds", "1", "--duplicate"});
  ASSERT_EQ(duplicate.exit_code, 0) << Describe(duplicate);
  EXPECT_THAT(duplicate.out, HasSubstr("round-robin, tables of 2, duplicate deals"));
  for (const char* kind : {"greedy", "random", "greedy", "random"}) {
    const CliResult bot = run({"tournament", "register", "dup", "--bot", kind});
    ASSERT_EQ(bot.exit_code, 0) << Describe(bot);
  }
  ASSERT_EQ(run({"tournament", "start", "dup"}).exit_code, 0);
  ASSERT_EQ(finished("dup", absl::Seconds(120)), "FINISHED") << (*matchmaking)->log();
  const CliResult dup_round = run({"tournament", "pairings", "dup", "1", "--json"});
  ASSERT_EQ(dup_round.exit_code, 0) << Describe(dup_round);
  const json dup_json = json::parse(dup_round.out);
  ASSERT_TRUE(dup_json.contains("seed")) << dup_round.out;
  const uint64_t seed = std::stoull(dup_json["seed"].get<std::string>());
  ASSERT_EQ(dup_json["comparisons"].size(), 2u) << dup_round.out;
  for (const json& hand : dup_json["comparisons"]) {
    EXPECT_EQ(hand["results"].size(), 2u) << hand.dump();
  }
  ASSERT_EQ(dup_json["pairings"].size(), 2u) << dup_round.out;
  for (const json& table : dup_json["pairings"]) {
    ASSERT_EQ(table["games"].size(), 1u) << table.dump();
    for (const json& game : table["games"]) {
      const CliResult record =
          RunCli({"record", game["match"].get<std::string>(),
                  "--target=" + execution->service->target()});
      ASSERT_EQ(record.exit_code, 0) << Describe(record);
      EXPECT_EQ(json::parse(record.out).value("seed", uint64_t{0}), seed) << record.out;
    }
  }
  const CliResult dup_text = run({"tournament", "pairings", "dup", "1"});
  EXPECT_THAT(dup_text.out, HasSubstr(absl::StrCat("seed ", seed)));
  EXPECT_THAT(dup_text.out, HasSubstr("seat 1 of 2:"));

  // An arena of four Muggins bots: finishers are re-paired while its minute runs, and the
  // leaderboard counts each one's games, wins and streak, with its sheet.
  const CliResult no_window =
      run({"tournament", "create", "--id", "arena-bad", "--game", "muggins", "--format", "arena"});
  EXPECT_EQ(no_window.exit_code, 2) << Describe(no_window);
  EXPECT_THAT(no_window.err, HasSubstr("--duration"));
  const CliResult short_window = run({"tournament", "create", "--id", "arena-bad", "--game",
                                      "muggins", "--format", "arena", "--duration", "30s"});
  EXPECT_NE(short_window.exit_code, 0) << Describe(short_window);
  EXPECT_THAT(short_window.err, HasSubstr("tournament.duration"));
  const CliResult arena =
      run({"tournament", "create", "--id", "arena", "--game", "muggins", "--format", "arena",
           "--duration", "1m", "--rules", "target=50"});
  ASSERT_EQ(arena.exit_code, 0) << Describe(arena);
  EXPECT_THAT(arena.out, HasSubstr("arena, 1m"));
  for (const char* kind : {"greedy", "random", "greedy", "random"}) {
    ASSERT_EQ(run({"tournament", "register", "arena", "--bot", kind}).exit_code, 0);
  }
  ASSERT_EQ(run({"tournament", "start", "arena"}).exit_code, 0);
  // Re-paired: a second round exists once two games are over.
  const absl::Time arena_deadline = absl::Now() + absl::Seconds(40);
  std::string leaderboard;
  while (absl::Now() < arena_deadline) {
    const CliResult shown = run({"tournament", "show", "arena", "--json"});
    ASSERT_EQ(shown.exit_code, 0) << Describe(shown);
    if (json::parse(shown.out).value("current_round", 0) >= 2) {
      leaderboard = run({"tournament", "standings", "arena"}).out;
      break;
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_THAT(leaderboard, ::testing::ContainsRegex("PTS +GAMES +WINS +STREAK"));
  // Someone has a game on its sheet: "1.0 1 0 0  1" (a draw) or "2.0 1 1 1  2" (a win).
  EXPECT_THAT(leaderboard,
              ::testing::ContainsRegex("[0-9]\\.0 +[1-9][0-9]* +[0-9]+ +[0-9]+  (\\.\\.\\. )?[0-9]"))
      << leaderboard << (*matchmaking)->log();

  // A league of four Muggins bots in divisions of two, one round a minute; then its next
  // season, the divisions' winner and loser exchanged.
  const CliResult no_calendar = run({"tournament", "create", "--id", "league-bad", "--game",
                                     "muggins", "--format", "league"});
  EXPECT_EQ(no_calendar.exit_code, 2) << Describe(no_calendar);
  EXPECT_THAT(no_calendar.err, HasSubstr("--round-interval"));
  const CliResult stray = run({"tournament", "create", "--id", "league-bad", "--game", "muggins",
                               "--format", "swiss", "--rounds", "2", "--division-size", "4"});
  EXPECT_EQ(stray.exit_code, 2) << Describe(stray);
  EXPECT_THAT(stray.err, HasSubstr("--division-size is only for --format league"));
  const CliResult season =
      run({"tournament", "create", "--id", "winter", "--game", "muggins", "--format", "league",
           "--round-interval", "1m", "--division-size", "2", "--promotion", "1", "--rules",
           "target=50"});
  ASSERT_EQ(season.exit_code, 0) << Describe(season);
  EXPECT_THAT(season.out, HasSubstr("league, divisions of 2, a round every 1m, 1 up and down"));
  for (const char* kind : {"greedy", "random", "greedy", "random"}) {
    ASSERT_EQ(run({"tournament", "register", "winter", "--bot", kind}).exit_code, 0);
  }
  ASSERT_EQ(run({"tournament", "start", "winter"}).exit_code, 0);
  const CliResult fixtures = run({"tournament", "pairings", "winter", "1"});
  ASSERT_EQ(fixtures.exit_code, 0) << Describe(fixtures);
  EXPECT_THAT(fixtures.out, ::testing::ContainsRegex("opens .* closes "));
  ASSERT_EQ(finished("winter", absl::Seconds(60)), "FINISHED") << (*matchmaking)->log();
  const CliResult divisions = run({"tournament", "standings", "winter"});
  ASSERT_EQ(divisions.exit_code, 0) << Describe(divisions);
  EXPECT_THAT(divisions.out, HasSubstr("division 1\n"));
  EXPECT_THAT(divisions.out, HasSubstr("division 2\n"));
  const CliResult spring =
      run({"tournament", "create", "--id", "spring", "--game", "muggins", "--format", "league",
           "--round-interval", "7d", "--division-size", "2", "--promotion", "1",
           "--previous-season", "winter", "--rules", "target=50"});
  ASSERT_EQ(spring.exit_code, 0) << Describe(spring);
  EXPECT_THAT(spring.out, HasSubstr("a round every 168h"));
  EXPECT_THAT(spring.out, HasSubstr("after tournaments/winter"));
  EXPECT_THAT(spring.out, HasSubstr("4 entrants"));
  ASSERT_TRUE((*matchmaking)->Stop().ok()) << (*matchmaking)->log();
}

}  // namespace
}  // namespace boneyard::testing
