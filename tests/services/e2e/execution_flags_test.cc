// The execution service's flags: a bad value stops start-up with exit status 2 and a message
// that names the flag, before anything else happens (no database is reached).
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;

struct Outcome {
  int exit_status = -1;
  std::string output;
};

Outcome RunExecution(const std::string& flags) {
  // A token, so the common flags pass and the execution flags are what is checked.
  const std::string command = absl::StrCat(
      "BONEYARD_OPERATOR_TOKEN=flags-test-operator-token ", BONEYARD_EXECUTION_BINARY,
      " --database_url=postgresql://nobody@127.0.0.1:1/none --metrics_listen= ", flags, " 2>&1");
  Outcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) outcome.output.append(buffer, n);
  const int status = pclose(pipe);
  if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
  return outcome;
}

TEST(ExecutionFlagsTest, OutOfRangeValuesExitWithStatusTwoNamingTheFlag) {
  for (const auto& [flags, named] : std::vector<std::pair<std::string, std::string>>{
           {"--commit_interval=-1ms", "--commit_interval"},
           {"--commit_interval=2s", "--commit_interval"},
           {"--lease=100ms", "--lease"},
           {"--lease=1h", "--lease"},
           {"--adopt_interval=1ms", "--adopt_interval"},
           {"--play_queues=-1", "--play_queues"},
           {"--play_queues=65", "--play_queues"},
           {"--commit_writers=0", "--commit_writers"},
       }) {
    SCOPED_TRACE(flags);
    const Outcome outcome = RunExecution(flags);
    EXPECT_EQ(outcome.exit_status, 2) << outcome.output;
    EXPECT_THAT(outcome.output, HasSubstr(named));
  }
}

}  // namespace
}  // namespace boneyard::testing
