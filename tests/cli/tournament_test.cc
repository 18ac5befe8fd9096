// `boneyard tournament`: pairing the next round of a TRF-16 file in the pairing programs'
// exchange format, auditing every round of a file, standings; bad files and flags refused with
// exit codes 3 and 2; the service commands' bad arguments refused before any call (the calls
// themselves are tested against a real service elsewhere). testdata/swiss_round3.trf is a
// six-entrant event after two rounds with entrant 4 absent from round 3 (the Dutch system's C5
// case: 1-3 cannot be paired because the PAB must go to 6 and 2 and 5 have met).
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(Tournament, PairNextPrintsTheBoardsInTheExchangeFormat) {
  const CliResult r = RunCli({"tournament", "pair-next", TestData("swiss_round3.trf")});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_EQ(r.out, "3\n1 5\n3 2\n6 0\n");
}

TEST(Tournament, FastModePairsWithoutRematches) {
  const CliResult r = RunCli({"tournament", "pair-next", "--fast", TestData("swiss_round3.trf")});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, StartsWith("3\n"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("2 5\n")));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("5 2\n")));
}

TEST(Tournament, CheckAgreesWithEveryRoundOfAFilePairedByTheDutchSystem) {
  const CliResult r = RunCli({"tournament", "check", TestData("swiss_round3.trf")});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_EQ(r.out, "round 1: agrees\nround 2: agrees\n");
}

TEST(Tournament, StandingsRankByPointsThenTheTieBreaksGiven) {
  const CliResult r =
      RunCli({"tournament", "standings", "--tiebreaks", "BH,WIN", TestData("swiss_round3.trf")});
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("BH"));
  // 1 and 3 share 2.0 points; 2 and 5 share 1.0; 4 and 6 have 0.
  const auto first = r.out.find("\n1 ");
  EXPECT_NE(first, std::string::npos) << r.out;
  EXPECT_THAT(r.out.substr(first), ::testing::ContainsRegex("Player [13] +2\\.0"));
}

TEST(Tournament, BadFilesAndFlagsAreRefused) {
  const CliResult missing = RunCli({"tournament", "pair-next", "/nonexistent.trf"});
  EXPECT_EQ(missing.exit_code, 3) << Describe(missing);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent.trf"));
  const CliResult malformed = RunCli({"tournament", "pair-next", "-"}, "001 x\n");
  EXPECT_EQ(malformed.exit_code, 3) << Describe(malformed);
  EXPECT_THAT(malformed.err, HasSubstr("line 1"));
  const CliResult no_rounds = RunCli({"tournament", "pair-next", "-"},
                                     "001    1      A                                 2000         "
                                     "                    0.0    1\n");
  EXPECT_EQ(no_rounds.exit_code, 3) << Describe(no_rounds);
  EXPECT_THAT(no_rounds.err, HasSubstr("XXR"));
  const CliResult tiebreak =
      RunCli({"tournament", "standings", "--tiebreaks", "XYZ", TestData("swiss_round3.trf")});
  EXPECT_EQ(tiebreak.exit_code, 2) << Describe(tiebreak);
  EXPECT_THAT(tiebreak.err, HasSubstr("--tiebreaks"));
  const CliResult sub = RunCli({"tournament", "explode"});
  EXPECT_EQ(sub.exit_code, 2) << Describe(sub);
}

// The service commands check their arguments before reading a token or calling, so these need
// no service: each is exit 2 naming what is wrong.
TEST(Tournament, ServiceCommandsRefuseBadArgumentsWithoutCalling) {
  const struct {
    std::vector<std::string> args;
    std::string names;
  } cases[] = {
      {{"tournament", "withdraw", "t1", "notanumber"}, "NUMBER"},
      {{"tournament", "withdraw", "t1"}, "NUMBER"},
      {{"tournament", "withdraw", "t1", "0"}, "NUMBER"},
      {{"tournament", "pairings", "t1", "third"}, "ROUND"},
      {{"tournament", "create", "--format", "swiss", "--rounds", "5"}, "--game"},
      {{"tournament", "create", "--game", "muggins"}, "--format"},
      {{"tournament", "create", "--game", "muggins", "--format", "ladder"}, "--format"},
      {{"tournament", "create", "--game", "muggins", "--format", "swiss"}, "--rounds"},
      {{"tournament", "create", "--game", "muggins", "--format", "knockout", "--rounds", "3"},
       "--rounds"},
      {{"tournament", "create", "--game", "muggins", "--format", "swiss", "--rounds", "x"},
       "--rounds"},
      {{"tournament", "create", "--game", "muggins", "--format", "swiss", "--rounds", "5",
        "--timeout-policy", "forfeit"},
       "--per-move"},
      {{"tournament", "register", "t1", "--player", "ann", "--bot", "random"}, "--bot"},
      {{"tournament", "register", "t1", "--bye-rounds", "2,x"}, "--bye-rounds"},
      {{"tournament", "register-team", "t1"}, "--players"},
      {{"tournament", "list", "--state", "paused"}, "--state"},
      {{"tournament", "standings", "t1", "--through", "last"}, "--through"},
      {{"tournament", "standings", "t1", "--tiebreaks", "BH"}, "--tiebreaks"},
      {{"tournament", "show"}, "tournament id"},
      {{"tournament", "start", "t1", "now"}, "now"},
  };
  for (const auto& c : cases) {
    const CliResult r = RunCli(c.args);
    EXPECT_EQ(r.exit_code, 2) << Describe(r);
    EXPECT_THAT(r.err, HasSubstr(c.names)) << Describe(r);
    EXPECT_THAT(r.err, HasSubstr("usage: boneyard tournament")) << Describe(r);
  }
}

}  // namespace
}  // namespace boneyard::testing
