// Regression cases for the Dutch system: simulated events cut before a round, each with the
// pairing that boneyard and an independent implementation of the same rules (bbpPairings 6,
// the 2026 Dutch rules) both produce (testdata/dutch/README.md). Any change to the pairing
// engine that changes one of these pairings is a change of behaviour to justify.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/trf.h"

namespace boneyard::tournament {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(DutchCorpusTest, EveryCasePairsAsTheIndependentImplementationDid) {
  const std::filesystem::path dir = BONEYARD_TOURNAMENT_TESTDATA "/dutch";
  int cases = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (file.path().extension() != ".trf") continue;
    ++cases;
    const std::string name = file.path().stem().string();
    absl::StatusOr<EventRecord> event = ParseTrf(ReadFile(file.path()));
    ASSERT_TRUE(event.ok()) << name << ": " << event.status();
    const int round = RoundsPlayed(*event) + 1;
    absl::StatusOr<std::vector<Board>> boards = PairDutchRound(*event, round);
    ASSERT_TRUE(boards.ok()) << name << ": " << boards.status();
    std::string got = absl::StrCat(boards->size(), "\n");
    for (const Board& b : *boards) absl::StrAppend(&got, b.white, " ", b.black, "\n");
    std::filesystem::path expected = file.path();
    expected.replace_extension(".pairs");
    EXPECT_EQ(got, ReadFile(expected)) << name << " round " << round;
  }
  EXPECT_GE(cases, 90);
}

}  // namespace
}  // namespace boneyard::tournament
