// Command-line mistakes: each exits 2 with "boneyard: <message naming the problem>" and a
// one-line usage hint on stderr, and prints nothing on stdout.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

void ExpectUsageError(const std::vector<std::string>& args, const std::string& names) {
  SCOPED_TRACE(::testing::PrintToString(args));
  const CliResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 2) << Describe(r);
  EXPECT_THAT(r.err, StartsWith("boneyard: ")) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr(names)) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr("usage: ")) << Describe(r);
  EXPECT_EQ(r.out, "") << Describe(r);
}

TEST(CommandLine, NoArgumentsPrintsUsageAndExits2) {
  const CliResult r = RunCli({});
  EXPECT_EQ(r.exit_code, 2) << Describe(r);
  EXPECT_THAT(r.err, HasSubstr("usage: boneyard <command>"));
  EXPECT_THAT(r.err, HasSubstr("simulate"));
}

TEST(CommandLine, HelpPrintsUsageAndExits0) {
  for (const char* help : {"help", "--help", "-h"}) {
    const CliResult r = RunCli({help});
    EXPECT_EQ(r.exit_code, 0) << Describe(r);
    EXPECT_THAT(r.out, HasSubstr("usage: boneyard <command>"));
    for (const char* command : {"games", "simulate", "replay", "play"}) {
      EXPECT_THAT(r.out, HasSubstr(command));
    }
    EXPECT_EQ(r.err, "");
  }
}

TEST(CommandLine, CommandHelpExits0) {
  const CliResult r = RunCli({"simulate", "--help"});
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("--matches"));
}

TEST(CommandLine, UnknownCommand) { ExpectUsageError({"frobnicate"}, "unknown command 'frobnicate'"); }

TEST(CommandLine, UnknownFlag) {
  ExpectUsageError({"games", "--bogus"}, "unknown flag '--bogus'");
  ExpectUsageError({"simulate", "--game", "castle_rock", "--speed=3"}, "unknown flag '--speed'");
  ExpectUsageError({"games", "-x"}, "unknown flag '-x'");
}

TEST(CommandLine, MissingValue) {
  ExpectUsageError({"simulate", "--game"}, "'--game' needs a value");
  ExpectUsageError({"simulate", "--game", "--json"}, "'--game' needs a value");
  // A value starting with '-' is read as a flag; the message says how to give it.
  ExpectUsageError({"simulate", "--game", "-x"},
                   "'--game' needs a value ('-x' reads as a flag; write --game=VALUE for a value "
                   "starting with '-')");
  ExpectUsageError({"simulate", "--game="}, "'--game' needs a value");
}

TEST(CommandLine, SwitchWithValueAndRepeatedFlag) {
  ExpectUsageError({"games", "--json=yes"}, "'--json' takes no value");
  ExpectUsageError({"simulate", "--game", "castle_rock", "--game", "muggins"},
                   "'--game' is given twice");
}

TEST(CommandLine, UnexpectedPositionalArgument) {
  ExpectUsageError({"games", "extra"}, "unexpected argument 'extra'");
}

TEST(CommandLine, RequiredFlags) {
  ExpectUsageError({"simulate", "--seats", "greedy", "--matches", "1"}, "--game is required");
  ExpectUsageError({"simulate", "--game", "castle_rock", "--matches", "1"}, "--seats is required");
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "greedy"},
                   "--matches is required");
}

TEST(CommandLine, BadMatches) {
  const std::vector<std::string> base = {"simulate", "--game", "castle_rock", "--seats", "greedy"};
  for (const char* bad : {"0", "-3", "many", "1.5"}) {
    std::vector<std::string> args = base;
    args.insert(args.end(), {"--matches", bad});
    ExpectUsageError(args, "--matches must be");
  }
}

TEST(CommandLine, BadSeedAndJobs) {
  const std::vector<std::string> base = {"simulate", "--game",    "castle_rock",
                                         "--seats",  "greedy",    "--matches", "1"};
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--seed", "-1"});
  ExpectUsageError(args, "--seed must be");
  args = base;
  args.insert(args.end(), {"--seed", "18446744073709551616"});  // 2^64
  ExpectUsageError(args, "--seed must be");
  args = base;
  args.insert(args.end(), {"--jobs", "0"});
  ExpectUsageError(args, "--jobs must be between 1 and 64");
}

TEST(CommandLine, UnknownGame) {
  ExpectUsageError({"simulate", "--game", "chess", "--seats", "greedy", "--matches", "1"},
                   "unknown game 'chess'");
  ExpectUsageError({"play", "--game", "chess", "--seats", "human"}, "unknown game 'chess'");
}

TEST(CommandLine, UnknownRuleOption) {
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "greedy", "--matches", "1",
                    "--rules", "colour=red"},
                   "unknown rule option 'colour'");
}

TEST(CommandLine, MalformedRules) {
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "greedy", "--matches", "1",
                    "--rules", "set"},
                   "not of the form name=value");
}

TEST(CommandLine, OutOfRangeRuleOption) {
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "greedy", "--matches", "1",
                    "--rules", "set=99"},
                   "rule option 'set' must be between 6 and 18");
}

TEST(CommandLine, UnknownPreset) {
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "greedy", "--matches", "1",
                    "--rules", "preset=double-99"},
                   "unknown preset 'double-99'");
}

TEST(CommandLine, WrongSeatCount) {
  ExpectUsageError(
      {"simulate", "--game", "castle_rock", "--seats", "greedy,random", "--matches", "1"},
      "--seats lists 2 seats; castle_rock is played by 1");
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "greedy,,random", "--matches",
                    "1"},
                   "empty entry");
}

TEST(CommandLine, UnknownBot) {
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "genius", "--matches", "1"},
                   "unknown bot 'genius'");
  ExpectUsageError({"simulate", "--game", "castle_rock", "--seats", "human", "--matches", "1"},
                   "unknown bot 'human'");
}

TEST(CommandLine, PlaySeats) {
  ExpectUsageError({"play", "--game", "castle_rock", "--seats", "greedy"}, "no 'human' seat");
  ExpectUsageError({"play", "--game", "castle_rock", "--seats", "human", "--seat", "1"},
                   "--seat must be between 0 and 0");
  ExpectUsageError({"play", "--game", "castle_rock", "--seats", "genius"}, "no 'human' seat");
  ExpectUsageError({"play", "--game", "castle_rock", "--seats", "human", "--rules", "set=5"},
                   "rule option 'set' must be between 6 and 18");
}

TEST(CommandLine, PlayOneHumanOnly) {
  ExpectUsageError({"play", "--game", "muggins", "--seats", "human,human"},
                   "seat 1 is also 'human': only one person can play for now");
  ExpectUsageError({"play", "--game", "muggins", "--seats", "human,greedy", "--seat", "1"},
                   "--seat 1 is 'greedy'");
  ExpectUsageError({"play", "--game", "muggins", "--seats", "human,genius"},
                   "unknown bot 'genius'");
  ExpectUsageError({"play", "--game", "muggins", "--seats", "human,greedy,random,greedy,random"},
                   "--seats lists 5 seats; muggins is played by 2 to 4");
}

TEST(CommandLine, ReplayNeedsAFile) {
  ExpectUsageError({"replay"}, "replay needs a record file");
  ExpectUsageError({"replay", "a.json", "b.json"}, "unexpected argument 'b.json'");
}

}  // namespace
}  // namespace boneyard::testing
